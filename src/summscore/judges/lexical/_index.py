"""Which passages of a text are worth comparing with a statement: an inverted index over the
passages' tokens whose look-ups cost at most a constant times the statement's length.

A token held by more than ``POSTING_LIMIT`` passages (a word the whole text repeats) brings in
no candidates of its own; it only counts towards the candidates the rarer tokens bring. With no
rarer token, the first ``POSTING_LIMIT`` passages holding the rarest token are the candidates.
Counts are exact for any text where no token is that common, so judging a text against itself
(each of its N statements against its N passages) stays linear in N.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

__all__ = ["POSTING_LIMIT", "TokenIndex"]

POSTING_LIMIT = 256


class _HasTokens(Protocol):
    @property
    def token_set(self) -> frozenset[str]: ...


class TokenIndex:
    """Token -> the indexes of the passages that hold it, built once per list of passages."""

    def __init__(self, passages: Sequence[_HasTokens]) -> None:
        self._passages = passages
        postings: dict[str, list[int]] = {}
        for i, passage in enumerate(passages):
            for token in passage.token_set:
                postings.setdefault(token, []).append(i)
        self._postings = postings
        self.examined = 0  # candidate passages looked at so far: the work done, for tests

    def shared(self, tokens: frozenset[str]) -> dict[int, int]:
        """Passage index -> how many of ``tokens`` it holds, for the candidate passages."""
        postings = self._postings
        shared: dict[int, int] = {}
        frequent: list[str] = []
        for token in tokens:
            posting = postings.get(token, ())
            if len(posting) > POSTING_LIMIT:
                frequent.append(token)
                continue
            for i in posting:
                shared[i] = shared.get(i, 0) + 1
        if frequent:
            if not shared:
                rarest = min(frequent, key=lambda t: len(postings[t]))
                shared = dict.fromkeys(postings[rarest][:POSTING_LIMIT], 0)
            passages = self._passages
            for i in shared:
                held = passages[i].token_set
                shared[i] += sum(1 for token in frequent if token in held)
        self.examined += len(shared)
        return shared
