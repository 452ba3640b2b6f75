"""A name written as its initial and its number: "F1" for "Formula 1" and "Formula One", "C4" for
"Channel 4" (the lexical judge's initial-and-number reading)."""

from __future__ import annotations

import re

from ._lexicon import STOPWORDS, WORD_NUMBERS
from ._memo import memoised
from ._text import Span

__all__ = ["initial_and_number"]

# A name written as its initial and its number: "F1" for "Formula 1" and "Formula One", "C4" for
# "Channel 4". The spelled-out word is no stopword ("about 1 hour" is no "A1").
_INITIAL_NUMBER = re.compile(r"([a-z])(\d{1,2})")
_INITIAL_NUMBER_WORD = re.compile(r"\b[a-z]\d{1,2}\b")
_WORD_NUMBER = re.compile(r"\b([a-z]{3,})[ -](\d{1,2})\b")
_SPELLED_NUMBERS = {str(value): word for word, value in WORD_NUMBERS.items() if value <= 20}
_WORD_SPELLED_NUMBER = re.compile(
    rf"\b([a-z]{{3,}})[ -](\d{{1,2}}|{'|'.join(_SPELLED_NUMBERS.values())})\b"
)
_NUMBER_OF = {word: number for number, word in _SPELLED_NUMBERS.items()}


@memoised(1 << 20, max_items=1024)
def _written_apart(text: str) -> tuple[tuple[str, str], ...]:
    """(word, number) for each word followed by a number of two digits at most ("formula 1"),
    lower-cased (memoised: a statement is asked about each of its anchors in many passages)."""
    found = _WORD_NUMBER.findall(text.lower())
    return tuple((w, n) for w, n in found if w not in STOPWORDS)


@memoised(2 << 20, max_items=64)
def _joined(text: str) -> frozenset[str]:
    """The words of a text that are an initial and a number ("f1", "c4"), lower-cased."""
    return frozenset(_INITIAL_NUMBER_WORD.findall(text.lower()))


@memoised(2 << 20, max_items=64)
def _spelled_joined(text: str) -> frozenset[str]:
    """The initial and number of each word of a text followed by a number, in digits or in words
    ("Formula One" gives "f1"), lower-cased."""
    return frozenset(
        w[0] + _NUMBER_OF.get(n, n)
        for w, n in _WORD_SPELLED_NUMBER.findall(text.lower())
        if w not in STOPWORDS
    )


def initial_and_number(key: str, statement: Span, text: str) -> bool:
    """Does ``text`` write as one word what the statement writes as a word and a number, or the
    other way round? ``key`` is a number of the statement ("1" of "Formula 1": the text says
    "F1"), a name the statement writes before a number ("formula"), or an initial and number
    ("f1": the text says "Formula 1" or "Formula One")."""
    if len(key) <= 3 and _INITIAL_NUMBER.fullmatch(key) is not None:
        return key in _spelled_joined(text)
    # (Most statements have no number of one or two digits: no text is read for them.)
    if (len(key) > 2 and key.isdigit()) or not any(len(n) <= 2 for n in statement.numbers):
        return False
    apart = _written_apart(statement.text)
    last = key.rsplit(" ", 1)[-1]
    wanted = [w[0] + n for w, n in apart if n == key or w == last]
    # (A substring test first: the text's words are read only where one may be there.)
    if not any(w in text or w.upper() in text for w in wanted):
        return False
    return not _joined(text).isdisjoint(wanted)
