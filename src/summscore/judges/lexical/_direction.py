"""Which way an amount moved: "decreased by 17%" where the source says "up 17%".

An amount or percentage takes the direction of the nearest change word in its clause ("rose
5%", "a 17% decline", "growth of 4.8%"), or of an appositive that opens the next clause
("$441 million, an increase of ...", "$0.34, up 17% from $0.29"). A statement and a passage
that give the same amount moving opposite ways contradict each other: the words around it
agree, so nothing else tells the two apart.
"""

from __future__ import annotations

from ._opposites import compared_the_other_way
from ._text import Span

__all__ = ["turned_change"]

# fmt: off
_UP = frozenset(
    """up increase increased increases increasing rise rises rose risen rising grew grow grows
    growing growth jump jumped jumps climb climbed climbs higher surge surged
    soar soared rebound rebounded expanded boosted""".split()
)
_DOWN = frozenset(
    """down decrease decreased decreases decreasing decline declined declines declining
    fell falls falling fallen drop dropped drops lower lowered lowering reduce reduced reduces
    reducing reduction shrank shrunk
    contracted plunged plummeted slumped slid tumbled sank dipped""".split()
)
# Left out: "gain" and "cut" ("gain access to", "missed the cut"), "improved" (a loss or a
# jobless rate that improves goes down) and "fall" (the season: "fall enrollment").
# Where a clause ends for this purpose: punctuation, the window's sentence boundary ("|"), and
# the words that start a new comparison or a cause ("because of higher costs").
_BOUNDS = frozenset(
    [*",;:.!?|", "and", "but", "while", "whereas", "compared", "versus", "because", "due", "amid"]
)
_AS_MUCH = frozenset("much many high low little far well".split())
_OPENERS = frozenset("a an which representing".split())  # ", an increase of", ", representing"
# fmt: on
_KINDS = ("amount", "percent")
_CHANGES = _UP | _DOWN


_COMPARATIVES = frozenset(["higher", "lower"])
_AFTER_COMPARATIVE = frozenset("than by from at . , ; year-over-year".split())
_AMOUNT_WORDS = frozenset("% percent points point cents times".split())
_PHRASAL = frozenset(
    """made make makes making set sets shut shuts broke broken break breaks turned turn turns
    summed sum wound wind picked pick signed sign""".split()
)
_AFTER_UP_DOWN = frozenset("from by about nearly almost more some roughly approximately".split())


def _direction(words: tuple[str, ...], i: int) -> int:
    """+1, -1 or 0 for the word at ``i``. "up" and "down" count before an amount or "from",
    "by" ("up 17%", "down from $2.39"), not in "went up in price" or "up to 20%"."""
    word = words[i]
    after = words[i + 1] if i + 1 < len(words) else ""
    if word in ("up", "down") and (
        not (after[:1].isdigit() or after in _AFTER_UP_DOWN) or (i and words[i - 1] in _PHRASAL)
    ):
        return 0  # (nor in "made up 30%", "shut down 3 plants")
    # "higher" and "lower" count of an amount ("5% higher", "higher than"), not before a noun
    # ("higher chip costs" says nothing of the amount the clause gives).
    if word in _COMPARATIVES:
        before = words[i - 1] if i > 0 else ""
        of_amount = before[:1].isdigit() or before in _AMOUNT_WORDS
        if not (of_amount or after[:1].isdigit() or after in _AFTER_COMPARATIVE):
            return 0
    return 1 if word in _UP else -1 if word in _DOWN else 0


def _bound(words: tuple[str, ...], i: int) -> bool:
    """Does a clause end at word ``i``? "As" ends one ("rose to 12% as prices dropped"), but not
    in "as much as 5%"."""
    if words[i] == "as":
        after = words[i + 1] if i + 1 < len(words) else ""
        return words[i - 1 : i] != ("as",) and after not in _AS_MUCH
    return words[i] in _BOUNDS


def _clause(words: tuple[str, ...], at: int) -> tuple[int, int]:
    """The clause around position ``at``: [start, end)."""
    start = at
    while start > 0 and not _bound(words, start - 1):
        start -= 1
    end = at + 1
    while end < len(words) and not _bound(words, end):
        end += 1
    return start, end


def _moved(words: tuple[str, ...], at: int) -> tuple[int, str] | None:
    """The direction (+1 or -1) of the amount at ``at`` and the word that gives it."""
    start, end = _clause(words, at)
    nearest: tuple[int, int, str] | None = None
    for i in range(start, end):
        way = _direction(words, i)
        if way:
            distance = abs(i - at) * 2 + (i > at)  # (the nearer first; before wins a tie)
            if nearest is None or distance < nearest[0]:
                nearest = (distance, way, words[i])
    if nearest is not None:
        return nearest[1], nearest[2]
    # An appositive: the next clause opens with the change ("$441 million, an increase of"). It
    # tells of the clause's last amount only ("Tier 1 ratio was 13.8%, down 70 basis points").
    if end >= len(words) or words[end] != "," or any(map(_is_amount, words[at + 1 : end])):
        return None
    following = end + 1
    while following < len(words) and words[following] in _OPENERS:
        following += 1
    way = _direction(words, following) if following < len(words) else 0
    return (way, words[following]) if way else None


def _is_amount(word: str) -> bool:
    return word[:1].isdigit()


def _ways(span: Span, key: str) -> set[tuple[int, str]] | None:
    """The directions the amount ``key`` takes in ``span``; None where one of its occurrences
    takes none or is a base ("from $9 million" is where a change started, in either text), so
    that "gained 3% ... after falling 3%" gives 3% no direction."""
    found = set()
    for at in span.positions.get(key, ()):
        way = _moved(span.words, at) if span.words[at - 1 : at] != ("from",) else None
        if way is None:
            return None
        found.add(way)
    return found


def turned_change(statement: Span, window: Span) -> tuple[str, str, str] | None:
    """(the amount as the statement writes it, the statement's change word, the passage's)
    where the passage moves the same amount the other way, else None."""
    if not statement.numbers or _CHANGES.isdisjoint(statement.words) or statement.negated:
        return None
    if compared_the_other_way(statement, window):
        return None  # ("5% lower than in Europe" for "in Europe 5% higher than in Asia")
    kinds = statement.kinds
    for key, surface in statement.surfaces:
        if kinds.get(key) not in _KINDS or key not in window.numbers:
            continue
        mine = _ways(statement, key)
        if not mine or len({way for way, _ in mine}) != 1:
            continue
        theirs = _ways(window, key)
        if not theirs or len({way for way, _ in theirs}) != 1:
            continue
        (way, word), (other, their_word) = min(mine), min(theirs)
        if way != other:
            return surface, word, their_word
    return None
