"""A whole text as the lexical judge reads it: ``Doc``, its sentences and the windows of two
adjacent sentences, analysed once and memoised (``analyze``)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from ._index import POSTING_LIMIT, TokenIndex
from ._text import _EMPTY, Span, _new_span, _split_normalized, make_span, split_clauses
from ._words import lowercase_words, normalize

__all__ = ["MEMO_LIMIT", "Doc", "analyze"]

MEMO_LIMIT = 4096  # memoised window searches per text


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

    def _pair(self, i: int) -> Span:
        """Sentences ``i`` and ``i + 1`` as one window."""
        pair = self._pairs.get(i)
        if pair is None:
            pair = self._pairs[i] = _join(self.sentences[i], self.sentences[i + 1])
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
            self._index = TokenIndex(self.sentences)
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
            n = len(tokens & held)
            if n >= bar:
                length = len(sentences[i].text) + len(sentences[i + 1].text) + 1
                scored.append((-n, length, i, True))
        scored.sort()
        best = scored[:top]
        found = [self._pair(i) if pair else sentences[i] for _, _, i, pair in best]
        if len(self._best) < MEMO_LIMIT or known is not None:
            self._best[tokens] = (top, found)
        return found

    def clauses(self) -> list[Span]:
        """The clauses of every sentence, as spans (computed once)."""
        if self._clauses is None:
            self._clauses = [
                make_span(c, common=self.common)
                for s in self.sentences
                for c in split_clauses(s.text)
            ]
        return self._clauses

    def clauses_sharing(self, tokens: frozenset[str]) -> list[Span]:
        """The clauses worth comparing with a statement made of ``tokens``: all of them in a
        text of ordinary length, the candidates of an inverted index (see ``_index``) in a
        longer one."""
        clauses = self.clauses()
        if len(clauses) <= POSTING_LIMIT:
            return clauses
        if self._clause_index is None:
            self._clause_index = TokenIndex(clauses)
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
        make_span(text, common=common)
    ]
    tokens: set[str] = set()
    numbers: set[str] = set()
    entities: set[str] = set()
    for s in sentences:
        tokens |= s.token_set
        numbers |= s.numbers
        entities |= s.entities
    return Doc(
        text=text,
        sentences=sentences,
        token_set=frozenset(tokens),
        numbers=frozenset(numbers),
        entities=frozenset(entities),
        lowered=normal.lower(),
        common=common,
    )


class _DocCache:
    """Analyses are memoised: a source is analysed once however often it is judged (by the
    several tasks of one case; bounded to a few dozen texts, see the span memos above)."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._items: OrderedDict[str, Doc] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str) -> Doc:
        with self._lock:
            doc = self._items.get(text)
            if doc is not None:
                self._items.move_to_end(text)
                return doc
        doc = _analyze(text)
        with self._lock:
            self._items[text] = doc
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return doc


_cache = _DocCache()


def analyze(text: str) -> Doc:
    """The analysis of ``text`` (memoised)."""
    return _cache.get(text)
