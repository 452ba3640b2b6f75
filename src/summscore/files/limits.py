"""How much of an input file summscore holds at once, and inputs that are not regular files.

A judge reads at most 1,000,000 characters of a text (the offline judge's ``MAX_TEXT_CHARS``; an
LLM's context window is smaller), so nothing longer is worth holding. The caps apply while the
file is read, never after, so a file of one endless line costs the cap, not the line:

* ``MAX_CELL_CHARS`` (2,000,000): one CSV, TSV or Parquet cell; a longer one fails its row
  (Parquet's pages are bounded too: see ``parquet``);
* ``MAX_LINE_CHARS`` (16,777,216): one line of a JSONL, CSV or TSV file (a JSONL line
  holds a whole row, whose texts JSON may write as 6-character ``\\uXXXX`` escapes); a longer
  one is read past in pieces and fails its row, and the rows after it are read;
* ``MAX_JSON_CHARS`` (134,217,728): a ``.json`` list, which the standard library reads whole.

A pipe (``<(zcat rows.jsonl.gz)``, a named FIFO) is read as a stream, once: the command waits at
most ``PIPE_WAIT`` seconds for its first byte (a FIFO nobody writes to is refused, not
waited on forever). A device (``/dev/zero``) or a socket is refused.
"""

from __future__ import annotations

import io
import os
import select
import stat
from pathlib import Path
from typing import IO

from .raw import InputError

__all__ = [
    "MAX_CELL_CHARS",
    "MAX_JSON_CHARS",
    "MAX_LINE_CHARS",
    "PIPE_WAIT",
    "CappedLines",
    "LineTooLong",
    "cell_too_long",
    "is_pipe",
    "open_input",
]

MAX_CELL_CHARS = 2_000_000
MAX_LINE_CHARS = 16 * 2**20
MAX_JSON_CHARS = 128 * 2**20
PIPE_WAIT = 30.0  # seconds for a pipe's first byte
_SKIP = 1 << 20  # characters read at a time past an over-long line


class LineTooLong(Exception):
    """A line longer than the cap (read past, never held whole)."""

    def __init__(self, number: int, cap: int) -> None:
        super().__init__(number, cap)
        self.number, self.cap = number, cap

    def problem(self) -> str:
        return (
            f"is longer than {self.cap:,} characters, the most summscore reads in one line "
            f"(a judge reads at most 1,000,000 characters of a text)"
        )


def cell_too_long(cap: int = MAX_CELL_CHARS, column: str | None = None) -> str:
    """What a row holding a cell past ``cap`` characters is told (``column``: the cell's)."""
    where = f" (column {column!r})" if column is not None else ""
    return (
        f"has a cell{where} longer than {cap:,} characters, the most summscore reads "
        "in one cell (a judge reads at most 1,000,000 characters of a text)"
    )


class CappedLines:
    """The lines of ``text``, none longer than ``cap`` characters: a longer line is read past in
    pieces and raises ``LineTooLong`` in its place; iteration goes on after it (but for
    a ``header`` line, without which nothing after it can be read: it is not read past).
    ``count`` is the number of lines read so far (the over-long ones included)."""

    def __init__(self, text: IO[str], cap: int = MAX_LINE_CHARS, *, header: bool = False) -> None:
        self.text, self.cap, self.count = text, cap, 0
        self.header = header  # an over-long first line ends the file: not read past

    def __iter__(self) -> CappedLines:
        return self

    def __next__(self) -> str:
        line = self.text.readline(self.cap + 1)
        if not line:
            raise StopIteration
        self.count += 1
        if len(line) <= self.cap or line.endswith(("\n", "\r")):
            return line
        if self.header and self.count == 1:
            raise LineTooLong(self.count, self.cap)
        while (piece := self.text.readline(_SKIP)) and not piece.endswith(("\n", "\r")):
            pass
        raise LineTooLong(self.count, self.cap)


def is_pipe(path: Path) -> bool:
    """Whether ``path`` is a pipe or FIFO (read once, as a stream)."""
    try:
        return stat.S_ISFIFO(path.stat().st_mode)
    except OSError:
        return False


def open_input(path: Path) -> io.BufferedReader:
    """``path`` opened for reading: a regular file, or a pipe once its first byte has come
    (within ``PIPE_WAIT`` seconds); InputError for a device, a socket or a silent pipe."""
    mode = path.stat().st_mode
    if stat.S_ISREG(mode):
        return io.BufferedReader(io.FileIO(path, "r"))
    if not stat.S_ISFIFO(mode):
        raise InputError(f"{path}: is a device or a socket, not a file; save the rows to a file")
    handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # opening a FIFO never blocks so
    poller = select.poll()
    poller.register(handle, select.POLLIN)
    if not poller.poll(int(PIPE_WAIT * 1000)):
        os.close(handle)
        raise InputError(
            f"{path}: a pipe that nothing was written to in {PIPE_WAIT:g} s (is a program "
            "writing to it?); save the rows to a file, or start the writer first"
        )
    os.set_blocking(handle, True)
    return io.BufferedReader(io.FileIO(handle, "r"))
