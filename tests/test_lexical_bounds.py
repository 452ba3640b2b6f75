"""The offline judge is bounded: a text past its cap is a clear row error, and under the cap its
work grows linearly with the texts, counted (not timed) on adversarial families of text."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from summscore import SummarizationScorer
from summscore.calls.pool import ProcessPoolJudge
from summscore.judges import LexicalJudge
from summscore.judges.lexical import MAX_TEXT_CHARS, _doc, _index

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from lexical_adversarial import FAMILIES, SHAPES, texts

# ------------------------------------------------------------------------------------- the cap


def test_a_source_past_the_cap_is_a_row_error_naming_the_limit_and_its_size() -> None:
    scorer = SummarizationScorer(llm=LexicalJudge(max_text_chars=1000), preset="deepeval")
    short, long = "The ECB raised rates. " * 10, "The ECB raised rates. " * 50
    results = scorer.score_many([(long, "The ECB raised rates."), (short, "ECB up.")])
    assert results[0].error is not None
    assert "source is 1,100 characters" in results[0].error
    assert "more than the offline judge reads in one text (1,000)" in results[0].error
    assert results[1].ok  # the next row is scored


@pytest.mark.parametrize("preset", ["ragas", "deepeval", "mastra"])
def test_a_summary_past_the_cap_is_an_error_naming_the_field(preset: str) -> None:
    scorer = SummarizationScorer(llm=LexicalJudge(max_text_chars=100), preset=preset)
    with pytest.raises(ValueError, match=r"^summary is 132 characters, more than the offline"):
        scorer.score("The ECB raised rates.", "The ECB raised rates. " * 6)


def test_the_judge_refuses_a_request_past_its_cap_whoever_asks() -> None:
    judge = LexicalJudge(max_text_chars=100)
    with pytest.raises(ValueError, match=r"the text of a judge request is 101 characters"):
        judge.run("truths", {"text": "x" * 101})
    assert judge.run("truths", {"text": "The ECB raised rates."})["truths"] == [
        "The ECB raised rates."
    ]
    assert repr(judge) == "LexicalJudge(max_text_chars=100)" and repr(LexicalJudge()) == (
        "LexicalJudge()"
    )


def test_a_pooled_judge_checks_the_cap_before_any_worker_starts() -> None:
    judge = ProcessPoolJudge(LexicalJudge, workers=1)
    scorer = SummarizationScorer(llm=judge, preset="mastra")
    (result,) = scorer.score_many([("x" * (MAX_TEXT_CHARS + 1), "A summary.")])
    assert result.error and f"source is {MAX_TEXT_CHARS + 1:,} characters" in result.error
    assert judge._pools == []  # refused in the parent: no process was started


# ---------------------------------------------------------------------------- linear work

_PACKAGE = str(Path(LexicalJudge.__module__.replace(".", "/")).parent)


class _LineCounter:
    """Counts the lines of the offline judge's code that run: its work, which a busy host does
    not change as it changes a clock. (What C code does inside one line, a regular expression's
    search, is not counted: the benchmark times that.) The case is scored in this thread (the
    judge answers in the event loop's own thread), so that only this run is counted."""

    def __init__(self) -> None:
        self.lines = 0

    def _local(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            self.lines += 1
        return self._local

    def _global(self, frame: FrameType, event: str, arg: Any) -> Any:
        return self._local if _PACKAGE in frame.f_code.co_filename else None

    def run(self, source: str, summary: str) -> int:
        scorer = SummarizationScorer(llm=LexicalJudge(), preset="deepeval", max_concurrency=1)
        self.lines = 0
        sys.settrace(self._global)
        try:
            result = asyncio.run(scorer.ascore(source, summary))
        finally:
            sys.settrace(None)
        assert result.ok, result.error
        return self.lines


# Lines of the judge's code per character of input, at most, and the lines any pair costs
# (the questions, the reason, the fixed source of the "summary grows" shape): measured on these
# families, with room. A check that compares every statement with every passage, or every
# anchor with every anchor, costs thousands of lines per character at these sizes.
_PER_CHARACTER = 60
_FIXED = 150_000
_SMALL_LIMIT = 16


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_the_judges_work_grows_linearly_with_the_texts(
    family: str, shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A statement is compared with at most POSTING_LIMIT candidate passages (see _index): work
    # is linear past that many passages, and grows with their number below it. A small limit
    # brings texts of a few kB past it, so that these sizes show how the work grows at the cap.
    for module in (_index, _doc):
        monkeypatch.setattr(module, "POSTING_LIMIT", _SMALL_LIMIT)
    counter = _LineCounter()
    small, large = 2048, 8192
    work = {size: counter.run(*texts(family, shape, size)) for size in (small, large)}
    for size, lines in work.items():
        source, summary = texts(family, shape, size)
        assert lines <= _FIXED + _PER_CHARACTER * (len(source) + len(summary)), (size, lines)
    # Four times the text: at most four times the work above what any pair costs.
    assert work[large] <= 4.4 * work[small] + _FIXED, work
