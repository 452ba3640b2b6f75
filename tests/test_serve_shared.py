"""Identical requests answered once: duplicates in flight share the work, a finished case comes
from the result cache (bounded in bytes), and what is served twice is what scoring alone gives."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("fastapi")
import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.serve import ServeConfig, create_app
from summscore.serve.shared import SharedResults

SOURCE = (
    "The city council approved the 2025 budget on Monday. Property taxes stay flat. "
    "Spending on parks rises by 4 percent."
)
SUMMARY = "The council approved the budget; taxes stay flat."


def _client(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://serve")


class _CountingJudge(LexicalJudge):
    """The offline judge, held at a gate until the test opens it, counting its requests."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.requests = 0

    async def complete(self, request: Any) -> Any:
        self.requests += 1
        await self.gate.wait()
        return await super().complete(request)


async def _until(condition: Any, seconds: float = 30) -> None:
    for _ in range(int(seconds * 100)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never held")


async def test_retries_of_a_case_in_flight_and_after_it_cost_the_judge_nothing() -> None:
    """promptfoo's webhook retries a slow case 4 times: the server judges it once."""
    judge = _CountingJudge()
    scorer = SummarizationScorer(judge, preset="deepeval", max_concurrency=4)
    case = {"source": SOURCE, "summary": SUMMARY}
    async with _client(create_app(scorer)) as client:
        first = asyncio.create_task(client.post("/v1/score", json={**case, "id": "try-1"}))
        await _until(lambda: judge.requests > 0)
        retries = [
            asyncio.create_task(client.post("/v1/score", json={**case, "id": f"try-{i}"}))
            for i in (2, 3)
        ]
        await asyncio.sleep(0.1)  # the retries are in, waiting with the first
        judge.gate.set()
        answers = [r.json() for r in await asyncio.gather(first, *retries)]
        asked = judge.requests
        later = (await client.post("/v1/score", json={**case, "id": "try-4"})).json()
        metrics = (await client.get("/metrics")).text
    alone = SummarizationScorer(LexicalJudge(), preset="deepeval").score(SOURCE, SUMMARY)
    assert judge.requests == asked  # the fourth try was answered from the cache
    assert asked == alone.usage.judge_calls  # one case's judge calls, not three
    for answer, id in zip([*answers, later], ["try-1", "try-2", "try-3", "try-4"]):
        assert answer == {**answers[0], "id": id}  # each caller's id, the same result
    assert answers[0]["score"] == alone.score
    assert 'summscore_reused_results_total{how="shared"} 2.0' in metrics
    assert 'summscore_reused_results_total{how="cached"} 1.0' in metrics
    assert 'summscore_cases_total{outcome="scored"} 1.0' in metrics


async def test_a_case_differing_in_any_part_is_judged_on_its_own() -> None:
    scorer = SummarizationScorer(LexicalJudge(), preset="mastra")
    base = {"source": SOURCE, "summary": SUMMARY}
    variants = [
        base,
        {**base, "summary": SUMMARY + " Parks gain."},
        {**base, "source": [SOURCE]},  # a list of one passage: sent differently, judged anew
        {**base, "options": {"scale": 10}},
        {**base, "assessment_questions": ["Did the council approve the budget?"]},
    ]
    async with _client(create_app(scorer)) as client:
        for variant in variants:
            assert (await client.post("/v1/score", json=variant)).status_code == 200
        metrics = (await client.get("/metrics")).text
    assert f'summscore_cases_total{{outcome="scored"}} {float(len(variants))}' in metrics
    assert 'summscore_reused_results_total{how="cached"} 0.0' in metrics


class _FailingOnceJudge(LexicalJudge):
    def __init__(self) -> None:
        super().__init__()
        self.fail = True

    async def complete(self, request: Any) -> Any:
        if self.fail:
            from summscore.errors import JudgeError

            raise JudgeError("the judge is down for a moment")
        return await super().complete(request)


async def test_a_judge_failure_is_not_remembered_the_retry_is_judged() -> None:
    judge = _FailingOnceJudge()
    scorer = SummarizationScorer(judge, preset="mastra", max_retries=0)
    case = {"source": SOURCE, "summary": SUMMARY}
    async with _client(create_app(scorer)) as client:
        failed = (await client.post("/v1/score", json=case)).json()
        judge.fail = False
        retried = (await client.post("/v1/score", json=case)).json()
    assert failed["error"] and failed["score"] is None
    assert retried["error"] is None and retried["score"] is not None


async def test_a_waiter_that_leaves_does_not_stop_the_work_another_waits_for() -> None:
    shared = SharedResults(1 << 20)
    started, release = asyncio.Event(), asyncio.Event()
    runs = 0

    async def work() -> dict[str, Any]:
        nonlocal runs
        runs += 1
        started.set()
        await release.wait()
        return {"score": 0.5, "error": None}

    leaving = asyncio.create_task(shared.get(b"k", work))
    await started.wait()
    staying = asyncio.create_task(shared.get(b"k", work))
    await asyncio.sleep(0)
    leaving.cancel()
    await asyncio.gather(leaving, return_exceptions=True)
    release.set()
    assert await staying == ({"score": 0.5, "error": None}, "shared")
    assert runs == 1
    # The last waiter out cancels the work, and a later duplicate starts afresh.
    release.clear()
    started.clear()
    alone = asyncio.create_task(shared.get(b"other", work))
    await started.wait()
    alone.cancel()
    await asyncio.gather(alone, return_exceptions=True)
    release.set()
    assert await shared.get(b"other", work) == ({"score": 0.5, "error": None}, "scored")
    assert runs == 3


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(
        st.tuples(st.integers(0, 30), st.integers(1, 4000)),  # (which case, its result's size)
        min_size=1,
        max_size=60,
    ),
    st.integers(0, 20_000),
)
def test_the_result_cache_never_holds_more_bytes_than_its_bound(
    calls: list[tuple[int, int]], bound: int
) -> None:
    shared = SharedResults(bound)

    async def run() -> None:
        for which, size in calls:
            result = {"error": None, "text": "x" * size, "which": which}
            got, _ = await shared.get(str(which).encode(), _returning(result))
            assert got["which"] == which
            assert shared.bytes <= bound
            assert shared.bytes == sum(len(v) + 200 for v in shared._done.values())

    asyncio.run(run())


def _returning(result: dict[str, Any]) -> Any:
    async def work() -> dict[str, Any]:
        return result

    return work


def test_the_server_takes_its_result_cache_bound_from_its_config() -> None:
    scorer = SummarizationScorer(LexicalJudge(), preset="mastra")
    app = create_app(scorer, ServeConfig(result_cache_bytes=0))
    assert app.state.runner.shared.max_bytes == 0
    with pytest.raises(ValueError, match="result_cache_bytes"):
        ServeConfig(result_cache_bytes=-1)


_POOL = [
    {"source": SOURCE, "summary": SUMMARY},
    {"source": SOURCE, "summary": "Parks get 4 percent more; taxes rise."},
    {"source": "Rain fell all day in Oslo. Two roads closed.", "summary": "Oslo had rain."},
    {"source": ["Rain fell all day in Oslo.", "Two roads closed."], "summary": "Roads closed."},
]
_ALONE = {
    i: SummarizationScorer(LexicalJudge(), preset="deepeval")
    .score(case["source"], case["summary"])
    .to_dict()
    for i, case in enumerate(_POOL)
}


@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(st.integers(0, len(_POOL) - 1), min_size=1, max_size=6))
def test_in_any_batch_with_duplicates_each_result_is_what_scoring_it_alone_gives(
    picks: list[int],
) -> None:
    async def run() -> list[dict[str, Any]]:
        scorer = SummarizationScorer(LexicalJudge(), preset="deepeval")
        cases = [{**_POOL[p], "id": f"{n}:{p}"} for n, p in enumerate(picks)]
        async with _client(create_app(scorer)) as client:
            first = await client.post("/v1/score:batch", json={"cases": cases})
            again = await client.post("/v1/score:batch", json={"cases": cases[::-1]})
        return first.json()["results"] + again.json()["results"][::-1]

    results = asyncio.run(run())
    for result, pick in zip(results, picks + picks):
        assert result["id"].endswith(f":{pick}")
        alone = {k: v for k, v in _ALONE[pick].items() if k not in ("id", "usage")}
        assert {k: v for k, v in result.items() if k not in ("id", "usage")} == alone
