"""The adaptive request limit against a server that takes 32 at once, under a virtual clock
(issue #48): the real scorer, limiter and retries, on an event loop whose time jumps to the next
timer, so that the machine's load does not change what is measured."""

from __future__ import annotations

import asyncio
import random
import selectors
from typing import Any

import pytest

from summscore import SummarizationScorer
from summscore.calls.limiter import RequestLimiter
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


def run(rows: int, *, arrivals: float | None = None, jitter: float = 0.0, seed: int = 0) -> Any:
    """``rows`` cases scored by one scorer with the adaptive limit: all at once by
    ``ascore_many``, or (``arrivals``) one ``ascore`` each, started evenly over that many
    seconds, as a framework's threads hand the shared scorer their rows. The judge, the limiter
    and the virtual seconds taken."""
    random.seed(seed)  # the retries' jitter
    judge = FullServer(jitter=jitter, seed=seed)
    scorer = SummarizationScorer(llm=judge, preset="ragas", prompts="own")
    cases = [(f"Source {i}: the report on item {i}.", f"summary {i}") for i in range(rows)]

    async def staggered(i: int, case: tuple[str, str]) -> Any:
        assert arrivals is not None
        await asyncio.sleep(arrivals * i / rows)
        return await scorer.ascore(*case)

    async def main() -> list[Any]:
        if arrivals is None:
            return await scorer.ascore_many(cases, progress=False)
        return list(await asyncio.gather(*(staggered(i, c) for i, c in enumerate(cases))))

    loop = VirtualLoop()
    try:
        results = loop.run_until_complete(main())
        seconds = loop.time()
    finally:
        loop.close()
    assert all(r.ok for r in results)
    limiter = scorer._caller.limiter
    assert isinstance(limiter, RequestLimiter)
    return judge, limiter, seconds


def test_a_refused_burst_teaches_the_servers_level_not_the_rounds_answered_requests() -> None:
    # Every row at once: 8, 16, 32 in flight, then 64 sent as the round of 32 is answered. The
    # server refuses the 32 above its 32; their places, counted when each slot was granted, read
    # 48 to 64 (the round's answered requests not yet released counted), so the limit came back
    # to 47 and met a second burst of 15 refusals (48 in all, 3.26 virtual s). Counted as each
    # request goes out: one burst and a probe, 2.23 s.
    judge, limiter, seconds = run(80)
    assert judge.peak == 32
    assert limiter.target <= 32
    assert judge.rejected <= 33
    assert seconds < 2.5


@pytest.mark.parametrize("arrivals", [0.3, 1.0])
def test_rows_handed_in_one_by_one_meet_no_more_refusals_than_rows_sent_at_once(
    arrivals: float,
) -> None:
    # A framework's threads each hand the shared scorer one row, at different moments: the slow
    # start must not climb further past the server than with every row sent at once.
    staggered, _, _ = run(80, arrivals=arrivals)
    at_once, _, _ = run(80)
    assert staggered.rejected <= at_once.rejected


async def test_a_place_is_counted_when_the_request_goes_out() -> None:
    limiter = RequestLimiter(2, adaptive=True, ceiling=8)
    first = [await limiter.acquire() for _ in range(2)]
    assert [t.place for t in first] == [1, 2]
    waiters = [asyncio.ensure_future(limiter.acquire()) for _ in range(2)]
    await asyncio.sleep(0)
    limiter.release()
    limiter.release()  # both slots handed on before either waiter runs
    later = await asyncio.gather(*waiters)
    # At the grant the first waiter's place was 2 (the second answered request not released).
    assert [t.place for t in later] == [1, 2]
    assert limiter.in_flight == 2
