"""Which case of one run is which case of the other.

By id where the runs have ids (an id named twice pairs its first occurrences, then its second,
...): a pair whose source texts differ (both runs recorded a fingerprint of it) is no pair, and
is listed. Where a run's ids are row numbers (its input had no id column) they name places, not
cases, so the cases are matched by what they were scored from: first the same source and the
same summary, then the same source (the summary changed: the point of most comparisons), each in
file order. Rows that could not be read carry no fingerprint; two such rows under the same row
number are paired (both failed, so they only count as failures).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict, deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from .runs import Run, RunCase

__all__ = ["Matching", "match_runs"]


@dataclass
class Matching:
    """The pairs (base case, candidate case), in the base run's order, and the cases left over."""

    pairs: list[tuple[RunCase, RunCase]]
    unmatched_base: list[RunCase]
    unmatched_candidate: list[RunCase]
    method: str  # "id", "fingerprint" or "row number"
    source_changed: list[Any] = field(default_factory=list)  # ids whose source text differs


def id_key(value: Any) -> str:
    """An id as matched. A number is its value: 3 and 3.0 are one id. A text is the number it
    spells only when it spells it exactly as a results file writes that number (CSV, TSV and
    Parquet hold every id as text): "3" and "3.0" are 3, "1.5" is 1.5, "1e+16" is 1e16; any
    other text is itself, so "007", "1.50", "1e3", "+3", "-0" and " 3" never meet a number."""
    if isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, str):
        value = _spelled_number(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, (int, str)):
        return str(value)
    return json.dumps(value, sort_keys=True, default=str)


def _spelled_number(text: str) -> str | int | float:
    """The number ``text`` is the written form of (Python's and so the CSV writer's: ``str`` of
    an integer, ``repr`` of a float), else ``text``."""
    if not text or not (text[0].isdigit() or text[0] == "-"):
        return text  # (cheap for the usual ids: words, uuids)
    try:
        if str(number := int(text)) == text:
            return number
    except ValueError:  # (not an integer; or one past Python's 4,300 digits: text)
        pass
    try:
        value = float(text)
    except ValueError:
        return text
    return value if math.isfinite(value) and repr(value) == text else text


def match_runs(base: Run, candidate: Run) -> Matching:
    """Pair the cases of two runs (see the module's docstring). Where ids are row numbers and a
    run records no fingerprints (written by an older summscore, or results in memory), the row
    numbers are all there is: the method is then "row number", a file's rows counted from 1 and
    a batch's cases in memory from 0 paired place for place."""
    if base.positional_ids or candidate.positional_ids:
        if _fingerprinted(base) and _fingerprinted(candidate):
            return _by_fingerprint(base, candidate)
        both = base.positional_ids and candidate.positional_ids
        matching = _by_id(base, candidate, _place(base, both), _place(candidate, both))
        matching.method = "row number"
        return matching
    return _by_id(base, candidate)


def _fingerprinted(run: Run) -> bool:
    return any(c.source_fingerprint is not None for c in run.cases)


def _occurrences(
    cases: list[RunCase], key: Callable[[RunCase], Hashable]
) -> dict[Any, deque[RunCase]]:
    found: dict[Any, deque[RunCase]] = defaultdict(deque)
    for case in cases:
        found[key(case)].append(case)
    return found


def _place(run: Run, places: bool) -> Callable[[RunCase], str]:
    """A case's id as matched by row number. When both runs' ids are places (``places``), the
    place counted from 0: a results file numbers its rows from 1, a batch in memory its cases
    from 0 (``Run.first_row``). Otherwise the id as it is (one run has ids, which may be
    numbers)."""
    if not places or not run.first_row:
        return lambda c: id_key(c.id)
    return lambda c: id_key(c.id - run.first_row if type(c.id) is int else c.id)


def _by_id(
    base: Run,
    candidate: Run,
    base_key: Callable[[RunCase], str] = lambda c: id_key(c.id),
    candidate_key: Callable[[RunCase], str] = lambda c: id_key(c.id),
) -> Matching:
    waiting = _occurrences(candidate.cases, candidate_key)
    pairs: list[tuple[RunCase, RunCase]] = []
    left_base: list[RunCase] = []
    taken: set[int] = set()
    changed: list[Any] = []
    for case in base.cases:
        queue = waiting.get(base_key(case))
        other = queue.popleft() if queue else None
        if other is None:
            left_base.append(case)
            continue
        a, b = case.source_fingerprint, other.source_fingerprint
        if a is not None and b is not None and a != b:
            left_base.append(case)
            changed.append(case.id)
            continue  # (the candidate's case stays unmatched)
        taken.add(other.position)
        pairs.append((case, other))
    left_candidate = [c for c in candidate.cases if c.position not in taken]
    return Matching(pairs, left_base, left_candidate, "id", changed)


def _by_fingerprint(base: Run, candidate: Run) -> Matching:
    paired: dict[int, RunCase] = {}  # base position -> candidate case
    taken: set[int] = set()

    def pair_on(key: Callable[[RunCase], Hashable | None]) -> None:
        waiting = _occurrences(
            [c for c in candidate.cases if c.position not in taken and key(c) is not None], key
        )
        for case in base.cases:
            if case.position in paired or (k := key(case)) is None:
                continue
            queue = waiting.get(k)
            if queue:
                other = queue.popleft()
                paired[case.position] = other
                taken.add(other.position)

    def both(c: RunCase) -> Hashable | None:
        if c.source_fingerprint is None or c.summary_fingerprint is None:
            return None
        return (c.source_fingerprint, c.summary_fingerprint)

    pair_on(both)
    pair_on(lambda c: c.source_fingerprint)
    pair_on(lambda c: None if c.source_fingerprint is not None else "row " + id_key(c.id))
    pairs = [(c, paired[c.position]) for c in base.cases if c.position in paired]
    left_base = [c for c in base.cases if c.position not in paired]
    left_candidate = [c for c in candidate.cases if c.position not in taken]
    return Matching(pairs, left_base, left_candidate, "fingerprint")
