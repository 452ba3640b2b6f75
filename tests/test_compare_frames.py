"""``summscore.compare`` on the DataFrames a notebook has: ``SummaryResults.to_pandas()`` of two
batches. Runs scored under different rules are refused there too, as they are from files."""

from __future__ import annotations

import pytest

from summscore import Case, SummarizationScorer
from summscore.comparison import ComparisonRefused, compare
from summscore.judges import LexicalJudge

SOURCE = "The Alder library reopened on Monday after 34 days of repairs. It cost 220,000 pounds."
SUMMARIES = [
    "The Alder library reopened after 34 days of repairs.",
    "The Alder library reopened on Monday; the repairs cost 220,000 pounds.",
    "The Alder library closed for 40 days after a fire.",
]


def _frame(**options: object) -> object:
    scorer = SummarizationScorer(llm=LexicalJudge(), **options)  # type: ignore[arg-type]
    cases = [Case(SOURCE, s, id=f"c{i}") for i, s in enumerate(SUMMARIES * 4)]
    return scorer.score_many(cases, progress=False).to_pandas()


@pytest.mark.parametrize(
    ("other", "said"),
    [
        ({"preset": "ragas"}, "preset: deepeval (base) vs ragas (candidate)"),
        ({"preset": "deepeval", "threshold": 0.7}, "threshold: 0.5 (base) vs 0.7 (candidate)"),
    ],
)
def test_frames_of_runs_scored_differently_are_refused(other: dict[str, object], said: str) -> None:
    pytest.importorskip("pandas")
    base = _frame(preset="deepeval")
    with pytest.raises(ComparisonRefused, match="scored differently") as caught:
        compare(base, _frame(**other))
    assert said in str(caught.value)
    assert compare(base, _frame(preset="deepeval")).matched == 12  # the same rule: compared
