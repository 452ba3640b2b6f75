"""The offline judge over a pool of processes gives the numbers it gives in one."""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from summscore import SummarizationScorer
from summscore.calls.pool import ProcessPoolJudge, choose_worker, preferred_worker
from summscore.cli import main
from summscore.judges import JudgeRequest, LexicalJudge

from .fakes import SleepyJudge

NEWS = Path(__file__).resolve().parent.parent / "examples" / "news.jsonl"


def _rows() -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in NEWS.read_text(encoding="utf-8").splitlines()]
    return [(r["source"], r["summary"]) for r in rows if "source" in r and "summary" in r]


@pytest.mark.parametrize("preset", ["ragas", "deepeval"])
def test_a_pool_of_workers_gives_the_numbers_of_one(preset: str) -> None:
    cases = _rows()
    assert cases
    one = SummarizationScorer(LexicalJudge(), preset=preset).score_many(cases, progress=False)
    judge = ProcessPoolJudge(LexicalJudge, 2)
    try:
        pooled = SummarizationScorer(judge, preset=preset, max_concurrency=4).score_many(
            cases, progress=False
        )
    finally:
        judge.close()

    # Everything but which case paid for a call shared by one source's cases (the first to ask,
    # which depends on timing when cases run side by side): each case's calls, asked or reused,
    # and the run's total are the same.
    def _numbers(results: Any) -> list[dict[str, Any]]:
        dumped = [r.model_dump() for r in results]
        for d in dumped:
            usage = d["usage"]
            usage["judge_calls"] += usage.pop("reused_calls")
        return dumped

    assert _numbers(pooled) == _numbers(one)
    assert sum(r.usage.judge_calls for r in pooled) == sum(r.usage.judge_calls for r in one)


def test_the_cli_writes_the_same_results_with_any_number_of_workers(tmp_path: Path) -> None:
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"out-{workers}.jsonl"
        code = main(["score", str(NEWS), "--out", str(out), "--workers", workers, "--no-progress"])
        assert code == 0
        outs.append(out.read_text(encoding="utf-8"))
    assert outs[0] == outs[1]


def test_workers_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(NEWS), "--out", "-", "--workers", "0", "--no-progress"]) == 2
    assert "--workers" in capsys.readouterr().err


def test_a_judge_without_run_cannot_be_pooled() -> None:
    with pytest.raises(TypeError, match="cannot be pooled"):
        ProcessPoolJudge(object, 2)


def _request(inputs: dict[str, Any], affinity: str | None = None) -> JudgeRequest:
    return JudgeRequest("task", "", BaseModel, inputs, affinity=affinity)


def test_every_request_of_one_case_goes_to_the_worker_of_its_source() -> None:
    # The judge memoises its analysis of a text and of each sentence: a case's truths, questions,
    # answers and verdicts (whose evidence is the source's own sentences) must meet the worker
    # that has already read the source, whatever the task and in every run.
    turns = itertools.count()
    source = "The council approved the budget on Tuesday. The mayor signed it."
    requests = [
        _request({"text": source, "n": 5}, source),
        _request({"text": "The council approved it.", "questions": ["q?"]}, source),
        _request({"claims": ["c"], "evidence": "The mayor signed it."}, source),
        _request({"text": source}),  # outside a case: the text it reads
    ]
    assert len({preferred_worker(r, 4, turns) for r in requests}) == 1


def test_distinct_sources_spread_over_every_worker_and_textless_requests_take_turns() -> None:
    turns = itertools.count()
    counts = Counter(preferred_worker(_request({}, f"source {i}"), 3, turns) for i in range(300))
    assert set(counts) == {0, 1, 2}
    assert min(counts.values()) > 60  # a stable hash, not all on one worker
    assert [preferred_worker(_request({"inputs": {}}), 3, turns) for _ in range(4)] == [0, 1, 2, 0]


def test_a_busy_worker_passes_requests_to_the_least_busy_one() -> None:
    assert choose_worker(1, [0, 2, 1]) == 1  # within the slack: keep the source's worker
    assert choose_worker(1, [0, 3, 1]) == 0  # one summary source for many summaries: spill over
    assert choose_worker(2, [4, 4, 4]) == 2


async def _score_with_one_source(judge: ProcessPoolJudge, summaries: list[str]) -> list[int]:
    source = _rows()[0][0]
    scorer = SummarizationScorer(judge, preset="deepeval", max_concurrency=8)
    results = await scorer.ascore_many([(source, s) for s in summaries], progress=False)
    assert all(r.ok for r in results)
    return list(judge.answered)


def test_many_summaries_of_one_source_still_use_every_worker() -> None:
    judge = ProcessPoolJudge(LexicalJudge, 2)
    try:
        summaries = [f"Summary number {i} of the story, with a claim or two." for i in range(40)]
        answered = asyncio.run(_score_with_one_source(judge, summaries))
    finally:
        judge.close()
    assert all(n > 0 for n in answered)


async def _stopped_mid_task(judge: ProcessPoolJudge) -> None:
    """Requests in every worker, more queued behind them; then Ctrl-C's way out of asyncio.run:
    every task cancelled (the queued requests' futures with them, the running ones cannot be)."""
    requests = [
        JudgeRequest("x", "", BaseModel, {"text": f"text {i}", "seconds": 30}) for i in range(8)
    ]
    tasks = [asyncio.ensure_future(judge.complete(r)) for r in requests]
    deadline = time.monotonic() + 60
    while sum(judge._waiting) < len(requests) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(2)  # the workers are up and judging
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def test_stopping_workers_mid_task_leaves_the_exit_nothing_to_trip_on() -> None:
    """After Ctrl-C the CLI kills the workers (a long text would hold the exit). The pools'
    manager threads must be done by the time terminate() returns: one still tearing down its
    wake-up pipe while the interpreter's exit hook writes to it printed "OSError: [Errno 9] Bad
    file descriptor" at exit, and one meeting a request asyncio had cancelled printed an
    InvalidStateError traceback (CPython's terminate_broken)."""
    judge = ProcessPoolJudge(SleepyJudge, 2)
    caught: list[BaseException | None] = []
    previous = threading.excepthook
    threading.excepthook = lambda args: caught.append(args.exc_value)
    try:
        asyncio.run(_stopped_mid_task(judge))
        managers = [pool._executor_manager_thread for pool in judge._pools]
        started = time.monotonic()
        judge.terminate()
        took = time.monotonic() - started
        alive = [t for t in managers if t is not None and t.is_alive()]
    finally:
        threading.excepthook = previous
    assert not alive and caught == []
    assert took < 10  # the workers were killed, not waited for (each had 30 s of work)


async def _cancelled_then_asked_again(judge: ProcessPoolJudge) -> float:
    """A request whose worker is stuck on it is cancelled (the service's deadline); the next
    request of the same worker is answered by its replacement, not after the stuck one."""
    stuck = JudgeRequest("x", "", BaseModel, {"text": "one text", "seconds": 120})
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(judge.complete(stuck), timeout=3)
    started = time.monotonic()
    quick = JudgeRequest("x", "", BaseModel, {"text": "one text", "seconds": 0})
    await asyncio.wait_for(judge.complete(quick), timeout=60)
    return time.monotonic() - started


def test_a_cancelled_request_frees_its_worker_for_the_next() -> None:
    judge = ProcessPoolJudge(SleepyJudge, 1)
    try:
        took = asyncio.run(_cancelled_then_asked_again(judge))
    finally:
        judge.terminate()
    assert judge.restarted == 1
    assert took < 60  # (the stuck request had 120 s of work left: it was stopped, not awaited)


# Ctrl-C in a process of its own: the interpreter's exit, which waited for ever, is what is tested.
_STOPPED = """
import asyncio, sys, time
from pathlib import Path
from summscore.calls import pool_stop
from summscore.calls.pool import ProcessPoolJudge
from tests.fakes import HalfSentJudge, SleepyJudge

pool_stop.MANAGER_WAIT = 3.0  # (how long a killing waits for the pool's threads)
how, marker = sys.argv[1], Path(sys.argv[2])
if how == "half-sent":  # killed while sending its answer back
    judge, requests = ProcessPoolJudge(HalfSentJudge, 1), [{"marker": str(marker)}]
else:  # killed with requests larger than a pipe holds still to be sent to it
    judge, requests = ProcessPoolJudge(SleepyJudge, 1), [{"text": "x" * 300_000}] * 4

async def stopped():
    tasks = [asyncio.ensure_future(judge.run_on(0, "task", r)) for r in requests]
    await asyncio.sleep(2)  # the worker is up
    deadline = time.monotonic() + 60
    while how == "half-sent" and not marker.exists() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    for task in tasks:  # Ctrl-C's way out of asyncio.run: every task cancelled
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

asyncio.run(stopped())
judge.terminate()
print("stopped", flush=True)
"""


@pytest.mark.parametrize("how", ["half-sent", "unsent"])
def test_a_worker_killed_mid_pipe_does_not_hold_the_exit(tmp_path: Path, how: str) -> None:
    """After Ctrl-C the workers are killed; the program must still end. A worker killed halfway
    through sending its answer left this process reading the rest of it for ever (about one
    Ctrl-C in twenty on a loaded machine, the run then never exited); a request larger than the
    pipe holds, which the killed worker would never read, left the thread feeding it blocked,
    and the exit waited for it (CPython 3.10 and 3.11)."""
    root = Path(__file__).resolve().parent.parent
    command = [sys.executable, "-c", _STOPPED, how, str(tmp_path / "marker")]
    try:
        done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"the program did not exit after its workers were killed: {exc.stdout!r}")
    assert done.returncode == 0 and done.stdout == "stopped\n", done.stderr
    assert "Traceback" not in done.stderr, done.stderr


def _ragas_scorer() -> SummarizationScorer:
    return SummarizationScorer(LexicalJudge(), preset="ragas")


async def _sharded(cases: list[tuple[str, str]], workers: int) -> tuple[dict[int, Any], Any]:
    from summscore.cases import Case
    from summscore.files.shards import ShardedScorer

    shards = ShardedScorer(_ragas_scorer, workers, _ragas_scorer().failed_result)
    try:
        found = {i: r async for i, r in shards.ascore_stream(Case(s, m) for s, m in cases)}
        return found, shards
    finally:
        shards.close()


def test_whole_rows_in_worker_processes_give_the_numbers_of_one_process() -> None:
    """score --workers N sends whole rows to N processes, a source's rows to one of them; a file
    of one source still keeps every worker busy (an idle one takes the last rows queued)."""
    cases = _rows()
    one = _ragas_scorer().score_many(cases, progress=False)
    found, shards = asyncio.run(_sharded(cases, 2))
    assert [found[i].score for i in range(len(cases))] == [r.score for r in one]
    assert shards.usage.judge_calls == sum(r.usage.judge_calls for r in found.values()) > 0
    source = cases[0][0]
    many = [(source, f"The summary number {i} of one source.") for i in range(40)]
    found, shards = asyncio.run(_sharded(many, 2))
    assert len(found) == 40 and all(r.ok for r in found.values())
    assert all(n > 0 for n in shards._pool.answered)


def test_score_runs_one_worker_by_default() -> None:
    from summscore.cli import build_parser
    from summscore.cli.scorer_options import make_shards

    args = build_parser().parse_args(["score", str(NEWS)])
    assert make_shards(args, _ragas_scorer()) is None
    args = build_parser().parse_args(["score", str(NEWS), "--workers", "2"])
    shards = make_shards(args, _ragas_scorer())
    assert shards is not None and shards.workers == 2
    shards.close()
