"""The ragas prompt set renders exactly what ragas's own ``to_string`` renders, from a cached frame."""

from __future__ import annotations

import copy

import pytest

pytest.importorskip("ragas")

from summscore.prompts.ragas_upstream import UpstreamRagasPrompts

TEXT = 'Apple reported revenue of $94.8 billion, "up 2%", in the March quarter.\nNew line.'
SUMMARY = "Apple's revenue rose 2% to $94.8 billion."
QUESTIONS = ["Did revenue rise?", "Was it $94.8 billion?"]


def _upstream_text(prompts: UpstreamRagasPrompts, task: str) -> tuple[str, str]:
    """(what summscore renders, what ragas's to_string renders) for one task."""
    if task == "keyphrases":
        rendered = prompts.keyphrases(TEXT)
        prompt = prompts.prompts[0]
    elif task == "questions":
        rendered = prompts.questions(TEXT, ["revenue", "$94.8 billion"])
        prompt = prompts.prompts[1]
    else:
        rendered = prompts.answers(SUMMARY, QUESTIONS)
        prompt = prompts.prompts[2]
    data = _last_input(prompts, task)
    return rendered.text, prompt.to_string(data)


def _last_input(prompts: UpstreamRagasPrompts, task: str) -> object:
    m = prompts._module
    if prompts.legacy:
        from ragas.prompt import StringIO

        prompt = prompts.prompts[{"keyphrases": 0, "questions": 1, "answers": 2}[task]]
        data: object = {
            "keyphrases": StringIO(text=TEXT),
            "questions": m.GenerateQuestionsPromptInput(
                text=TEXT, keyphrases=["revenue", "$94.8 billion"]
            ),
            "answers": m.SummaryAndQuestions(summary=SUMMARY, questions=QUESTIONS),
        }[task]
        process = getattr(prompt, "process_input", None)
        return process(data) if process is not None else data
    return {
        "keyphrases": m.ExtractedKeyphrasesInput(text=TEXT),
        "questions": m.GenerateQuestionsInput(text=TEXT, keyphrases=["revenue", "$94.8 billion"]),
        "answers": m.GenerateAnswersInput(summary=SUMMARY, questions=QUESTIONS),
    }[task]


@pytest.mark.parametrize("legacy", [False, True])
@pytest.mark.parametrize("task", ["keyphrases", "questions", "answers"])
def test_rendering_is_byte_for_byte_ragas_to_string(legacy: bool, task: str) -> None:
    prompts = UpstreamRagasPrompts(legacy=legacy)
    for _ in range(2):  # the first rendering builds the frame, the second uses it
        ours, theirs = _upstream_text(prompts, task)
        assert ours == theirs


@pytest.mark.parametrize("legacy", [False, True])
def test_an_instruction_changed_in_place_is_rendered_and_makes_the_set_custom(
    legacy: bool,
) -> None:
    prompts = UpstreamRagasPrompts(legacy=legacy)
    assert prompts.answers(SUMMARY, QUESTIONS).text
    assert not prompts.customised
    prompts.prompts[2].instruction = "Answer in French."
    ours, theirs = _upstream_text(prompts, "answers")
    assert ours == theirs and ours.startswith("Answer in French.")
    assert prompts.customised


@pytest.mark.parametrize("legacy", [False, True])
def test_replaced_examples_are_rendered(legacy: bool) -> None:
    prompts = UpstreamRagasPrompts(legacy=legacy)
    before = prompts.keyphrases(TEXT).text
    prompt = prompts.prompts[0]
    prompt.examples = [copy.deepcopy(prompt.examples[0])] * 2
    ours, theirs = _upstream_text(prompts, "keyphrases")
    assert ours == theirs and ours != before


def test_a_prompt_class_with_its_own_to_string_renders_with_it_every_time() -> None:
    prompts = UpstreamRagasPrompts(legacy=False)
    base = type(prompts.prompts[2])
    seen: list[object] = []

    class Shouting(base):  # type: ignore[misc, valid-type]
        def to_string(self, data: object) -> str:
            seen.append(data)
            return "ANSWER: " + str(getattr(data, "summary", "")).upper()

    prompts.generate_answers_prompt = Shouting()  # type: ignore[attr-defined]
    assert prompts.answers(SUMMARY, QUESTIONS).text == "ANSWER: " + SUMMARY.upper()
    assert prompts.answers("other", QUESTIONS).text == "ANSWER: OTHER"
    assert len(seen) == 2
