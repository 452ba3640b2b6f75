"""Identical cases answered once: a case in flight is shared by its duplicates, a finished one is
answered from a cache of recent results bounded in bytes.

A client that times out and retries (promptfoo's webhook gives up after 5 s and tries 4 more
times) sends the same case again while the first is still being judged; without this the server
judged it five times. A case is "the same" when everything that decides its result is: the
rule and its options (the variant of the server's scorer), the source as sent, the summary and
the assessment questions. The ``id`` is not part of it: each caller gets its own back.

What is served twice is exactly what scoring once gave (the result, usage included, as the first
caller got it): scores never depend on which requests came before or alongside. Only results
without ``error`` are kept after they finish, so a judge failure is tried again by the next
request rather than remembered. Results are kept as their compact JSON (so the bound is the bytes
really held), least recently used first out.

A waiter that leaves (its deadline passed, its batch was answered 504) stops waiting; the work
goes on while another caller still waits for it, and is cancelled when none does.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["SharedResults", "case_key"]

# Each kept result costs its JSON plus the key and the dict's bookkeeping.
_ENTRY_OVERHEAD = 200


def case_key(*parts: Any) -> bytes:
    """A digest of everything that decides a case's result (lone surrogates included)."""
    text = json.dumps(parts, ensure_ascii=False, sort_keys=True, default=repr)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=32).digest()


class _Flight:
    __slots__ = ("task", "waiters")

    def __init__(self, task: asyncio.Task[dict[str, Any]]) -> None:
        self.task = task
        self.waiters = 0


class SharedResults:
    """In-flight sharing and a least-recently-used cache of finished results, ``max_bytes`` in
    all (0 keeps none after they finish; sharing in flight still applies)."""

    def __init__(self, max_bytes: int) -> None:
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:
            raise ValueError(f"max_bytes must be 0 or more, got {max_bytes!r}")
        self.max_bytes = max_bytes
        self.bytes = 0
        self._done: OrderedDict[bytes, bytes] = OrderedDict()
        self._flights: dict[bytes, _Flight] = {}

    def __len__(self) -> int:
        return len(self._done)

    async def get(
        self, key: bytes, score: Callable[[], Awaitable[dict[str, Any]]]
    ) -> tuple[dict[str, Any], str]:
        """(result, how): ``how`` is "scored" (this call judged it), "shared" (joined a call in
        flight) or "cached" (a finished result). The result is the caller's own copy."""
        kept = self._done.get(key)
        if kept is not None:
            self._done.move_to_end(key)
            return json.loads(kept), "cached"
        flight = self._flights.get(key)
        how = "shared"
        if flight is None:
            flight = _Flight(asyncio.ensure_future(score()))
            self._flights[key] = flight
            flight.task.add_done_callback(lambda task: self._landed(key, flight))
            how = "scored"
        flight.waiters += 1
        try:
            result = await asyncio.shield(flight.task)
        except BaseException:  # cancelled, or the work failed: this caller stops waiting
            self._leave(key, flight)
            raise
        flight.waiters -= 1
        return dict(result), how

    def _leave(self, key: bytes, flight: _Flight) -> None:
        """A waiter stopped waiting: the last one out cancels work still running, and a later
        duplicate starts afresh instead of joining work being cancelled."""
        flight.waiters -= 1
        if flight.waiters <= 0 and not flight.task.done():
            if self._flights.get(key) is flight:
                del self._flights[key]
            flight.task.cancel()

    def _landed(self, key: bytes, flight: _Flight) -> None:
        if self._flights.get(key) is flight:
            del self._flights[key]
        task = flight.task
        if task.cancelled() or task.exception() is not None or not self.max_bytes:
            return
        result = task.result()
        if result.get("error"):
            return  # a failure is tried again, not remembered
        data = json.dumps(result, ensure_ascii=False, separators=(",", ":")).encode(
            "utf-8", "surrogatepass"
        )
        self._keep(key, data)

    def _keep(self, key: bytes, data: bytes) -> None:
        size = len(data) + _ENTRY_OVERHEAD
        if size > self.max_bytes:
            return
        old = self._done.pop(key, None)
        if old is not None:
            self.bytes -= len(old) + _ENTRY_OVERHEAD
        self._done[key] = data
        self.bytes += size
        while self.bytes > self.max_bytes:
            _, dropped = self._done.popitem(last=False)
            self.bytes -= len(dropped) + _ENTRY_OVERHEAD

    def clear(self) -> None:
        self._done.clear()
        self.bytes = 0
