"""Contradictions a lexical judge can trust: the checks behind a "no" verdict.

* a number or name the text lacks where the matching passage has another of the same kind
  ("4.5%" where the source says "5.5%", "Asian" where it says "African");
* two anchors in reversed roles around the same relation word ("Baltic Dairy will buy Northwind"
  where the source says "Northwind agreed to buy Baltic Dairy"; "to $55m from $41m");
* an amount or a name attached to the wrong thing ("Hillary of Nepal"; "the company wants 6%"
  where the union wants 6%; a founder named where the source names another);
* a flipped negation or an antonym in an otherwise matching passage.

One structural check is weaker and only raises a ``Doubt`` (a reason, not a "no"): a name
the matching passage pairs with another than the statement does ("the source puts ... with ...").
A statement that lists two pairs in another order or wording than the passage trips it
("the Patriots vs. the Chiefs and the Rams vs. the Saints"): on the validation cuts of the
development sets, the claims it marked were all consistent (on the test cuts, 2 of 3).

The structural checks (roles, attachment, slots, misattribution) are in ``_structure``; this
module orders the checks and words the reasons.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from ._direction import turned_change
from ._doc import Doc
from ._initials import initial_and_number
from ._match import (
    anchor_in_doc,
    anchors_near,
    clip,
    fragments,
    pieces,
    ranked,
    recall,
    split_fragments,
)
from ._moved import moved_anchor
from ._negation import negated_heads, negated_scopes
from ._opposites import turned_word
from ._structure import (
    _misattributed,
    _reversed_roles,
    _rival_names,
    _rival_numbers,
    _slotted,
)
from ._text import Span

__all__ = ["Doubt", "contradicted"]


# ------------------------------------------------------------------------------ contradiction


class Doubt(str):
    """The reason of a weak conflict: the statement is not confirmed, but not contradicted."""


def _contradiction(
    statement: Span, doc: Doc, windows: list[Span], *, local: bool = True, strict: bool = True
) -> str | None:
    """``strict`` (claims): any same-kind rival of a missing anchor in the matching passage is
    a conflict. Otherwise (questions, where a missing anchor is often just left out) only a
    rival standing in the missing anchor's slot is. ``local`` statements (one fragment) are
    also checked for misattributed names, flipped negation and antonyms, which need a
    statement about one thing."""
    if strict:
        missing_numbers = sorted(
            n
            for n in statement.numbers
            if n not in doc.numbers and not initial_and_number(n, statement, doc.lowered)
        )
        missing_names = sorted(
            e for e in statement.entities if not anchor_in_doc(e, statement, doc)
        )
    else:  # a question: an anchor counts where the text says it of what the question asks
        near = anchors_near(statement, doc)
        missing_numbers = sorted(statement.numbers - near)
        missing_names = sorted(statement.entities - near)
    for window in map(partial(_sharing, statement), windows):
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
    moved = moved_anchor(statement, best, local=strict and local)
    if moved:
        return moved
    turned = turned_change(statement, best) if recall(statement, best) >= 0.4 else None
    if turned:
        amount, mine, theirs = turned
        return (
            f'the source says "{theirs}" of {amount} where the statement says "{mine}": '
            f'"{clip(best.text)}"'
        )
    doubt: Doubt | None = None  # a weak conflict, reported only if no stronger one is found
    if recall(statement, best) >= 0.5:
        swapped = _reversed_roles(statement, best)
        if swapped:
            doubt = Doubt(
                f"the source has {swapped[0]} and {swapped[1]} the other way round: "
                f'"{clip(best.text)}"'
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
    flipped = None if missing_numbers else _flipped_scope(statement, best)
    if flipped is not None:
        return f'the source states the opposite: "{clip(flipped.text)}"'
    if overlap >= 0.5 and _same_subject(statement, part):
        opposite = turned_word(statement, part)
        if opposite:
            return f'the source says "{opposite}" instead: "{clip(part.text)}"'
    return doubt


def _sharing(statement: Span, window: Span) -> Span:
    """The part of a window of two sentences that shares the statement's words, where the other
    part shares none of them: a rival number or name in a sentence about something else
    ("Maria Jensen bought 3 lemons" beside "The festival has four headliners") is no rival."""
    if window.parts is None:
        return window
    first, second = window.parts
    if statement.token_set.isdisjoint(first.token_set):
        return second
    if statement.token_set.isdisjoint(second.token_set):
        return first
    return window


def _flipped_scope(statement: Span, window: Span) -> Span | None:
    """A piece of the passage that says, with the other polarity, what a negation denies: all of
    its words (two or three) stand in the other. "will not increase the price of production"
    against "it will increase the price of the production of the remote control", where the
    rest of a long claim is not in that piece."""
    if not statement.negated and not window.negated:
        return None  # (most passages: no piece to cut)
    cut = pieces(window)
    found = None
    for piece in cut:
        if piece.negated == statement.negated:
            continue
        negated, other = (statement, piece) if statement.negated else (piece, statement)
        for scope in map(_changes, negated_scopes(negated.text)):
            if len(scope) >= 2 and _changes(other.token_set).issuperset(scope):
                # Another piece may say it as the statement does, of someone else in the
                # flipped one: "Rivals cut jobs, but the company said it would not cut jobs."
                said = [p for p in cut if p.negated == statement.negated]
                if any(_changes(p.token_set).issuperset(scope) for p in said):
                    return None
                found = found or piece
    return found


# Verbs that say a change the synonym groups fold under another word ("rise", "grow" and
# "increase" are "increas"): "will not raise fares" denies "fares will rise" (a change word said
# of the same thing, transitive or not). Read only where a negation's scope is compared.
_SAME_CHANGE = {"rais": "increas", "hik": "increas"}


def _changes(tokens: Iterable[str]) -> frozenset[str]:
    """``tokens`` with every change verb as the head of its synonym group."""
    return frozenset(_SAME_CHANGE.get(token, token) for token in tokens)


def _negation_shared(statement: Span, part: Span) -> bool:
    """Does the negation bear on what both say? The word it governs in the negated one must be
    in the other: "by not using the voice recognition feature" denies no claim about what
    the feature costs."""
    negated, other = (part, statement) if part.negated else (statement, part)
    heads = negated_heads(negated.text)
    return heads is None or not _changes(heads).isdisjoint(_changes(other.token_set))


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
    diluted by the right ones around it); a ``Doubt`` only where nothing stronger is found."""
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
