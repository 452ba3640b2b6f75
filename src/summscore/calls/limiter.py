"""How many judge requests one scorer has in flight, across every event loop that uses it.

A scorer is shared: ``score_many`` runs on summscore's background loop, ``ascore`` on the
caller's loop (a notebook, deepeval's ``evaluate``), the faces on either. ``asyncio.Semaphore``
binds to one loop, so this limiter keeps its count under a thread lock and wakes each waiter on
its own loop. Waiters are served first come, first served.

With a fixed limit (the user set ``max_concurrency``) that is all. Without one the limit adapts
to the server, as TCP does:

* until the server first answers 429 it grows by one with every successful request (doubling
  each round, TCP's slow start, so a framework loop that sends 16 or 20 rows at once is not held
  at the starting limit) up to ``_FULL_SLOW_START``, and from there by one per limit /
  ``_ROUND_GROWTH`` answers, at most ``_ROUND_GROWTH`` a round (RFC 3742's limited slow start).
  Every request sent past the server's level before its first 429 is heard is refused, and a
  client slow to send and to read (a framework's threads holding the GIL, a busy machine) hears
  it up to a round late: the slots added meanwhile were as many as the limit itself when each
  answer added one, and are at most ``_ROUND_GROWTH`` now;
* a 429 to a request granted since the last cut halves the limit (the other 429s of the same
  burst were caused by the old limit) and the request waits its Retry-After (the sender's part);
* each request remembers its place among those in flight when it was sent (when ``acquire``
  returned, not when its slot was granted: the answers of a round free their slots one by one
  and each slot is handed on at once, so a place counted at the grant still counts the round's
  answered requests). A 429 says the server refused that many, so the level to come back to is
  one below the lowest place refused in the burst (TCP's ssthresh, measured instead of
  guessed). Below it the limit grows by one per answer again, so a halving costs one
  round, not the 16 rounds additive growth takes from 16 back to 32;
* at that level it probes one higher per ``probe`` rounds of answers (two at first). A 429 at
  the same level again or higher (the server's capacity is steady) doubles ``probe``, up to
  ``_MAX_PROBE`` rounds; one lower (the capacity shrank) starts it again at two. A steady server is probed a few
  times a run, not every round, and every probe past it still halves the limit.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from typing import Any

__all__ = ["RequestLimiter", "Ticket"]

# The longest wait between probes above a level the server refused, in rounds of answers.
_MAX_PROBE = 16
# ... and after a cut at a new level: one probe after two rounds.
_FIRST_PROBE = 2
# Before the first 429: one more slot per answer up to this limit, then this many more a round.
_FULL_SLOW_START = 16
_ROUND_GROWTH = 8


class Ticket(int):
    """What ``RequestLimiter.acquire`` returns: the epoch the slot was granted in (an int, as
    ``RequestLimiter.rate_limited`` takes it back), and ``place``: how many requests were in
    flight when it was sent (as ``acquire`` returned), itself included."""

    place: int

    def __new__(cls, epoch: int, place: int) -> Ticket:
        ticket = super().__new__(cls, epoch)
        ticket.place = place
        return ticket


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
        self._handed = 0  # slots granted to waiters that have not resumed yet (not sent)
        self.peak = 0
        self.epoch = 0  # how many times the limit was cut
        self.target = 0  # after a cut: one below the lowest place the server refused
        self.probe = _FIRST_PROBE  # rounds of answers between probes above the target
        self._successes = 0
        self._waiters: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[int]]] = deque()
        self._lock = threading.Lock()

    async def acquire(self) -> Ticket:
        """Wait for a slot; return the ticket to give ``rate_limited`` if the request gets
        429."""
        loop = asyncio.get_running_loop()
        with self._lock:
            if self.in_flight < self.limit and not self._waiters:
                self._take()
                return self._ticket(self.epoch)
            future: asyncio.Future[int] = loop.create_future()
            self._waiters.append((loop, future))
        try:
            # Granted in the epoch of the grant: a cut between the grant and this task's turn
            # was not caused by this request.
            epoch = await future
        except asyncio.CancelledError:
            with self._lock:
                try:
                    self._waiters.remove((loop, future))
                    granted = False
                except ValueError:
                    granted = True
            # Handed a slot: give it back, unless _grant has yet to run (it then does).
            if granted and future.done() and not future.cancelled():
                with self._lock:
                    self._handed -= 1
                self.release()
            raise
        # The place is counted now, as the request is about to be sent, not at the grant: the
        # answers that freed the slots handed out with this one have left the server, and those
        # handed out with it but not sent yet have not reached it.
        with self._lock:
            self._handed -= 1
            return self._ticket(epoch)

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
            # Below the target after a cut: one more slot per answer, so the limit doubles each
            # round. Slow start until the first 429 (epoch 0): the same up to _FULL_SLOW_START,
            # then _ROUND_GROWTH more a round. At the target and above, one more per ``probe``
            # limit's worth of answers.
            if self.limit < self.ceiling and (
                self.limit < self.target
                or (self.epoch == 0 and self._slow_start_step())
                or self._successes >= self.limit * self.probe
            ):
                self._successes = 0
                self.limit += 1
                self._wake()

    def _slow_start_step(self) -> bool:
        """Whether the answers counted since the last step add a slot before the first 429.
        Called with the lock held."""
        return self.limit < _FULL_SLOW_START or self._successes * _ROUND_GROWTH >= self.limit

    def rate_limited(self, epoch: int) -> None:
        """The server answered 429 to a request granted in ``epoch`` (its ``Ticket``): an
        adaptive limit halves, once per burst, and learns the level to come back to."""
        if not self.adaptive:
            return
        place = getattr(epoch, "place", None)
        with self._lock:
            if epoch == self.epoch - 1 and isinstance(place, int):
                # Another 429 of the burst that caused the last cut: the server may have
                # refused fewer than the first one said.
                self.target = max(1, min(self.target, place - 1))
                return
            if epoch != self.epoch:
                return
            refused = min(self.limit, self.in_flight)
            # Where the server said no: this request's place, when it was granted, if lower.
            level = min(refused, place) if isinstance(place, int) else refused
            if self.epoch > 0 and level > self.target:
                self.probe = min(2 * self.probe, _MAX_PROBE)  # steady: probe less often
            else:
                self.probe = _FIRST_PROBE
            self.epoch += 1
            self._successes = 0
            self.target = max(1, level - 1)
            self.limit = max(1, refused // 2)

    async def __aenter__(self) -> RequestLimiter:
        await self.acquire()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self.release()

    def _ticket(self, epoch: int) -> Ticket:
        """A slot taken up, as its request is sent. Called with the lock held."""
        return Ticket(epoch, self.in_flight - self._handed)

    def _take(self) -> None:
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)

    def _wake(self) -> None:
        """Hand free slots to waiters, in order. Called with the lock held."""
        while self._waiters and self.in_flight < self.limit:
            loop, future = self._waiters.popleft()
            self._take()
            self._handed += 1
            try:
                loop.call_soon_threadsafe(self._grant, future, self.epoch)
            except RuntimeError:  # that loop is closed: nobody will take the slot
                self.in_flight -= 1
                self._handed -= 1

    def _grant(self, future: asyncio.Future[int], epoch: int) -> None:
        if future.done():  # cancelled after it was handed the slot
            with self._lock:
                self._handed -= 1
            self.release()
        else:
            future.set_result(epoch)
