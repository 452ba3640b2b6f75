"""Scoring one row of an evaluation platform: its source and summary read out of row fields, bad
input and judge failures turned into a failed result rather than an exception, so that each face
only maps a ``SummaryResult`` onto its framework's score type.

Shared by the LangSmith, promptfoo, Braintrust, Phoenix and TruLens faces (and the service's
promptfoo route). No scoring rule here: the scorer decides the number.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..results import SummaryResult
from ..scorer import SummarizationScorer
from .platforms import SOURCE_KEYS, SUMMARY_KEYS, pick_text

__all__ = ["explanation", "score_fields", "unit_scale"]


async def score_fields(
    scorer: SummarizationScorer,
    source: Any,
    summary: Any,
    *,
    source_field: str = "source",
    summary_field: str = "summary",
    source_keys: Sequence[str] = SOURCE_KEYS,
    summary_keys: Sequence[str] = SUMMARY_KEYS,
) -> SummaryResult:
    """Score the texts in ``source`` and ``summary`` (strings, lists of strings, or mappings read
    with ``pick_text``). Never raises for the row: bad input (the error names the field) and
    judge failures come back as a failed result (NaN score, ``error`` set)."""
    try:
        text = pick_text(source, source_keys, source_field)
        written = pick_text(summary, summary_keys, summary_field)
        if not isinstance(written, str):
            written = "\n".join(written)
        return await scorer.ascore_named(
            text, written, source_name=source_field, summary_name=summary_field
        )
    except Exception as exc:
        return scorer.failed_result(exc)


def explanation(result: SummaryResult) -> str:
    """What a framework shows beside the number: the reason, or why there is no number."""
    if not result.ok:
        return result.error or "no score"
    return result.reason or ""


def unit_scale(owner: str, scorer: SummarizationScorer) -> SummarizationScorer:
    """``scorer``, checked to score within 0..1 (a framework whose scores must lie there)."""
    scale = scorer.options.get("scale", 1)
    if scale != 1:
        raise ValueError(
            f"{owner}: scores lie in 0..1 here, but the scorer uses scale={scale!r}; "
            "build it with scale=1"
        )
    return scorer
