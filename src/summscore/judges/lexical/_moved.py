"""Anchors that the sentence saying the same thing gives otherwise, though the source may give
the statement's elsewhere: a text tells of several days, quarters and years, so an anchor found
somewhere in the source is not yet confirmed.

* a weekday or month ("said on Tuesday" where the passage says "said on Wednesday");
* a quarter of a year ("in the second quarter" where it says "in the third quarter");
* the same number of another span of time ("30 years in detention" where it says "30 days").
"""

from __future__ import annotations

import re

from ._match import anchor_in_span, clip, recall
from ._structure import _rival_names
from ._text import Span

__all__ = ["moved_anchor", "periods"]

_DATES = ("weekday", "month")
_ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4"}
_PERIOD = re.compile(
    r"\b(?:(first|second|third|fourth)[- ](quarter|half)|([QH])([1-4])|([1-4])([QH]))\b",
    re.IGNORECASE,
)
_TIME_UNITS = frozenset("second minute hour day week month year decade century".split())


def periods(text: str) -> set[str]:
    """The quarters and halves of a year that ``text`` names, as "Q3", "H1" ("third quarter",
    "third-quarter", "Q3" and "3Q" are one)."""
    found = set()
    for m in _PERIOD.finditer(text):
        ordinal, unit, letter, digit, digit_first, letter_after = m.groups()
        if ordinal:
            found.add(("Q" if unit.lower() == "quarter" else "H") + _ORDINALS[ordinal.lower()])
        elif letter:
            found.add(letter.upper() + digit)
        else:
            found.add(letter_after.upper() + digit_first)
    return {p for p in found if p[0] == "Q" or p[1] in "12"}


def moved_anchor(statement: Span, best: Span, *, local: bool) -> str | None:
    """The reason of a conflict between the statement and the passage ``best`` that says the
    same thing, else None. ``local`` (a claim about one thing): dates too; otherwise only spans
    of time, which hold whatever else the statement combines. (A number the passage lacks with
    another in its slot is no such conflict: a claim may take its number from another sentence,
    "105 migrants" where the best sentence says "more than 100".)"""
    dates = [e for e in statement.entities if statement.kinds.get(e) in _DATES] if local else []
    mine = {p for p in periods(statement.text) if p[0] == "Q"} if local else set()
    if not dates and not mine and not any(_time_unit(a.unit) for a in statement.number_anchors):
        return None  # (most statements: nothing to compare)
    if recall(statement, best) >= 0.5 and (span := _other_span(statement, best)):
        return span
    # A date is looked for in the whole passage (a report "published in April" may say in its
    # next sentence that the figure "covers March"); the passage's dates of comparison ("up
    # from the second quarter") are no rivals.
    if not local or recall(statement, best) < 0.6:
        return None
    theirs = periods(_COMPARED.sub(" ", best.text)) if mine else set()
    quarters = {p for p in theirs if p[0] == "Q"}
    if quarters and quarters.isdisjoint(mine) and mine.isdisjoint(periods(best.text)):
        return _reason(sorted(quarters), sorted(mine), best)
    moved = [e for e in sorted(dates) if not anchor_in_span(e, statement, best)]
    rivals = _rival_names(statement, best, moved) if moved else []
    return _reason(rivals, moved, best) if rivals else None


# A period after a word of comparison ("compared with the second quarter", "from Q2"), or a
# count ("the second quarter in a row").
_COMPARED = re.compile(
    r"\b(?:(?:first|second|third|fourth)[- ]quarter in a row"
    r"|compared (?:with|to)|from|versus|vs\.?|than|over|against|since|after|before)"
    r"(?:\s+(?:the|a|its|our|their|last|this|same|year's|year-ago|prior|previous))*"
    r"\s+(?:\S+\s+)?(?:[1-4][QH]|[QH][1-4]|(?:first|second|third|fourth)[- ](?:quarter|half))\b",
    re.IGNORECASE,
)


def _time_unit(unit: str) -> str:
    unit = "century" if unit.startswith("centur") else unit.removesuffix("s")
    return unit if unit in _TIME_UNITS else ""


def _other_span(statement: Span, passage: Span) -> str | None:
    """The same number of another span of time: "30 years in detention" where the passage says
    "another 30 days in detention" and nowhere "30 years"."""
    units: dict[str, set[str]] = {}
    for anchor in statement.number_anchors:
        units.setdefault(anchor.key, set()).add(_time_unit(anchor.unit))
    # (A number the statement gives of two spans, "a 10-year lease ended with 10 days' notice",
    # is left alone.)
    spans = {key: min(u) for key, u in units.items() if len(u) == 1 and "" not in u}
    for key, mine in sorted(spans.items()):
        given = [a for part in _sentences(passage) for a in part.number_anchors if a.key == key]
        theirs = {_time_unit(a.unit) for a in given}
        if theirs and mine not in theirs and "" not in theirs:
            surface = given[0].surface
            return _reason([f"{surface} {min(theirs)}s"], [f"{surface} {mine}s"], passage)
    return None


def _sentences(passage: Span) -> tuple[Span, ...]:
    return passage.parts if passage.parts is not None else (passage,)


def _reason(theirs: list[str], mine: list[str], sentence: Span) -> str:
    return (
        f"the source gives {', '.join(theirs)} where the statement says "
        f'{", ".join(mine)}: "{clip(sentence.text)}"'
    )
