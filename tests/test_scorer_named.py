"""SummarizationScorer.ascore_named: ascore's numbers, with input errors in the caller's names
(what the ragas, deepeval and mastra faces call)."""

from __future__ import annotations

import asyncio

import pytest

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge

from .fakes import FITNESS_SOURCE, FITNESS_SUMMARY

NAMES = {"source_name": "reference_contexts", "summary_name": "response"}


@pytest.mark.parametrize("preset", ["ragas", "deepeval", "mastra"])
def test_ascore_named_gives_ascores_result(preset: str) -> None:
    questions = ["Is the app about fitness?"] if preset == "deepeval" else None

    async def both() -> tuple:  # one scorer each: the second would reuse the source's work
        scorers = [SummarizationScorer(llm=LexicalJudge(), preset=preset) for _ in range(2)]
        plain = await scorers[0].ascore([FITNESS_SOURCE], FITNESS_SUMMARY, questions)
        named = await scorers[1].ascore_named([FITNESS_SOURCE], FITNESS_SUMMARY, questions, **NAMES)
        return plain, named

    plain, named = asyncio.run(both())
    assert named.to_dict() == plain.to_dict()


@pytest.mark.parametrize(
    ("source", "summary", "questions", "error", "message"),
    [
        ("", "A summary.", None, ValueError, "reference_contexts cannot be empty"),
        (["ok", 3], "A summary.", None, TypeError, r"reference_contexts\[1\] must be a string"),
        ("A source.", None, None, TypeError, "response is required"),
        ("A source.", "  ", None, ValueError, "response cannot be empty"),
        ("A source.", "A summary.", "Is it?", TypeError, "checks"),
    ],
)
def test_ascore_named_errors_name_the_callers_fields(
    source: object, summary: object, questions: object, error: type, message: str
) -> None:
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="deepeval")
    call = scorer.ascore_named(source, summary, questions, **NAMES, questions_name="checks")  # type: ignore[arg-type]
    with pytest.raises(error, match=message):
        asyncio.run(call)
