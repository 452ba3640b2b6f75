"""The scorer's shortcuts around the judge give what the general path gives, and still mask.

Each shortcut skips work only where it cannot change anything: a reply whose strings hold nothing
to mask is returned as it came (the general walk returns it too), usage is added without one
pydantic assignment per field, and a list of strings is not copied item by item before pydantic
validates it.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from summscore import SummarizationScorer
from summscore.calls.caller import CallLog, CallPolicy, JudgeCaller
from summscore.calls.policy import reply_usage
from summscore.calls.reply_json import _field_names, _fit_shape
from summscore.judges import LexicalJudge
from summscore.judges.base import JudgeReply, JudgeRequest
from summscore.masking.replies import _redact_reply, redact_value
from summscore.masking.secrets import WINDOW, register_secret
from summscore.prompts.base import Rendered
from summscore.prompts.replies import (
    AnswersReply,
    ClaimsReply,
    VerdictsReply,
    _coerce_items,
    _strings,
)
from summscore.results import Usage

_SECRETS = frozenset({"gw-Zq81xKpL0aa9Ttv3", "short-s3cr", "nul\x00in-the-secret-42"})
# Pieces that build keys, secrets and parts of them, and that put the NUL the reply's strings are
# joined by inside the strings themselves (and next to a key), so that the whole-reply search is
# tried where a match could straddle two strings.
_PIECES = st.sampled_from(
    [
        "sk-",
        "s",
        "k-",
        "ABCdef123456789",
        "-",
        "\x00",
        " ",
        "ok",
        "é漢",
        "gw-Zq81x",
        "KpL0aa9Ttv3",
        "short-s3cr",
        "nul",
        "\x00in-the-secret-42",
    ]
)
_TEXT = st.lists(_PIECES, max_size=6).map("".join)
_REPLY = st.recursive(
    _TEXT | st.integers() | st.floats(allow_nan=False) | st.booleans() | st.none(),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.tuples(inner, inner)
        | st.dictionaries(_TEXT, inner, max_size=4)
    ),
    max_leaves=16,
)


class _Verdict(BaseModel):
    verdict: str
    reason: str | None = None


def _same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (a tuple stays a tuple)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


@settings(max_examples=400, deadline=None)
@given(_REPLY, st.sampled_from([frozenset(), _SECRETS]))
def test_a_reply_is_masked_as_the_general_walk_masks_it(reply: Any, known: frozenset[str]) -> None:
    with mock.patch("summscore.masking.secrets._known_secrets", return_value=known):
        fast = redact_value(reply)
    general = _redact_reply(reply, known)
    assert _same(fast, general)
    if general is reply:
        assert fast is reply


def test_keys_and_secrets_are_masked_wherever_they_sit_in_a_reply() -> None:
    known = _SECRETS
    reply = {
        "claims": ["fine", "the key sk-ABCdef1234567890 leaked", "gw-Zq81xKpL0aa9Ttv3"],
        "sk-ABCdef1234567890": ("nested", ["short-s3cr"]),
        "verdicts": [{"verdict": "yes", "reason": "x-sk-ABCdef1234567890", "support": 0.5}],
    }
    with mock.patch("summscore.masking.secrets._known_secrets", return_value=known):
        fast = redact_value(reply)
        model = redact_value(_Verdict(verdict="yes", reason="sk-ABCdef1234567890"))
        clean_model = _Verdict(verdict="yes", reason="because")
        assert redact_value(clean_model) is clean_model
    assert fast == {
        "claims": ["fine", "the key *** leaked", "***"],
        "***": ("nested", ["***"]),
        "verdicts": [{"verdict": "yes", "reason": "x-***", "support": 0.5}],
    }
    assert model == {"verdict": "yes", "reason": "***"}
    # Lists that open with strings and hold something else further on are walked item by item.
    mixed = ["ok", {"k": "sk-ABCdef1234567890"}, ("sk-ABCdef1234567890",)]
    assert redact_value(mixed) == ["ok", {"k": "***"}, ("***",)]
    assert redact_value(["ok", 3, None, "sk-ABCdef1234567890"]) == ["ok", 3, None, "***"]
    # A key split over two strings is two harmless strings: neither is masked.
    split = ["sk-ABC", "def1234567890"]
    assert redact_value(split) is split


def test_the_environment_is_read_again_whenever_it_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    value = "gone-token-value-0123456789"
    assert redact_value([f"x {value}"]) == [f"x {value}"]
    monkeypatch.setenv("SHORT_LIVED_TOKEN", value)
    assert redact_value([f"x {value}"]) == ["x ***"]
    monkeypatch.delenv("SHORT_LIVED_TOKEN")
    assert redact_value([f"x {value}"]) == [f"x {value}"]
    monkeypatch.setenv("SHORT_LIVED_TOKEN", value)
    assert redact_value({"a": [f"x {value}", 1]}) == {"a": ["x ***", 1]}


class _EchoJudge:
    """A judge answering with a reply object of its own (and the request's text in it)."""

    name = "echo"
    reads_prompts = False
    in_process = True

    def __init__(self) -> None:
        self.sent: list[JudgeReply] = []

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        reply = JudgeReply(output={"claims": [request.inputs["text"]]})
        self.sent.append(reply)
        return reply


def _ask_claims(judge: _EchoJudge, text: str) -> list[str]:
    caller = JudgeCaller(judge, CallPolicy())
    rendered = Rendered("", ClaimsReply)
    return asyncio.run(
        caller.ask(
            CallLog(), "claims", rendered, ClaimsReply, inputs={"text": text}, field_name="claims"
        )
    )


def test_a_clean_reply_is_used_as_it_came_and_a_key_in_one_is_masked_first() -> None:
    judge = _EchoJudge()
    assert _ask_claims(judge, "plain text") == ["plain text"]
    assert _ask_claims(judge, "key sk-ABCdef1234567890 here") == ["key *** here"]
    # The judge's own reply object is never changed, only the copy the scorer reads.
    assert judge.sent[1].output == {"claims": ["key sk-ABCdef1234567890 here"]}


def test_the_offline_judges_replies_are_masked_in_results() -> None:
    secret = "Zq81xKpL0aa9Ttv3Wm5" + secrets.token_hex(8)
    register_secret(secret)
    key = "sk-ABCdef1234567890XYZ"
    source = (
        f"The deployment token {secret} and the key {key} were rotated by Acme Corp in March "
        "2021. Acme Corp reported revenue of 5 million dollars."
    )
    summary = f"Acme Corp rotated the token {secret} and the key {key} in March 2021."
    for preset in ("deepeval", "mastra", "ragas"):
        result = SummarizationScorer(llm=LexicalJudge(), preset=preset).score(source, summary)
        dumped = result.model_dump_json()
        assert "***" in dumped, preset
        assert key not in dumped, preset
        assert not any(secret[i : i + WINDOW] in dumped for i in range(len(secret) - WINDOW + 1))


def _old_add(mine: Usage, other: Usage) -> None:
    """Usage.add as it was: one pydantic assignment per field."""
    from summscore.results.usage import _plus, _plus_cost

    mine.judge_calls += other.judge_calls
    mine.retries += other.retries
    mine.reused_calls += other.reused_calls
    mine.cached_calls += other.cached_calls
    mine.input_tokens = _plus(mine.input_tokens, other.input_tokens)
    mine.output_tokens = _plus(mine.output_tokens, other.output_tokens)
    mine.cost = _plus_cost(mine.cost, other.cost)


_USAGES = st.builds(
    Usage,
    judge_calls=st.integers(0, 9),
    retries=st.integers(0, 3),
    input_tokens=st.none() | st.integers(0, 10**6),
    output_tokens=st.none() | st.integers(0, 10**6),
    cost=st.none() | st.floats(0, 5, allow_nan=False),
    reused_calls=st.integers(0, 9),
    cached_calls=st.integers(0, 9),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_USAGES, max_size=5), st.booleans())
def test_usage_adds_as_field_by_field_assignment_did(parts: list[Usage], fresh: bool) -> None:
    fast = Usage() if fresh else Usage(judge_calls=2)
    general = fast.model_copy()
    for part in parts:
        fast.add(part)
        _old_add(general, part)
    assert fast.__dict__ == general.__dict__
    assert list(fast.__dict__) == list(general.__dict__)
    assert fast.model_fields_set == general.model_fields_set
    assert fast.model_dump_json(exclude_unset=True) == general.model_dump_json(exclude_unset=True)
    assert fast.model_dump_json() == general.model_dump_json()


class _Text(str):
    pass


@pytest.mark.parametrize(
    "answers",
    [
        ["yes", "no"],
        [],
        "yes",
        [_Text("yes"), "no"],
        [1, 0, True, False, 2.5, "no"],
        [{"answer": "yes"}, "no"],
        ["yes", None],
        ["yes", b"no"],
        ("yes", "no"),
        None,
        7,
    ],
)
def test_string_lists_are_coerced_as_item_by_item_coercion_does(answers: Any) -> None:
    fast = _strings(answers)
    if isinstance(answers, (str, int, float)):
        answers = [answers]
    general = _coerce_items(answers) if isinstance(answers, list) else answers or []
    assert type(fast) is type(general)
    assert fast == general
    if isinstance(general, list):
        assert [type(item) for item in fast] == [type(item) for item in general]


def test_a_reply_without_tokens_counts_one_call_and_one_with_tokens_counts_them() -> None:
    caller = JudgeCaller(_EchoJudge(), CallPolicy())
    log = CallLog()
    caller._count(log, JudgeReply(output={}))
    caller._count(log, JudgeReply(output={}, input_tokens=10, output_tokens=3, cost=0.25))
    caller._count(log, JudgeReply(output={}))
    assert log.usage == Usage(judge_calls=3, input_tokens=10, output_tokens=3, cost=0.25)
    assert caller.total == log.usage
    # The object every token-less call adds is only ever read.
    assert reply_usage(JudgeReply(output={})) == Usage(judge_calls=1)
    SummarizationScorer(llm=LexicalJudge(), preset="mastra").score("A cat sat.", "A cat sat.")
    assert reply_usage(JudgeReply(output={})).__dict__ == Usage(judge_calls=1).__dict__


def test_reply_fields_are_read_once_per_model_and_are_the_models_fields() -> None:
    for model in (ClaimsReply, AnswersReply, VerdictsReply, _Verdict):
        assert _field_names(model) == tuple(model.model_fields)
    assert _fit_shape(["a"], ClaimsReply) == {"claims": ["a"]}
    assert _fit_shape({"Claims": ["a"]}, ClaimsReply) == {"Claims": ["a"], "claims": ["a"]}
