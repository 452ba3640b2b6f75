"""Judge requests in flight, dependent rounds, and the reply cache's keys (issues #14, #11)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import openai
import pytest
from compat.corpus import case
from compat.judge_server import JudgeServer

from summscore import JudgeError, SummarizationScorer
from summscore.calls.limiter import RequestLimiter
from summscore.calls.sender import AUTH_FAILURES_TO_STOP
from summscore.calls.sync import run_sync
from summscore.judges.base import JudgeReply, JudgeRequest

from .fakes import (
    FITNESS_SOURCE,
    FITNESS_SUMMARY,
    CountingJudge,
    ScriptedJudge,
    Seq,
    ragas_script,
)
from .test_scorer import deepeval_script


class LockstepJudge(ScriptedJudge):
    """Answers in rounds: requests wait until no new one arrives, then all are answered at once.

    ``rounds`` is then the number of dependent rounds the scorer needed.
    """

    def __init__(self, script: dict[str, Any]) -> None:
        super().__init__(script)
        self.rounds = 0
        self._waiting: list[asyncio.Future[None]] = []
        self._driver: asyncio.Task[None] | None = None

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        future = asyncio.get_running_loop().create_future()
        self._waiting.append(future)
        if self._driver is None or self._driver.done():
            self._driver = asyncio.ensure_future(self._drive())
        await future
        return await super().complete(request)

    async def _drive(self) -> None:
        while self._waiting:
            seen = -1
            while seen != len(self._waiting):  # until no new request arrives
                seen = len(self._waiting)
                for _ in range(100):
                    await asyncio.sleep(0)
            batch, self._waiting = self._waiting, []
            self.rounds += 1
            for future in batch:
                future.set_result(None)
            for _ in range(100):  # let the answers lead to the next round's requests
                await asyncio.sleep(0)


def many_deepeval_cases(sources: int, summaries: int) -> list[tuple[str, str]]:
    return [
        (f"{FITNESS_SOURCE} Report {s}.", f"summary {k} of report {s}")
        for s in range(sources)
        for k in range(summaries)
    ]


# --------------------------------------------------------------------- requests in flight


async def test_max_concurrency_bounds_requests_not_cases() -> None:
    judge = CountingJudge(deepeval_script())
    s = SummarizationScorer(llm=judge, preset="deepeval", prompts="own", max_concurrency=3)
    results = await s.ascore_many(many_deepeval_cases(4, 3), progress=False)
    assert all(r.ok for r in results)
    # A deepeval case asks up to three things at once; three cases would be nine requests.
    assert judge.peak == 3


async def test_the_limit_is_shared_by_every_loop_that_uses_the_scorer() -> None:
    judge = CountingJudge(deepeval_script())
    s = SummarizationScorer(llm=judge, preset="deepeval", prompts="own", max_concurrency=2)
    cases = many_deepeval_cases(3, 2)
    # score_many runs on summscore's background loop, ascore_many on this test's loop.
    background = asyncio.to_thread(s.score_many, cases[:3], progress=False)
    here = s.ascore_many(cases[3:], progress=False)
    first, second = await asyncio.gather(background, here)
    assert all(r.ok for r in first + second)
    assert judge.peak == 2


async def test_a_calls_own_max_concurrency_applies_within_the_scorers() -> None:
    judge = CountingJudge(deepeval_script())
    s = SummarizationScorer(llm=judge, preset="deepeval", prompts="own", max_concurrency=8)
    results = await s.ascore_many(many_deepeval_cases(3, 3), max_concurrency=2, progress=False)
    assert all(r.ok for r in results)
    assert judge.peak == 2


async def test_without_a_limit_the_scorer_backs_off_when_the_server_says_429() -> None:
    judge = CountingJudge(ragas_script(), cap=3)
    s = SummarizationScorer(llm=judge, preset="ragas", prompts="own", max_retries=8)
    results = await s.ascore_many(
        [(f"source {i}", f"summary {i}") for i in range(24)], progress=False
    )
    assert all(r.ok for r in results)
    assert judge.rejected < len(judge.requests)


async def test_a_limit_above_the_servers_backs_off_below_it_and_never_exceeds_it() -> None:
    """max_concurrency=12 against a server that takes 3: the limit halves on 429s instead of
    spending every retry of a call on a server that stays full."""
    judge = CountingJudge(ragas_script(), cap=3)
    s = SummarizationScorer(
        llm=judge, preset="ragas", prompts="own", max_concurrency=12, max_retries=3, backoff=0
    )
    results = await s.ascore_many(
        [(f"source {i}", f"summary {i}") for i in range(48)], progress=False
    )
    assert all(r.ok for r in results)
    assert judge.peak <= 12
    assert judge.rejected < len(judge.requests) / 4


def test_before_its_first_429_an_adaptive_limit_doubles_each_round_to_16_then_adds_a_few() -> None:
    # A framework's loop (ragas.evaluate's 16 workers, deepeval's 20) sends more at once than
    # the starting limit of 8: growing by one per 8 answers held it below 16 for the first ~90
    # requests, and the face ran slower than upstream's metric in upstream's own loop. Past 16,
    # one more per limit/8 answers (RFC 3742's limited slow start): a round adds at most 8, so
    # a 429 heard a round late finds at most 8 requests sent past the server (issue #48).
    limiter = RequestLimiter(8, adaptive=True, ceiling=64)
    for _ in range(8):  # one round: every slot answered once
        limiter.succeeded()
    assert limiter.limit == 16
    grown = []
    for _ in range(3):
        before = limiter.limit
        for _ in range(before):
            limiter.succeeded()
        grown.append(limiter.limit - before)
    assert grown == [5, 6, 7]
    for _ in range(1000):
        limiter.succeeded()
    assert limiter.limit == 64  # never past the ceiling


def test_an_adaptive_limit_halves_once_per_burst_and_grows_back_slowly() -> None:
    limiter = RequestLimiter(8, adaptive=True, ceiling=10)

    async def fill(n: int) -> list[int]:
        return [await limiter.acquire() for _ in range(n)]

    epochs = run_sync(fill(8))
    limiter.rate_limited(epochs[7])
    limiter.rate_limited(epochs[6])  # the same burst: sent before the cut
    assert limiter.limit == 4
    assert limiter.target == 6  # one below the lowest place refused (7th of 8 in flight)
    for _ in range(8):
        limiter.release()
    for _ in range(2):  # below the level the server took: one more per answer
        limiter.succeeded()
    assert limiter.limit == 6
    for _ in range(2 * 6 - 1):  # at it: one more per two rounds of answers
        limiter.succeeded()
    assert limiter.limit == 6
    limiter.succeeded()
    assert limiter.limit == 7
    later = run_sync(fill(1))
    limiter.rate_limited(later[0])  # sent after the cut: cut again
    assert limiter.limit == 1  # one in flight, halved: the floor is one
    fixed = RequestLimiter(8)
    fixed.rate_limited(0)
    assert fixed.limit == 8


async def test_a_slot_granted_before_a_cut_belongs_to_the_burst_before_it() -> None:
    # Waiters handed their slots together resume one by one; a 429 between the grant and a
    # waiter's turn must not make that waiter's own 429 (same burst, same old limit) a second
    # cut. It did: the epoch was read when the waiter resumed, and a burst of 32 immediate 429s
    # cut a limit of 64 down to 1 (virtual-time run of score_many against a cap of 32).
    limiter = RequestLimiter(2, adaptive=True, ceiling=8)
    first = [await limiter.acquire() for _ in range(2)]
    waiters = [asyncio.ensure_future(limiter.acquire()) for _ in range(2)]
    await asyncio.sleep(0)
    limiter.release()
    limiter.release()  # both waiters granted now, under the limit of 2
    limiter.rate_limited(first[0])  # a 429 from the first pair: cut to 1
    assert (limiter.epoch, limiter.limit) == (1, 1)
    for ticket in await asyncio.gather(*waiters):
        limiter.rate_limited(ticket)
    assert (limiter.epoch, limiter.limit) == (1, 1)


def test_after_a_cut_the_limit_is_back_below_the_refused_level_in_one_round() -> None:
    # A server that takes 32 at once refuses the 33rd. Additive growth took 16 rounds to get
    # from 16 back to 32 (and the next probe, one round later, cut it again): in deepeval's
    # loop the limit sat between 16 and 32, 0.75 of the server, about 1.4x the bound.
    limiter = RequestLimiter(33, adaptive=True, ceiling=64)

    async def fill(n: int) -> list[int]:
        return [await limiter.acquire() for _ in range(n)]

    tickets = run_sync(fill(33))
    limiter.rate_limited(tickets[32])  # the 33rd refused: halve (protect the server) ...
    assert (limiter.limit, limiter.target) == (16, 32)  # ... and remember where it said no
    for _ in range(33):
        limiter.release()
    for _ in range(16):  # one round of answers at 16
        limiter.succeeded()
    assert limiter.limit == 32
    for _ in range(2 * 32):  # then one probe past it after two rounds
        limiter.succeeded()
    assert limiter.limit == 33
    tickets = run_sync(fill(33))
    limiter.rate_limited(tickets[32])  # refused at the same level: the capacity is steady
    assert (limiter.limit, limiter.target, limiter.probe) == (16, 32, 4)  # probed half as often
    for _ in range(33):
        limiter.release()
    tickets = run_sync(fill(16))
    limiter.rate_limited(tickets[12])  # the 13th refused: the capacity shrank, probe soon again
    assert (limiter.limit, limiter.target, limiter.probe) == (8, 12, 2)


async def test_a_cancelled_waiter_gives_its_slot_back() -> None:
    limiter = RequestLimiter(1)
    await limiter.acquire()
    waiter = asyncio.ensure_future(limiter.acquire())
    await asyncio.sleep(0)
    waiter.cancel()
    limiter.release()
    await asyncio.gather(waiter, return_exceptions=True)
    await asyncio.sleep(0)
    assert limiter.in_flight == 0
    await asyncio.wait_for(limiter.acquire(), 5)


# --------------------------------------------------------------------- dependent rounds


@pytest.mark.parametrize(
    ("preset", "script", "options", "rounds"),
    [
        ("deepeval", deepeval_script(), {}, 3),
        ("deepeval", deepeval_script(), {"include_reason": False}, 2),
        ("ragas", ragas_script(), {}, 3),
    ],
)
async def test_dependent_rounds_per_case(
    preset: str, script: dict[str, Any], options: dict[str, Any], rounds: int
) -> None:
    judge = LockstepJudge(script)
    s = SummarizationScorer(llm=judge, preset=preset, prompts="own", **options)
    result = await s.ascore(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.ok
    assert judge.rounds == rounds


async def test_deepeval_summaries_of_one_source_share_its_answers() -> None:
    judge = CountingJudge(deepeval_script())
    s = SummarizationScorer(llm=judge, preset="deepeval", prompts="own")
    results = await s.ascore_many(many_deepeval_cases(1, 4), progress=False)
    assert all(r.ok for r in results)
    on_source = [r for r in judge.calls("answers") if r.inputs["text"].endswith("Report 0.")]
    assert len(on_source) == 1
    assert sum(r.usage.judge_calls for r in results) == len(judge.requests) == 3 + 4 * 4
    assert sum(r.usage.reused_calls for r in results) == 3 * 3


# --------------------------------------------------------------------- reply cache, auth


def test_a_reply_that_failed_is_not_cached_and_a_rerun_asks_again(tmp_path: Path) -> None:
    broken = ragas_script()
    broken["answers"] = Seq(["not json at all", "still not json"])
    first = SummarizationScorer(
        llm=ScriptedJudge(broken), prompts="own", reply_cache=tmp_path, preset="ragas"
    ).score_many([(FITNESS_SOURCE, FITNESS_SUMMARY)], progress=False)
    assert not first[0].ok

    judge = ScriptedJudge(ragas_script())
    again = SummarizationScorer(llm=judge, prompts="own", reply_cache=tmp_path, preset="ragas")
    second = again.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert second.ok
    assert [r.task for r in judge.requests] == ["answers"]  # the used replies came from the cache


def test_the_cache_key_ignores_the_servers_port_but_not_the_temperature(tmp_path: Path) -> None:
    c = case("news-rates")

    def run(server: JudgeServer, **options: Any) -> None:
        client = openai.AsyncOpenAI(base_url=server.url, api_key="x")
        s = SummarizationScorer(
            client, model="gpt-4o-mini", preset="ragas", reply_cache=tmp_path, **options
        )
        assert s.score(c.source, c.summary).ok

    with JudgeServer() as first:
        run(first)
        assert first.stats.requests == 3
    with JudgeServer() as second:  # restarted on another port
        run(second)
        assert second.stats.requests == 0
        run(second, temperature=0.7)
        assert second.stats.requests == 3


def test_repeated_authentication_failures_stop_the_calls() -> None:
    denied = JudgeError("AuthenticationError (HTTP 401): the judge rejected the credentials")
    judge = ScriptedJudge({task: denied for task in ("keyphrases", "questions", "answers")})
    s = SummarizationScorer(llm=judge, prompts="own", max_concurrency=1, preset="ragas")
    results = s.score_many([(f"source {i}", "summary") for i in range(10)], progress=False)
    assert len(judge.requests) == AUTH_FAILURES_TO_STOP
    assert all(not r.ok and "HTTP 401" in (r.error or "") for r in results)
    assert "stopped asking" in (results[-1].error or "")


async def test_a_lost_answer_is_asked_again_long_before_the_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import summscore.calls.sender as sender

    monkeypatch.setattr(sender, "_STALL_FLOOR", 0.2)
    answered = 0

    class LosesOne(ScriptedJudge):
        async def complete(self, request: JudgeRequest) -> JudgeReply:
            nonlocal answered
            answered += 1
            if answered == 40:  # after enough fast answers, one never comes back
                await asyncio.sleep(3600)
            return await super().complete(request)

    s = SummarizationScorer(
        llm=LosesOne(ragas_script()), prompts="own", timeout=3600, preset="ragas"
    )
    results = await asyncio.wait_for(
        s.ascore_many([(f"source {i}", "summary") for i in range(20)], progress=False), 60
    )
    assert all(r.ok for r in results)
    assert s.usage.retries == 1
