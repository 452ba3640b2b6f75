"""Sentences, clauses and the analysed form of a statement the lexical judge compares.

``Span``: one sentence or statement, its content tokens, anchors (numbers, names) with the
word positions they stand at, and its negation. A whole text is a ``Doc``.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass, field
from functools import cached_property
from operator import itemgetter
from typing import Any

from ._anchors import Anchor, names, quantities
from ._lexicon import ABBREVIATIONS
from ._memo import memoised, weigh
from ._negation import is_negated
from ._words import CJK, OTHER_WORD, ascii_words, content_tokens, lowercase_words, normalize

__all__ = [
    "Span",
    "make_span",
    "split_clauses",
    "split_sentences",
]

_POSITION_WORD = re.compile(
    f"\\d+(?:[.,]\\d+)*%?|[A-Za-z\u00c0-\u024f0-9'\u2019]+|[{CJK}]|[,.;:!?。，；：！？、]|{OTHER_WORD}"
)
# _POSITION_WORD for ASCII text (the same words: the other alternatives need other scripts).
_ASCII_POSITION_WORD = re.compile(r"\d+(?:[.,]\d+)*%?|[A-Za-z0-9']+|[,.;:!?]")


def _position_words(text: str) -> re.Pattern[str]:
    return _ASCII_POSITION_WORD if text.isascii() else _POSITION_WORD


# --------------------------------------------------------------------------------- sentences

# Besides Latin and CJK punctuation: the Devanagari danda and double danda (Hindi, Marathi,
# Nepali, Sanskrit), the Arabic question mark, the Urdu full stop, the Armenian and Ethiopic full
# stops and the Burmese section mark end a sentence too. The pattern opens with the first
# character of every alternative (a look-behind then tells which alternative it opened), so the
# search skips to those characters (twice as fast as trying each alternative at every position).
# Group 2 (the space) is set where Latin punctuation ends the sentence, group 1 holding the rest
# of its punctuation and closing quotes.
_ENDS = "\u0964\u0965\u061f\u06d4\u0589\u1362\u104b"
_SENTENCE_END = re.compile(
    f"[.!?。！？\n{_ENDS}]"
    r"(?:(?<=[.!?])([.!?]*[\"'”’)\]]*)(\s+)"
    f"|(?<=[。！？!?{_ENDS}])[。！？!?{_ENDS}]*[」』”’）)]*"
    r"|(?<=\n)\s*\n|(?<=\n)(?=\s*[-*•\d]))"
)


def split_sentences(text: str) -> list[str]:
    """Sentences: Latin punctuation plus space (minding abbreviations and initials), CJK full
    stops, the danda and the other scripts' full stops, blank lines and list items."""
    return _split_normalized(normalize(text))


def _split_normalized(text: str) -> list[str]:
    """``split_sentences`` of a text already normalised."""
    sentences: list[str] = []
    start = 0
    # Whether the sentence being read (from ``start``) writes a capital: worked out at its first
    # period before a lower-case word, and read on from where the last look stopped.
    capitals_from, capitals, looked = -1, False, 0
    for m in _SENTENCE_END.finditer(text):
        if m.group(2):
            at = m.start()
            words = text[max(start, at - 64) : at].rsplit(None, 1)  # bounded: no rescans
            last_word = words[-1].lower().rstrip(".") if words else ""
            if last_word in ABBREVIATIONS or (len(last_word) == 1 and "a" <= last_word <= "z"):
                continue
            nxt = text[m.end() : m.end() + 1]
            if nxt and nxt.islower():
                # In written text a lower-case word goes on the sentence ("approx. the same");
                # in a sentence written all in lower case it may well open the next one. (Read
                # from the sentence itself, not the whole text: a sentence added after it never
                # changes where it ends.)
                if capitals_from != start:
                    capitals_from, capitals, looked = start, False, start
                if not capitals:
                    piece = text[looked:at]
                    capitals, looked = piece != piece.lower(), at
                if capitals:
                    continue
            end = m.end(1)
        else:
            end = m.end()
        piece = text[start:end].strip().strip(" \n\t-*•")
        if piece:
            sentences.append(piece)
        start = m.end()
    tail = text[start:].strip().strip(" \n\t-*•")
    if tail:
        sentences.append(tail)
    return sentences


_SUBJECT = r"(?:the|a|an|it|he|she|they|we|i|this|that|these|those|its|his|her|their|our|[A-Z0-9][\w'-]*)\b"
_CLAUSE_SPLIT = re.compile(
    r"(?=[;；:,、，\s])"  # every alternative's first character: the search skips to those
    r"(?:;\s+|；|:\s+(?=[A-Z])"
    rf"|,\s+(?:and|but|while|whereas|although|though|yet)\s+(?={_SUBJECT})"
    r"|\s+(?:but|whereas)\s+|、しかし|，但|，而)"
)


# What each alternative of _CLAUSE_SPLIT needs in the sentence ("although" holds "though"): a
# sentence with none of them is one clause, found without the search (slow: it has no first
# character to skip to, and most sentences have no clause break).
_CLAUSE_MARKS = (";", "；", ":", "but", "whereas", "、しかし", "，但", "，而")
_AFTER_COMMA = ("and", "while", "though", "yet")


def _may_split(sentence: str) -> bool:
    # (The substring tests are mapped in C: no Python frame per mark.)
    return any(map(sentence.__contains__, _CLAUSE_MARKS)) or (
        "," in sentence and any(map(sentence.__contains__, _AFTER_COMMA))
    )


def split_clauses(sentence: str, min_tokens: int = 3) -> list[str]:
    """Split a long sentence into self-standing clauses; short fragments stay attached."""
    if not _may_split(sentence):  # one clause (most sentences): what the general code gives
        whole = sentence.strip(" ,;")
        return [whole] if whole else [sentence.strip()]
    parts = [p.strip(" ,;") for p in _CLAUSE_SPLIT.split(sentence)]
    clauses: list[str] = []
    for part in parts:
        if not part:
            continue
        if clauses and len(content_tokens(part)) < min_tokens:
            clauses[-1] = f"{clauses[-1]}, {part}"
        else:
            clauses.append(part)
    if len(clauses) > 1 and len(content_tokens(clauses[0])) < min_tokens:
        clauses[1] = f"{clauses[0]}, {clauses[1]}"
        clauses.pop(0)
    return clauses or [sentence.strip()]


# ---------------------------------------------------------------------------------- analysis


@dataclass(frozen=True)
class Span:
    """A sentence or statement with everything the judge compares.

    ``positions`` maps each anchor key to the word indexes where it starts, and ``words`` are the
    lower-cased words (CJK characters one by one), for checks of order and proximity. Both are
    worked out on first use, and so is ``negated``: most spans are only ever compared by their
    tokens.
    """

    text: str
    tokens: tuple[str, ...]
    token_set: frozenset[str]
    numbers: frozenset[str]
    entities: frozenset[str]
    common: frozenset[str] = field(default=frozenset(), repr=False)
    tentative: frozenset[str] = frozenset()
    parts: tuple[Span, Span] | None = field(default=None, repr=False)  # a window of two spans
    # The anchors as found (see ``_anchors``), read by the properties below, and the
    # tentative names the context took for no names (see ``make_span``).
    number_anchors: tuple[Anchor, ...] = field(default=(), repr=False)
    name_anchors: tuple[Anchor, ...] = field(default=(), repr=False)
    dropped: frozenset[str] = field(default=frozenset(), repr=False)

    @property
    def anchors(self) -> frozenset[str]:
        return self.numbers | self.entities

    # Kinds, units, surfaces and starts are worked out on first use: most spans are only ever
    # compared by their tokens and anchor keys.
    @cached_property
    def kinds(self) -> dict[str, str]:
        """Anchor key -> "name", "year", "percent", ..."""
        if self.parts is not None:
            first, second = self.parts
            return {**second.kinds, **first.kinds}
        kinds = dict(map(_KEY_KIND, itertools.chain(self.name_anchors, self.number_anchors)))
        dropped = self.dropped
        return {k: v for k, v in kinds.items() if k not in dropped} if dropped else kinds

    @cached_property
    def units(self) -> dict[str, str]:
        """Number key -> what it counts ("child", "money", "%"), where known."""
        if self.parts is not None:
            first, second = self.parts
            return {**second.units, **first.units}
        return {a.key: a.unit for a in self.number_anchors if a.unit}

    @cached_property
    def surfaces(self) -> tuple[tuple[str, str], ...]:
        """(key, as written) in order of appearance."""
        if self.parts is not None:
            return ()
        found = sorted([*self.number_anchors, *self.name_anchors], key=_START)
        dropped = self.dropped
        return tuple(map(_KEY_SURFACE, (a for a in found if a.key not in dropped)))

    @cached_property
    def starts(self) -> tuple[tuple[str, int], ...]:
        """(anchor key, character offset)."""
        if self.parts is not None:
            return ()
        return tuple(map(_KEY_START, [*self.number_anchors, *self.name_anchors]))

    @cached_property
    def negated(self) -> bool:
        if self.parts is not None:
            first, second = self.parts
            return first.negated or second.negated
        return is_negated(self.text)

    @cached_property
    def words(self) -> tuple[str, ...]:
        if self.parts is not None:
            first, second = self.parts
            return (*first.words, "|", *second.words)  # "|": the sentence boundary
        lowered = self.text.lower()
        if len(lowered) == len(self.text):  # lower-casing kept every offset: one C-level pass
            return tuple(_position_words(lowered).findall(lowered))
        return tuple(m.group(0).lower() for m in _POSITION_WORD.finditer(self.text))

    @cached_property
    def positions(self) -> dict[str, tuple[int, ...]]:
        anchors = self.anchors
        if self.parts is not None:
            first, second = self.parts
            shift = len(first.words) + 1
            joined = dict(first.positions)
            for key, where in second.positions.items():
                joined[key] = joined.get(key, ()) + tuple(i + shift for i in where)
            return {k: v for k, v in joined.items() if k in anchors}
        starts = [m.start() for m in _position_words(self.text).finditer(self.text)]
        found: dict[str, list[int]] = {}
        for key, offset in self.starts:
            if key in anchors:
                found.setdefault(key, []).append(max(bisect.bisect_right(starts, offset) - 1, 0))
        return {k: tuple(v) for k, v in found.items()}

    @cached_property
    def occupied(self) -> frozenset[int]:
        """Word indexes covered by an anchor (a name's words, a number)."""
        return frozenset(
            i + k
            for key, where in self.positions.items()
            for i in where
            for k in range(key.count(" ") + 1)
        )


def make_span(
    text: str,
    *,
    question: bool = False,
    common: frozenset[str] = frozenset(),
    own_words: bool = False,
) -> Span:
    """Analyse one sentence or statement. ``common`` holds the words the surrounding document
    writes in lower case: a tentative name among them is no name ("Firefighters contained ..."
    where the text also says "two firefighters"); with ``own_words``, so are the words the
    statement itself writes in lower case (a claim of a summary is read with the source's words
    and its own, never its sibling claims'). The analysis is memoised; the context is applied
    afterwards, so one clause met by several tasks is analysed once."""
    return _in_context(text, question, common, own_words)


# The span memos hold a few pairs' worth of sentences (a pair meets about a hundred): what one
# case asks again is answered, while a span of a text long judged is let go before the garbage
# collector's oldest generation takes it in (a memo of thousands of spans, each several objects,
# made every full collection walk them: a sixth of the judge's time).
@memoised(
    16 << 20,
    max_items=2048,
    weight=lambda key, span: weigh(key[0], 0) + _span_bytes(span),
    shared=lambda key, span: key[2],
)
def _in_context(text: str, question: bool, common: frozenset[str], own_words: bool) -> Span:
    span = _make_span(text, question)
    dropped = {k for k in span.tentative if k in common}
    if own_words and span.tentative:
        own = lowercase_words(span.text)
        dropped.update(k for k in span.tentative if k in own)
    if dropped:
        return _copy(
            span,
            common=common,
            entities=span.entities - dropped,
            tentative=span.tentative - dropped,
            dropped=frozenset(dropped),
        )
    return _copy(span, common=common) if common else span


def _span_bytes(span: Span, worked_out: bool = True) -> int:
    """An upper estimate of the bytes a span holds as analysed (the object and its fields, its
    text, tokens and anchors) and, with ``worked_out``, once every property of it is worked
    out too (its words, about one per five characters, and its anchors' kinds and positions).
    Fitted with tracemalloc on prose, short sentences, one long list of numbers and one of
    names (tests/test_lexical_memory.py checks that it is not below what a span holds)."""
    anchors = len(span.number_anchors) + len(span.name_anchors)
    analysed = 1000 + 2 * weigh(span.text, 0) + 8 * len(span.text) + 16 * len(span.tokens)
    analysed += 650 * anchors
    return analysed + _worked_out_bytes(span) if worked_out else analysed


def _worked_out_bytes(span: Span) -> int:
    """What working out a span's properties adds to it (see ``_span_bytes``)."""
    return 1200 + 24 * len(span.text) + 400 * (len(span.number_anchors) + len(span.name_anchors))


def _new_span(**fields: Any) -> Span:
    """``Span(**fields)`` with every field given, without the dataclass ``__init__`` (a frozen
    one sets each field through ``object.__setattr__``: a tenth of the time a sentence's
    analysis takes)."""
    new = object.__new__(Span)
    new.__dict__.update(fields)
    return new


def _copy(span: Span, **changes: Any) -> Span:
    """``dataclasses.replace`` without re-running ``__init__`` (a hot path: every span of every
    document). Worked-out words are kept; positions too unless the anchors change."""
    new = object.__new__(Span)
    fields = new.__dict__
    fields.update(span.__dict__)
    if "entities" in changes:
        for worked_out in ("positions", "kinds", "surfaces", "occupied"):
            fields.pop(worked_out, None)
    fields.update(changes)
    return new


_EMPTY: frozenset[str] = frozenset()  # one shared empty set: fewer objects for the collector
_KEY, _KEY_KIND, _KEY_START, _KEY_SURFACE = (
    itemgetter(0),
    itemgetter(0, 1),
    itemgetter(0, 2),
    itemgetter(0, 3),
)
_START = itemgetter(2)


@memoised(16 << 20, max_items=2048, weight=lambda key, span: weigh(key[0], 0) + _span_bytes(span))
def _make_span(text: str, question: bool) -> Span:
    text = normalize(text)
    words = ascii_words(text)  # (read once for the tokens and the numbers)
    tokens = tuple(content_tokens(text, question=question, words=words))
    numbers = quantities(text, words)
    entities = names(text)
    # (Built with C-level maps over the anchors, named tuples of key, kind, start, surface, ...)
    return _new_span(
        text=text,
        tokens=tokens,
        token_set=frozenset(tokens),
        numbers=frozenset(map(_KEY, numbers)) if numbers else _EMPTY,
        entities=frozenset(map(_KEY, entities)) if entities else _EMPTY,
        tentative=frozenset([a.key for a in entities if a.tentative]) if entities else _EMPTY,
        common=_EMPTY,
        parts=None,
        number_anchors=tuple(numbers),
        name_anchors=tuple(entities),
        dropped=_EMPTY,
    )
