"""An event loop on a virtual clock and a judge that takes 32 requests at once (issue #48): the
real scorer and limiter run on it, and the machine's load does not change what is measured.

``VirtualLoop``'s time jumps to the next timer instead of waiting. ``FullServer`` answers as the
compat judge server does under ``benchmarks/throughput.py``: 0.2 s from arrival, 429 with
Retry-After 1 s beyond ``cap`` at once. ``block_the_loop`` holds the loop for part of every
period, as a framework's threads holding the GIL (or a busy machine) do: answers and refusals are
read late, requests go out late."""

from __future__ import annotations

import asyncio
import random
import selectors
from typing import Any

from summscore.errors import TransientJudgeError
from summscore.judges.base import JudgeReply, JudgeRequest

from .fakes import ScriptedJudge, ragas_script


class _JumpingSelector(selectors.DefaultSelector):
    """Waits no real time: a wait for the next timer moves the loop's clock to it."""

    loop: VirtualLoop

    def select(self, timeout: float | None = None) -> list[Any]:
        ready = super().select(0)
        if ready or timeout == 0:
            return ready
        if timeout is None:  # nothing scheduled: only another thread can wake the loop
            return super().select(None)
        self.loop.now += timeout
        return []


class VirtualLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        selector = _JumpingSelector()
        super().__init__(selector)
        selector.loop = self
        self.now = 0.0

    def time(self) -> float:
        return self.now


class FullServer(ScriptedJudge):
    """Answers in 0.2 s from arrival and refuses (429, Retry-After 1 s) beyond ``cap`` at once,
    as the compat judge server does. ``jitter``: each way of the trip takes up to that long (a
    seeded draw), so answers and refusals reach the client late and out of order."""

    def __init__(self, cap: int = 32, jitter: float = 0.0, seed: int = 0) -> None:
        super().__init__(ragas_script())
        self.cap, self.jitter, self._rng = cap, jitter, random.Random(seed)
        self.active = self.peak = self.rejected = 0

    async def _trip(self) -> None:
        if self.jitter:
            await asyncio.sleep(self._rng.uniform(0, self.jitter))

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        await self._trip()
        if self.active >= self.cap:
            self.rejected += 1
            await self._trip()
            raise TransientJudgeError("RateLimitError (HTTP 429): busy", retry_after=1.0)
        self.active += 1
        self.peak = max(self.peak, self.active)
        try:
            await asyncio.sleep(0.2)
        finally:
            self.active -= 1
        await self._trip()
        return await super().complete(request)


async def block_the_loop(held: float, every: float) -> None:
    """Hold the running (virtual) loop ``held`` seconds of every ``every``, until cancelled."""
    loop = asyncio.get_running_loop()
    assert isinstance(loop, VirtualLoop)
    while True:
        await asyncio.sleep(every - held)
        loop.now += held  # the loop runs nothing else meanwhile


def cases(rows: int, sources: int | None = None) -> list[tuple[str, str]]:
    """``rows`` (source, summary) cases over ``sources`` distinct sources (default: all)."""
    sources = sources or rows
    return [
        (f"Source {i % sources}: the report on item {i % sources}.", f"summary {i}")
        for i in range(rows)
    ]
