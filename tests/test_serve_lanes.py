"""The offline judge as ``summscore serve`` runs it: a large case never stalls small ones, and a
worker's memory is bounded (a worker past the bound is recycled between requests, nothing lost).

Worker processes are real (spawned); every wait is bounded. No assertion is about time: the
small case is answered while the large one is still being judged, or it is not.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
import httpx

from summscore import SummarizationScorer
from summscore.calls.pool import ProcessPoolJudge
from summscore.cli import build_parser
from summscore.cli.scorer_options import make_scorer
from summscore.judges import JudgeRequest, LexicalJudge
from summscore.serve import create_app

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from serve_memory import news

SMALL = {"source": "The council approved 40 new homes on Monday.", "summary": "Homes approved."}


OTHER_SMALL = {
    "source": "Rain fell all day in Oslo, and two roads closed.",
    "summary": "Roads shut.",
}


def _chars(inputs: dict[str, Any]) -> int:
    """The characters of text in a judge request's inputs."""
    texts = [v for v in inputs.values() if isinstance(v, str)]
    texts += [
        t for v in inputs.values() if isinstance(v, (list, tuple)) for t in v if isinstance(t, str)
    ]
    return sum(len(text) for text in texts)


def _client(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://serve")


_MARGIN = 2 * 2**20  # bytes above a worker that has judged one source


def _served_scorer(*options: str) -> SummarizationScorer:
    """The scorer ``summscore serve`` builds (its judge in worker processes)."""
    args = build_parser().parse_args(["serve", "--preset", "mastra", *options])
    return make_scorer(args)


async def _small_while_large(judge: Any) -> tuple[Any, bool]:
    """A request on a text of a million characters (seconds of work in one request), then a
    small one: (the small one's answer, whether the large one was still being judged)."""
    await judge.complete(JudgeRequest("keyphrases", "", Any, {"text": "Workers start."}))
    large = JudgeRequest("keyphrases", "", Any, {"text": news(2, 1_000_000)})
    big = asyncio.ensure_future(judge.complete(large))
    await asyncio.sleep(0.5)  # the large request is with its worker
    small = JudgeRequest("keyphrases", "", Any, {"text": "The council approved 40 homes."})
    answer = await asyncio.wait_for(judge.complete(small), 600)
    still_judging = not big.done()
    big.cancel()
    await asyncio.gather(big, return_exceptions=True)
    return answer.output, still_judging


def test_a_small_request_is_answered_while_a_large_one_holds_the_judge() -> None:
    scorer = _served_scorer()  # the defaults: --workers 1
    try:
        answer, still_judging = asyncio.run(_small_while_large(scorer.llm))
    finally:
        scorer.llm.terminate()
    assert answer == LexicalJudge().run("keyphrases", {"text": "The council approved 40 homes."})
    assert still_judging  # the small request did not wait behind the large one


async def test_through_the_service_a_large_case_leaves_the_small_ones_their_slots() -> None:
    """Large cases wait for slots of their own: however many come, small ones find theirs."""
    scorer = _served_scorer("--max-concurrency", "2")
    try:
        async with _client(create_app(scorer)) as client:
            runner = client._transport.app.state.runner  # type: ignore[attr-defined]
            # The small lane's worker is started first (a worker's start, about a second, is not
            # what is measured), and each large case is seconds of work (a million characters),
            # so that "still waiting" does not depend on how fast the machine is.
            await client.post("/v1/score", json=SMALL, timeout=600)
            large = [
                {"source": news(10 + i, 1_000_000), "summary": "The council approved homes."}
                for i in range(3)
            ]
            bigs = [
                asyncio.create_task(client.post("/v1/score", json=c, timeout=600)) for c in large
            ]
            await asyncio.sleep(0.5)
            answer = await asyncio.wait_for(client.post("/v1/score", json=SMALL), 600)
            pending = sum(not task.done() for task in bigs)
            for task in bigs:
                task.cancel()
            await asyncio.gather(*bigs, return_exceptions=True)
    finally:
        scorer.llm.terminate()
    assert answer.status_code == 200 and answer.json()["error"] is None
    assert pending >= 2  # answered while large cases were still waiting or being judged
    assert runner.large_concurrency == 1


async def test_with_the_defaults_a_small_case_is_not_stuck_behind_a_2_mb_case() -> None:
    """``summscore serve``'s defaults (one worker, the default concurrency): while one client's
    2 MB case is being judged, another client's two-sentence case is answered before any of the
    large case's judge requests is done (behind one worker it would wait for the one running)."""
    scorer = _served_scorer()
    judge = scorer.llm
    done: list[bool] = []  # one per finished judge request: was it the large case's?
    complete = judge.complete

    async def recorded(request: JudgeRequest) -> Any:
        reply = await complete(request)
        done.append(_chars(request.inputs) >= 1_000_000)
        return reply

    judge.complete = recorded
    large = {"source": news(20, 1_000_000), "summary": news(21, 1_000_000)}
    try:
        app = create_app(scorer)
        async with _client(app) as first, _client(app) as second:
            await second.post("/v1/score", json=SMALL)  # the workers have started
            done.clear()
            big = asyncio.create_task(first.post("/v1/score", json=large, timeout=900))
            await asyncio.sleep(1.0)  # the large case is with the judge
            answer = await asyncio.wait_for(second.post("/v1/score", json=OTHER_SMALL), 900)
            large_done = sum(done)
            big.cancel()
            await asyncio.gather(big, return_exceptions=True)
    finally:
        judge.terminate()
    assert answer.status_code == 200 and answer.json()["error"] is None
    assert large_done == 0  # answered while the large case's first judge request still ran


async def test_a_batch_whose_texts_reach_the_large_mark_goes_to_the_large_lane_whole() -> None:
    """Each case under --large-case-chars, the batch's texts together over it: every judge
    request of the batch goes to the large lane (a batch of many cases just under the mark would
    otherwise hold the small lane for as long as all of them take), and a request under the mark,
    single or batch, keeps the small lane."""
    scorer = _served_scorer("--large-case-chars", "3000")
    judge = scorer.llm
    cases = [
        {"source": news(30 + i, 900), "summary": "The council approved new homes."}
        for i in range(5)
    ]
    assert all(len(c["source"]) + len(c["summary"]) < 3000 for c in cases)
    lanes: list[tuple[int, int]] = []  # judge requests answered by (small, large) per request

    def answered() -> tuple[int, int]:
        return sum(judge.small.answered), sum(judge.large.answered)

    try:
        async with _client(create_app(scorer)) as client:
            for body in (
                SMALL,
                {"cases": cases},
                {"cases": [SMALL, OTHER_SMALL]},
                OTHER_SMALL | {"summary": "Two roads closed in Oslo."},
            ):
                path = "/v1/score:batch" if "cases" in body else "/v1/score"
                before = answered()
                answer = await client.post(path, json=body, timeout=600)
                assert answer.status_code == 200, answer.text
                results = answer.json().get("results", [answer.json()])
                assert all(r["error"] is None for r in results)
                after = answered()
                lanes.append((after[0] - before[0], after[1] - before[1]))
    finally:
        judge.terminate()
    single, batch, small_batch, other = lanes
    assert single[0] > 0 and single[1] == 0
    assert batch[0] == 0 and batch[1] > 0  # the whole batch in the large lane
    assert small_batch[0] > 0 and small_batch[1] == 0
    assert other[0] > 0 and other[1] == 0


def _pool_processes(judge: ProcessPoolJudge) -> list[Any]:
    return [p for pool in judge._pools for p in (getattr(pool, "_processes", None) or {}).values()]


async def _judge_all(judge: ProcessPoolJudge, requests: list[JudgeRequest]) -> list[Any]:
    return [(await judge.complete(request)).output for request in requests]


def test_a_worker_past_its_memory_bound_is_recycled_between_requests_and_nothing_is_lost() -> None:
    texts = [f"The council of town {i} approved {10 + i} homes on Monday." for i in range(3)]
    requests = [JudgeRequest("keyphrases", "", Any, {"text": text}) for text in texts]
    expected = [LexicalJudge().run("keyphrases", {"text": text}) for text in texts]
    judge = ProcessPoolJudge(LexicalJudge, 1, max_worker_rss=1)  # every worker is past it
    try:
        answers = asyncio.run(_judge_all(judge, requests))
        alive = [p for p in _pool_processes(judge) if p.is_alive()]
        judge._join_killers()
    finally:
        judge.terminate()
    assert answers == expected  # every request answered, by whichever worker
    assert judge.recycled == len(requests)
    assert len(alive) <= 1  # the recycled workers are gone, not piling up


async def _concurrent(judge: ProcessPoolJudge, requests: list[JudgeRequest]) -> list[Any]:
    replies = await asyncio.gather(*(judge.complete(r) for r in requests))
    return [reply.output for reply in replies]


def test_requests_queued_at_a_recycled_worker_are_all_answered_once() -> None:
    texts = [f"Rain fell on day {i} in Oslo, and {i} roads closed." for i in range(12)]
    requests = [JudgeRequest("keyphrases", "", Any, {"text": text}) for text in texts]
    expected = [LexicalJudge().run("keyphrases", {"text": text}) for text in texts]
    judge = ProcessPoolJudge(LexicalJudge, 2, max_worker_rss=1)
    try:
        answers = asyncio.run(_concurrent(judge, requests))
    finally:
        judge.terminate()
    assert answers == expected
    assert judge.recycled >= 2 and sum(judge.answered) == len(requests)


def _rss(pid: int) -> int:
    with open(f"/proc/{pid}/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads /proc (Linux)")
async def test_distinct_large_sources_keep_the_served_workers_memory_bounded() -> None:
    """Each distinct source leaves its analysis in the worker's memos; the served judge recycles
    a worker past --worker-memory, so its memory stays near the bound however many come."""
    scorer = _served_scorer()
    judge = scorer.llm
    sources = [news(100 + i, 150_000) for i in range(5)]

    async def score(client: httpx.AsyncClient, source: str) -> None:
        answer = await client.post("/v1/score", json={"source": source, "summary": "Homes."})
        assert answer.status_code == 200 and answer.json()["error"] is None

    try:
        async with _client(create_app(scorer)) as client:
            # What one source and what two leave in a worker, measured with no bound.
            await score(client, sources[0])
            one = judge.large.worker_rss[0]
            await score(client, sources[1])
            two = judge.large.worker_rss[0]
            # A bound halfway between: a worker holding one source is under it, one holding two
            # is past it, each by half a source (a few MB), never at its edge.
            bound = one + (two - one) // 2
            for pool in judge.pools:
                pool.max_worker_rss = bound
            for source in sources[2:]:
                await score(client, source)
            judge.large._join_killers()
            live = [p.pid for p in _pool_processes(judge.large) if p.is_alive()]
            now = [_rss(pid) for pid in live]
    finally:
        judge.terminate()
    assert two > one + 2 * _MARGIN, (one, two)  # the sources do grow a worker ...
    assert judge.recycled >= 1  # ... and the worker past the bound was replaced,
    # so the one left is within the bound (without recycling, three more sources leave it about
    # 24 MB above ``one``).
    assert len(live) <= 1 and all(rss <= bound + _MARGIN for rss in now), (one, two, now)
