"""What the faces of evaluation platforms (MLflow, Inspect AI, Opik) share: building the scorer
from ``llm=`` or ``scorer=``, reading a text out of a row field, and the metadata of a result.

These faces hold no scoring rule: the scorer decides the number, these helpers only translate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..results import SummaryResult
from ..scorer import SummarizationScorer
from .options import check_scorer

__all__ = ["SOURCE_KEYS", "SUMMARY_KEYS", "face_scorer", "pick_text", "result_metadata"]

SOURCE_KEYS = ("source", "document", "text", "context", "contexts", "reference_contexts", "input")
SUMMARY_KEYS = ("summary", "response", "output", "outputs", "actual_output", "text")


def face_scorer(
    owner: str, llm: Any, scorer: SummarizationScorer | None, preset: str, options: dict[str, Any]
) -> SummarizationScorer:
    """``scorer=`` as given (shared with other faces), or a scorer built from ``llm=``."""
    if scorer is not None:
        if options:
            raise ValueError(
                f"{owner}: {', '.join(sorted(options))} cannot be set beside scorer=; "
                "build the scorer with them"
            )
        return check_scorer(owner, scorer, llm=("llm", llm))
    if llm is None:
        raise TypeError(
            f"{owner} needs llm= (any judge summscore accepts, e.g. "
            "summscore.judges.LexicalJudge() offline) or scorer="
        )
    return SummarizationScorer(llm=llm, preset=preset, **options)


def pick_text(value: Any, keys: Sequence[str], field: str) -> str | list[str]:
    """A text (or list of texts) from a row field: the value itself, or the first of ``keys``
    in a mapping. Raises ValueError naming ``field`` and the keys it has."""
    if isinstance(value, str):
        return value
    if isinstance(value, Sequence) and value and all(isinstance(v, str) for v in value):
        return list(value)
    if isinstance(value, Mapping):
        for key in keys:
            if key in value:
                return pick_text(value[key], keys, f"{field}[{key!r}]")
        if len(value) == 1:
            (only,) = value.values()
            return pick_text(only, keys, field)
        raise ValueError(
            f"{field}: no text under any of {', '.join(keys)} (keys: {', '.join(map(str, value))})"
        )
    if value is None:
        raise ValueError(f"{field} is missing")
    raise TypeError(
        f"{field} must be a string, a list of strings or a mapping, got {type(value).__name__}"
    )


def result_metadata(result: SummaryResult) -> dict[str, Any]:
    """Components, missed questions, unsupported claims and provenance, JSON-ready."""
    return {
        "preset": result.preset,
        "judge": result.judge,
        "prompt_set": result.prompt_set,
        **{name: value for name, value in result.components().items()},
        "missed_questions": result.missed_questions,
        "unsupported_claims": [c.claim for c in result.unsupported_claims],
        "warnings": list(result.warnings),
        "judge_calls": result.usage.judge_calls,
        "cost": result.usage.cost,
    }
