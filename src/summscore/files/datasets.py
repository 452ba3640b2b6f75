"""Reading cases from files (JSONL, JSON, CSV, TSV, Parquet, Excel, gzipped) and writing results.

Shared by the CLI, the service and Ray. Columns are worked out once, up front, from the header
(CSV, TSV, Parquet, an Excel sheet's header row) or the first object (JSONL, JSON): a missing
source or summary column is one ``InputError`` listing the file's columns. Rows are then
read lazily, one at a time; a row that cannot be used (broken JSON, a missing or empty field,
undecodable bytes, a malformed JSON list in a CSV cell) becomes a ``Row`` with ``error``
naming where it is, its id and the field, so it is reported in the output instead of dropped,
and the rows after it are read.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cases import FieldNames, check_questions, check_source, check_summary
from ..masking.replies import redact_value
from .columns import (
    ID_COLUMNS,
    QUESTION_COLUMNS,
    SOURCE_COLUMNS,
    SUMMARY_COLUMNS,
    Columns,
    in_row,
    resolve_columns,
)
from .records import (
    CellError,
    InputError,
    Record,
    TooLongNumber,
    file_format,
    open_records,
    undecodable,
)
from .writer import FIELDS, ResultWriter, is_results_file, output_row, read_results

__all__ = [
    "FIELDS",
    "ID_COLUMNS",
    "QUESTION_COLUMNS",
    "SOURCE_COLUMNS",
    "SUMMARY_COLUMNS",
    "Columns",
    "InputError",
    "ResultWriter",
    "Row",
    "RowReader",
    "file_format",
    "is_results_file",
    "open_rows",
    "output_row",
    "read_results",
    "read_rows",
    "rows_from_records",
]

# A CSV cell meant as a list of texts: it opens with [" or [' (a Python list printed) or [].
# "[Reuters] Paris hosted it" and "... met on Monday [3]" are text.
_MEANT_AS_LIST = re.compile(r"""^\s*\[\s*(["'\]]|$)""")


@dataclass(frozen=True)
class Row:
    """One input row: its id, and either the case or the reason it cannot be scored.

    ``where`` says where it is in the file ("line 3" for JSONL, CSV and TSV, "item 3" for a JSON
    list, "row 3" for Parquet, the sheet's own row number for Excel); ``number`` is its ordinal
    among the file's records.
    """

    id: Any
    source: str | list[str] | None = None
    summary: str | None = None
    assessment_questions: list[str] | None = None
    error: str | None = None
    where: str = ""
    number: int = 0


@dataclass
class RowReader:
    """An open input file with its columns resolved; iterate it for ``Row`` objects."""

    path: Path
    format: str
    encoding: str
    columns: Columns  # the resolved names; id and questions None when the file has none
    file_columns: list[str]
    _records: Iterator[Record] = field(repr=False)
    _chosen: Columns = field(default=Columns(), repr=False)
    sheet: str | None = None  # the worksheet named with sheet=, as the workbook spells it
    dialect: str | None = None  # a CSV file's delimiter and encoding, as read

    @property
    def repeated(self) -> list[str]:
        """The columns read that the header names more than once (the first of them is read)."""
        used = {self.columns.source, self.columns.summary, self.columns.id, self.columns.questions}
        return [
            n
            for n in dict.fromkeys(self.file_columns)
            if n in used and self.file_columns.count(n) > 1
        ]

    def __iter__(self) -> Iterator[Row]:
        names = FieldNames(
            source=self.columns.source or "source",
            summary=self.columns.summary or "summary",
            questions=self.columns.questions or "assessment_questions",
        )
        csv_like = self.format in ("csv", "tsv", "xlsx")  # text cells: a JSON list is parsed
        # JSON rows need not share keys: a column found by default may be another default in a
        # later row ("source" here, "contexts" there); a column the user named may not.
        fallback = {
            "source": () if self._chosen.source else SOURCE_COLUMNS,
            "summary": () if self._chosen.summary else SUMMARY_COLUMNS,
            "id": () if self._chosen.id else ID_COLUMNS,
            "questions": () if self._chosen.questions else QUESTION_COLUMNS,
        }
        for record in self._records:
            yield _to_row(record, self.columns, names, csv_like, self.encoding, fallback)


def open_rows(
    path: str | Path,
    columns: Columns = Columns(),
    *,
    encoding: str = "utf-8",
    sheet: str | None = None,
    delimiter: str | None = None,
) -> RowReader:
    """Open ``path`` and resolve its columns; raises ``InputError`` for a whole-file problem.
    ``sheet`` names the worksheet of an Excel workbook (needed when several hold data);
    ``delimiter`` a CSV file's (default: detected from its first lines).

    JSONL and JSON files take their column names from the first object (rows before it that
    cannot be read are kept and come out first, as errors).
    """
    opened = open_records(path, encoding, sheet=sheet, delimiter=delimiter)
    records = opened.records
    file_columns = opened.columns
    if file_columns is None:
        held: list[Record] = []
        for record in records:
            held.append(record)
            if record.fields is not None and record.problem is None:
                file_columns = [str(k) for k in record.fields]
                break
        if not held:
            raise InputError(f"{opened.path}: the file has no rows")
        if file_columns is None:
            raise InputError(
                f"{opened.path}: no row could be read (first: {held[0].where} {held[0].problem})"
            )
        records = _chain(held, records)
    resolved = resolve_columns(opened.path, columns, file_columns)
    return RowReader(
        opened.path,
        opened.format,
        opened.encoding,
        resolved,
        file_columns,
        records,
        columns,
        sheet=opened.sheet,
        dialect=opened.dialect,
    )


def read_rows(
    path: str | Path,
    columns: Columns = Columns(),
    *,
    encoding: str = "utf-8",
    sheet: str | None = None,
    delimiter: str | None = None,
) -> Iterator[Row]:
    """Yield the rows of ``path`` lazily (see ``open_rows``)."""
    yield from open_rows(path, columns, encoding=encoding, sheet=sheet, delimiter=delimiter)


def rows_from_records(
    records: Sequence[Mapping[str, Any]], columns: Columns = Columns(), *, start: int | None = 1
) -> list[Row]:
    """Rows from records already in memory (a Ray batch, a service request), read as a file's.

    The columns are resolved on the batch's keys, so a missing column is every row's error
    rather than an exception; ``start`` numbers the first record. ``start=None``: the records'
    place in the whole is unknown (a batch of a Ray dataset), so a row's error names its id
    alone ("id 'r37': summary cannot be empty"), or nothing where there is no id column.
    """
    keys = sorted({str(k) for record in records for k in record})

    def place(i: int) -> tuple[int, str]:
        return (0, "") if start is None else (start + i, f"row {start + i}")

    try:
        resolved = resolve_columns(Path("<batch>"), columns, keys)
    except InputError as exc:
        places = map(place, range(len(records)))
        return [Row(id=n if w else None, error=str(exc), where=w, number=n) for n, w in places]
    reader = RowReader(
        Path("<batch>"),
        "parquet",
        "utf-8",
        resolved,
        keys,
        iter(Record(*place(i), fields=record) for i, record in enumerate(records)),
        columns,
    )
    return list(reader)


def _own_column(
    fields: Mapping[str, Any], resolved: str | None, defaults: Sequence[str], csv_like: bool
) -> str | None:
    """The column a row's id or questions are read from. A table's rows share the header; JSON
    objects need not share keys, so a row missing the column found in the first object (or
    holding one when the first had none) is read by the default names, unless the user named
    the column (``defaults`` empty)."""
    if csv_like or (resolved is not None and resolved in fields):
        return resolved
    return in_row(fields, defaults) or resolved


def _chain(first: list[Record], rest: Iterator[Record]) -> Iterator[Record]:
    yield from first
    yield from rest


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist"):  # numpy arrays from Parquet list columns
        value = value.tolist()
    if isinstance(value, tuple):
        value = list(value)
    return value


def _bad_bytes(value: Any, encoding: str) -> str | None:
    texts = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    for text in texts:
        if isinstance(text, str) and (where := undecodable(text)):
            return f"has bytes that are not valid {encoding or 'text'} ({where}); pass --encoding"
    return None


def _cell_text(value: Any) -> Any:
    """A spreadsheet cell's number or truth value as the text it shows (12, 0.5, TRUE)."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int) or (isinstance(value, float) and math.isfinite(value)):
        return str(value)
    return value


def _csv_list(value: Any, column: str) -> tuple[Any, str | None]:
    """A CSV (or Excel) cell holding a JSON list of contexts is a list; one plainly meant as a list
    that is not valid JSON is an error rather than text scored by accident; other text that
    opens with "[" is text."""
    if not isinstance(value, str) or not value.lstrip().startswith("["):
        return value, None
    from .records import _loads

    parsed, problem = _loads(value)
    if problem is None and isinstance(parsed, list):
        return parsed, None
    if not _MEANT_AS_LIST.match(value):
        return value, None
    problem = problem or f"a JSON {type(parsed).__name__}"
    return None, (
        f"column {column!r} looks like a JSON list but is {problem}; "
        'write plain text, or a list such as ["first context", "second context"]'
    )


def _to_row(
    record: Record,
    columns: Columns,
    names: FieldNames,
    csv_like: bool,
    encoding: str,
    fallback: Mapping[str, Sequence[str]],
) -> Row:
    where = record.where
    if record.fields is None:
        return Row(
            id=record.number, error=f"{where} {record.problem}", where=where, number=record.number
        )
    fields = record.fields
    row_id: Any = record.number if where else None  # (no place: a batch of a Ray dataset)
    problem: str | None = None
    id_column = _own_column(fields, columns.id, fallback["id"], csv_like)
    if id_column is not None and id_column in fields:
        value = _plain(fields[id_column])
        if isinstance(value, TooLongNumber):
            problem = f"column {id_column!r} is a number of {value.digits} digits"
        elif isinstance(value, CellError):
            problem = value.problem(id_column)
        elif isinstance(value, (dict, list)):
            problem = f"column {id_column!r} must be a string or a number, got a JSON {type(value).__name__}"
        elif (
            value is not None
            and value != ""
            and not (isinstance(value, float) and not math.isfinite(value))
        ):
            row_id = value
            if isinstance(value, str) and undecodable(value):
                problem = f"column {id_column!r} {_bad_bytes(value, encoding)}"
                row_id = record.number
            elif isinstance(value, str):
                # An id is only ever shown (results, report, messages, --resume's matching),
                # never scored: a key in it is masked once, here, as the summary is where shown.
                row_id = redact_value(value)
    label = f"{where} (id {row_id!r})" if where else "" if row_id is None else f"id {row_id!r}"

    def failed(message: str) -> Row:
        error = f"{label}: {message}" if label else message
        return Row(id=row_id, error=error, where=where, number=record.number)

    problem = problem or record.problem  # (a record read in part: its id, then its problem)
    if problem is not None:
        return failed(problem)
    values: dict[str, Any] = {}
    for kind, column in (("source", columns.source), ("summary", columns.summary)):
        assert column is not None
        if column not in fields:
            column = in_row(fields, (column, *fallback[kind])) or column
        if column not in fields:
            return failed(f"no {kind} (column {column!r} is missing from this row)")
        value = _plain(fields[column])
        if isinstance(value, TooLongNumber):
            return failed(f"column {column!r} is a number of {value.digits} digits, not text")
        if isinstance(value, CellError):
            return failed(value.problem(column) + ("" if value.fix else ", not text"))
        if csv_like and value is None:  # an empty spreadsheet cell
            return failed(f"column {column!r} is empty")
        if csv_like:  # (a number in a spreadsheet's cell is its text, as a CSV file gives it)
            value = _cell_text(value)
        if csv_like and kind == "source":
            value, problem = _csv_list(value, column)
            if problem:
                return failed(problem)
        if (bad := _bad_bytes(value, encoding)) is not None:
            return failed(f"column {column!r} {bad}")
        values[kind] = value
    questions: Any = None
    questions_column = _own_column(fields, columns.questions, fallback["questions"], csv_like)
    if questions_column is not None:
        questions = _plain(fields.get(questions_column))
        if isinstance(questions, CellError):
            return failed(questions.problem(questions_column))
        if isinstance(questions, str):
            questions, problem = (
                (None, None) if not questions.strip() else _csv_list(questions, questions_column)
            )
            if problem:
                return failed(problem)
            if isinstance(questions, str):
                questions = [questions]
        if (bad := _bad_bytes(questions, encoding)) is not None:
            return failed(f"column {questions_column!r} {bad}")
    try:
        check_source(values["source"], names)
        check_summary(values["summary"], names)
        checked = check_questions(questions, names)
    except (TypeError, ValueError) as exc:
        return failed(str(exc))
    return Row(
        id=row_id,
        source=values["source"],
        summary=values["summary"],
        assessment_questions=list(checked) if checked else None,
        where=where,
        number=record.number,
    )
