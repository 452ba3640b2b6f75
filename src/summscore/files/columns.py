"""Which columns of a file hold the source, the summary, the id and the questions: the defaults
(the frameworks' own export names), and names matched without regard to letter case, surrounding
spaces or ``_``/``-``/space (``Reference Contexts`` is ``reference_contexts``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .raw import InputError

__all__ = [
    "ID_COLUMNS",
    "QUESTION_COLUMNS",
    "SOURCE_COLUMNS",
    "SUMMARY_COLUMNS",
    "Columns",
    "column_key",
    "in_row",
    "resolve_columns",
]

# ragas exports: reference_contexts (the source of its SummaryScore), retrieved_contexts,
# user_input, response; deepeval exports: input (the original text), actual_output.
SOURCE_COLUMNS = (
    "source",
    "contexts",
    "reference_contexts",
    "retrieved_contexts",
    "input",
    "text",
    "document",
    "user_input",
)
SUMMARY_COLUMNS = ("summary", "response", "actual_output", "output")
ID_COLUMNS = ("id",)
QUESTION_COLUMNS = ("assessment_questions",)


@dataclass(frozen=True)
class Columns:
    """Which columns hold what. None means: the first of the defaults present in the file."""

    source: str | None = None
    summary: str | None = None
    id: str | None = None
    questions: str | None = None


_SEPARATORS = re.compile(r"[\s_\-]+")


def column_key(name: str) -> str:
    """A column name as matched: letter case, surrounding spaces and the separators ``_``, ``-``
    and space do not count ("Reference Contexts" is ``reference_contexts``, "ID" is ``id``)."""
    return _SEPARATORS.sub("_", name.strip()).strip("_").casefold()


def resolve_columns(path: Path, columns: Columns, names: Sequence[str]) -> Columns:
    present = set(names)
    by_key: dict[str, list[str]] = {}
    for name in dict.fromkeys(names):
        by_key.setdefault(column_key(name), []).append(name)
    listed = ", ".join(names) if names else "none"

    def matching(wanted: str, option: str, chosen: bool) -> str | None:
        """The file's column for ``wanted``: the one that matches it loosely (a name the user
        chose: itself first)."""
        if chosen and wanted in present:
            return wanted
        found = by_key.get(column_key(wanted), [])
        if len(found) > 1:
            both = " and ".join(repr(n) for n in found)
            raise InputError(
                f"{path}: columns {both} could both be {wanted!r}; rename one, or name the one "
                f"to read exactly with {option}"
            )
        return found[0] if found else None

    def pick(chosen: str | None, defaults: Sequence[str], what: str, option: str) -> str | None:
        if chosen is not None:
            found = matching(chosen, option, chosen=True)
            if found is None:
                raise InputError(
                    f"{path}: no column {chosen!r} ({option}); the file's columns are: {listed}"
                )
            return found
        for name in defaults:
            found = matching(name, option, chosen=False)
            if found is not None:
                return found
        if what:
            raise InputError(
                f"{path}: no {what} column (looked for {', '.join(defaults)}, in any letter "
                f"case); the file's columns are: {listed}; name it with {option}"
            )
        return None

    return Columns(
        source=pick(columns.source, SOURCE_COLUMNS, "source", "--source-column"),
        summary=pick(columns.summary, SUMMARY_COLUMNS, "summary", "--summary-column"),
        id=pick(columns.id, ID_COLUMNS, "", "--id-column"),
        questions=pick(columns.questions, QUESTION_COLUMNS, "", "--questions-column"),
    )


def in_row(fields: Mapping[str, Any], wanted: Sequence[str]) -> str | None:
    """The first of ``wanted`` a JSON row has, by name or matched loosely (``column_key``)."""
    for name in wanted:
        if name in fields:
            return name
    keys = {column_key(str(key)): key for key in fields}
    for name in wanted:
        if (key := keys.get(column_key(name))) is not None:
            return str(key)
    return None
