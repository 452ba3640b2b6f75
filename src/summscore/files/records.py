"""Raw records from a file: JSONL, JSON (a list of objects), CSV, TSV, Parquet or an Excel
worksheet (``xlsx``), the text formats maybe gzipped.

This layer knows formats, encodings and compression, nothing about columns. It yields
``Record`` objects lazily (JSON lists excepted: the standard library cannot stream them). A
record that cannot be read (broken JSON, a number Python refuses, nesting too deep, a CSV error)
is a ``Record`` with ``problem`` set; only a problem with the whole file raises
``InputError``, with one line that names the file.

Undecodable bytes never raise: text is decoded with ``surrogateescape``, so a byte that is not
valid in the chosen encoding becomes a character in U+DC80..U+DCFF that ``undecodable``
finds later, in the fields that matter, and the row says which line and column hold it.
"""

from __future__ import annotations

import codecs
import gzip
import io
import json
import re
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .delimited import DELIMITER_NAMES, damaged, delimited, parse_delimiter, sniff_delimiter
from .limits import MAX_JSON_CHARS, MAX_LINE_CHARS, CappedLines, LineTooLong, open_input
from .parquet import open_parquet
from .raw import CellError, InputError, Record, RecordFile, TooLongNumber

__all__ = [
    "DELIMITER_NAMES",
    "FORMATS",
    "CellError",
    "InputError",
    "Record",
    "RecordFile",
    "TooLongNumber",
    "count_records",
    "file_format",
    "open_records",
    "parse_delimiter",
    "sniff_delimiter",
    "undecodable",
]

FORMATS = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".csv": "csv",
    ".tsv": "tsv",
    ".parquet": "parquet",
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
}
_NOT_READ = {
    ".xls": "the Excel 97-2003 format is not read; save it as .xlsx or .csv",
    ".ods": "OpenDocument spreadsheets are not read; save it as .xlsx or .csv",
}
_GZIP_MAGIC = b"\x1f\x8b"
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


def _int_limit() -> int:
    get = getattr(sys, "get_int_max_str_digits", None)
    return int(get()) if get is not None else 0


def _parse_int(text: str) -> Any:
    limit = _int_limit()
    digits = len(text.lstrip("-"))
    if limit and digits > limit:
        return TooLongNumber(digits)
    return int(text)


_DECODER = json.JSONDecoder(parse_int=_parse_int)


def _loads(text: str) -> tuple[Any, str | None]:
    """Parse JSON text: (value, None), or (None, what is wrong) without raising."""
    try:
        return _DECODER.decode(text), None
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON ({exc.msg.removesuffix(' at')} at column {exc.colno})"
    except RecursionError:
        return None, "JSON nested too deeply to read"
    except ValueError as exc:  # a float or int the interpreter refuses
        return None, f"a JSON value Python cannot read ({exc})"


def undecodable(text: str) -> str | None:
    """Where ``text`` holds a byte the file's encoding could not decode, described; else None."""
    found = _ESCAPED_BYTE.search(text)
    if found is None:
        return None
    byte = ord(found.group(0)) - 0xDC00
    return f"byte 0x{byte:02x} at character {found.start() + 1}"


def file_format(path: Path) -> str:
    """The format named by the file's suffix; ``.gz`` after it means gzip-compressed."""
    suffixes = [s.lower() for s in path.suffixes]
    gzipped = bool(suffixes) and suffixes[-1] == ".gz"
    if gzipped:
        suffixes.pop()
    last = suffixes[-1] if suffixes else ""
    if last in _NOT_READ:
        raise InputError(f"{path}: {_NOT_READ[last]}")
    fmt = FORMATS.get(last)
    if fmt is None:
        raise InputError(
            f"{path}: unknown file type {path.suffix or '(none)'}; use .jsonl, .json, .csv, .tsv "
            "(optionally .gz), .parquet, .xlsx or .xlsm"
        )
    if gzipped and fmt in ("parquet", "xlsx"):
        raise InputError(f"{path}: a {last} file is compressed already; unpack the .gz first")
    return fmt


def open_records(
    path: str | Path,
    encoding: str = "utf-8",
    *,
    sheet: str | None = None,
    delimiter: str | None = None,
) -> RecordFile:
    """Open ``path`` for reading records; raises InputError for a problem with the whole file.
    ``sheet``: the worksheet of an Excel workbook (by default its only one with data);
    ``delimiter``: a CSV file's (by default detected from its first lines; tab for .tsv)."""
    path = Path(path)
    fmt = file_format(path)
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}, e.g. utf-8, latin-1, cp1252") from None
    if path.is_dir():
        raise InputError(f"{path}: is a directory, not a file")
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if fmt in ("parquet", "xlsx") and not path.is_file():
        raise InputError(f"{path}: a .{fmt} file is read from a regular file, not a pipe or device")
    if sheet is not None and fmt != "xlsx":
        raise InputError(f"{path}: --sheet is for Excel workbooks (.xlsx), not .{fmt} files")
    if delimiter is not None and fmt not in ("csv", "tsv"):
        raise InputError(f"{path}: --delimiter is for CSV and TSV files, not .{fmt} files")
    if fmt == "parquet":
        return open_parquet(path)
    if fmt == "xlsx":
        from .xlsx import open_workbook

        return open_workbook(path, sheet)
    try:
        raw = _open_binary(path)
        text, encoding = _open_text(raw, encoding, newline="" if fmt in ("csv", "tsv") else None)
    except InputError:
        raise
    except OSError as exc:
        raise InputError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except (EOFError, zlib.error) as exc:
        raise InputError(f"{path}: a damaged gzip file ({exc})") from None
    if fmt == "jsonl":
        return RecordFile(path, fmt, encoding, _jsonl(path, text))
    if fmt == "json":
        return RecordFile(path, fmt, encoding, _json_list(path, text))
    return delimited(path, text, encoding, fmt, delimiter)


def _open_binary(path: Path) -> IO[bytes]:
    """The file's bytes, unpacked when it is gzipped (a pipe too: nothing is read twice)."""
    raw = open_input(path)
    if raw.peek(2)[:2] == _GZIP_MAGIC:
        return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]
    return raw


def _open_text(raw: IO[bytes], encoding: str, newline: str | None) -> tuple[IO[str], str]:
    """Text from ``raw``: a byte-order mark decides the encoding when there is one."""
    buffered = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(raw)  # type: ignore[type-var]
    head = buffered.peek(4)[:4]
    for bom, name in _BOMS:
        if head.startswith(bom):
            encoding = name
            break
    text = io.TextIOWrapper(buffered, encoding=encoding, errors="surrogateescape", newline=newline)
    return text, encoding


def _jsonl(path: Path, text: IO[str]) -> Iterator[Record]:
    line_number = 0
    with text:
        lines = CappedLines(text, MAX_LINE_CHARS)  # a line is never held past the cap
        while True:
            try:
                line = next(lines)
            except StopIteration:
                return
            except LineTooLong as exc:
                line_number = exc.number
                yield Record(line_number, f"line {line_number}", problem=exc.problem())
                continue
            except (
                OSError,
                EOFError,
                zlib.error,
                UnicodeError,
            ) as exc:  # a damaged or truncated .gz
                yield Record(line_number + 1, f"line {line_number + 1}", problem=damaged(path, exc))
                return
            line_number += 1
            if not line.strip():
                continue
            # A record is numbered by its line (its id when the file has none): blank lines
            # count, so "line 10" is id 10, as an editor shows it.
            number = line_number
            value, problem = _loads(line)
            if problem is not None:
                yield Record(number, f"line {line_number}", problem=f"is {problem}")
            elif not isinstance(value, dict):
                kind = "null" if value is None else type(value).__name__
                yield Record(
                    number, f"line {line_number}", problem=f"is a JSON {kind}, not an object"
                )
            else:
                yield Record(number, f"line {line_number}", fields=value)


def _json_list(path: Path, text: IO[str]) -> Iterator[Record]:
    try:
        with text:
            content = text.read(MAX_JSON_CHARS + 1)
    except (OSError, EOFError, zlib.error, UnicodeError) as exc:
        raise InputError(f"{path}: {damaged(path, exc)}") from None
    if len(content) > MAX_JSON_CHARS:
        raise InputError(
            f"{path}: a .json list is read whole, and this one is longer than "
            f"{MAX_JSON_CHARS:,} characters; write it as .jsonl (one object per line)"
        )
    value, problem = _loads(content)
    if problem is not None:
        raise InputError(f"{path}: the file is {problem}")
    if not isinstance(value, list):
        raise InputError(
            f"{path}: a .json input is a list of objects, got a JSON {type(value).__name__}; "
            "use .jsonl for one object per line"
        )
    for index, item in enumerate(value, start=1):
        if isinstance(item, dict):
            yield Record(index, f"item {index}", fields=item)
        else:
            kind = "null" if item is None else type(item).__name__
            yield Record(index, f"item {index}", problem=f"is a JSON {kind}, not an object")


def count_records(
    path: str | Path,
    encoding: str = "utf-8",
    *,
    sheet: str | None = None,
    delimiter: str | None = None,
) -> int | None:
    """How many records ``path`` holds, read quickly (for a progress bar); None if unknown."""
    try:
        path = Path(path)
        fmt = file_format(path)
        if not path.is_file():
            return None  # a pipe is read once, by the run itself
        if fmt == "parquet":
            import pyarrow.parquet as pq

            return int(pq.ParquetFile(path).metadata.num_rows)
        if fmt == "jsonl":  # one record per non-blank line: no need to parse it
            with _open_binary(path) as raw:
                return _count_lines(raw)
        opened = open_records(path, encoding, sheet=sheet, delimiter=delimiter)
        return sum(1 for _ in opened.records)
    except Exception:
        return None


def _count_lines(raw: IO[bytes]) -> int:
    """The non-blank lines of ``raw``, read in pieces (a line is never held whole)."""
    count, filled = 0, False
    while chunk := raw.read(1 << 20):
        parts = chunk.split(b"\n")
        for part in parts[:-1]:
            count += filled or bool(part.strip())
            filled = False
        filled = filled or bool(parts[-1].strip())
    return count + filled
