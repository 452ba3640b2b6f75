"""A whole text as the lexical judge reads it: ``Doc``, its sentences and the windows of two
adjacent sentences, analysed once and memoised (``analyze``)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ._index import POSTING_LIMIT, TokenIndex
from ._memo import MEMOS, weigh
from ._text import (
    _EMPTY,
    Span,
    _new_span,
    _span_bytes,
    _split_normalized,
    _worked_out_bytes,
    make_span,
    split_clauses,
)
from ._words import lowercase_words, normalize

__all__ = ["DOC_BYTES", "MEMO_LIMIT", "Doc", "analyze"]

MEMO_LIMIT = 4096  # memoised window searches per text
# The bytes the analyses of whole texts may hold between requests (see _DocCache): the analysis
# of a 600 kB source of prose (about 42 MB) and of the evidence built from it (about 30 MB) fit
# together.
DOC_BYTES = 96 << 20
# Estimates, in bytes, of what a text's analysis adds as it is used: per entry of an inverted
# index (a posting and its share of the token's list and key), per memoised window search or
# name look-up (its key and answer), per pair of sentences joined (beyond its parts).
_POSTING = 64
_MEMO_ENTRY = 400
_PAIR = 1200


@dataclass
class Doc:
    """A whole text: its sentences, and its vocabulary.

    Statements are matched against windows: single sentences and pairs of adjacent sentences
    (a summary often fuses two). Pairs are built only when a statement needs them.
    """

    text: str
    sentences: list[Span]
    token_set: frozenset[str]
    numbers: frozenset[str]
    entities: frozenset[str]
    lowered: str
    common: frozenset[str] = field(default=frozenset(), repr=False)
    _clauses: list[Span] | None = field(default=None, repr=False)
    _index: TokenIndex | None = field(default=None, repr=False)
    _clause_index: TokenIndex | None = field(default=None, repr=False)
    _pairs: dict[int, Span] = field(default_factory=dict, repr=False)
    _pair_tokens: dict[int, frozenset[str]] = field(default_factory=dict, repr=False)
    # token set -> (how many were asked for, the best windows): see best_windows
    _best: dict[frozenset[str], tuple[int, list[Span]]] = field(default_factory=dict, repr=False)
    # Whether the text has a name of a statement (see _match.anchor_in_doc), by (name, statement)
    names_found: dict[tuple[str, str], bool] = field(default_factory=dict, repr=False)
    # The anchors of a question the text gives near its other words (see _match.anchors_near)
    near: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    # The texts of the statements whose weight the memos above have counted (see weighs_text)
    _texts: set[str] = field(default_factory=set, repr=False)
    # What the analysis weighs (see _DocCache): as analysed, and what its use has added since.
    analysed_bytes: int = field(default=0, repr=False)
    added_bytes: int = field(default=0, repr=False)

    @property
    def memo_bytes(self) -> int:
        """An upper estimate of the bytes this analysis holds now."""
        return self.analysed_bytes + self.added_bytes

    def remember(self, memo: dict[Any, Any], key: Any, value: Any, weight: int) -> None:
        """``memo[key] = value`` for one of the analysis's memos (at most MEMO_LIMIT entries),
        with ``weight`` (what the entry holds beyond what ``weighs_text`` counted) added to
        the analysis's."""
        if key in memo:
            memo[key] = value
        elif len(memo) < MEMO_LIMIT:
            memo[key] = value
            self.added_bytes += _MEMO_ENTRY + weight

    def weighs_text(self, text: str) -> int:
        """The weight of a statement's text the analysis's memos hold in their keys: its size
        the first time, 0 after (many entries share one text)."""
        if text in self._texts:
            return 0
        self._texts.add(text)
        return weigh(text, 0) + 80  # (and its entry in the set)

    def _indexed(self, passages: list[Span]) -> TokenIndex:
        self.added_bytes += _POSTING * sum(len(p.token_set) for p in passages)
        return TokenIndex(passages)

    def _pair(self, i: int) -> Span:
        """Sentences ``i`` and ``i + 1`` as one window."""
        pair = self._pairs.get(i)
        if pair is None:
            pair = self._pairs[i] = _join(self.sentences[i], self.sentences[i + 1])
            self.added_bytes += _PAIR + 2 * weigh(pair.text, 0) + _POSTING * len(pair.token_set)
        return pair

    def best_windows(self, tokens: frozenset[str], top: int) -> list[Span]:
        """The ``top`` windows (sentences or adjacent pairs) sharing most of ``tokens``, the
        shorter first among equals. Counted through an inverted index over a bounded set of
        candidates (see ``_index``), and memoised per token set: a text made of one
        repeated unit asks the same question once per unit, and the verdict that asks for the
        best window after the contradiction check asked for three reads the first of those.
        (The windows are ordered by a key unique to each: the first ``top`` of a longer answer
        are the answer for ``top``.)"""
        known = self._best.get(tokens)
        if known is not None and known[0] >= top:
            return known[1] if known[0] == top else known[1][:top]
        if self._index is None:
            self._index = self._indexed(self.sentences)
        shared = self._index.shared(tokens)
        if not shared:
            return self.sentences[:1]
        sentences = self.sentences
        # Only a window sharing as many tokens as the ``top``-th best sentence can be among the
        # best: keys are made for those alone. A pair shares at most what its two sentences
        # share, so one that cannot reach that count is not counted at all. (Exact where every
        # count is: no token is in more than POSTING_LIMIT sentences, so a sentence missing
        # from ``shared`` shares nothing.)
        counts = sorted(shared.values(), reverse=True)
        bar = counts[min(top, len(counts)) - 1]
        bounded = len(sentences) <= POSTING_LIMIT
        # (minus the tokens shared, length in characters, sentence index, is a pair from there)
        scored = [(-n, len(sentences[i].text), i, False) for i, n in shared.items() if n >= bar]
        pair_tokens = self._pair_tokens
        # (A pair that can reach ``bar`` has a sentence holding half of it.)
        half = (bar + 1) // 2 if bounded else 0
        last = len(sentences) - 1
        for i in {j for k, n in shared.items() if n >= half for j in (k - 1, k) if 0 <= j < last}:
            if bounded and shared.get(i, 0) + shared.get(i + 1, 0) < bar:
                continue
            held = pair_tokens.get(i)
            if held is None:
                held = pair_tokens[i] = sentences[i].token_set | sentences[i + 1].token_set
                self.added_bytes += _MEMO_ENTRY + _POSTING * len(held)
            n = len(tokens & held)
            if n >= bar:
                length = len(sentences[i].text) + len(sentences[i + 1].text) + 1
                scored.append((-n, length, i, True))
        scored.sort()
        best = scored[:top]
        found = [self._pair(i) if pair else sentences[i] for _, _, i, pair in best]
        # (The key is a statement's token set: its table is weighed, its tokens are the judge's
        # shared strings.)
        # (The windows found are compared with the statement: their properties are worked out.)
        self.remember(
            self._best, tokens, (top, found), weigh(tokens, 0) + sum(map(_worked_out_bytes, found))
        )
        return found

    def shared_counts(self, tokens: frozenset[str]) -> dict[int, int]:
        """Sentence index -> how many of ``tokens`` it holds, for the sentences holding one (the
        candidates of the inverted index, see ``_index``)."""
        if self._index is None:
            self._index = self._indexed(self.sentences)
        return self._index.shared(tokens)

    def clauses(self) -> list[Span]:
        """The clauses of every sentence, as spans (computed once)."""
        if self._clauses is None:
            # (A sentence that is one clause is its own clause: the same analysis, kept once.)
            self._clauses = [
                s if c == s.text else make_span(c, common=self.common)
                for s in self.sentences
                for c in split_clauses(s.text)
            ]
            sentences = {id(s) for s in self.sentences}
            self.added_bytes += sum(
                _span_bytes(c, worked_out=False) for c in self._clauses if id(c) not in sentences
            )
        return self._clauses

    def clauses_sharing(self, tokens: frozenset[str]) -> list[Span]:
        """The clauses worth comparing with a statement made of ``tokens``: all of them in a
        text of ordinary length, the candidates of an inverted index (see ``_index``) in a
        longer one."""
        clauses = self.clauses()
        if len(clauses) <= POSTING_LIMIT:
            return clauses
        if self._clause_index is None:
            self._clause_index = self._indexed(clauses)
        return [clauses[i] for i in sorted(self._clause_index.shared(tokens))]


def _join(a: Span, b: Span) -> Span:
    return _new_span(
        text=f"{a.text} {b.text}",
        tokens=a.tokens + b.tokens,
        token_set=a.token_set | b.token_set,
        numbers=a.numbers | b.numbers,
        entities=a.entities | b.entities,
        common=a.common,
        tentative=a.tentative | b.tentative,
        parts=(a, b),  # words, positions, kinds, ... are worked out from the parts on first use
        number_anchors=(),
        name_anchors=(),
        dropped=_EMPTY,
    )


def _analyze(text: str) -> Doc:
    normal = normalize(text)
    common = lowercase_words(normal)
    sentences = [make_span(s, common=common) for s in _split_normalized(normal)] or [
        make_span(normal, common=common)
    ]
    tokens: set[str] = set()
    numbers: set[str] = set()
    entities: set[str] = set()
    for s in sentences:
        tokens |= s.token_set
        numbers |= s.numbers
        entities |= s.entities
    doc = Doc(
        text=normal,
        sentences=sentences,
        token_set=frozenset(tokens),
        numbers=frozenset(numbers),
        entities=frozenset(entities),
        lowered=normal.lower(),
        common=common,
    )
    doc.analysed_bytes = (
        weigh(text, 0)
        + 2 * weigh(normal, 0)
        + sum(_span_bytes(s, worked_out=False) for s in sentences)
        + sum(map(_set_bytes, (common, doc.token_set, doc.numbers, doc.entities)))
    )
    return doc


def _set_bytes(words: frozenset[str]) -> int:
    """A set of a text's words or tokens: its table and its strings (words are far shorter than
    the 24 characters allowed for here; a longer one is a string of its own in the text)."""
    return weigh(words, 0) + 73 * len(words)


class _DocCache:
    """Analyses are memoised: a source is analysed once however often it is judged (by the
    several tasks of one case, by the many summaries of one source). Bounded in bytes
    (``DOC_BYTES``, by what each analysis weighs: it grows as it is used, and is weighed again
    whenever it is looked up) and in count; the least recently used go first. An analysis
    heavier than the whole budget is not kept."""

    def __init__(self, max_bytes: int = DOC_BYTES, size: int = 64) -> None:
        self.max_bytes = max_bytes
        self.size = size
        # text -> (its analysis, the weight last counted for it)
        self._items: OrderedDict[str, tuple[Doc, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def memo_bytes(self) -> int:
        """What the analyses weigh now (each weighed again), after evicting what no longer fits."""
        with self._lock:
            for text, (doc, _) in list(self._items.items()):
                self._reweigh(text, doc)
            self._trim()
            return self._bytes

    @property
    def memo_limit(self) -> int:
        return self.max_bytes

    def cache_clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def get(self, text: str) -> Doc:
        with self._lock:
            item = self._items.get(text)
            if item is not None:
                self._items.move_to_end(text)
                self._reweigh(text, item[0])
                self._trim()
                return item[0]
        doc = _analyze(text)
        with self._lock:
            if text not in self._items:
                self._items[text] = (doc, 0)
                self._reweigh(text, doc)
                self._trim()
        return doc

    def _reweigh(self, text: str, doc: Doc) -> None:
        weight = weigh(text, 0) + doc.memo_bytes
        self._bytes += weight - self._items[text][1]
        self._items[text] = (doc, weight)

    def _trim(self) -> None:
        """Evict the least recently used analyses until the rest fit (the lock held)."""
        items = self._items
        while items and (self._bytes > self.max_bytes or len(items) > self.size):
            _, (_, weight) = items.popitem(last=False)
            self._bytes -= weight


_cache = _DocCache()
MEMOS.append(_cache)


def analyze(text: str) -> Doc:
    """The analysis of ``text`` (memoised)."""
    return _cache.get(text)
