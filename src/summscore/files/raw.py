"""What every reader of ``records`` and ``xlsx`` yields: a raw ``Record``, the
``RecordFile`` it comes from, the values that stand in for an unreadable cell, and the
``InputError`` of a file that cannot be read at all."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CellError", "InputError", "Record", "RecordFile", "TooLongNumber"]


class InputError(ValueError):
    """A problem with the whole input file (not one row): the message is one line naming it."""


@dataclass(frozen=True)
class Record:
    """One raw record: its ordinal ``number``, where it is (``line 3``, ``item 3``, ``row 3``),
    and either the ``fields`` or the ``problem`` that kept it from being read (with the fields
    read of it, when there are some, only to name its id)."""

    number: int
    where: str
    fields: Mapping[str, Any] | None = None
    problem: str | None = None


class TooLongNumber:
    """A JSON integer with more digits than Python converts (``sys.get_int_max_str_digits``).

    It stands in for the value, so the row that uses it fails with the field named, and a row that
    does not use it is unaffected.
    """

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"<a number of {self.digits} digits>"


class CellError:
    """A cell the file marks as holding no value but an error (Excel's ``#N/A``), or a formula
    whose value was never computed: it stands in for the value, so a row that uses it fails with
    the field named, and one that does not is unaffected."""

    def __init__(self, description: str, cell: str | None = None, fix: str | None = None) -> None:
        self.description, self.cell, self.fix = description, cell, fix

    def __repr__(self) -> str:
        return self.description

    def problem(self, column: str) -> str:
        """What a row using this cell in ``column`` is told."""
        where = f"cell {self.cell} (column {column!r})" if self.cell else f"column {column!r}"
        if self.fix:
            return f"{where} is {self.description}: {self.fix}"
        return f"{where} holds {self.description}"


@dataclass
class RecordFile:
    """An open input: its format, its column names as far as known up front, its records."""

    path: Path
    format: str
    encoding: str
    records: Iterator[Record]
    columns: list[str] | None = None  # None: from the first record (JSONL, JSON)
    sheet: str | None = None  # the worksheet read, as the workbook spells it, when one was named
    dialect: str | None = None  # a CSV file's: "semicolon-separated (detected), utf-8"
