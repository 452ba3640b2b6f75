"""The rows ``summscore score`` holds at once: windows bounded by their count and their bytes.

The rows are read lazily and scored a window at a time; a window's rows, their cases and their
results are all the run holds of the input (results wait there to be written in input order).
A window counted in rows alone (32 per concurrent case, at least 256) would hold 256 rows however
long they are: rows of 1.9 million characters made it about 500 MB, in the parent, before a
worker held any. So a window also ends once its rows' texts (source,
summary, questions) reach ``WINDOW_BYTES``; a row longer than that alone is a window of its own.
Every row is still scored, with the same numbers, in the same order; ordinary rows (a few
kilobytes) never reach the bound, so their windows are the same as before.

Each row is let go as soon as it is written (not when its whole window is): the window's list
keeps only the rows still waiting for their result or for an earlier row's.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import Any

from ..cases import Case
from ..results import SummaryResult
from ..scorer import SummarizationScorer
from .datasets import Row
from .job import RunSink, settled

__all__ = ["WINDOW_BYTES", "row_bytes", "score_windows", "windows"]

# The bytes of text one window may hold (Python's own size of the rows' strings). 32 MiB: a
# worker process's share of a window is then a few messages of rows, and 256 rows of a few
# kilobytes (the files most runs score) stay far below it.
WINDOW_BYTES = 32 * 2**20


def row_bytes(row: Row) -> int:
    """The bytes ``row``'s texts take in memory (``sys.getsizeof`` of each string: 1 to 4 bytes
    a character, as Python stores it)."""
    size = 0
    for value in (row.source, row.summary, row.assessment_questions):
        if isinstance(value, str):
            size += sys.getsizeof(value)
        elif isinstance(value, list):
            size += sum(sys.getsizeof(v) for v in value if isinstance(v, str))
    return size


def windows(rows: Iterable[Row], count: int, max_bytes: int) -> Iterator[list[Row]]:
    """``rows`` in lists of at most ``count`` rows, each ending at the row that brings its
    bytes (``row_bytes``) to ``max_bytes`` or past it (so a list has at least one row)."""
    chunk: list[Row] = []
    held = 0
    for row in rows:
        chunk.append(row)
        held += row_bytes(row)
        if len(chunk) >= count or held >= max_bytes:
            yield chunk
            chunk, held = [], 0
    if chunk:
        yield chunk


async def score_windows(
    scorer: SummarizationScorer,
    rows: Iterable[Row],
    sink: RunSink,
    progress: Any,
    *,
    window: int | None = None,
    max_bytes: int | None = None,
    stream: Callable[[Iterable[Case]], AsyncIterator[tuple[int, SummaryResult]]] | None = None,
    on_window: Callable[[list[Row]], None] | None = None,
) -> None:
    """Score ``rows`` and hand each result to ``sink`` in input order, in windows of at most ``window`` rows (default: 32 per
    concurrent case, at least 256) and about ``max_bytes`` of text (default ``WINDOW_BYTES``).
    ``stream`` scores a window's cases in place of ``scorer.ascore_stream`` (``--workers``);
    ``on_window`` sees each window before it is scored (the tests' hook)."""
    size = window or max(256, 32 * scorer.max_concurrency)
    budget = WINDOW_BYTES if max_bytes is None else max_bytes
    stream = stream or scorer.ascore_stream
    for chunk in windows(rows, size, budget):
        if on_window is not None:
            on_window(chunk)
        await _score_window(scorer, chunk, sink, progress, stream)
        del chunk  # (not held while the next window is read)


async def _score_window(
    scorer: SummarizationScorer,
    chunk: list[Row],
    sink: RunSink,
    progress: Any,
    stream: Callable[[Iterable[Case]], AsyncIterator[tuple[int, SummaryResult]]],
) -> None:
    ready: dict[int, SummaryResult | dict[str, Any]] = {}
    todo: list[int] = []
    for index, row in enumerate(chunk):
        outcome = settled(sink, scorer, row)
        if outcome is None:
            todo.append(index)
        else:
            ready[index] = outcome
    held: list[Row | None] = list(chunk)
    chunk.clear()  # the rows are held in ``held`` alone, each until it is written
    position = _flush(held, ready, 0, sink, progress)

    def cases() -> Iterator[Case]:
        for i in todo:
            row = held[i]
            assert row is not None  # (written only once scored)
            yield Case(
                row.source,  # type: ignore[arg-type]
                row.summary,  # type: ignore[arg-type]
                row.assessment_questions,
                id=row.id,
            )

    async for case_index, result in stream(cases()):
        ready[todo[case_index]] = result
        position = _flush(held, ready, position, sink, progress)


def _flush(
    held: list[Row | None],
    ready: dict[int, SummaryResult | dict[str, Any]],
    position: int,
    sink: RunSink,
    progress: Any,
) -> int:
    """Emit the finished rows from ``position`` on, in order, letting each go once written;
    returns the next unfinished one."""
    while position in ready:
        row = held[position]
        assert row is not None
        sink.emit(row, ready.pop(position))
        held[position] = None
        progress.update(1)
        position += 1
    return position
