"""``--resume``: the records of an earlier run's results file, and which of them a row reuses.

A row reuses an earlier record only when the record was scored without error from the same text
with the same settings (the ``fingerprint`` column, see ``fingerprint``): its own record
(same id and occurrence) first, else any unclaimed record with its fingerprint (the row moved).

The earlier records are those of the results file and of the partial file a killed run left
beside it (``writer.partial_path``), the partial file's first: ``open_resume`` folds
them into the results file before the new run starts its own partial file, so a run that is
killed again, even while resuming, keeps everything scored before it.
"""

from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .places import refuse_in_use
from .tables import output_format, write_table
from .writer import partial_path, read_results, writing_path

__all__ = ["ResumeState", "key_of", "open_resume", "partial_path", "usable"]


def key_of(row_id: Any, variant: str | None = None) -> str:
    """A row's id as a key; an A/B run's rows (one per summary column, ``variant``) are keyed
    by id and column."""
    key = json.dumps(row_id) if not isinstance(row_id, str) else row_id
    return key if variant is None else json.dumps([key, variant])


@dataclass
class ResumeState:
    """The records of an earlier run's results file, by (id, occurrence), in file order, and the
    usable ones by fingerprint (what each was scored from)."""

    old: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    # The first usable record of each fingerprint, and the others in file order (repeated text).
    by_print: dict[str, tuple[str, int]] = field(default_factory=dict)
    more: dict[str, deque[tuple[str, int]]] = field(default_factory=dict)
    taken: set[tuple[str, int]] = field(default_factory=set)  # claimed, not yet written
    reused: int = 0
    replaced: int = 0  # usable earlier results dropped: their row changed, or is gone
    unmarked: int = 0  # of those, the ones with no fingerprint (an older summscore's)
    kept_apart: int = 0

    @classmethod
    def load(cls, path: Path | Sequence[Path], *, by_column: bool = False) -> ResumeState:
        """The records of ``path`` (or of several files, the first's winning: a record whose id
        and occurrence an earlier file holds is left out); ``by_column``: an A/B run's, keyed by
        id and summary column (see ``key_of``). A CSV or TSV file is read as its header says
        (marked for spreadsheets or raw, whatever this run writes)."""
        state = cls()
        for one in [path] if isinstance(path, Path) else path:
            seen: dict[str, int] = {}
            held = set(state.old)
            for record in read_results(one):
                column = record.get("summary_column") if by_column else None
                key = key_of(record.get("id"), column)
                occurrence = seen.get(key, 0)
                seen[key] = occurrence + 1
                if (key, occurrence) not in held:
                    state._add((key, occurrence), record)
        return state

    def _add(self, place: tuple[str, int], record: dict[str, Any]) -> None:
        self.old[place] = record
        mark = record.get("fingerprint")
        if isinstance(mark, str) and mark and usable(record):
            if mark in self.by_print:
                self.more.setdefault(mark, deque()).append(place)
            else:
                self.by_print[mark] = place

    def claim(self, own: tuple[str, int], mark: str | None) -> tuple[str, int] | None:
        """The earlier record to reuse for a row at ``own`` with fingerprint ``mark``: its own
        record if that was scored from the same text and settings, else the first unclaimed
        one that was (the row moved: rows were added or removed above it)."""
        if mark is None:
            return None
        record = self.old.get(own)
        mine = record is not None and record.get("fingerprint") == mark and usable(record)
        found = own if mine and own not in self.taken else self._first_free(mark)
        if found is not None:
            self.taken.add(found)
        return found

    def _first_free(self, mark: str) -> tuple[str, int] | None:
        first = self.by_print.get(mark)
        if first is not None and first not in self.taken and first in self.old:
            return first
        waiting = self.more.get(mark)
        while waiting and (waiting[0] in self.taken or waiting[0] not in self.old):
            waiting.popleft()  # claimed by an earlier row
        return waiting[0] if waiting else None

    def release(self, claimed: tuple[str, int]) -> None:
        """The row that reused ``claimed`` was written: the earlier record leaves."""
        self.old.pop(claimed, None)
        self.taken.discard(claimed)


def open_resume(out: Path, *, raw_csv: bool = False, by_column: bool = False) -> ResumeState | None:
    """``--resume``: the earlier records for ``out`` (None when there are none). Rows a killed
    run left in its partial file are first folded into ``out`` (written beside it, then renamed
    into place; the partial file is removed after), so the new run may start its own.
    ``by_column``: an A/B run's records, keyed by id and summary column; ``raw_csv``: how this
    run writes CSV and TSV text cells (the folded file is written so)."""
    partial = partial_path(out)
    refuse_in_use(partial)  # (a run writing it: its rows are not a stopped run's to fold)
    files = [p for p in (partial, out) if p.is_file() and p.stat().st_size]
    if not files:
        return None
    state = ResumeState.load(files, by_column=by_column)
    if partial in files:
        staged = writing_path(out)
        write_table(staged, output_format(out), state.old.values(), raw_csv=raw_csv)
        os.replace(staged, out)
        partial.unlink()
    return state


def usable(record: dict[str, Any]) -> bool:
    return record.get("error") in (None, "") and record.get("score") not in (None, "")
