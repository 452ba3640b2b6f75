"""The results file of a run: written row by row into a partial file that only grows, finished by
an atomic rename, so that neither a kill nor a full disk ever leaves a damaged results file.

Every row is appended to ``.<name>.partial.jsonl`` beside the results file (``partial_path``)
and flushed as it finishes: a run killed at any point (``kill -9``, the machine going down) keeps
every row it finished there, whatever the format asked for, and ``--resume`` reads them back
(``resume``). ``ResultWriter.close`` then writes the named file, in its own format, from
the partial file (JSONL is renamed as it is; CSV, TSV and Parquet are written beside it first)
and renames it into place: the results file is always either the earlier complete one or the
new complete one. A write that fails (disk full, the file-size limit) raises
``OutputError``, naming the file; the partial file is left for ``--resume``.

``-`` writes JSONL straight to stdout.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from .lines import json_line
from .places import LOCKS, ForeignFileError, create_new, hold
from .result_rows import FIELDS, WRITTEN, finite, is_results_file, output_row, read_results
from .tables import claim_support_type, output_format, parquet_schema, write_table

__all__ = [
    "FIELDS",
    "WRITTEN",
    "OutputError",
    "ResultWriter",
    "claim_support_type",
    "finite",
    "is_results_file",
    "output_row",
    "partial_path",
    "read_results",
    "writing_path",
]

_WHY = {
    errno.ENOSPC: "no space left on the device (ENOSPC)",
    errno.EFBIG: "the file reached the size limit for files (EFBIG)",
    errno.EDQUOT: "the disk quota is used up (EDQUOT)",
}


class OutputError(Exception):
    """A results file or report could not be written (a full disk, the file-size limit, a
    device error); ``path`` is the file, ``reason`` the operating system's error."""

    def __init__(self, path: str | Path, reason: OSError) -> None:
        super().__init__(path, reason)
        self.path, self.reason = Path(path), reason

    def __str__(self) -> str:
        why = _WHY.get(self.reason.errno or 0) or self.reason.strerror or str(self.reason)
        return f"cannot write {self.path}: {why}"


def partial_path(out: Path) -> Path:
    """Where a run appends its rows before ``out`` is finished (beside it, hidden): JSONL,
    whatever ``out``'s format."""
    return out.with_name(f".{out.name}.partial.jsonl")


def writing_path(out: Path) -> Path:
    """Where ``out`` is written in its own format before it is renamed into place."""
    return out.with_name(f".{out.name}.writing{out.suffix}")


class ResultWriter:
    """Write output records for ``path`` (``-``: JSONL on stdout), flushed as written; see the
    module's docstring. ``raw_csv``: CSV and TSV text cells as they are (no spreadsheet mark)."""

    def __init__(
        self, path: str | Path, *, stdout: IO[str] | None = None, raw_csv: bool = False
    ) -> None:
        self.path = Path(path)
        self.raw_csv = raw_csv
        self.rows = 0  # records written
        self._wrapped = False
        if str(path) == "-":
            self.format = "jsonl"
            self.partial: Path | None = None
            stream = stdout or sys.stdout
            buffer = getattr(stream, "buffer", None)
            self._wrapped = buffer is not None and stdout is None
            self._handle: IO[str] = stream
            if buffer is not None and self._wrapped:
                self._handle = io.TextIOWrapper(buffer, encoding="utf-8", errors="backslashreplace")
            return
        self.format = output_format(self.path)
        if self.format == "parquet":
            parquet_schema()  # fails early, with the extra to install
        self.partial = partial_path(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:  # (afresh, never through a link: see places.create_new)
            self._handle = create_new(
                self.partial, "w", encoding="utf-8", errors="backslashreplace", newline=""
            )
            hold(self._handle)  # (a second run on this --out is refused: places.in_use)
        except ForeignFileError:
            raise
        except OSError as exc:
            raise OutputError(self.partial, exc) from None

    @property
    def where(self) -> Path:
        """The file being written now: the partial file (the results file on stdout)."""
        return self.partial or self.path

    def write(self, record: Mapping[str, Any]) -> None:
        try:
            self._handle.write(json_line(record))
            self._handle.flush()
        except OSError as exc:
            raise OutputError(self.where, exc) from None
        self.rows += 1

    def close(self) -> None:
        """Finish the results file (see the module's docstring); OutputError if it cannot be."""
        if self.partial is None:
            self._release_stdout()
            return
        try:
            self._handle.flush()
            if self.format == "jsonl":
                os.fsync(self._handle.fileno())
            if not LOCKS:  # (Windows renames no open file)
                self._handle.close()
        except OSError as exc:
            self.abandon()
            raise OutputError(self.partial, exc) from None
        # The partial file stays open, so locked (``places.hold``), until the results file is in
        # place: a second run on this --out let in meanwhile would remove it and begin its own.
        try:
            if self.format == "jsonl":
                self._rename(self.partial)
                return
            staged = writing_path(self.path)
            try:
                write_table(staged, self.format, _journal(self.partial), raw_csv=self.raw_csv)
            except OSError as exc:
                raise OutputError(self.path, exc) from None
            self._rename(staged)
            self.partial.unlink(missing_ok=True)
        finally:
            with contextlib.suppress(OSError):
                self._handle.close()

    def _rename(self, source: Path) -> None:
        try:
            os.replace(source, self.path)
        except OSError as exc:
            raise OutputError(self.path, exc) from None

    def abandon(self) -> None:
        """Stop writing and leave the partial file as it is (for ``--resume``)."""
        if self.partial is None:
            self._release_stdout()
            return
        # A full disk fails the flush of what is left: a row cut short, skipped when read.
        with contextlib.suppress(OSError, ValueError):
            self._handle.close()

    def _release_stdout(self) -> None:
        try:
            self._handle.flush()
        except OSError as exc:
            raise OutputError(Path("<stdout>"), exc) from None
        finally:
            if self._wrapped:  # give stdout back rather than close it with the wrapper
                self._handle.detach()  # type: ignore[attr-defined]
                self._wrapped = False

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _journal(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a partial file (a line cut short by a kill is skipped)."""
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                yield record
