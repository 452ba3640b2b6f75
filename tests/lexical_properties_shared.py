"""What the property tests of the offline judge share (tests/test_lexical_properties.py,
tests/test_lexical_padding.py): the committed development pairs they draw from, the presets, the
hypothesis settings, and the scores, claims and answers they compare."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from summscore import SummarizationScorer, SummaryResult
from summscore.judges import LexicalJudge

DATA = Path(__file__).resolve().parents[1] / "benchmarks" / "data"
PRESETS = ("ragas", "deepeval", "mastra")
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@cache
def _seeds() -> tuple[tuple[str, str], ...]:
    """(source, summary) of every committed development pair, the longest sources cut to their
    first 4,000 characters (at a sentence end) so that an example takes a fraction of a second."""
    seeds = []
    for name in ("factual_consistency_sample.jsonl", "frank_sample.jsonl"):
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            source = row["source"]
            if len(source) > 4000:
                source = source[: source.rfind(". ", 0, 4000) + 1]
            seeds.append((source, row["summary"]))
    return tuple(seeds)


SEEDS = st.integers(min_value=0, max_value=len(_seeds()) - 1)


def _score(preset: str, source: str, summary: str) -> SummaryResult:
    return SummarizationScorer(llm=LexicalJudge(), preset=preset).score(source, summary)


def _claims(result: SummaryResult) -> list[tuple[str, str, float | None]]:
    return [(c.claim, c.verdict, c.support) for c in result.claims]


def _answers(result: SummaryResult) -> list[str]:
    if result.questions:
        return [q.answer for q in result.questions]
    return [a.summary_answer for a in result.assessment]


def _terminated(summary: str) -> str:
    """The summary ending with a full stop, so that what is added after it is a sentence."""
    summary = summary.strip()
    return summary if re.search(r"[.!?。！？]$", summary) else f"{summary}."
