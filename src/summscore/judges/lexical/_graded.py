"""How much of a claim the source carries: the graded ``support`` of an alignment verdict.

A yes/no verdict per claim ranks summaries poorly: most summaries of news have one or two claims,
so their alignment is 0 or 1 and thousands of them tie. The support of a claim is the share of its
wording found in the source, read at three lengths (single words, pairs, triples of consecutive
words; lower-cased, so tokenised research text and the written form compare alike): a claim
copied from the source has support 1, a claim that recombines the source's words into a new
relation keeps its words but loses its pairs and triples, a claim of words the source never uses
has support near 0. The square root of that share is the support: it keeps the order and spares
a faithful paraphrase (a claim keeping a third of its wording scores about 0.6, not 0.3), which
ranked summaries as well or better on the validation cuts of the development sets. The verdict
then scales it: a contradicted claim has no support, a claim the
judge could not confirm keeps ``UNCONFIRMED`` of it, and one naming what the source never gives
keeps ``ABSENT`` of it.

Chinese and Japanese are read one character at a time (they write no spaces), so the pairs and
triples of characters play the part of words and short phrases.
"""

from __future__ import annotations

import math
import re
import sys
from operator import and_
from typing import NamedTuple

from ._lexicon import FUNCTION_CHARACTERS, OTHER_FUNCTION_WORDS, STOPWORDS
from ._memo import memoised
from ._words import CJK, OTHER_WORD, normalize

__all__ = ["ABSENT", "UNCONFIRMED", "claim_support", "source_grams"]

# The share of its wording support a claim keeps when the judge can neither confirm nor
# contradict it (chosen on the validation cuts of the development sets; see the README), and
# when it cannot because the claim names a name or number the source never gives: an invented
# detail more often than not (on FRANK XSum such claims are three times as common in summaries
# people found wrong as in the others; on SummEdits news six times).
UNCONFIRMED = 0.8
ABSENT = 0.5
_LONGEST = 3
# A number is one unit with its decimals and thousands ("1.3" is not "3", "3,000" not "000").
_UNIT = re.compile(f"\\d+(?:[.,]\\d+)*|[0-9a-z\u00c0-\u024f]+|[{CJK}]|{OTHER_WORD}")
# _UNIT for ASCII text, where only its first alternatives can match (twice as fast on a source).
_ASCII_UNIT = re.compile(r"\d+(?:[.,]\d+)*|[0-9a-z]+")


class Grams(NamedTuple):
    """A source's wording, held so that a claim's n-grams are looked up without building the
    source's own (thousands of tuples per source, each one a container the garbage collector
    walks while the memo holds it): its words as a set, and its words joined by single spaces
    with a space at each end. A claim's n-gram is one of the source's exactly when its words,
    joined the same way and framed by spaces, are a substring of that text (words hold no
    space, so a match starts and ends on word boundaries)."""

    words: frozenset[str]
    joined: str


def _units(text: str) -> list[str]:
    return _lowered_units(normalize(text).lower())


def _lowered_units(lowered: str) -> list[str]:
    """The units of a text already normalised and lower-cased."""
    return (_ASCII_UNIT if lowered.isascii() else _UNIT).findall(lowered)


def _grams_bytes(key: tuple[str, ...], grams: Grams) -> int:
    """What a source's memoised n-grams hold: its text (and lowered text) in the key, its words
    joined, and its set of words (each word a string of its own, no longer than the text)."""
    own = sum(map(sys.getsizeof, key))
    words = grams.words
    return own + 2 * sys.getsizeof(grams.joined) + sys.getsizeof(words) + 64 * len(words)


@memoised(8 << 20, max_items=64, weight=_grams_bytes)
def source_grams(text: str, lowered: str | None = None) -> Grams:
    """The source's words, for its word pairs and word triples (memoised: a source meets many
    claims). ``lowered``: the text normalised and lower-cased, where the caller has it (its
    analysis does, see ``Doc``), so that it is not normalised again."""
    units = _units(text) if lowered is None else _lowered_units(lowered)
    return Grams(frozenset(units), f" {' '.join(units)} ")


def claim_support(claim: str, grams: Grams) -> float:
    """The square root of the mean, over the lengths the claim is long enough for, of the share
    of the claim's n-grams found in the source (``grams`` from ``source_grams``); 1 for a
    claim with no word at all (nothing in it can be unsupported).

    A claim none of whose content words (see ``_informative``) the source uses has no
    support: "on the" or "it was" are in every English source, and a sentence the source never
    says would otherwise keep a third of its support from its function words alone, so that
    padding a summary with such sentences raised its alignment."""
    units = _units(claim)
    if not units:
        return 1.0
    # Which of the claim's words the source uses, asked once per word (in C): an n-gram with a
    # word the source never uses is no run of its words, and is not looked for.
    known = list(map(grams.words.__contains__, units))
    if not any(map(and_, known, _informative(units))):
        return 0.0
    shares = [sum(known) / len(units)]
    for n in range(2, min(_LONGEST, len(units)) + 1):
        starts = range(len(units) - n + 1)
        held = sum(
            1
            for i in starts
            if all(known[i : i + n]) and f" {' '.join(units[i : i + n])} " in grams.joined
        )
        shares.append(held / len(starts))
    return math.sqrt(sum(shares) / len(shares))


def _informative(units: list[str]) -> list[bool]:
    """Which units are content: not a function word of English or of the other languages the
    lexicon lists, nor a hiragana or Chinese function character ("el", "der", "が", "的"). A
    claim of function words alone ("It was not so.") is read whole, every unit counting."""
    content = [
        unit not in STOPWORDS
        and unit not in OTHER_FUNCTION_WORDS
        and unit not in FUNCTION_CHARACTERS
        for unit in units
    ]
    return content if any(content) else [True] * len(units)
