"""Writing results records to one file in one format: JSONL, CSV, TSV or Parquet.

``TableWriter`` writes straight into the file it is given; the run's results go through
``writer.ResultWriter``, which writes a row-appendable partial file first and finishes
the named file with this class and an atomic rename. Text that cannot be encoded (a lone
surrogate from a JSON escape) is written as a backslash escape, which in JSONL is the same JSON
string. CSV and TSV text cells are neutralised for spreadsheets (``cells``) unless
``raw_csv``.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any

from .cells import neutralise
from .lines import json_line
from .places import create_new
from .records import FORMATS
from .result_rows import COMPONENTS, LISTS, WRITTEN

__all__ = ["TableWriter", "claim_support_type", "output_format", "parquet_schema", "write_table"]

_BATCH = 512  # Parquet rows per row group written


def output_format(path: Path) -> str:
    """The results format ``path``'s suffix names; ValueError for one results are not written in."""
    fmt = FORMATS.get(path.suffix.lower())
    if fmt not in ("jsonl", "csv", "tsv", "parquet"):
        raise ValueError(
            f"{path}: results are written as .jsonl, .csv, .tsv or .parquet (or - for stdout)"
        )
    return fmt


class TableWriter:
    """Write records to ``path`` in ``fmt``; ``close`` ends the file (Parquet's footer). ``path``
    is a hidden working file, made anew (``places.create_new``: never written through a link)."""

    def __init__(self, path: Path, fmt: str, *, raw_csv: bool = False) -> None:
        self.path, self.format, self.raw_csv = path, fmt, raw_csv
        self._parquet: Any = None
        self._pending: list[Mapping[str, Any]] = []
        self._csv: Any = None
        self._handle: IO[str] | None = None
        self._binary: IO[bytes] | None = None
        if fmt == "parquet":
            self._schema = parquet_schema()
            self._binary = create_new(path, "wb")
            return
        self._handle = create_new(
            path, "w", encoding="utf-8", errors="backslashreplace", newline=""
        )
        if fmt in ("csv", "tsv"):
            delimiter = "\t" if fmt == "tsv" else ","
            # The header says whether the text cells carry the mark: quoted like them when
            # they do, plain in a raw file (``result_rows.marked_cells`` reads it).
            csv.writer(
                self._handle,
                delimiter=delimiter,
                quoting=csv.QUOTE_MINIMAL if raw_csv else csv.QUOTE_ALL,
            ).writerow(WRITTEN)
            self._csv = csv.DictWriter(
                self._handle,
                fieldnames=WRITTEN,
                delimiter=delimiter,
                # Every text cell quoted: a separator inside one never starts a cell (OWASP).
                quoting=csv.QUOTE_MINIMAL if raw_csv else csv.QUOTE_NONNUMERIC,
            )

    def write(self, record: Mapping[str, Any]) -> None:
        if self.format == "parquet":
            self._pending.append(record)
            if len(self._pending) >= _BATCH:
                self._flush_parquet()
        elif self._csv is not None:
            self._csv.writerow({k: self._cell(record.get(k)) for k in WRITTEN})
        else:
            assert self._handle is not None
            self._handle.write(json_line(record))

    def _cell(self, value: Any) -> Any:
        if isinstance(value, (list, dict)):
            return json.dumps(value, ensure_ascii=False)
        if value is None:
            return ""
        if isinstance(value, str) and not self.raw_csv:
            return neutralise(value)
        return value

    def _flush_parquet(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if not self._pending:
            return
        columns = {
            name: [_parquet_value(name, r.get(name)) for r in self._pending] for name in WRITTEN
        }
        table = pa.table(columns, schema=self._schema)
        if self._parquet is None:
            self._parquet = pq.ParquetWriter(self._binary, self._schema)
        self._parquet.write_table(table)
        self._pending = []

    def close(self, *, sync: bool = False) -> None:
        """End the file; ``sync``: and have it on disk (before it is renamed into place)."""
        if self.format == "parquet":
            import pyarrow.parquet as pq

            assert self._binary is not None
            if self._parquet is None and not self._pending:
                pq.ParquetWriter(self._binary, self._schema).close()  # an empty, valid file
            else:
                self._flush_parquet()
                self._parquet.close()
                self._parquet = None
            self._binary.flush()
            if sync:
                os.fsync(self._binary.fileno())
            self._binary.close()
            return
        assert self._handle is not None
        self._handle.flush()
        if sync:
            os.fsync(self._handle.fileno())
        self._handle.close()

    def discard(self) -> None:
        """Close without finishing, and remove the file (a write failed)."""
        try:
            if self._handle is not None:
                self._handle.close()
            elif self._parquet is not None:
                self._parquet.close()
        except (OSError, ValueError):
            pass
        try:
            if self._binary is not None:
                self._binary.close()
        except (OSError, ValueError):
            pass
        finally:
            self.path.unlink(missing_ok=True)


def write_table(
    path: Path, fmt: str, records: Iterable[Mapping[str, Any]], *, raw_csv: bool = False
) -> None:
    """Write ``records`` to ``path`` in ``fmt`` and have the file on disk; on a failure the file
    is removed and the error raised."""
    table = TableWriter(path, fmt, raw_csv=raw_csv)
    try:
        for record in records:
            table.write(record)
        table.close(sync=True)
    except BaseException:
        table.discard()
        raise


def parquet_schema() -> Any:
    """The Arrow schema of a Parquet results file (MissingExtraError without pyarrow)."""
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
    for name in ("score", *COMPONENTS, "threshold", "cost"):
        types[name] = pa.float64()
    for name in LISTS:
        types[name] = pa.list_(pa.string())
    types["claim_support"] = claim_support_type()
    return pa.schema([(name, types.get(name, pa.string())) for name in WRITTEN])


def claim_support_type() -> Any:
    """The Arrow type of ``claim_support``: a list of {claim, support}."""
    import pyarrow as pa

    return pa.list_(pa.struct([("claim", pa.string()), ("support", pa.float64())]))


def _parquet_value(name: str, value: Any) -> Any:
    if name == "id" and value is not None:
        value = str(value)
    if name == "options" and value is not None:  # options differ by preset: one JSON text
        value = json.dumps(value, ensure_ascii=False, sort_keys=True)
    if isinstance(value, str):  # Arrow strings are UTF-8: a lone surrogate is escaped
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, list):
        return [_parquet_value("", v) for v in value]
    if isinstance(value, dict):
        return {k: _parquet_value("", v) for k, v in value.items()}
    return value
