"""Excel workbooks (.xlsx, .xlsm) as records: one worksheet, its header the first row with two or
more cells filled (a title or a note above it is skipped).

Read with openpyxl in its streaming mode (``summscore[excel]``): rows are read one at a time (the
workbook's table of shared text is held in memory, as openpyxl reads it). The sheet's size is
measured from its cells, not taken from the size record the file claims (some programs write a
wrong one). A cell holds what Excel saved: text (with Excel's ``_x000D_`` escapes decoded), a
number (an integer stays one), true/false; a date or time becomes its ISO text, a formula its last
computed value, an error value (``#N/A``) an ``CellError`` that fails the row wherever
it is used, and so does a formula with no saved value (a workbook written by a program that never
computed it): "cell B7 ... is a formula with no saved value: open and save the workbook ...". A
record's place is the sheet's own row number ("row 7"), as Excel shows it. Empty rows are
skipped; columns with no header are left out. A cell merged over several rows below the header
gives its value to each row of the block (Excel shows it beside each of them).
"""

from __future__ import annotations

import datetime
import re
import zipfile
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from ..errors import MissingExtraError
from .raw import CellError, InputError, Record, RecordFile
from .xlsx_guard import check_workbook

__all__ = ["open_workbook", "sheet_title"]

# What Excel writes for a formula that failed (openpyxl gives them as text).
_ERRORS = frozenset(
    {"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#SPILL!", "#CALC!"}
    | {"#GETTING_DATA", "#FIELD!", "#BLOCKED!", "#CONNECT!", "#BUSY!", "#UNKNOWN!"}
)
_OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # the container of encrypted workbooks and of legacy .xls


def _load(path: Path) -> Any:
    try:
        import openpyxl
    except ImportError as exc:
        raise MissingExtraError("openpyxl", "excel", "Reading Excel files", exc) from exc
    check_workbook(path)  # a zip bomb or an empty-cell flood is refused before openpyxl reads
    try:
        return openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # zipfile, XML and openpyxl's own errors alike
        raise InputError(f"{path}: {_unreadable(path, exc)}") from None


def _unreadable(path: Path, exc: Exception) -> str:
    try:
        with path.open("rb") as handle:
            head = handle.read(4)
    except OSError:
        head = b""
    if head == _OLE_MAGIC:
        return (
            "not a readable Excel workbook: a password-protected workbook or an old .xls file "
            "renamed; save it as .xlsx without a password"
        )
    if isinstance(exc, zipfile.BadZipFile) or not head.startswith(b"PK"):
        return "not an Excel workbook (not a zip file: cut short, or another format renamed)"
    return f"not a readable Excel workbook ({type(exc).__name__}: {exc})"


def _damaged(path: Path, where: str, exc: Exception) -> InputError:
    return InputError(f"{path}: {where} cannot be read ({type(exc).__name__}: {exc})")


def _has_cells(path: Path, sheet: Any) -> bool:
    if not hasattr(sheet, "iter_rows"):
        return False  # a chart sheet holds no rows
    sheet.reset_dimensions()
    try:
        return any(not _blank(row) for row in _values(sheet))
    except Exception as exc:
        raise _damaged(path, f"sheet {sheet.title!r}", exc) from None


def _sheet(path: Path, book: Any, sheet: str | None) -> Any:
    names = list(book.sheetnames)
    listed = ", ".join(repr(n) for n in names)
    if sheet is None:
        with_data = [name for name in names if _has_cells(path, book[name])]
        if len(with_data) == 1:
            return book[with_data[0]]
        if not with_data:
            raise InputError(f"{path}: no sheet of the workbook holds data ({listed})")
        data = ", ".join(repr(n) for n in with_data)
        raise InputError(
            f"{path}: several sheets hold data ({data}); name the one to read with --sheet"
        )
    if sheet not in names:
        # Excel itself reads sheet names without regard to letter case.
        same = [name for name in names if name.casefold() == sheet.casefold()]
        if len(same) != 1:
            raise InputError(
                f"{path}: no sheet {sheet!r} (--sheet); the workbook's sheets are {listed}"
            )
        sheet = same[0]
    found = book[sheet]
    if not hasattr(found, "iter_rows"):
        raise InputError(f"{path}: sheet {sheet!r} is a chart, not a worksheet")
    found.reset_dimensions()
    return found


_MAX_ROWS = 1_048_576  # Excel's last row
_MERGE = re.compile(
    rb"<(?:\w+:)?mergeCell\b[^>]*?\bref\s*=\s*[\"']"
    rb"\$?([A-Za-z]+)\$?([0-9]+):\$?([A-Za-z]+)\$?([0-9]+)[\"']"
)
_CHUNK = 1 << 20


class _Uncomputed:
    """A formula cell with no saved value (openpyxl gives None, as for an empty cell)."""

    def __repr__(self) -> str:
        return "a formula with no saved value"


_UNCOMPUTED = _Uncomputed()
_UNCOMPUTED_FIX = (
    "open and save the workbook in Excel or LibreOffice (which computes it), or export the sheet "
    "as CSV"
)


def _values(sheet: Any) -> Iterator[tuple[Any, ...]]:
    """The sheet's rows as ``iter_rows(values_only=True)`` gives them, except that a formula with
    no saved value is ``_UNCOMPUTED`` instead of None (openpyxl's streaming reader, with a cell
    parser that tells the two apart)."""
    from openpyxl.worksheet._reader import FORMULA_TAG, WorkSheetParser

    class Parser(WorkSheetParser):
        def parse_cell(self, element: Any) -> dict[str, Any]:
            cell: dict[str, Any] = super().parse_cell(element)
            if cell["value"] is None and element.find(FORMULA_TAG) is not None:
                cell["value"] = _UNCOMPUTED
            return cell

    book = sheet.parent
    with sheet._get_source() as source:
        parser = Parser(
            source,
            sheet._shared_strings,
            data_only=True,
            epoch=book.epoch,
            date_formats=book._date_formats,
            timedelta_formats=book._timedelta_formats,
        )
        expected = 1
        for number, row in parser.parse():
            if number > _MAX_ROWS:  # (a row number no sheet has: no end of empty rows before it)
                raise ValueError(f"row {number:,} is past Excel's last row ({_MAX_ROWS:,})")
            while expected < number:  # rows the file leaves out are empty
                expected += 1
                yield ()
            expected += 1
            yield _row_values(row)


def _row_values(cells: list[dict[str, Any]]) -> tuple[Any, ...]:
    """A row's values up to its last cell with a value (openpyxl pads every row to its last
    cell element, so one empty cell in column XFD costs 16,384 values a row)."""
    filled = [(cell["column"], cell["value"]) for cell in cells if cell["value"] is not None]
    if not filled:
        return ()
    values: list[Any] = [None] * max(column for column, _ in filled)
    for column, value in filled:
        if column >= 1:
            values[column - 1] = value
    return tuple(values)


def _merged_down(path: Path, sheet: Any) -> dict[int, list[tuple[int, int]]]:
    """The sheet's cells merged over several rows, by first row: [(column index, last row)].

    openpyxl's streaming mode does not read merges (they follow the cells in the sheet's XML), so
    the sheet's XML is scanned for them once, in chunks.
    """
    from openpyxl.utils.cell import coordinate_to_tuple

    starts: dict[int, list[tuple[int, int]]] = {}
    tail = b""
    try:
        with sheet._get_source() as source:
            while chunk := source.read(_CHUNK):
                text = tail + chunk
                end = 0
                for match in _MERGE.finditer(text):
                    end = match.end()
                    first = (match[1] + match[2]).decode().upper()
                    first_row, first_col = coordinate_to_tuple(first)
                    last_row = int(match[4])
                    if last_row > first_row:
                        starts.setdefault(first_row, []).append((first_col - 1, last_row))
                tail = text[max(end, len(text) - 512) :]
    except Exception as exc:
        raise _damaged(path, f"sheet {sheet.title!r}", exc) from None
    return starts


def sheet_title(path: Path, sheet: str) -> str:
    """The name of the worksheet ``sheet`` names (in any letter case), as the workbook spells it."""
    book = _load(path)
    try:
        return str(_sheet(path, book, sheet).title)
    finally:
        book.close()


def _cell(value: Any) -> Any:
    """A cell's value as the readers of the other formats give it."""
    if isinstance(value, (CellError, _Uncomputed)):
        return value
    if isinstance(value, str):
        if value in _ERRORS:
            return CellError(f"the Excel error {value}")
        return _unescape(value) if "_x" in value else value
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return str(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return str(value)


def _unescape(value: str) -> str:
    from openpyxl.utils.escape import unescape

    return str(unescape(value))


def _is_filled(value: Any) -> bool:
    return value is not None and not (isinstance(value, str) and not value.strip())


def _blank(row: tuple[Any, ...]) -> bool:
    return not any(map(_is_filled, row))


def _filled(row: tuple[Any, ...]) -> int:
    return sum(map(_is_filled, row))


def open_workbook(path: Path, sheet: str | None = None) -> RecordFile:
    """``path``'s worksheet (the only one with data, or ``sheet``) as a ``RecordFile``."""
    book = _load(path)
    try:
        chosen = _sheet(path, book, sheet)
        rows = _values(chosen)
        header_row = 0
        header: tuple[Any, ...] | None = None
        try:
            for row in rows:
                header_row += 1
                if _filled(row) >= 2:
                    header = row
                    break
        except Exception as exc:
            raise _damaged(path, f"sheet {chosen.title!r}", exc) from None
    except BaseException:
        book.close()
        raise
    if header is None:
        book.close()
        raise InputError(
            f"{path}: sheet {chosen.title!r} has no header row (a row with two or more cells "
            "filled: the column names)"
        )
    names = [str(_cell(value)).strip() if value is not None else "" for value in header]
    try:
        merges = {row: m for row, m in _merged_down(path, chosen).items() if row > header_row}
    except BaseException:
        book.close()
        raise
    return RecordFile(
        path,
        "xlsx",
        "",
        _records(path, book, rows, names, header_row, merges),
        columns=[name for name in names if name],
        sheet=chosen.title if sheet is not None else None,
    )


def _records(
    path: Path,
    book: Any,
    rows: Iterator[tuple[Any, ...]],
    names: list[str],
    header_row: int,
    merges: dict[int, list[tuple[int, int]]],
) -> Iterator[Record]:
    from openpyxl.utils import get_column_letter

    down: dict[int, tuple[int, Any]] = {}  # column -> (last row of its merged block, value)
    number = 0
    sheet_row = header_row
    width = len(names)
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
            cells = list(islice(row, width))
            cells += [None] * (width - len(cells))  # a row's last empty cells may be left out
            for column, last in merges.get(sheet_row, ()):
                if column < width:  # a block merged over rows: its value is its first cell's
                    down[column] = (last, cells[column])
            if _blank(row):
                continue
            for column, (last, value) in list(down.items()):
                if sheet_row > last:
                    del down[column]
                else:  # what Excel shows, even over text a program left hidden in the block
                    cells[column] = value
            number += 1
            fields: dict[str, Any] = {}
            for index, (name, value) in enumerate(zip(names, cells)):
                if not name:
                    continue
                if value is _UNCOMPUTED:
                    value = CellError(
                        repr(value), f"{get_column_letter(index + 1)}{sheet_row}", _UNCOMPUTED_FIX
                    )
                fields.setdefault(name, _cell(value))
            yield Record(number, f"row {sheet_row}", fields=fields)
    finally:
        book.close()
