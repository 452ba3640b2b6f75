"""Reading cases from JSONL, CSV or Parquet files and writing results as JSONL or CSV.

Rows are read lazily, one at a time, so a large file is never held in memory. A row that cannot
be read (broken JSON, a missing column) becomes a :class:`Row` with ``error`` set, so it is
reported in the output instead of silently dropped.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from .errors import MissingExtraError
from .result import SummaryResult

__all__ = [
    "SOURCE_COLUMNS",
    "SUMMARY_COLUMNS",
    "Columns",
    "ResultWriter",
    "Row",
    "output_row",
    "read_rows",
]

SOURCE_COLUMNS = ("source", "contexts", "reference_contexts", "input")
SUMMARY_COLUMNS = ("summary", "response", "actual_output")
ID_COLUMNS = ("id",)
QUESTION_COLUMNS = ("assessment_questions",)
_FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".parquet": "parquet"}


@dataclass(frozen=True)
class Columns:
    """Which columns hold what. None means: the first of the defaults present in the row."""

    source: str | None = None
    summary: str | None = None
    id: str | None = None
    questions: str | None = None


@dataclass(frozen=True)
class Row:
    """One input row: its id, and either the case or the reason it could not be read."""

    id: Any
    source: str | list[str] | None = None
    summary: str | None = None
    assessment_questions: list[str] | None = None
    error: str | None = None


def file_format(path: Path) -> str:
    fmt = _FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ValueError(
            f"{path}: unknown file type {path.suffix or '(none)'}; use .jsonl, .csv or .parquet"
        )
    return fmt


def read_rows(path: str | Path, columns: Columns = Columns()) -> Iterator[Row]:
    """Yield the rows of a JSONL, CSV or Parquet file as :class:`Row` objects, lazily."""
    path = Path(path)
    fmt = file_format(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    records: Iterator[tuple[int, Mapping[str, Any] | str]]
    if fmt == "jsonl":
        records = _jsonl_records(path)
    elif fmt == "csv":
        records = _csv_records(path)
    else:
        records = _parquet_records(path)
    for number, record in records:
        yield _to_row(number, record, columns)


def _jsonl_records(path: Path) -> Iterator[tuple[int, Mapping[str, Any] | str]]:
    with path.open(encoding="utf-8-sig") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                yield number, f"line {number} is not valid JSON ({exc.msg} at column {exc.colno})"
                continue
            if not isinstance(record, dict):
                yield number, f"line {number} is a JSON {type(record).__name__}, not an object"
                continue
            yield number, record


def _csv_records(path: Path) -> Iterator[tuple[int, Mapping[str, Any] | str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        for number, record in enumerate(reader, start=1):
            yield number, {k: _csv_value(v) for k, v in record.items() if k is not None}


def _csv_value(value: Any) -> Any:
    """A cell holding a JSON list (``["a", "b"]``) is a list; anything else stays text."""
    if isinstance(value, str) and value.lstrip().startswith("["):
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            return value
        if isinstance(parsed, list):
            return parsed
    return value


def _parquet_records(path: Path) -> Iterator[tuple[int, Mapping[str, Any] | str]]:
    try:
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise MissingExtraError("pyarrow", "parquet", "Reading Parquet files", exc) from exc
    number = 0
    for batch in pq.ParquetFile(path).iter_batches(batch_size=1024):
        for record in batch.to_pylist():
            number += 1
            yield number, record


def _pick(record: Mapping[str, Any], chosen: str | None, defaults: Sequence[str]) -> str | None:
    if chosen is not None:
        return chosen if chosen in record else None
    return next((name for name in defaults if name in record), None)


def _to_row(number: int, record: Mapping[str, Any] | str, columns: Columns) -> Row:
    if isinstance(record, str):
        return Row(id=number, error=record)
    id_column = _pick(record, columns.id, ID_COLUMNS)
    row_id = record[id_column] if id_column is not None else number
    if row_id is None or (isinstance(row_id, float) and math.isnan(row_id)):
        row_id = number
    source_column = _pick(record, columns.source, SOURCE_COLUMNS)
    summary_column = _pick(record, columns.summary, SUMMARY_COLUMNS)
    missing = []
    if source_column is None:
        missing.append(
            f"source (column {columns.source!r})"
            if columns.source
            else f"source (one of the columns {', '.join(SOURCE_COLUMNS)})"
        )
    if summary_column is None:
        missing.append(
            f"summary (column {columns.summary!r})"
            if columns.summary
            else f"summary (one of the columns {', '.join(SUMMARY_COLUMNS)})"
        )
    if missing:
        return Row(id=row_id, error=f"row {number} has no {' and no '.join(missing)}")
    assert source_column is not None and summary_column is not None
    source = record[source_column]
    if hasattr(source, "tolist"):  # numpy arrays from Parquet list columns
        source = source.tolist()
    if isinstance(source, tuple):
        source = list(source)
    questions_column = _pick(record, columns.questions, QUESTION_COLUMNS)
    questions = record.get(questions_column) if questions_column else None
    if isinstance(questions, str) and not questions.strip():
        questions = None
    return Row(
        id=row_id, source=source, summary=record[summary_column], assessment_questions=questions
    )


# --------------------------------------------------------------------------------- writing

_COMPONENTS = ("qa_score", "conciseness_score", "alignment_score", "coverage_score")
FIELDS = (
    "id",
    "score",
    *_COMPONENTS,
    "success",
    "reason",
    "error",
    "missed_questions",
    "unsupported_claims",
    "warnings",
)


def output_row(row_id: Any, result: SummaryResult) -> dict[str, Any]:
    """One output record: id, score, components, reason, error and the evidence that matters."""
    score = None if math.isnan(result.score) else result.score
    return {
        "id": row_id,
        "score": score,
        **{name: getattr(result, name) for name in _COMPONENTS},
        "success": result.success,
        "reason": result.reason,
        "error": result.error,
        "missed_questions": result.missed_questions,
        "unsupported_claims": [c.claim for c in result.unsupported_claims],
        "warnings": result.warnings,
    }


class ResultWriter:
    """Write output rows to a ``.jsonl`` or ``.csv`` file, one per input row, flushed as written."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        fmt = file_format(self.path)
        if fmt == "parquet":
            raise ValueError(f"{self.path}: results are written as .jsonl or .csv")
        self.format = fmt
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._handle: IO[str] = self.path.open("w", encoding="utf-8", newline="")
        self._csv: csv.DictWriter[str] | None = None
        if fmt == "csv":
            self._csv = csv.DictWriter(self._handle, fieldnames=FIELDS)
            self._csv.writeheader()

    def write(self, record: Mapping[str, Any]) -> None:
        if self._csv is not None:
            self._csv.writerow({k: _csv_cell(record.get(k)) for k in FIELDS})
        else:
            self._handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _csv_cell(value: Any) -> Any:
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return "" if value is None else value
