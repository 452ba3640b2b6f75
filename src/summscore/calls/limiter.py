"""How many judge requests one scorer has in flight, across every event loop that uses it.

A scorer is shared: ``score_many`` runs on summscore's background loop, ``ascore`` on the
caller's loop (a notebook, deepeval's ``evaluate``), the faces on either. ``asyncio.Semaphore``
binds to one loop, so this limiter keeps its count under a thread lock and wakes each waiter on
its own loop. Waiters are served first come, first served.

With a fixed limit (the user set ``max_concurrency``) that is all. Without one the limit adapts
to the server, as TCP does: until the server first answers 429 it grows by one with every
successful request (doubling each round, TCP's slow start, so a framework loop that sends 16 or 20
rows at once is not held at the starting limit); it halves when the server answers 429 to a request
sent since the last cut (the other 429s of the same burst were caused by the old limit), and after
that grows by one per limit's worth of successful requests, up to ``ceiling``.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from typing import Any

__all__ = ["RequestLimiter"]


class RequestLimiter:
    """A counting semaphore usable from several event loops and threads."""

    def __init__(
        self,
        limit: int,
        *,
        adaptive: bool = False,
        ceiling: int | None = None,
    ) -> None:
        if limit < 1:
            raise ValueError(f"max_concurrency must be a positive integer, got {limit!r}")
        self.limit = limit
        self.adaptive = adaptive
        self.ceiling = max(ceiling or limit, limit)
        self.in_flight = 0
        self.peak = 0
        self.epoch = 0  # how many times the limit was cut
        self._successes = 0
        self._waiters: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()
        self._lock = threading.Lock()

    async def acquire(self) -> int:
        """Wait for a slot; return the epoch to give ``rate_limited`` if the request gets 429."""
        loop = asyncio.get_running_loop()
        with self._lock:
            if self.in_flight < self.limit and not self._waiters:
                self._take()
                return self.epoch
            future: asyncio.Future[None] = loop.create_future()
            self._waiters.append((loop, future))
        try:
            await future
        except asyncio.CancelledError:
            with self._lock:
                try:
                    self._waiters.remove((loop, future))
                    granted = False
                except ValueError:
                    granted = True
            # Handed a slot: give it back, unless _grant has yet to run (it then does).
            if granted and future.done() and not future.cancelled():
                self.release()
            raise
        return self.epoch

    def release(self) -> None:
        with self._lock:
            self.in_flight -= 1
            self._wake()

    def succeeded(self) -> None:
        """A request was answered: an adaptive limit grows by one per limit's worth of these."""
        if not self.adaptive:
            return
        with self._lock:
            self._successes += 1
            # Slow start until the first 429 (epoch 0): one more slot per answer, so the limit
            # doubles each round; after a cut, one more per limit's worth (congestion avoidance).
            if self.limit < self.ceiling and (self.epoch == 0 or self._successes >= self.limit):
                self._successes = 0
                self.limit += 1
                self._wake()

    def rate_limited(self, epoch: int) -> None:
        """The server answered 429 to a request sent in ``epoch``: an adaptive limit halves,
        once per burst."""
        if not self.adaptive:
            return
        with self._lock:
            if epoch != self.epoch:
                return
            self.epoch += 1
            self._successes = 0
            self.limit = max(1, min(self.limit, self.in_flight) // 2)

    async def __aenter__(self) -> RequestLimiter:
        await self.acquire()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self.release()

    def _take(self) -> None:
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)

    def _wake(self) -> None:
        """Hand free slots to waiters, in order. Called with the lock held."""
        while self._waiters and self.in_flight < self.limit:
            loop, future = self._waiters.popleft()
            self._take()
            try:
                loop.call_soon_threadsafe(self._grant, future)
            except RuntimeError:  # that loop is closed: nobody will take the slot
                self.in_flight -= 1

    def _grant(self, future: asyncio.Future[None]) -> None:
        if future.done():  # cancelled after it was handed the slot
            self.release()
        else:
            future.set_result(None)
