"""CSV and TSV files as records: the delimiter read from the header and first rows (or given),
cells of any length, a row that is not valid CSV one record's problem, not the file's.

A quote that opens a cell and never closes makes the csv module read the lines after it into
that cell, up to the end of the file or to a later quote, so the rows below would vanish into
the row above. A record read over several lines is read again strictly; when that fails (or the
file ended inside the quote) the record's first line is one row's problem and the lines after it
are read again as rows of their own."""

from __future__ import annotations

import csv
import io
import zlib
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .limits import MAX_CELL_CHARS, MAX_LINE_CHARS, CappedLines, LineTooLong, cell_too_long
from .raw import InputError, Record, RecordFile

__all__ = ["DELIMITER_NAMES", "damaged", "delimited", "parse_delimiter", "sniff_delimiter"]

DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
# Tried in this order; of two that read the sample equally well, the earlier (rarer) one wins.
_CANDIDATES = ("\t", "|", ";", ",")
_SAMPLE_CHARS = 64 * 1024


def parse_delimiter(text: str) -> str:
    """``--delimiter``'s value: one character, or its name (comma, semicolon, tab, pipe, or
    ``\\t`` as typed in a shell); ValueError otherwise."""
    names = {name: char for char, name in DELIMITER_NAMES.items()}
    value = names.get(text.strip().lower(), "\t" if text == "\\t" else text)
    if len(value) != 1 or value in '\r\n"' or value.isalnum():
        raise ValueError(
            f"--delimiter {text!r}: give one character or a name: comma, semicolon, tab, pipe"
        )
    return value


def sniff_delimiter(sample: str, complete: bool = True) -> str | None:
    """The delimiter of a CSV file from its first lines (``sample``; ``complete`` False when the
    file goes on, so its last record may be cut): of tab, pipe, semicolon and comma, the one that
    splits the header into two or more columns and gives the most rows of the header's width
    (the earlier of two equally good). None when none splits the header: one column.

    Measured against csv.Sniffer and clevercsv on exports from the wild (a BOM, ';' and CRLF
    from a European Excel, numbers with decimal commas, prose full of commas, a sample cut
    inside a quoted field): this reads all of them right, where csv.Sniffer takes seconds on a
    64 KB sample and picks ',' for '1;0,5;0,25' or a letter for a one-column file, and clevercsv
    guesses no quote character on a sample without quotes."""
    best: str | None = None
    best_score = (-1.0, 0)
    for rank, delimiter in enumerate(_CANDIDATES):
        try:
            rows = list(csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter))
        except csv.Error:
            continue
        if not complete and len(rows) > 1:
            rows = rows[:-1]
        rows = [row for row in rows if any(cell.strip() for cell in row)]
        if not rows or len(rows[0]) < 2:
            continue
        width = len(rows[0])
        data = rows[1:]
        consistent = sum(len(row) == width for row in data) / len(data) if data else 1.0
        score = (consistent, -rank)
        if score > best_score:
            best, best_score = delimiter, score
    return best


def damaged(path: Path, exc: BaseException) -> str:
    return f"the rest of the file could not be read ({type(exc).__name__}: {exc})"


def delimited(
    path: Path, text: IO[str], encoding: str, fmt: str, delimiter: str | None
) -> RecordFile:
    if csv.field_size_limit() != MAX_CELL_CHARS:
        csv.field_size_limit(MAX_CELL_CHARS)  # a longer cell fails its row as it is read
    stream: Any = text
    how = "--delimiter"
    if delimiter is None and fmt == "tsv":
        delimiter, how = "\t", "the .tsv name"
    elif delimiter is None:
        try:
            sample = text.read(_SAMPLE_CHARS)
            rest = text.readline(MAX_LINE_CHARS + 1)  # the sample ends where a line does
        except (OSError, EOFError, zlib.error, UnicodeError) as exc:
            raise InputError(f"{path}: cannot read the header line ({exc})") from None
        if (
            len(sample) + len(rest) > MAX_LINE_CHARS
            and not rest.endswith(("\n", "\r"))
            and "\n" not in sample
            and "\r" not in sample
        ):  # the header line alone is past the cap: refused before it is copied
            raise InputError(f"{path}: the header line {LineTooLong(1, MAX_LINE_CHARS).problem()}")
        stream = _Prefixed(sample + rest, text)
        if len(rest) > _SAMPLE_CHARS:  # a line far longer than a sample: sniff without it
            found = sniff_delimiter(sample, complete=False)
        else:
            found = sniff_delimiter(sample + rest, complete=not rest)
        delimiter, how = (found, "detected") if found else (",", "one column")
    lines = _LineFeed(CappedLines(stream, MAX_LINE_CHARS, header=True))
    reader = csv.reader(lines, delimiter=delimiter, quotechar='"', doublequote=True)
    try:
        header = next(reader, None)
    except LineTooLong as exc:
        raise InputError(f"{path}: the header line {exc.problem()}") from None
    except (csv.Error, OSError, EOFError, zlib.error, UnicodeError) as exc:
        raise InputError(f"{path}: cannot read the header line ({exc})") from None
    if header is None:
        text.close()
        raise InputError(f"{path}: the file is empty")
    names = [name.strip() for name in header]
    bom = (
        " with a byte-order mark"
        if encoding.endswith("-sig") or encoding in ("utf-16", "utf-32")
        else ""
    )
    dialect = (
        f"{DELIMITER_NAMES.get(delimiter, repr(delimiter))}-separated ({how}), "
        f"{encoding.removesuffix('-sig')}{bom}"
    )
    return RecordFile(
        path,
        "tsv" if delimiter == "\t" else "csv",
        encoding,
        _delimited_rows(path, text, reader, lines, names),
        columns=names,
        dialect=dialect,
    )


def _delimited_rows(
    path: Path, text: IO[str], reader: Any, lines: _LineFeed, names: list[str]
) -> Iterator[Record]:
    number = 0
    with text:
        while True:
            start = lines.next_number
            lines.begin_record()
            try:
                cells = next(reader)
            except StopIteration:
                return
            except _RecordTooLong:
                number += 1
                first = lines.read_again_after_first(reader.dialect)
                yield Record(number, f"line {start}", _fields(names, first), _RECORD_TOO_LONG)
                continue
            except LineTooLong as exc:
                number += 1
                yield Record(number, f"line {exc.number}", problem=exc.problem())
                continue
            except csv.Error as exc:
                number += 1
                if "field larger than field limit" not in str(exc):
                    yield Record(number, f"line {start}", problem=f"is not valid CSV ({exc})")
                elif lines.several_lines:  # (perhaps a quote that never closes: read them again)
                    first = lines.read_again_after_first(reader.dialect)
                    problem = f"{cell_too_long(MAX_CELL_CHARS)}; {_READ_AGAIN}"
                    yield Record(number, f"line {start}", _fields(names, first), problem)
                else:
                    yield Record(number, f"line {start}", problem=cell_too_long(MAX_CELL_CHARS))
                continue
            except (OSError, EOFError, zlib.error, UnicodeError) as exc:
                yield Record(number + 1, f"line {start}", problem=damaged(path, exc))
                return
            if lines.unclosed_quote(reader.dialect):
                number += 1
                first = lines.read_again_after_first(reader.dialect)  # (its cells: for the id)
                yield Record(number, f"line {start}", _fields(names, first), _UNCLOSED)
                continue
            if reader.dialect.delimiter == "\t" and (plain := lines.plain_tsv()) is not None:
                cells = plain  # (a cell that only begins with a quote: `"Yes" she said.`)
            if not cells or (len(cells) == 1 and not cells[0].strip()):
                continue  # blank line
            number += 1
            yield Record(number, f"line {start}", fields=_fields(names, cells))


def _fields(names: list[str], cells: list[str]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for name, cell in zip(names, cells):
        fields.setdefault(name, cell)  # (a name given twice: its first column)
    return fields


_UNCLOSED = (
    'has a quote (") that opens a cell and never closes, so the lines after it were read into '
    "that cell: they are read again as rows of their own; close the quote, or double a quote "
    'inside a quoted cell ("")'
)


_READ_AGAIN = (
    "its cells run over several lines (a quote that never closes?): the lines after its first "
    "are read again as rows of their own"
)
_RECORD_TOO_LONG = (
    f"runs over more than {MAX_LINE_CHARS:,} characters of lines, the most summscore reads for "
    f"one row; {_READ_AGAIN}"
)


class _RecordTooLong(LineTooLong):
    """A record whose lines (a quoted cell with line breaks, or many) run past the line cap:
    each cell may be within ``MAX_CELL_CHARS``, but the record is held whole until it ends."""


class _LineFeed:
    """The lines of a CSV file for ``csv.reader``, keeping those of the record being read (one
    line, or several for a quoted cell with line breaks) so that a record read wrongly past an
    unclosed quote can be read again from its second line. ``count``: the number of the last
    line given out."""

    def __init__(self, lines: CappedLines) -> None:
        self._lines = lines
        self._again: deque[tuple[int, str]] = deque()  # lines to give out again, numbered
        self._taken: list[tuple[int, str]] = []
        self._ended = False
        self._chars = 0  # of the record being read
        self.count = 0

    def __iter__(self) -> _LineFeed:
        return self

    def __next__(self) -> str:
        if self._again:
            self.count, line = self._again.popleft()
        else:
            try:
                line = next(self._lines)
            except StopIteration:
                self._ended = True
                raise
            self.count = self._lines.count
        self._taken.append((self.count, line))
        self._chars += len(line)
        if self._chars > MAX_LINE_CHARS and len(self._taken) > 1:
            raise _RecordTooLong(self.count, MAX_LINE_CHARS)  # read again from its 2nd line
        return line

    @property
    def next_number(self) -> int:
        """The number of the line given out next."""
        return self._again[0][0] if self._again else self._lines.count + 1

    def begin_record(self) -> None:
        self._taken.clear()
        self._ended = False
        self._chars = 0

    @property
    def several_lines(self) -> bool:
        """Whether the record being read took more than one line."""
        return len(self._taken) > 1

    def unclosed_quote(self, dialect: Any) -> bool:
        """Whether the record just read ran past a quote that never closes: the file ended
        inside it, or its lines (several) are not one valid record when read strictly."""
        if self._ended:  # (a record cannot end at the end of the file but inside a quote)
            return True
        if len(self._taken) < 2:
            return False
        strict = csv.reader(
            [line for _, line in self._taken],
            delimiter=dialect.delimiter,
            quotechar='"',
            doublequote=True,
            strict=True,
        )
        try:
            return len(list(strict)) != 1
        except csv.Error:
            return True

    def plain_tsv(self) -> list[str] | None:
        """The cells of the one-line TSV record just read, split at its tabs, when it is not valid
        quoted CSV (a cell that begins with a quote and goes on after the closing one, as in
        `"Yes" she said.`: IANA's TSV has no quoting, and the csv module would drop the quotes);
        None when it is (a cell quoted whole, as Excel writes one, keeps its CSV reading)."""
        if len(self._taken) != 1 or '"' not in (line := self._taken[0][1]):
            return None
        strict = csv.reader([line], delimiter="\t", quotechar='"', doublequote=True, strict=True)
        try:
            next(strict, None)
        except csv.Error:
            return line.rstrip("\r\n").split("\t")
        return None

    def read_again_after_first(self, dialect: Any) -> list[str]:
        """Give out the record's lines again from its second; returns the cells of its first
        (the broken row) read alone, its open cell running to the end of the line."""
        first = self._taken[0][1] if self._taken else ""
        self._again.extendleft(reversed(self._taken[1:]))
        self._taken.clear()
        alone = csv.reader([first], delimiter=dialect.delimiter, quotechar='"', doublequote=True)
        return next(alone, [])


class _Prefixed:
    """``text`` read again from its start: ``head`` (what was read of it already), then the rest
    of ``text``; ``readline`` joins a line that runs on from one into the other."""

    def __init__(self, head: str, text: IO[str]) -> None:
        self._head, self._text = io.StringIO(head, newline=""), text

    def readline(self, size: int = -1) -> str:
        line = self._head.readline(size)
        if line.endswith(("\n", "\r")) or (size >= 0 and len(line) >= size):
            return line
        return line + self._text.readline(size - len(line) if size >= 0 else -1)
