"""The structural checks behind a contradiction (see ``_conflicts``): which name or amount
goes with which thing, read from word positions.

* names of a passage that rival a statement's (``_rival_names``);
* two anchors in reversed roles around the same relation word (``_reversed_roles``);
* a rival standing in the slot of a missing anchor (``_slotted``), and a name the source
  connects with other content (``_misattributed``).
"""

from __future__ import annotations

import bisect
from operator import attrgetter

from ._doc import Doc
from ._lexicon import STOPWORDS
from ._match import (
    abbreviated,
    anchor_in_span,
    contains_phrase,
    matches_any,
    name_tokens,
    spelled_out,
)
from ._text import Span
from ._words import canon, has_cjk

_FILLER = frozenset("and the a an of in on at its their his her , 、 ，".split())
_BOUNDARY = frozenset(". ; : ! ? 。 ； ： ！ ？ |".split())
_TOKEN_SET = attrgetter("token_set")


def _rival_names(statement: Span, window: Span, missing: list[str] | None = None) -> list[str]:
    """Names of the window that the statement does not have; with ``missing``, only those of the
    same kind as a missing one (a weekday rivals a weekday, not a person)."""
    kinds = {statement.kinds.get(k, "name") for k in missing} if missing else {"name"}
    lowered = statement.text.lower()
    found = [
        e
        for e in window.entities
        if window.kinds.get(e, "name") in kinds
        and sum(map(str.isalpha, e)) >= 2  # no stray letter ("Â£1m" read in Latin-1)
        and not matches_any(e, statement.entities)
        and not contains_phrase(lowered, e)
        and not spelled_out(e, statement.text)
        and not _abbreviated_by(e, statement)
    ]
    # A name of the statement spelled out in the window leaves it no rival (one question for
    # all the window's names, asked only where some are left).
    if found and any(spelled_out(mine, window.text) for mine in statement.entities):
        return []
    return sorted(found)


def _rival_numbers(statement: Span, window: Span, missing: list[str]) -> list[str]:
    """Numbers of the window that could stand for a missing one: same kind, and the same unit
    where both have one (9 pieces for 8 pieces; not 50 metres for 8 o'clock). An unknown unit
    may be anything but money ("$2 million" is no rival of "5-4"). (The window's numbers are
    grouped by kind and unit once, and each group is taken once: linear in both.)"""
    groups: dict[tuple[str | None, str], list[str]] = {}
    for n in window.numbers - statement.numbers:
        groups.setdefault((window.kinds.get(n), window.units.get(n, "")), []).append(n)
    wanted: set[tuple[str | None, str]] = set()
    any_unit: set[str | None] = set()  # kinds of a missing number of unknown unit
    for key in missing:
        kind, unit = statement.kinds.get(key), statement.units.get(key, "")
        if not unit:
            any_unit.add(kind)
            continue
        wanted.add((kind, unit))
        if unit != "money":
            wanted.add((kind, ""))
    wanted.update(g for g in groups if g[0] in any_unit and g[1] != "money")
    return sorted(n for group in wanted for n in groups.get(group, ()))


def _abbreviated_by(name: str, statement: Span) -> bool:
    """Does ``name`` abbreviate part of a name the statement spells out?"""
    alone = frozenset((name,))
    return any(abbreviated(mine, statement, alone) for mine in statement.entities)


def _between(words: tuple[str, ...], a: int, b: int) -> set[str]:
    low, high = (a, b) if a < b else (b, a)
    return {w for w in words[low + 1 : high] if w not in _FILLER}


def _reversed_roles(statement: Span, window: Span) -> tuple[str, str] | None:
    """Two anchors in the opposite order around the same relation word, not explained by a
    passive ("X bought Y" vs "Y was bought by X"). (Only anchors within 12 words of each other
    are paired, found by their positions: linear in the anchors, not quadratic.)"""
    if len(statement.anchors & window.anchors) < 2:
        return None  # (no pair of anchors to turn round: their positions are not worked out)
    keys = [k for k in statement.positions if k in window.positions]
    for i, j in _close_pairs(keys, statement, 12):
        a, b = keys[i], keys[j]
        if statement.kinds.get(a) != statement.kinds.get(b):
            continue  # roles are swapped between two names, or two amounts, not across
        sa, sb = statement.positions[a][0], statement.positions[b][0]
        wa, wb = window.positions[a][0], window.positions[b][0]
        if sa == sb or wa == wb or (sa < sb) == (wa < wb):
            continue
        if abs(wa - wb) > 12:
            continue
        if _crosses(statement.words, sa, sb, _BOUNDARY) or _crosses(
            window.words, wa, wb, _BOUNDARY
        ):
            continue
        mine = _between(statement.words, sa, sb)
        theirs = _between(window.words, wa, wb)
        if ("by" in mine) != ("by" in theirs):
            continue
        if any(word not in STOPWORDS for word in mine & theirs):  # a shared relation word
            return a, b
    return None


def _close_pairs(keys: list[str], span: Span, reach: int) -> list[tuple[int, int]]:
    """The pairs (i, j), i < j, of ``keys`` whose first positions in ``span`` are at most
    ``reach`` words apart, in the order of a double loop over ``keys``."""
    first = sorted((span.positions[k][0], i) for i, k in enumerate(keys))
    starts = [p for p, _ in first]
    found = []
    for n, (p, i) in enumerate(first):
        for _, j in first[n + 1 : bisect.bisect_right(starts, p + reach)]:
            found.append((min(i, j), max(i, j)))
        # (equal positions before n are paired when their own turn comes)
    return sorted(found)


def _occupied(span: Span) -> frozenset[int]:
    """Word indexes covered by an anchor (a name's words, a number)."""
    return span.occupied


def _crosses(words: tuple[str, ...], i: int, j: int, marks: frozenset[str]) -> bool:
    low, high = (i, j) if i < j else (j, i)
    return any(w in marks for w in words[low + 1 : high])


def _slot(statement: Span, entity: str) -> tuple[str, int] | None:
    """The content word nearest to ``entity`` in the statement (within four words, not across
    punctuation), as (its comparable form, entity position minus word position)."""
    if has_cjk(statement.text):
        return None
    start = statement.positions[entity][0]
    end = start + len(entity.split()) - 1
    occupied = _occupied(statement)
    for step in (1, 2, 3, 4):
        for index, origin in ((end + step, end), (start - step, start)):
            if not 0 <= index < len(statement.words):
                continue
            if _crosses(statement.words, origin, index, _BOUNDARY | {",", "、", "，"}):
                continue
            word = statement.words[index]
            if word in STOPWORDS or not word.isalpha() or index in occupied:
                continue
            return canon(word), start - index
    return None


def _sides(statement: Span, entity: str) -> list[tuple[str, int]]:
    """The slots of ``entity`` on either side: the nearest content word after it and the nearest
    before it (each as ``_slot`` gives one). "Sara Lindqvist will lead" stands beside
    "executive" before it and "lead" after it; a rival beside either stands in its place."""
    start = statement.positions[entity][0]
    end = start + len(entity.split()) - 1
    occupied = _occupied(statement)
    found = []
    for origin, direction in ((end, 1), (start, -1)):
        for step in (1, 2, 3, 4):
            index = origin + direction * step
            if not 0 <= index < len(statement.words):
                break
            if _crosses(statement.words, origin, index, _BOUNDARY | {",", "、", "，"}):
                break
            word = statement.words[index]
            if word in STOPWORDS or not word.isalpha() or index in occupied:
                continue
            found.append((canon(word), start - index))
            break
    return found


_SPEECH = frozenset("said says told announced added stated reported confirmed wrote".split())


def _speakers(clause: Span) -> set[str]:
    """Names in a trailing attribution (", Eisai said"): the subject of what the clause says."""
    words = clause.words
    found: set[str] = set()
    for key, where in clause.positions.items():
        for i in where:
            after = i + len(key.split())
            if after < len(words) and words[after] in _SPEECH and i > 0 and words[i - 1] == ",":
                found.add(key)
    return found


def _in_slot(clause: Span, word: str, distance: int, rivals: list[str]) -> list[str]:
    """Rivals that stand where the statement's name stood, relative to the same content word;
    for a name that came before the word (its subject), also the speaker the clause quotes."""
    anchors = [j for j, w in enumerate(clause.words) if w.isalpha() and canon(w) == word]
    found = [
        r
        for r in rivals
        for j in anchors
        for i in clause.positions.get(r, ())
        if (i - j) * distance > 0 and abs((i - j) - distance) <= 2
    ]
    if distance < 0 and anchors:
        found += [r for r in rivals if r in _speakers(clause)]
    return found


def _misattributed(statement: Span, doc: Doc) -> tuple[str, list[str], str] | None:
    """A name of the statement that the source connects with other content: the source clause
    that best carries the statement's content has another name in the same slot (next to the
    same word), and where the statement's name appears, that content does not."""
    if not statement.entities or len(statement.token_set) < 3:
        return None
    clauses = doc.clauses_sharing(statement.token_set)
    held = list(map(_TOKEN_SET, clauses))
    for entity in sorted(statement.entities):
        rest = statement.token_set - name_tokens(entity)
        if len(rest) < 2 or not clauses:
            continue
        # (The overlaps with every clause are counted in C; the first clause of the largest is
        # the best, as ``max`` picks it.)
        shared = list(map(len, map(rest.intersection, held)))
        most = max(shared)
        best_recall, best = most / len(rest), clauses[shared.index(most)]
        if best_recall < 0.6 or anchor_in_span(entity, statement, best):
            continue
        # (The slot and the rivals, dearer, are only looked for where a clause qualifies.)
        slot = _slot(statement, entity) if entity in statement.positions else None
        if slot is None:
            continue
        rivals = _rival_names(statement, best)
        rivals = sorted(set(_in_slot(best, *slot, rivals))) if rivals else []
        if not rivals:
            continue
        with_entity = [
            n / len(rest)
            for n, c in zip(shared, clauses, strict=True)
            if anchor_in_span(entity, statement, c)
        ]
        if with_entity and max(with_entity) < 0.5:
            return entity, rivals, best.text
    return None


def _slotted(statement: Span, window: Span, missing: list[str], rivals: list[str]) -> list[str]:
    """The rivals that stand where a missing anchor stood (next to the same content word, on
    either side). In CJK text, which has no such slots, every rival counts. Elsewhere a missing
    amount with no content word nearby ("to 1.0% from 1.5%") has no rival, and a missing year
    (the when of the whole statement, "In 1953 Edmund Hillary ...") has every other year."""
    if has_cjk(statement.text):
        return rivals
    found: set[str] = set()
    for m in missing:
        sides = _sides(statement, m) if m in statement.positions else []
        for slot in sides:
            found.update(_in_slot(window, *slot, rivals))
        if not sides and statement.kinds.get(m) == "year":
            found.update(r for r in rivals if window.kinds.get(r) == "year")
    # The subject slot: the statement opens with the missing name, the passage with a rival.
    if any(statement.positions.get(m, (-1,))[0] == 0 for m in missing):
        found |= {r for r in rivals if 0 in window.positions.get(r, ())}
    return sorted(found)
