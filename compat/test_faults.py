"""Fault tolerance over real HTTP: a judge that is slow, busy, failing or sloppy loses no row,
and every number comes out as it would from a healthy judge."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable

import openai
import pytest

from compat.corpus import CASES
from compat.judge_server import JudgeServer
from summscore import SummarizationScorer, SummaryResult
from summscore.calls.sync import run_sync

KEY = "sk-compat-not-a-real-key"
CASES_UNDER_TEST = [(list(c.contexts), c.summary) for c in CASES[:12]]


def _scores(server: JudgeServer, preset: str, **options: object) -> list[SummaryResult]:
    client = openai.AsyncOpenAI(base_url=server.url, api_key=KEY)
    scorer = SummarizationScorer(
        llm=client, model="gpt-4o-mini", preset=preset, backoff=0.01, max_backoff=0.05, **options
    )
    return scorer.score_many(CASES_UNDER_TEST, progress=False)


@pytest.fixture(scope="module")
def healthy() -> dict[str, list[float]]:
    """The numbers a healthy judge gives, per preset."""
    with JudgeServer() as server:
        return {p: [r.score for r in _scores(server, p)] for p in ("ragas", "deepeval", "mastra")}


@pytest.fixture(scope="module")
def healthy_calls() -> dict[str, int]:
    """The judge calls a healthy judge needs, per preset."""
    with JudgeServer() as server:
        return {
            p: sum(r.usage.judge_calls for r in _scores(server, p))
            for p in ("ragas", "deepeval", "mastra")
        }


@pytest.mark.parametrize(
    "faults",
    [
        {"max_concurrency": 2, "retry_after": 0.02, "latency": 0.02},
        {"error_rate": 0.25, "seed": 1},
        {"malformed_rate": 0.25, "seed": 2},
        {"latency": 0.002, "jitter": 0.01, "seed": 3},
    ],
    ids=["rate-limited", "500s", "malformed-json", "slow"],
)
@pytest.mark.parametrize("preset", ["ragas", "deepeval", "mastra"])
def test_faults_cost_retries_not_rows_or_numbers(
    make_judge_server: Callable[..., JudgeServer],
    healthy: dict[str, list[float]],
    healthy_calls: dict[str, int],
    preset: str,
    faults: dict,
) -> None:
    server = make_judge_server(**faults)
    results = _scores(server, preset, max_concurrency=8, max_retries=8, repair_retries=4)
    assert [r.score for r in results] == healthy[preset]
    assert all(r.ok for r in results)
    spent = sum(r.usage.retries for r in results)
    if "max_concurrency" in faults:
        assert server.stats.statuses[429] > 0 and spent > 0
    if "error_rate" in faults:
        assert server.stats.statuses[500] > 0 and spent > 0
    if "malformed_rate" in faults:  # each unreadable reply was asked again
        assert server.stats.faults["malformed"] > 0
        calls = sum(r.usage.judge_calls for r in results)
        assert calls == healthy_calls[preset] + server.stats.faults["malformed"]


def test_hung_requests_time_out_and_are_retried(
    make_judge_server: Callable[..., JudgeServer], healthy: dict[str, list[float]]
) -> None:
    server = make_judge_server(hang_rate=0.15, hang_seconds=5, seed=4)
    results = _scores(server, "ragas", timeout=0.5, max_retries=6)
    assert [r.score for r in results] == healthy["ragas"]
    assert server.stats.faults["hang"] > 0
    assert sum(r.usage.retries for r in results) >= server.stats.faults["hang"]


def test_lists_one_short_are_asked_again(
    make_judge_server: Callable[..., JudgeServer], healthy_calls: dict[str, int]
) -> None:
    server = make_judge_server(short_list_rate=0.2, seed=5)
    results = _scores(server, "deepeval", repair_retries=3)
    assert server.stats.faults["short_list"] > 0
    assert all(r.ok for r in results)
    # Answers and verdicts must come one per question and claim: a short list is asked again.
    # (A short list of claims or truths cannot be told from a shorter text, and is scored.)
    assert sum(r.usage.judge_calls for r in results) > healthy_calls["deepeval"]


def test_a_judge_that_keeps_failing_fails_its_rows_and_only_its_rows(
    make_judge_server: Callable[..., JudgeServer],
) -> None:
    server = make_judge_server(error_rate=1.0)
    results = _scores(server, "mastra", max_retries=1)
    assert len(results) == len(CASES_UNDER_TEST)
    assert all(not r.ok and "InternalServerError" in (r.error or "") for r in results)
    assert KEY not in " ".join(r.error or "" for r in results)


# Longest a run may go without finishing a case before the test calls it stalled.
_PROGRESS_BOUND = 30.0


async def _watched(scorer: SummarizationScorer, cases: list, label: str) -> int:
    """Score ``cases``; fail as soon as no case finishes for _PROGRESS_BOUND seconds."""
    stream = scorer.ascore_stream(cases).__aiter__()
    finished = 0
    while True:
        try:
            _, result = await asyncio.wait_for(stream.__anext__(), _PROGRESS_BOUND)
        except StopAsyncIteration:
            return finished
        except asyncio.TimeoutError:
            await stream.aclose()
            pytest.fail(f"{label}: no case finished for {_PROGRESS_BOUND:g}s")
        assert result.ok, result.error
        finished += 1


def test_three_presets_in_sequence_with_fresh_clients_never_stall(
    make_judge_server: Callable[..., JudgeServer],
) -> None:
    """The run that once stalled for ~120 s with nothing in flight: three presets' score_many in
    sequence, each with a fresh AsyncOpenAI client, a 429 cap the scorer stays under. Fails as
    soon as no case finishes for _PROGRESS_BOUND seconds, naming the preset."""
    server = make_judge_server(latency=0.02, max_concurrency=8, retry_after=1.0)
    cases = CASES_UNDER_TEST * 3

    for preset in ("ragas", "deepeval", "mastra"):
        client = openai.AsyncOpenAI(base_url=server.url, api_key=KEY)
        scorer = SummarizationScorer(client, model="gpt-4o-mini", preset=preset, max_concurrency=8)
        assert run_sync(_watched(scorer, cases, preset)) == len(cases)
    assert server.stats.statuses[429] == 0  # max_concurrency <= the server's cap: no 429


@pytest.mark.filterwarnings("ignore::ResourceWarning")  # the dropped client's unclosed sockets
def test_a_dropped_client_collected_during_the_next_run_does_not_stall_it(
    make_judge_server: Callable[..., JudgeServer],
) -> None:
    """The cause of that stall: a client dropped without close() is garbage-collected while the
    next client opens its connections; the old pool's late close used to remove the reader of a
    new connection that got the same fd number, and that request waited for its full timeout."""
    server = make_judge_server(latency=0.05, max_concurrency=32)
    cases = CASES_UNDER_TEST * 4

    def scorer(preset: str) -> SummarizationScorer:
        client = openai.AsyncOpenAI(base_url=server.url, api_key=KEY)
        return SummarizationScorer(client, model="gpt-4o-mini", preset=preset, max_concurrency=32)

    for _ in range(3):
        dropped = scorer("ragas")
        assert run_sync(_watched(dropped, cases, "first client")) == len(cases)
        del dropped  # never closed: its keep-alive connections stay open until collected

        async def next_run(fresh: SummarizationScorer) -> int:
            gc.collect()  # on the loop, as it happens mid-run: the old pool closes late
            return await _watched(fresh, cases, "next client")

        assert run_sync(next_run(scorer("deepeval"))) == len(cases)
