"""The lexical judge's memos, bounded in bytes.

The judge memoises what it works out from a text (the analysis of a source, of its sentences,
its word n-grams, ...) so that the several tasks of one case, and the many summaries of one
source, read each text once. A memo bounded by a count of entries is not bounded in memory:
the analysis of a 600 kB source weighs tens of megabytes, so sixty-four of them are gigabytes.
Every memo here is bounded in bytes instead, two ways:

* ``SizedMemo`` (texts and their analyses: entries of any size) keeps an account of each
  entry's weight (``weigh``, or the entry's own ``memo_bytes``) and evicts the least
  recently used entries until the memo is back within its budget. An entry that grows after it
  is stored (a source's analysis builds its clause index on first use) reports the growth, and
  the memo evicts for it at its next look-up.
* ``short_keys`` (words, names, numbers: small entries looked up millions of times, where
  C's ``functools.lru_cache`` is what keeps them fast) memoises only keys of at most
  ``SHORT_KEY`` characters, with a bounded count, so that its size is at most its count times
  the weight of its largest entry (``entry_bytes``). A longer key is worked out every time.

``memo_bytes`` is what all of them hold now (their accounts), ``memo_limit`` the sum of
their budgets: the bound docs/offline-judge.md states.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import lru_cache, wraps
from typing import Any, Generic, Protocol, TypeVar

__all__ = [
    "MEMOS",
    "NAME_ENTRY",
    "PATTERN_ENTRY",
    "SHORT_KEY",
    "WORD_ENTRY",
    "SizedMemo",
    "memo_bytes",
    "memo_limit",
    "memoised",
    "short_keys",
    "weigh",
]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
F = TypeVar("F", bound=Callable[..., Any])

# The longest key (in characters) a word-level memo keeps; a longer word, name or number is worked
# out every time it is met (a text's words are far shorter; a 1 MB "word" is an attack).
SHORT_KEY = 32
# The most one entry of a word-level memo weighs, in bytes, with its key at SHORT_KEY characters
# of the widest kind (four bytes each): a word or number and what it maps to (WORD_ENTRY), a
# name and its forms, stems or the words it is filed under (NAME_ENTRY), a compiled pattern
# (PATTERN_ENTRY). tests/test_lexical_memory.py weighs the largest entries each memo can hold.
WORD_ENTRY = 768
NAME_ENTRY = 2048
PATTERN_ENTRY = 3072


class _Bounded(Protocol):
    @property
    def memo_bytes(self) -> int: ...

    @property
    def memo_limit(self) -> int: ...

    def cache_clear(self) -> None: ...


MEMOS: list[_Bounded] = []


def memo_bytes() -> int:
    """What the judge's memos hold now, in bytes, as they account for it."""
    return sum(memo.memo_bytes for memo in MEMOS)


def memo_limit() -> int:
    """The most the judge's memos hold, in bytes: the sum of their budgets."""
    return sum(memo.memo_limit for memo in MEMOS)


_ATOMS = (int, float, bool, type(None))


def weigh(value: object, depth: int = 3) -> int:
    """An upper estimate of the bytes ``value`` holds: its own size and, for containers, its items'
    (to ``depth`` levels); an object with a ``memo_bytes`` attribute says its own weight."""
    own = getattr(value, "memo_bytes", None)
    if isinstance(own, int):
        return own
    size = sys.getsizeof(value)
    if depth <= 0 or isinstance(value, (str, bytes, *_ATOMS)):
        return size
    if isinstance(value, dict):
        return size + sum(weigh(k, depth - 1) + weigh(v, depth - 1) for k, v in value.items())
    if isinstance(value, (tuple, list, set, frozenset)):
        return size + sum(weigh(item, depth - 1) for item in value)
    return size


# Per entry of an ordered dictionary, beyond its key and value (a node and its links).
_ENTRY = 100


class SizedMemo(Generic[K, V]):
    """A least-recently-used memo bounded by the bytes of its entries (and, optionally, by their
    count). Thread-safe."""

    def __init__(
        self,
        name: str,
        max_bytes: int,
        *,
        max_items: int | None = None,
        weight: Callable[[K, V], int] | None = None,
        shared: Callable[[K, V], object] | None = None,
    ) -> None:
        self.name = name
        self.max_bytes = max_bytes
        self.max_items = max_items
        self._weight = weight or (lambda key, value: weigh(key) + weigh(value))
        # A part many entries share (a text's set of lower-case words, held by each of its
        # sentences): weighed once while an entry holds it, by its id -> (it, its weight, how
        # many entries hold it).
        self._shared_of = shared
        self._shared: dict[int, tuple[object, int, int]] = {}
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._grown = False  # an entry reported growth since the last eviction
        self._lock = threading.Lock()
        MEMOS.append(self)

    @property
    def memo_bytes(self) -> int:
        self._trim_if_grown()
        return self._bytes

    @property
    def memo_limit(self) -> int:
        return self.max_bytes

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items.move_to_end(key)
            if self._grown:
                self._trim()
            return item[0]

    def put(self, key: K, value: V) -> V:
        """Store ``value`` (unless it alone weighs more than the budget) and return it."""
        cost = self._weight(key, value) + _ENTRY
        if cost > self.max_bytes:
            return value
        part = self._shared_of(key, value) if self._shared_of is not None else None
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
                self._release(key, old[0])
            if part is not None:
                self._hold(part)
            self._items[key] = (value, cost)
            self._bytes += cost
            self._trim()
        return value

    def _hold(self, part: object) -> None:
        known = self._shared.get(id(part))
        if known is None:
            cost = weigh(part)
            self._shared[id(part)] = (part, cost, 1)
            self._bytes += cost
        else:
            self._shared[id(part)] = (part, known[1], known[2] + 1)

    def _release(self, key: K, value: V) -> None:
        if self._shared_of is None:
            return
        part = self._shared_of(key, value)
        known = self._shared.get(id(part))
        if known is None:
            return
        if known[2] > 1:
            self._shared[id(part)] = (part, known[1], known[2] - 1)
        else:
            del self._shared[id(part)]
            self._bytes -= known[1]

    def grew(self, key: K, extra: int) -> None:
        """The entry of ``key`` now holds ``extra`` bytes more (evicted for at the next look-up)."""
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items[key] = (item[0], item[1] + extra)
                self._bytes += extra
                self._grown = True

    def cache_clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._shared.clear()
            self._bytes = 0

    def _trim_if_grown(self) -> None:
        if self._grown:
            with self._lock:
                self._trim()

    def _trim(self) -> None:
        """Evict the least recently used entries until within the budget (the lock held)."""
        self._grown = False
        items = self._items
        while items and (
            self._bytes > self.max_bytes
            or (self.max_items is not None and len(items) > self.max_items)
        ):
            key, (value, cost) = items.popitem(last=False)
            self._bytes -= cost
            self._release(key, value)


def memoised(
    max_bytes: int,
    *,
    max_items: int | None = None,
    weight: Callable[[Any, Any], int] | None = None,
    shared: Callable[[Any, Any], object] | None = None,
) -> Callable[[F], F]:
    """Memoise a function of hashable arguments in a ``SizedMemo`` (``cache_clear`` empties
    it). A result of None is not memoised."""

    def wrap(function: F) -> F:
        memo: SizedMemo[Any, Any] = SizedMemo(
            function.__qualname__, max_bytes, max_items=max_items, weight=weight, shared=shared
        )

        @wraps(function)
        def call(*args: Any) -> Any:
            found = memo.get(args)
            if found is None:
                found = memo.put(args, function(*args))
            return found

        call.cache_clear = memo.cache_clear  # type: ignore[attr-defined]
        call.memo = memo  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    return wrap


class _ShortKeys:
    """The account of a ``short_keys`` memo: its count times its largest entry's weight."""

    def __init__(self, cached: Any, max_items: int, entry_bytes: int) -> None:
        self.cached = cached
        self.max_items = max_items
        self.entry_bytes = entry_bytes

    @property
    def memo_bytes(self) -> int:
        return int(self.cached.cache_info().currsize) * self.entry_bytes

    @property
    def memo_limit(self) -> int:
        return self.max_items * self.entry_bytes

    def cache_clear(self) -> None:
        self.cached.cache_clear()


def short_keys(max_items: int, entry_bytes: int) -> Callable[[F], F]:
    """Memoise (C's ``lru_cache``, ``max_items`` entries) a function of one string, or of a
    string and flags, for strings of at most ``SHORT_KEY`` characters; ``entry_bytes`` is the
    most one entry weighs (tests/test_lexical_memory.py checks it on the longest keys)."""

    def wrap(function: F) -> F:
        cached = lru_cache(maxsize=max_items)(function)
        account = _ShortKeys(cached, max_items, entry_bytes)
        MEMOS.append(account)

        @wraps(function)
        def call(key: Any, *flags: Any) -> Any:
            if isinstance(key, str) and len(key) > SHORT_KEY:
                return function(key, *flags)
            return cached(key, *flags)

        call.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        call.cache_info = cached.cache_info  # type: ignore[attr-defined]
        call.account = account  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    return wrap
