"""Validation of what callers pass in; every error names the field it is about."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Case", "FieldNames", "as_case", "check_questions", "check_source", "check_summary"]


@dataclass(frozen=True)
class FieldNames:
    """How the caller's framework names the fields, so errors use the caller's vocabulary
    (promptfoo's face passes ``FieldNames(source="vars.article", summary="output")``, say).

    Attributes:
        source: The name of the source field in errors.
        summary: The name of the summary field in errors.
        questions: The name of the assessment questions' field in errors.
    """

    source: str = "source"
    summary: str = "summary"
    questions: str = "assessment_questions"


DEFAULT_FIELDS = FieldNames()


def check_source(source: Any, fields: FieldNames = DEFAULT_FIELDS) -> str:
    """Return the source text; a list of contexts is joined with "\\n" as ragas does."""
    name = fields.source
    if source is None:
        raise TypeError(f"{name} is required: a string or a list of strings, got None")
    if isinstance(source, str):
        if not source.strip():
            raise ValueError(f"{name} cannot be empty or contain only whitespace")
        return source
    if isinstance(source, (bytes, bytearray)):
        raise TypeError(f"{name} must be text (str), got bytes; decode it first")
    if isinstance(source, Sequence) and not isinstance(source, Mapping):
        items = list(source)
        if not items:
            raise ValueError(f"{name} cannot be empty or contain only whitespace")
        for i, item in enumerate(items):
            if not isinstance(item, str):
                raise TypeError(f"{name}[{i}] must be a string, got {type(item).__name__}")
        if not any(item.strip() for item in items):
            raise ValueError(f"{name} cannot be empty or contain only whitespace")
        return "\n".join(items)
    raise TypeError(f"{name} must be a string or a list of strings, got {type(source).__name__}")


def check_summary(summary: Any, fields: FieldNames = DEFAULT_FIELDS) -> str:
    """Return the summary text: a string with more than whitespace (TypeError or ValueError
    naming ``fields.summary`` otherwise)."""
    name = fields.summary
    if summary is None:
        raise TypeError(f"{name} is required: a string, got None")
    if not isinstance(summary, str):
        raise TypeError(f"{name} must be a string, got {type(summary).__name__}")
    if not summary.strip():
        raise ValueError(f"{name} cannot be empty or whitespace only")
    return summary


def check_questions(questions: Any, fields: FieldNames = DEFAULT_FIELDS) -> tuple[str, ...] | None:
    """None or an empty list means "generate them"; otherwise a tuple of non-empty strings."""
    name = fields.questions
    if questions is None:
        return None
    if isinstance(questions, str) or not isinstance(questions, Sequence):
        raise TypeError(f"{name} must be a list of strings, got {type(questions).__name__}")
    items = list(questions)
    if not items:
        return None
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise TypeError(f"{name}[{i}] must be a string, got {type(item).__name__}")
        if not item.strip():
            raise ValueError(f"{name}[{i}] cannot be empty")
    return tuple(items)


@dataclass(frozen=True)
class Case:
    """One (source, summary) pair for ``score_many``; ``id`` is carried through to reports.

    Attributes:
        source: The text the summary summarises: a string, or several passages (contexts),
            joined with newlines.
        summary: The summary to score.
        assessment_questions: Closed (yes/no) questions about the source for the coverage
            component (deepeval and mastra presets); None: the judge generates them.
        id: The case's id, carried to its result (``SummaryResult.id``), results files and
            reports; None: its position in the batch.
    """

    source: str | Sequence[str]
    summary: str
    assessment_questions: Sequence[str] | None = None
    id: Any = None


_SOURCE_KEYS = ("source", "contexts", "reference_contexts", "input", "text", "document")
_SUMMARY_KEYS = ("summary", "response", "actual_output", "output")


def as_case(item: Any, index: int) -> Case:
    """Read a Case, a (source, summary) tuple, or a mapping with source/summary-like keys."""
    if isinstance(item, Case):
        return item
    if isinstance(item, Mapping):
        source_key = next((k for k in _SOURCE_KEYS if k in item), None)
        summary_key = next((k for k in _SUMMARY_KEYS if k in item), None)
        if source_key is None or summary_key is None:
            missing = "source" if source_key is None else "summary"
            raise ValueError(
                f"cases[{index}] has no {missing} field (keys: {', '.join(map(str, item)) or 'none'})"
            )
        return Case(
            source=item[source_key],
            summary=item[summary_key],
            assessment_questions=item.get("assessment_questions"),
            id=item.get("id", index),
        )
    if isinstance(item, tuple) and len(item) in (2, 3):
        return Case(*item, id=index)  # type: ignore[misc]
    raise TypeError(
        f"cases[{index}] must be a summscore.Case, a (source, summary) tuple or a mapping, "
        f"got {type(item).__name__}"
    )
