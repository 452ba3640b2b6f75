"""Workbooks that would take unbounded memory or time to read are refused before openpyxl
parses them: a few hundred kilobytes of zip can inflate to one cell of gigabytes, or to millions
of empty cells that take minutes to walk.

Every part that matters is scanned before openpyxl opens the workbook, once, as raw bytes, in pieces, at the speed of ``bytes.find`` (the size a
part inflates to is bounded by the size its zip entry declares, which ``zipfile`` enforces):

* the table of shared text (which openpyxl holds whole) at most ``MAX_SHARED_BYTES``;
* no text in it or in a sheet longer than ``4 * MAX_CELL_CHARS`` bytes (a cell past
  ``limits.MAX_CELL_CHARS`` characters, in any UTF-8), and no cell (or entry of the shared text)
  whose XML is longer than ``MAX_CELL_XML_BYTES``: a text cut into thousands of rich-text runs
  (``<r><t>...</t></r>``) has no long run between two tags, yet openpyxl joins it whole;
* a sheet with more than ``FLOOD_CELLS`` cells of which fewer than one in
  ``FLOOD_RATIO`` holds a value is an empty-cell flood, not data.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import IO

from .limits import MAX_CELL_CHARS
from .raw import InputError

__all__ = ["FLOOD_CELLS", "FLOOD_RATIO", "MAX_SHARED_BYTES", "check_sheet", "check_workbook"]

MAX_SHARED_BYTES = 256 * 2**20
MAX_TEXT_BYTES = 4 * MAX_CELL_CHARS  # UTF-8 takes at most 4 bytes a character
MAX_CELL_XML_BYTES = 2 * MAX_TEXT_BYTES  # a cell's markup and text together
FLOOD_CELLS = 5_000_000
FLOOD_RATIO = 20
_CHUNK = 1 << 20
_CELLS = (b"<c ", b"<c>", b"<c/>")
_VALUES = (b"<v>", b"<v ", b"<is>", b"<is ")
# Where a sheet's cell, or an entry of the shared text, may end.
_CELL_STARTS = (b"<c ", b"<c>", b"<c/", b"<row ", b"<row>", b"</row>", b"</sheetData>")
_ENTRY_STARTS = (b"<si>", b"<si ", b"<si/", b"</sst>")
_SAVE_AS_CSV = "open it in Excel or LibreOffice and save the sheet as CSV"


def check_workbook(path: Path) -> None:
    """Refuse a workbook whose table of shared text is too large or holds an over-long text, or
    one of whose sheets does (see ``check_sheet``): before openpyxl opens it, which reads
    every sheet through once to measure it when the file does not say its size."""
    try:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                name = info.filename.lower()
                if name.startswith("xl/worksheets/") and name.endswith(".xml"):
                    with archive.open(info) as part:
                        check_sheet(path, info.filename, part)
                    continue
                if not name.endswith("sharedstrings.xml"):
                    continue
                if info.file_size > MAX_SHARED_BYTES:
                    raise InputError(
                        f"{path}: its table of shared text inflates to {info.file_size:,} bytes, "
                        f"more than the {MAX_SHARED_BYTES:,} summscore holds; {_SAVE_AS_CSV}"
                    )
                with archive.open(info) as part:
                    if _longest_text(part) > MAX_TEXT_BYTES:
                        raise InputError(
                            f"{path}: a cell of its table of shared text is longer than "
                            f"{MAX_CELL_CHARS:,} characters, the most summscore reads in one "
                            "cell (a zip bomb, or text no judge reads)"
                        )
    except InputError:
        raise
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        return  # not a readable zip: openpyxl's own error says so


def check_sheet(path: Path, name: str, part: IO[bytes]) -> None:
    """Refuse the sheet in the workbook's part ``name`` (its XML, ``part``) if it holds an
    over-long text or is an empty-cell flood."""
    cells = values = run = longest = span = 0
    tail = b""
    while chunk := part.read(_CHUNK):
        text = tail + chunk
        cells += sum(map(text.count, _CELLS))
        values += sum(map(text.count, _VALUES))
        run, longest = _runs(chunk, run, longest)
        span, widest = _spans(chunk, span, _CELL_STARTS)
        if longest > MAX_TEXT_BYTES or widest > MAX_CELL_XML_BYTES:
            raise InputError(
                f"{path}: the sheet in {name} holds a cell longer than {MAX_CELL_CHARS:,} "
                "characters, the most summscore reads in one cell (a zip bomb, or text no "
                "judge reads)"
            )
        if cells > FLOOD_CELLS and cells > FLOOD_RATIO * (values + 1):
            raise InputError(
                f"{path}: the sheet in {name} holds more than {FLOOD_CELLS:,} cells, fewer than one "
                f"in {FLOOD_RATIO} with a value: an empty-cell flood, not rows; {_SAVE_AS_CSV}"
            )
        tail = text[-4:]  # a tag cut in two is counted once (at the next piece)
        cells -= sum(map(tail.count, _CELLS))
        values -= sum(map(tail.count, _VALUES))


def _longest_text(part: IO[bytes]) -> int:
    """The longest text of the shared text, in bytes; past the cap as soon as one of its
    entries' XML is longer than ``MAX_CELL_XML_BYTES``."""
    run = longest = span = 0
    while chunk := part.read(_CHUNK):
        run, longest = _runs(chunk, run, longest)
        span, widest = _spans(chunk, span, _ENTRY_STARTS)
        if widest > MAX_CELL_XML_BYTES:
            return MAX_TEXT_BYTES + 1
        if longest > MAX_TEXT_BYTES:
            break
    return longest


def _spans(chunk: bytes, span: int, starts: tuple[bytes, ...]) -> tuple[int, int]:
    """The bytes since the last of ``starts`` at the end of ``chunk`` (``span`` of them before
    it), and the widest stretch without one that ends in it: an upper bound of a cell's XML (a
    stretch inside one piece is at most 1 MiB, far under the cap: only those across pieces
    matter)."""
    found = [at for at in map(chunk.find, starts) if at >= 0]
    if not found:
        return span + len(chunk), span + len(chunk)
    last = max(map(chunk.rfind, starts))
    return len(chunk) - last, span + min(found)


def _runs(chunk: bytes, run: int, longest: int) -> tuple[int, int]:
    """The bytes without a ``<`` that end ``chunk`` (``run`` of them before it), and the longest
    run so far; a text between two tags is such a run."""
    first = chunk.find(b"<")
    if first < 0:
        run += len(chunk)
        return run, max(longest, run)
    longest = max(longest, run + first)
    inside = _longest_inside(chunk, first)
    return len(chunk) - chunk.rfind(b"<") - 1, max(longest, inside)


def _longest_inside(chunk: bytes, start: int) -> int:
    """The longest run without ``<`` between two ``<`` of ``chunk`` (a piece is at most 1 MiB:
    only a run longer than the cap matters, so a piece shorter than it is skipped)."""
    if len(chunk) <= MAX_TEXT_BYTES:
        return 0
    longest, at = 0, start
    while (following := chunk.find(b"<", at + 1)) >= 0:
        longest = max(longest, following - at - 1)
        at = following
    return longest
