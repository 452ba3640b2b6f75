"""An A/B run: several summary columns of one file scored in one run
(``summscore score FILE --summary-column a,b``).

Each input row gives one row per summary column, one after the other, so the scorer's source
cache does each source's work (questions, truths) once for all of them, and the results file
holds one row per (case, summary column), each naming its column (``summary_column``): the
shape ``summscore compare`` and a ``DataFrame.pivot`` read. The file is read once per column,
in step (every reader resolves and checks its own summary column; rows are matched by their
place in the file), so memory stays that of one row per column.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from .columns import Columns
from .datasets import Row, RowReader, open_rows
from .raw import InputError

__all__ = ["VariantReader", "VariantRow", "open_variant_rows", "split_summary_columns"]


@dataclass(frozen=True)
class VariantRow(Row):
    """A row of an A/B run: the input row with one of its summaries, ``variant`` naming the
    summary column (as the file spells it)."""

    variant: str = ""


def split_summary_columns(values: Sequence[str] | str | None) -> list[str]:
    """The summary columns ``--summary-column`` names: repeated, or separated by commas
    (``a,b``); names are stripped, empty ones and repeats dropped."""
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    found: dict[str, None] = {}
    for value in values:
        for name in value.split(","):
            if name.strip():
                found.setdefault(name.strip())
    return list(found)


class VariantReader:
    """The rows of ``path`` once per summary column, interleaved: row 1 with each summary, then
    row 2, ... Has the attributes of a ``datasets.RowReader`` the CLI reads; ``columns``
    is the first summary column's, ``summaries`` the resolved names of all."""

    def __init__(self, readers: list[RowReader]) -> None:
        self._readers = readers
        first = readers[0]
        self.path = first.path
        self.format = first.format
        self.columns = first.columns
        self.file_columns = first.file_columns
        self.sheet = first.sheet
        self.dialect = first.dialect
        self.summaries = [r.columns.summary or "" for r in readers]

    @property
    def repeated(self) -> list[str]:
        return list(dict.fromkeys(name for r in self._readers for name in r.repeated))

    def __iter__(self) -> Iterator[Row]:
        iterators = [iter(r) for r in self._readers]
        while True:
            rows = [next(it, None) for it in iterators]
            if rows[0] is None:
                return
            for name, row in zip(self.summaries, rows):
                assert row is not None  # (the same file: every reader has every row)
                yield VariantRow(**{**vars(row), "variant": name})


def open_variant_rows(
    path: str | Path,
    columns: Columns,
    summaries: Sequence[str],
    *,
    encoding: str = "utf-8",
    sheet: str | None = None,
    delimiter: str | None = None,
) -> VariantReader:
    """Open ``path`` once for each of ``summaries`` (two or more summary columns). Raises
    ``raw.InputError`` when a column is missing, or two name the same column."""
    readers = [
        open_rows(
            path,
            replace(columns, summary=name),
            encoding=encoding,
            sheet=sheet,
            delimiter=delimiter,
        )
        for name in summaries
    ]
    resolved = [r.columns.summary for r in readers]
    twice = sorted({n for n in resolved if n is not None and resolved.count(n) > 1})
    if twice:
        raise InputError(f"{path}: --summary-column names the column {twice[0]!r} twice")
    if readers[0].columns.source in resolved:
        raise InputError(
            f"{path}: the column {readers[0].columns.source!r} is the source and a summary"
        )
    return VariantReader(readers)
