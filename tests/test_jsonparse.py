"""Reading judge replies however they are wrapped."""

from __future__ import annotations

import pytest

from summscore.calls.reply_json import coerce_reply, extract_json
from summscore.errors import JudgeOutputError
from summscore.prompts.replies import AnswersReply, VerdictsReply


@pytest.mark.parametrize(
    "text",
    [
        '{"answers": ["1", "0"]}',
        '```json\n{"answers": ["1", "0"]}\n```',
        'Sure! Here is the JSON:\n```\n{"answers": ["1", "0"]}\n```\nHope this helps.',
        'The answers are {"answers": ["1", "0"]} as requested.',
        '{"answers": ["1", "0",],}',
        "{'answers': ['1', '0']}",
        '<think>the summary mentions {braces}</think>{"answers": ["1", "0"]}',
        '\ufeff  {"answers": ["1", "0"]}  ',
    ],
)
def test_json_is_found_in_fences_prose_and_near_misses(text: str) -> None:
    assert extract_json(text) == {"answers": ["1", "0"]}


def test_braces_inside_strings_do_not_confuse_the_scanner() -> None:
    text = 'Note: {"reason": "the text says } and { twice", "x": [1]} done'
    assert extract_json(text) == {"reason": "the text says } and { twice", "x": [1]}


def test_a_truncated_reply_is_read_only_when_allowed() -> None:
    cut = '{"answers": ["1", "0", "1"'
    with pytest.raises(JudgeOutputError):
        extract_json(cut)
    assert extract_json(cut, allow_truncated=True) == {"answers": ["1", "0", "1"]}


@pytest.mark.parametrize("text", ["", "   ", "no json here", "I cannot help with that."])
def test_no_json_raises_an_output_error_quoting_the_start(text: str) -> None:
    with pytest.raises(JudgeOutputError):
        extract_json(text)


def test_bare_list_fits_a_single_field_model() -> None:
    assert coerce_reply('["1", "0"]', AnswersReply).answers == ["1", "0"]


def test_keys_match_case_insensitively_and_one_level_of_nesting() -> None:
    assert coerce_reply({"Answers": ["1"]}, AnswersReply).answers == ["1"]
    assert coerce_reply({"result": {"answers": ["0"]}}, AnswersReply).answers == ["0"]
    assert coerce_reply({"output": ["1"]}, AnswersReply).answers == ["1"]


def test_numbers_and_booleans_become_answer_strings() -> None:
    assert coerce_reply({"answers": [1, 0, True, 1.0]}, AnswersReply).answers == [
        "1",
        "0",
        "1",
        "1",
    ]


def test_verdict_items_may_be_bare_strings() -> None:
    reply = coerce_reply({"verdicts": ["yes", {"verdict": "no", "reason": "r"}]}, VerdictsReply)
    assert [v.verdict for v in reply.verdicts] == ["yes", "no"]
    assert reply.verdicts[1].reason == "r"


def test_a_reply_of_the_wrong_shape_names_the_expected_keys() -> None:
    with pytest.raises(JudgeOutputError, match='"answers"'):
        coerce_reply({"questions": ["a"], "other": 1}, AnswersReply)


def test_model_instances_are_accepted() -> None:
    assert coerce_reply(AnswersReply(answers=["1"]), AnswersReply).answers == ["1"]
