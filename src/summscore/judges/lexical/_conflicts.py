"""Contradictions a lexical judge can trust: the checks behind a "no" verdict.

* a number or name the text lacks where the matching passage has another of the same kind
  ("4.5%" where the source says "5.5%", "Asian" where it says "African");
* two anchors in reversed roles around the same relation word ("Baltic Dairy will buy Northwind"
  where the source says "Northwind agreed to buy Baltic Dairy"; "to $55m from $41m");
* an amount or a name attached to the wrong thing ("Hillary of Nepal"; "the company wants 6%"
  where the union wants 6%; a founder named where the source names another);
* a flipped negation or an antonym in an otherwise matching passage.

One structural check is weaker and only raises a :class:`Doubt` (a reason, not a "no"): a name
the matching passage pairs with another than the statement does ("the source puts ... with ...").
A statement that lists two pairs in another order or wording than the passage trips it
("the Patriots vs. the Chiefs and the Rams vs. the Saints"): on the validation cuts of the
development sets, the claims it marked were all consistent (on the test cuts, 2 of 3).
"""

from __future__ import annotations

from ._doc import Doc
from ._lexicon import OPPOSITES, STOPWORDS
from ._match import (
    abbreviated,
    anchor_in_doc,
    anchor_in_span,
    clip,
    contains_phrase,
    fragments,
    matches_any,
    name_tokens,
    pieces,
    ranked,
    recall,
    spelled_out,
    split_fragments,
)
from ._text import Span, negated_heads
from ._words import canon, has_cjk

__all__ = ["Doubt", "contradicted"]

_FILLER = frozenset("and the a an of in on at its their his her , 、 ，".split())
_BOUNDARY = frozenset(". ; : ! ? 。 ； ： ！ ？ |".split())

# ------------------------------------------------------------------------------ contradiction


class Doubt(str):
    """The reason of a weak conflict: the statement is not confirmed, but not contradicted."""


def _rival_numbers(statement: Span, window: Span, missing: list[str]) -> list[str]:
    """Numbers of the window that could stand for a missing one: same kind, and the same unit
    where both have one (9 pieces for 8 pieces; not 50 metres for 8 o'clock)."""

    def compatible(mine: str, theirs: str) -> bool:
        if mine == theirs:
            return True
        # An unknown unit may be anything but money: "$2 million" is no rival of "5-4".
        return (not mine or not theirs) and "money" not in (mine, theirs)

    def rivals(key: str) -> set[str]:
        kind, unit = statement.kinds.get(key), statement.units.get(key, "")
        return {
            n
            for n in window.numbers - statement.numbers
            if window.kinds.get(n) == kind and compatible(unit, window.units.get(n, ""))
        }

    return sorted(set().union(*(rivals(k) for k in missing)))


def _rival_names(statement: Span, window: Span, missing: list[str] | None = None) -> list[str]:
    """Names of the window that the statement does not have; with ``missing``, only those of the
    same kind as a missing one (a weekday rivals a weekday, not a person)."""
    kinds = {statement.kinds.get(k, "name") for k in missing} if missing else {"name"}
    return sorted(
        e
        for e in window.entities
        if window.kinds.get(e, "name") in kinds
        and sum(ch.isalpha() for ch in e) >= 2  # no stray letter ("Â£1m" read in Latin-1)
        and not matches_any(e, statement.entities)
        and not contains_phrase(statement.text.lower(), e)
        and not spelled_out(e, statement.text)
        and not any(spelled_out(mine, window.text) for mine in statement.entities)
        and not any(abbreviated(mine, statement, frozenset({e})) for mine in statement.entities)
    )


def _between(words: tuple[str, ...], a: int, b: int) -> set[str]:
    low, high = (a, b) if a < b else (b, a)
    return {w for w in words[low + 1 : high] if w not in _FILLER}


def _reversed_roles(statement: Span, window: Span) -> tuple[str, str] | None:
    """Two anchors in the opposite order around the same relation word, not explained by a
    passive ("X bought Y" vs "Y was bought by X")."""
    keys = [k for k in statement.positions if k in window.positions]
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            if statement.kinds.get(a) != statement.kinds.get(b):
                continue  # roles are swapped between two names, or two amounts, not across
            sa, sb = statement.positions[a][0], statement.positions[b][0]
            wa, wb = window.positions[a][0], window.positions[b][0]
            if sa == sb or wa == wb or (sa < sb) == (wa < wb):
                continue
            if abs(sa - sb) > 12 or abs(wa - wb) > 12:
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


def _neighbours(span: Span, index: int, reach: int = 3) -> set[str]:
    """Plain content words (no names, no numbers) within ``reach`` words of ``index``, not
    across punctuation."""
    occupied = _occupied(span)
    found: set[str] = set()
    for step in range(1, reach + 1):
        for i in (index - step, index + step):
            if 0 <= i < len(span.words) and i not in occupied:
                if _crosses(span.words, index, i, _BOUNDARY | {","}):
                    continue
                word = span.words[i]
                if word.isalpha() and word not in STOPWORDS:
                    found.add(canon(word))
    return found


def _occupied(span: Span) -> set[int]:
    """Word indexes covered by an anchor (a name's words, a number)."""
    return {
        i + k
        for key, where in span.positions.items()
        for i in where
        for k in range(len(key.split()))
    }


def _swapped_amounts(statement: Span, window: Span) -> tuple[str, str] | None:
    """An amount the statement attaches to words the source attaches to another amount of the
    same kind ("the company wants 6%" where the source has the union demand 6% and the company
    offer 3.5%)."""
    for key in statement.numbers & window.numbers:
        if key not in statement.positions or key not in window.positions:
            continue
        mine = _neighbours(statement, statement.positions[key][0])
        theirs = set().union(*(_neighbours(window, i) for i in window.positions[key]))
        if not mine or mine & theirs:
            continue
        for other in window.numbers - {key}:
            if other in statement.numbers or window.kinds.get(other) != statement.kinds.get(key):
                continue
            if window.units.get(other, "") != statement.units.get(key, ""):
                continue
            near_other = set().union(
                *(_neighbours(window, i) for i in window.positions.get(other, ()))
            )
            if mine & near_other:
                return key, other
    return None


def _detached(statement: Span, window: Span) -> tuple[str, str, str] | None:
    """A pair of anchors side by side in the statement ("Hillary of Nepal") that the source
    keeps apart, where the second sits beside another anchor of the statement instead."""
    keys = [k for k in statement.positions if k in window.positions]
    for a in keys:
        for b in keys:
            if a == b:
                continue
            sa, sb = statement.positions[a][0], statement.positions[b][0]
            if not 0 < sb - sa <= 4 or _crosses(
                statement.words, sa, sb, _BOUNDARY | {",", "、", "，"}
            ):
                continue
            gap = min(abs(wb - wa) for wa in window.positions[a] for wb in window.positions[b])
            if gap <= 6:
                continue
            if statement.kinds.get(a) != "name" or statement.kinds.get(b) != "name":
                continue
            for c in keys:
                if c in (a, b) or statement.kinds.get(c) != "name" or _near(statement, b, c):
                    continue  # b and c stand together in the statement too
                for wb in window.positions[b]:
                    for wc in window.positions[c]:
                        if abs(wb - wc) <= 4 and not _crosses(window.words, wb, wc, _BOUNDARY):
                            return a, b, c
    return None


def _near(span: Span, a: str, b: str, within: int = 4) -> bool:
    return any(
        abs(i - j) <= within and not _crosses(span.words, i, j, _BOUNDARY)
        for i in span.positions.get(a, ())
        for j in span.positions.get(b, ())
    )


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
    for entity in sorted(statement.entities):
        rest = statement.token_set - name_tokens(entity)
        if len(rest) < 2 or not clauses:
            continue
        scored = [(len(rest & c.token_set) / len(rest), c) for c in clauses]
        best_recall, best = max(scored, key=lambda item: item[0])
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
        with_entity = [r for r, c in scored if anchor_in_span(entity, statement, c)]
        if with_entity and max(with_entity) < 0.5:
            return entity, rivals, best.text
    return None


def _slotted(statement: Span, window: Span, missing: list[str], rivals: list[str]) -> list[str]:
    """The rivals that stand where a missing anchor stood (next to the same content word).
    Without a usable slot (CJK text, no content word nearby) every rival counts."""
    slots = [_slot(statement, m) for m in missing if m in statement.positions]
    usable = [s for s in slots if s is not None]
    if not usable:
        return rivals
    found = {r for slot in usable for r in _in_slot(window, *slot, rivals)}
    # The subject slot: the statement opens with the missing name, the passage with a rival.
    if any(statement.positions.get(m, (-1,))[0] == 0 for m in missing):
        found |= {r for r in rivals if 0 in window.positions.get(r, ())}
    return sorted(found)


def _contradiction(
    statement: Span, doc: Doc, windows: list[Span], *, local: bool = True, strict: bool = True
) -> str | None:
    """``strict`` (claims): any same-kind rival of a missing anchor in the matching passage is
    a conflict. Otherwise (questions, where a missing anchor is often just left out) only a
    rival standing in the missing anchor's slot is. ``local`` statements (one fragment) are
    also checked for misattributed names, flipped negation and antonyms, which need a
    statement about one thing."""
    missing_numbers = sorted(n for n in statement.numbers if n not in doc.numbers)
    missing_names = sorted(e for e in statement.entities if not anchor_in_doc(e, statement, doc))
    for window in windows:
        coverage = recall(statement, window)
        if missing_numbers and coverage >= 0.4:
            rivals = _rival_numbers(statement, window, missing_numbers)
            if rivals and not strict:  # (no rival stands in any slot where there is none)
                rivals = _slotted(statement, window, missing_numbers, rivals)
            if rivals:
                return (
                    f"the source gives {', '.join(rivals)} where the statement says "
                    f'{", ".join(missing_numbers)}: "{clip(window.text)}"'
                )
        if missing_names and coverage >= 0.45:
            rivals = _rival_names(statement, window, missing_names)
            if rivals and not strict:
                rivals = _slotted(statement, window, missing_names, rivals)
            if rivals:
                return (
                    f"the source names {', '.join(rivals)} where the statement names "
                    f'{", ".join(missing_names)}: "{clip(window.text)}"'
                )
    best = windows[0]
    doubt: Doubt | None = None  # a weak conflict, reported only if no stronger one is found
    if recall(statement, best) >= 0.5:
        swapped = _reversed_roles(statement, best)
        if swapped:
            doubt = Doubt(
                f"the source has {swapped[0]} and {swapped[1]} the other way round: "
                f'"{clip(best.text)}"'
            )
        detached = _detached(statement, best)
        if detached and doubt is None:
            a, b, c = detached
            doubt = Doubt(f'the source puts {b} with {c}, not with {a}: "{clip(best.text)}"')
        amounts = _swapped_amounts(statement, best) if local else None
        if amounts and doubt is None:
            doubt = Doubt(
                f'the source says this of {amounts[1]}, not of {amounts[0]}: "{clip(best.text)}"'
            )
    misattributed = _misattributed(statement, doc) if local and doubt is None else None
    if misattributed:
        entity, rivals, where = misattributed
        doubt = Doubt(
            f'the source connects this with {", ".join(rivals)}, not {entity}: "{clip(where)}"'
        )
    if not local or recall(statement, best) < 0.5:
        return doubt
    # Polarity is compared with the part of the passage that says the same thing, so that a
    # "no one died" elsewhere in the sentence does not negate the rest of it.
    part = max(pieces(best), key=lambda piece: recall(statement, piece))
    overlap = recall(statement, part)
    if (
        overlap >= 0.65
        and statement.negated != part.negated
        and not missing_numbers
        and _negation_shared(statement, part)
    ):
        return f'the source states the opposite: "{clip(part.text)}"'
    if overlap >= 0.5 and _same_subject(statement, part):
        for token in statement.token_set:
            for opposite in OPPOSITES.get(token, ()):
                if opposite in part.token_set and token not in part.token_set:
                    return f'the source says "{opposite}" instead: "{clip(part.text)}"'
    return doubt


def _negation_shared(statement: Span, part: Span) -> bool:
    """Does the negation bear on what both say? The word it governs in the negated one must be
    in the other: "by not using the voice recognition feature" denies no claim about what
    the feature costs."""
    negated, other = (part, statement) if part.negated else (statement, part)
    heads = negated_heads(negated.text)
    return heads is None or not heads.isdisjoint(other.token_set)


def _same_subject(statement: Span, part: Span) -> bool:
    """Does every name the two share open both or neither? An opposite word says the same
    thing from the other side when the roles turn ("Villa lost to City" for "City beat
    Villa"), so opposites are only compared between statements about the same subject."""
    for key in statement.entities & part.entities:
        mine, theirs = statement.positions.get(key, ()), part.positions.get(key, ())
        if mine and theirs and (min(mine) <= 1) != (min(theirs) <= 1):
            return False
    return True


def contradicted(statement: Span, doc: Doc, *, strict: bool = True) -> str | None:
    """A contradiction in the statement, or in one of its fragments (so one wrong fact is not
    diluted by the right ones around it); a :class:`Doubt` only where nothing stronger is found."""
    # Which name goes with which fact, and what is negated, is judged per fragment: a statement
    # that fuses several source sentences has content from several clauses by design. A
    # question is judged as a whole; a claim also part by part.
    if not strict:
        local = len(split_fragments(statement.text)) < 2
        return _contradiction(statement, doc, ranked(statement, doc), local=local, strict=False)
    parts = fragments(statement)
    found = _contradiction(statement, doc, ranked(statement, doc), local=not parts)
    if found and not isinstance(found, Doubt):
        return found
    doubt = found
    for fragment in parts:
        found = _contradiction(fragment, doc, ranked(fragment, doc), strict=strict)
        if found and not isinstance(found, Doubt):
            return found
        doubt = doubt or found
    return doubt
