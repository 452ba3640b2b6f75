"""``--resume``: the records of an earlier run's results file, and which of them a row reuses.

A row reuses an earlier record only when the record was scored without error from the same text
with the same settings (the ``fingerprint`` column, see ``fingerprint``): its own record
(same id and occurrence) first, else any unclaimed record with its fingerprint (the row moved).
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .writer import read_results

__all__ = ["ResumeState", "key_of", "partial_path", "usable"]


def key_of(row_id: Any) -> str:
    return json.dumps(row_id) if not isinstance(row_id, str) else row_id


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
    def load(cls, path: Path) -> ResumeState:
        state = cls()
        seen: dict[str, int] = {}
        for record in read_results(path):
            key = key_of(record.get("id"))
            occurrence = seen.get(key, 0)
            seen[key] = occurrence + 1
            state.old[(key, occurrence)] = record
            mark = record.get("fingerprint")
            if isinstance(mark, str) and mark and usable(record):
                if mark in state.by_print:
                    state.more.setdefault(mark, deque()).append((key, occurrence))
                else:
                    state.by_print[mark] = (key, occurrence)
        return state

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


def partial_path(out: Path) -> Path:
    """Where a ``--resume`` run writes before it replaces ``out`` (beside it, hidden), so the
    earlier results stay whole until the new file is complete."""
    return out.with_name(f".{out.name}.resume-partial{out.suffix}")


def usable(record: dict[str, Any]) -> bool:
    return record.get("error") in (None, "") and record.get("score") not in (None, "")
