"""The per-scorer cache of source-side work, safe under concurrency and across event loops.

The first caller for a key computes; concurrent callers for the same key wait for that result
instead of asking the judge again. In-flight work is held as a ``concurrent.futures.Future`` so that
callers on different event loops (the background loop of ``score()`` and a notebook's loop) can all
wait on it. Failures are not cached: the next caller tries again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["SourceCache"]

T = TypeVar("T")


class _OwnerCancelled(Exception):
    """The caller computing a value was cancelled; a waiter should compute it itself."""


class SourceCache(Generic[T]):
    """A bounded LRU of computed values with in-flight de-duplication."""

    def __init__(self, maxsize: int = 512) -> None:
        if isinstance(maxsize, bool) or not isinstance(maxsize, int) or maxsize < 0:
            raise ValueError(f"source_cache_size must be a non-negative integer, got {maxsize!r}")
        self.maxsize = maxsize
        self._done: OrderedDict[Hashable, T] = OrderedDict()
        self._inflight: dict[Hashable, concurrent.futures.Future[T]] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._done)

    def clear(self) -> None:
        with self._lock:
            self._done.clear()

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
        with self._lock:
            self._inflight.pop(key, None)
            if error is None and self.maxsize > 0:
                self._done[key] = value  # type: ignore[assignment]
                while len(self._done) > self.maxsize:
                    self._done.popitem(last=False)
        if error is None:
            future.set_result(value)  # type: ignore[arg-type]
        else:
            future.set_exception(error)
