"""The per-scorer cache of source-side work, safe under concurrency and across event loops.

The first caller for a key computes; concurrent callers for the same key wait for that result
instead of asking the judge again. In-flight work is held as a ``concurrent.futures.Future`` so that
callers on different event loops (the background loop of ``score()`` and a notebook's loop) can all
wait on it. Failures are not cached: the next caller tries again.

The cache is bounded in entries (``maxsize``) and, with ``max_bytes``, in the memory its keys and
values hold (``approx_size``: a source of a million characters is a megabyte or more of key
alone, and its work about as much again), least recently used first out.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import sys
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["SourceCache", "approx_size"]

T = TypeVar("T")


class _OwnerCancelled(Exception):
    """The caller computing a value was cancelled; a waiter should compute it itself."""


_SCALARS = (str, bytes, int, float, bool, type(None))


def approx_size(value: object, depth: int = 0) -> int:
    """The bytes ``value`` holds, roughly: ``sys.getsizeof`` of it and of what it contains
    (strings, numbers, lists, tuples, sets, dicts, objects' attributes), a few levels down.
    Strings held twice are counted twice: an estimate on the high side."""
    size = sys.getsizeof(value)
    if depth > 8 or isinstance(value, _SCALARS):
        return size
    if isinstance(value, dict):
        return size + sum(
            approx_size(k, depth + 1) + approx_size(v, depth + 1) for k, v in value.items()
        )
    if isinstance(value, (list, tuple, set, frozenset)):
        return size + sum(approx_size(item, depth + 1) for item in value)
    attributes = getattr(value, "__dict__", None)
    return size + (approx_size(attributes, depth + 1) if isinstance(attributes, dict) else 0)


class SourceCache(Generic[T]):
    """A bounded LRU of computed values with in-flight de-duplication: at most ``maxsize``
    entries and, with ``max_bytes``, at most that many bytes (``approx_size`` of each key
    and value; an entry larger than the bound alone is not kept)."""

    def __init__(self, maxsize: int = 512, max_bytes: int | None = None) -> None:
        if isinstance(maxsize, bool) or not isinstance(maxsize, int) or maxsize < 0:
            raise ValueError(f"source_cache_size must be a non-negative integer, got {maxsize!r}")
        if max_bytes is not None and (
            isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0
        ):
            raise ValueError(
                f"source_cache_bytes must be a non-negative integer or None, got {max_bytes!r}"
            )
        self.maxsize = maxsize
        self.max_bytes = max_bytes
        self.bytes = 0  # what the entries hold, as approx_size counts (with max_bytes)
        self._sizes: dict[Hashable, int] = {}
        self._done: OrderedDict[Hashable, T] = OrderedDict()
        self._inflight: dict[Hashable, concurrent.futures.Future[T]] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._done)

    def clear(self) -> None:
        with self._lock:
            self._done.clear()
            self._sizes.clear()
            self.bytes = 0

    async def get_or_compute(
        self, key: Hashable, compute: Callable[[], Awaitable[T]]
    ) -> tuple[T, bool]:
        """Return (value, reused): reused is True when this call did not compute the value."""
        while True:
            with self._lock:
                if key in self._done:
                    self._done.move_to_end(key)
                    return self._done[key], True
                future = self._inflight.get(key)
                owner = future is None
                if owner:
                    future = concurrent.futures.Future()
                    self._inflight[key] = future
            assert future is not None
            if not owner:
                try:
                    return await asyncio.wrap_future(future), True
                except _OwnerCancelled:
                    continue
            try:
                value = await compute()
            except asyncio.CancelledError:
                self._finish(key, future, error=_OwnerCancelled())
                raise
            except BaseException as exc:
                self._finish(key, future, error=exc)
                raise
            self._finish(key, future, value=value)
            return value, False

    def _finish(
        self,
        key: Hashable,
        future: concurrent.futures.Future[T],
        *,
        value: T | None = None,
        error: BaseException | None = None,
    ) -> None:
        size = 0
        if error is None and self.max_bytes is not None:
            size = approx_size(key) + approx_size(value)
        with self._lock:
            self._inflight.pop(key, None)
            fits = self.max_bytes is None or size <= self.max_bytes
            if error is None and self.maxsize > 0 and fits:
                self.bytes -= self._sizes.pop(key, 0)
                self._done[key] = value  # type: ignore[assignment]
                self._sizes[key] = size
                self.bytes += size
                while len(self._done) > self.maxsize or (
                    self.max_bytes is not None and self.bytes > self.max_bytes
                ):
                    dropped, _ = self._done.popitem(last=False)
                    self.bytes -= self._sizes.pop(dropped, 0)
        if error is None:
            future.set_result(value)  # type: ignore[arg-type]
        else:
            future.set_exception(error)
