"""The offline judge's reason says what its verdicts and scores say, and nothing they do not."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from lexical_reasons import disagreements, main


@pytest.mark.parametrize("preset", ["deepeval", "mastra"])
def test_a_partly_supported_summary_is_not_said_to_agree(preset: str) -> None:
    result = SummarizationScorer(llm=LexicalJudge(), preset=preset).score(
        "The ECB raised rates.", "ECB up."
    )
    assert result.score == pytest.approx(0.5)
    assert "agrees" not in (result.reason or "")
    assert "only part of the summary's wording" in (result.reason or "")
    assert disagreements(result) == []


@pytest.mark.parametrize("preset", ["deepeval", "mastra"])
def test_a_copied_summary_agrees_and_covers_its_key_points(preset: str) -> None:
    result = SummarizationScorer(llm=LexicalJudge(), preset=preset).score(
        "The ECB raised rates.", "The ECB raised rates."
    )
    assert result.score == 1.0
    assert result.reason == (
        "The score is 1.00 because the summary agrees with the source and covers its key points."
    )


def test_mastra_names_the_contradiction_and_counts_it_apart_from_the_unconfirmed() -> None:
    result = SummarizationScorer(llm=LexicalJudge(), preset="mastra").score(
        "Inflation rose to 5.5% in May. The central bank met in Porto.",
        "Inflation rose to 4.5% in May. The bank met in Lisbon to discuss crypto regulation.",
    )
    reason = result.reason or ""
    assert "1 claim(s) contradict the source (the source gives 5.5%" in reason, reason
    assert "1 claim(s) are not supported by the source" in reason, reason
    assert disagreements(result) == []


def test_deepeval_coverage_with_no_key_point_to_check_is_not_called_full() -> None:
    # The source answers none of its own questions: deepeval's coverage is 0, and no question
    # is "missed" (the source did not say yes to it).
    reason = LexicalJudge().run(
        "reason",
        {"score": 0.0, "alignment": 1.0, "coverage": 0.0, "contradictions": [], "questions": []},
    )["reason"]
    assert "covers its key points" not in reason and "coverage" in reason


def test_a_verdict_without_a_reason_is_counted_all_the_same() -> None:
    reason = LexicalJudge().run(
        "reason", {"score": 0.0, "contradictions": [None], "redundancies": ["", "x"]}
    )["reason"]
    assert reason.startswith("The score is 0.00 because 1 claim(s) contradict the source;")
    assert "2 claim(s) are not supported by the source (x)" in reason


def test_a_score_below_full_with_nothing_named_is_not_called_agreement() -> None:
    reason = LexicalJudge().run("reason", {"score": 0.8})["reason"]
    assert "agrees" not in reason and "covers" not in reason


def test_every_reason_on_the_development_samples_and_the_examples_agrees(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every pair of the committed development samples and of examples/news.jsonl, under the
    deepeval and mastra rules (the full sets: ``python benchmarks/lexical_reasons.py``)."""
    status = main(["--sample"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.strip().endswith(": 0 disagree"), out
