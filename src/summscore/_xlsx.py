"""Excel workbooks (.xlsx, .xlsm) as records: one worksheet, its first non-empty row the header.

Read with openpyxl in its streaming mode (``summscore[excel]``), so a large sheet is not held in
memory. A cell holds what Excel saved: text, a number (an integer stays one), true/false; a date
or time becomes its ISO text, a formula its last computed value (a workbook written by a program
that never computed it gives an empty cell). A record's place is the sheet's own row number
("row 7"), as Excel shows it. Empty rows are skipped; columns with no header are left out.
"""

from __future__ import annotations

import datetime
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ._records import InputError, Record, RecordFile
from .errors import MissingExtraError

__all__ = ["open_workbook"]


def _load(path: Path) -> Any:
    try:
        import openpyxl
    except ImportError as exc:
        raise MissingExtraError("openpyxl", "excel", "Reading Excel files", exc) from exc
    try:
        return openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise InputError(
            f"{path}: not a readable Excel workbook ({type(exc).__name__}: {exc}); an encrypted "
            "workbook must be saved without its password first"
        ) from None
    except Exception as exc:  # openpyxl's own InvalidFileException and parse errors
        raise InputError(f"{path}: not a readable Excel workbook ({exc})") from None


def _sheet(path: Path, book: Any, sheet: str | None) -> Any:
    names = list(book.sheetnames)
    if sheet is None:
        if not book.worksheets:
            raise InputError(f"{path}: the workbook has no worksheet")
        chosen = book.worksheets[0]
        others = [name for name in names if name != chosen.title]
        if others and any(_has_cells(book[name]) for name in others):
            book.close()
            listed = ", ".join(repr(n) for n in names)
            raise InputError(
                f"{path}: the workbook has several sheets with data ({listed}); name the one to "
                "read with --sheet"
            )
        return chosen
    if sheet not in names:
        book.close()
        listed = ", ".join(repr(n) for n in names)
        raise InputError(
            f"{path}: no sheet {sheet!r} (--sheet); the workbook's sheets are {listed}"
        )
    found = book[sheet]
    if not hasattr(found, "iter_rows"):  # a chart sheet
        book.close()
        raise InputError(f"{path}: sheet {sheet!r} is a chart, not a worksheet")
    return found


def _has_cells(sheet: Any) -> bool:
    if not hasattr(sheet, "iter_rows"):
        return False  # a chart sheet holds no rows
    return any(
        any(value is not None and value != "" for value in row)
        for row in sheet.iter_rows(values_only=True)
    )


def _cell(value: Any) -> Any:
    """A cell's value as the readers of the other formats give it."""
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return str(value)
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    return str(value)


def _blank(row: tuple[Any, ...]) -> bool:
    return all(value is None or (isinstance(value, str) and not value.strip()) for value in row)


def open_workbook(path: Path, sheet: str | None = None) -> RecordFile:
    """``path``'s worksheet (the only one with data, or ``sheet``) as a :class:`RecordFile`."""
    book = _load(path)
    chosen = _sheet(path, book, sheet)
    rows = chosen.iter_rows(values_only=True)
    header_row = 0
    header: tuple[Any, ...] | None = None
    for row in rows:
        header_row += 1
        if not _blank(row):
            header = row
            break
    if header is None:
        book.close()
        raise InputError(f"{path}: sheet {chosen.title!r} is empty")
    names = [str(_cell(value)).strip() if value is not None else "" for value in header]
    return RecordFile(
        path,
        "xlsx",
        "",
        _records(path, book, rows, names, header_row),
        columns=[name for name in names if name],
    )


def _records(
    path: Path, book: Any, rows: Iterator[tuple[Any, ...]], names: list[str], header_row: int
) -> Iterator[Record]:
    number = 0
    sheet_row = header_row
    try:
        while True:
            try:
                row = next(rows)
            except StopIteration:
                return
            except Exception as exc:  # a damaged sheet part: the rows read so far stand
                problem = f"the rest of the sheet could not be read ({type(exc).__name__}: {exc})"
                yield Record(number + 1, f"row {sheet_row + 1}", problem=problem)
                return
            sheet_row += 1
            if _blank(row):
                continue
            number += 1
            fields: dict[str, Any] = {}
            for name, value in zip(names, row):
                if name:
                    fields.setdefault(name, _cell(value))
            yield Record(number, f"row {sheet_row}", fields=fields)
    finally:
        book.close()
