"""Results files: one record per input row, with the run's provenance, as JSONL, CSV, TSV or Parquet.

Written as rows finish and flushed, so an interrupted run keeps what it finished (Parquet writes
its footer on close). ``-`` writes JSONL to stdout. Text that cannot be encoded (a lone surrogate
from a JSON escape) is written as a backslash escape, which in JSONL is the same JSON string.
"""

from __future__ import annotations

import csv
import io
import json
import math
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from ..results import SummaryResult
from .records import FORMATS, InputError, open_records

__all__ = ["FIELDS", "ResultWriter", "finite", "is_results_file", "output_row", "read_results"]

_COMPONENTS = ("qa_score", "conciseness_score", "alignment_score", "coverage_score")
_LISTS = ("missed_questions", "unsupported_claims", "warnings")
FIELDS = (
    "id",
    "score",
    *_COMPONENTS,
    "success",
    "reason",
    "error",
    *_LISTS,
    "claim_support",
    "preset",
    "judge",
    "model",
    "prompt_set",
    "threshold",
    "judge_calls",
    "input_tokens",
    "output_tokens",
    "cost",
    "fingerprint",
)
# What every summscore results file has had since the first release: how one is recognised.
_SIGNATURE = {"id", "score", "reason", "error"}
_BATCH = 512  # Parquet rows per row group written


def output_row(
    row_id: Any,
    result: SummaryResult,
    *,
    model: str | None = None,
    warnings: list[str] | None = None,
    fingerprint: str | None = None,
) -> dict[str, Any]:
    """One output record: id, score, components, reason, error, evidence and provenance
    (``fingerprint``: what the row was scored from, see ``fingerprint``)."""
    usage = result.usage
    return {
        "id": finite(row_id),
        "score": finite(result.score),
        **{name: finite(getattr(result, name)) for name in _COMPONENTS},
        "success": result.success,
        "reason": result.reason,
        "error": result.error,
        "missed_questions": result.missed_questions,
        "unsupported_claims": [c.claim for c in result.unsupported_claims],
        "warnings": [*result.warnings, *(warnings or [])],
        "claim_support": claim_support(result),
        "preset": result.preset,
        "judge": result.judge,
        "model": model,
        "prompt_set": result.prompt_set,
        "threshold": result.threshold,
        "judge_calls": usage.judge_calls,
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cost": usage.cost,
        "fingerprint": fingerprint,
    }


def claim_support(result: SummaryResult) -> list[dict[str, Any]] | None:
    """Every claim with its graded support ({"claim", "support"}, in claim order), for a judge
    that grades claims (the offline judge); None for the others."""
    graded = [
        {"claim": c.claim, "support": c.support} for c in result.claims if c.support is not None
    ]
    return graded or None


def finite(value: Any) -> Any:
    """NaN and infinities are None: results files are strict JSON."""
    return None if isinstance(value, float) and not math.isfinite(value) else value


def _output_format(path: Path) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt not in ("jsonl", "csv", "tsv", "parquet"):
        raise ValueError(
            f"{path}: results are written as .jsonl, .csv, .tsv or .parquet (or - for stdout)"
        )
    return fmt


class ResultWriter:
    """Write output records to ``path`` (``-``: JSONL on stdout), flushed as written."""

    def __init__(self, path: str | Path, *, stdout: IO[str] | None = None) -> None:
        self.path = Path(path)
        self._parquet: Any = None
        self._pending: list[Mapping[str, Any]] = []
        self._csv: Any = None
        if str(path) == "-":
            self.format = "jsonl"
            stream = stdout or sys.stdout
            buffer = getattr(stream, "buffer", None)
            self._handle: IO[str] = (
                io.TextIOWrapper(buffer, encoding="utf-8", errors="backslashreplace")
                if buffer is not None and stdout is None
                else stream
            )
            self._owned = False
            self._wrapped = buffer is not None and stdout is None
            return
        self.format = _output_format(self.path)
        if self.format == "parquet":
            self._schema = _parquet_schema()  # fails early, with the extra to install
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._owned = True
        if self.format == "parquet":
            return
        self._handle = self.path.open("w", encoding="utf-8", errors="backslashreplace", newline="")
        if self.format in ("csv", "tsv"):
            delimiter = "\t" if self.format == "tsv" else ","
            self._csv = csv.DictWriter(self._handle, fieldnames=FIELDS, delimiter=delimiter)
            self._csv.writeheader()

    def write(self, record: Mapping[str, Any]) -> None:
        if self.format == "parquet":
            self._pending.append(record)
            if len(self._pending) >= _BATCH:
                self._flush_parquet()
            return
        if self._csv is not None:
            self._csv.writerow({k: _cell(record.get(k)) for k in FIELDS})
        else:
            self._handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._handle.flush()

    def _flush_parquet(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if not self._pending:
            return
        columns = {
            name: [_parquet_value(name, r.get(name)) for r in self._pending] for name in FIELDS
        }
        table = pa.table(columns, schema=self._schema)
        if self._parquet is None:
            self._parquet = pq.ParquetWriter(self.path, self._schema)
        self._parquet.write_table(table)
        self._pending = []

    def close(self) -> None:
        if self.format == "parquet":
            if self._parquet is None and not self._pending:
                self._pending = []
                import pyarrow.parquet as pq

                pq.ParquetWriter(self.path, self._schema).close()  # an empty, valid file
                return
            self._flush_parquet()
            self._parquet.close()
            self._parquet = None
            return
        if self._owned:
            self._handle.close()
        else:
            self._handle.flush()
            if self._wrapped:  # give stdout back rather than close it with the wrapper
                self._handle.detach()  # type: ignore[attr-defined]
                self._wrapped = False

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _cell(value: Any) -> Any:
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return "" if value is None else value


def _parquet_schema() -> Any:
    try:
        import pyarrow as pa
    except ImportError as exc:
        from ..errors import MissingExtraError

        raise MissingExtraError("pyarrow", "parquet", "Writing Parquet files", exc) from exc
    types = {
        "id": pa.string(),
        "success": pa.bool_(),
        "judge_calls": pa.int64(),
        "input_tokens": pa.int64(),
        "output_tokens": pa.int64(),
    }
    for name in ("score", *_COMPONENTS, "threshold", "cost"):
        types[name] = pa.float64()
    for name in _LISTS:
        types[name] = pa.list_(pa.string())
    types["claim_support"] = claim_support_type()
    return pa.schema([(name, types.get(name, pa.string())) for name in FIELDS])


def claim_support_type() -> Any:
    """The Arrow type of ``claim_support``: a list of {claim, support}."""
    import pyarrow as pa

    return pa.list_(pa.struct([("claim", pa.string()), ("support", pa.float64())]))


def _parquet_value(name: str, value: Any) -> Any:
    if name == "id" and value is not None:
        value = str(value)
    if isinstance(value, str):  # Arrow strings are UTF-8: a lone surrogate is escaped
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, list):
        return [_parquet_value("", v) for v in value]
    if isinstance(value, dict):
        return {k: _parquet_value("", v) for k, v in value.items()}
    return value


def is_results_file(path: str | Path) -> bool:
    """Whether ``path`` is a summscore results file (or empty): safe to replace."""
    path = Path(path)
    if path.stat().st_size == 0:
        return True
    try:
        opened = open_records(path)
        names = opened.columns
        if names is None:
            first = next((r for r in opened.records if r.fields is not None), None)
            names = list(first.fields) if first is not None and first.fields is not None else []
    except (InputError, OSError, ValueError, ImportError):
        return False
    return set(names) >= _SIGNATURE


def read_results(path: str | Path) -> Iterator[dict[str, Any]]:
    """The records of a results file, in file order. A line cut short by an interruption (the
    last one, written when the run was stopped) is skipped."""
    opened = open_records(path)
    for record in opened.records:
        if record.fields is None:
            continue
        fields = dict(record.fields)
        if opened.format in ("csv", "tsv"):
            fields = {k: _from_cell(k, v) for k, v in fields.items()}
        yield fields


def _from_cell(name: str, value: Any) -> Any:
    if value == "":
        return None
    if name in _LISTS or name == "claim_support":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value
