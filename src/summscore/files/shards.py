"""``summscore score --workers N`` with the offline judge: whole rows scored in N processes.

Each worker process holds a scorer of its own, built by the same factory as the run's (same
judge, rule and options: the same numbers), and scores whole cases, one after another. The parent
only reads rows, sends them in chunks and writes results: its share of the CPU stays small, where
sending each judge call to a worker cost it more than the call itself on short rows (two workers
ran at 0.77x one). Every case of one source goes to one worker (by a stable hash of the source),
so the worker's source cache does the source-side work once, as one process would, and in the
file's order: the first row of a source pays its shared calls and the others reuse them, the same
rows as in one process. The rows come a window at a time, and which worker each source went to
is remembered from one window to the next (the latest ``_HOMES`` sources): a source met again
goes back to the worker holding its work. A worker that runs out of rows takes whole sources from
the longest queue, sources none of whose rows has been sent yet, in the file's order (their calls stay on the
same rows); only where none can go whole, a source with many rows still queued (a file of one
source) gives up its last rows instead, so every worker stays busy, and the taker does that
source's work again (those rows' calls then differ from one process's; the numbers do not). The
processes are ``ProcessPoolJudge``'s (quiet on Ctrl-C, stopped by the run, never orphaned).
"""

from __future__ import annotations

import asyncio
import functools
import zlib
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable, Container, Iterable, Mapping
from typing import Any

from ..calls.pool import ProcessPoolJudge
from ..cases import Case
from ..results import SummaryResult, Usage
from ..scorer import SummarizationScorer

__all__ = ["ShardedScorer", "source_key", "steal"]

# Cases per message to a worker, and messages in flight per worker: enough that a worker never
# waits for its next chunk, few enough that the last chunks of a window end together.
_CHUNK = 8
_IN_FLIGHT = 2
# Sources whose worker is remembered across windows (the latest sent): far more than a worker's
# source cache holds, a few megabytes.
_HOMES = 1 << 16
_Item = tuple[int, Any, str, Any]  # (index in the file, source, summary, questions)


class _CaseScorer:
    """The worker side: ``run("score", {"cases": [...]})`` scores cases with its own scorer."""

    name = "cases"
    reads_prompts = False

    def __init__(self, make_scorer: Callable[[], SummarizationScorer]) -> None:
        self._make = make_scorer
        self._scorer: SummarizationScorer | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def run(self, task: str, inputs: Mapping[str, Any]) -> list[tuple[int, SummaryResult]]:
        if self._scorer is None or self._loop is None:
            self._scorer, self._loop = self._make(), asyncio.new_event_loop()
        return self._loop.run_until_complete(self._score(self._scorer, inputs["cases"]))

    @staticmethod
    async def _score(
        scorer: SummarizationScorer, cases: list[_Item]
    ) -> list[tuple[int, SummaryResult]]:
        done = []
        for index, source, summary, questions in cases:
            try:
                result = await scorer.ascore(source, summary, questions)
            except Exception as exc:  # as the scorer's own streams: a failure is a result
                result = scorer.failed_result(exc)
            done.append((index, result))
        return done


def _text(source: Any) -> str:
    return source if isinstance(source, str) else "\n".join(map(str, source))


def source_key(source: Any) -> int:
    """A source's key for ``steal`` (its text's hash: the set of sources begun holds no text;
    two sources of one hash only stay in their queue)."""
    return hash(_text(source))


def _shard(source: Any, workers: int) -> int:
    return zlib.crc32(_text(source).encode("utf-8", "surrogatepass")) % workers


def steal(
    queue: Iterable[_Item], begun: Container[int], chunk: int = _CHUNK
) -> tuple[list[_Item], list[_Item]]:
    """What an idle worker takes from ``queue`` (rows in the file's order; ``begun``: the
    ``source_key`` of each source some row of which was already sent) and what stays. Nothing
    from a queue of at most ``chunk`` rows; else whole sources not yet begun, latest first,
    until about half the rows, never all of them; else (none can go whole) the last half of the
    rows of the source with the most rows queued, if more than ``chunk`` (the taker does its
    source's work again: worth it only for many rows); else nothing. Both lists keep the file's
    order."""
    rows = list(queue)
    if len(rows) <= chunk:
        return [], rows
    rows_of: dict[int, list[int]] = {}
    for position, item in enumerate(rows):
        rows_of.setdefault(source_key(item[1]), []).append(position)
    taken: set[int] = set()
    for key in reversed(rows_of):
        if len(taken) >= len(rows) // 2:
            break
        if key not in begun and len(taken) + len(rows_of[key]) < len(rows):
            taken.update(rows_of[key])
    if not taken:
        most = max(rows_of.values(), key=len)
        if len(most) > chunk:
            taken = set(most[len(most) - len(most) // 2 :])
    stolen = [item for position, item in enumerate(rows) if position in taken]
    return stolen, [item for position, item in enumerate(rows) if position not in taken]


class ShardedScorer:
    """Scores cases in ``workers`` processes, each with the scorer ``make_scorer()`` builds
    (picklable: a module-level function or a partial of one); ``usage`` adds up their spend."""

    def __init__(
        self,
        make_scorer: Callable[[], SummarizationScorer],
        workers: int,
        failed: Callable[[BaseException], SummaryResult],
    ) -> None:
        self.workers = workers
        self.usage = Usage()
        self._failed = failed
        self._pool = ProcessPoolJudge(functools.partial(_CaseScorer, make_scorer), workers)
        # source_key -> the worker its rows went to last, kept across calls (the run's windows):
        # a source some row of which was sent, in this window or an earlier one.
        self._home: OrderedDict[int, int] = OrderedDict()

    async def ascore_stream(
        self, cases: Iterable[Case]
    ) -> AsyncIterator[tuple[int, SummaryResult]]:
        """Yield ``(index, result)`` for each of ``cases`` as its chunk comes back."""
        queues: list[deque[_Item]] = [deque() for _ in range(self.workers)]
        home = self._home  # (its keys: the sources begun, see steal)
        for index, case in enumerate(cases):
            item = (index, case.source, case.summary, case.assessment_questions)
            worker = home.get(source_key(case.source))
            queues[_shard(case.source, self.workers) if worker is None else worker].append(item)
        running: dict[asyncio.Future[Any], list[_Item]] = {}
        owner: dict[asyncio.Future[Any], int] = {}

        def send(worker: int) -> None:
            queue = queues[worker]
            if not queue:  # idle: take sources from the longest queue (see steal)
                longest = max(queues, key=len)
                stolen, kept = steal(longest, home)
                if stolen:
                    longest.clear()
                    longest.extend(kept)
                    queue.extend(stolen)
            if not queue:
                return
            chunk = [queue.popleft() for _ in range(min(_CHUNK, len(queue)))]
            for item in chunk:
                key = source_key(item[1])
                home[key] = worker
                home.move_to_end(key)
            while len(home) > _HOMES:
                home.popitem(last=False)
            task = asyncio.ensure_future(self._pool.run_on(worker, "score", {"cases": chunk}))
            running[task], owner[task] = chunk, worker

        for worker in range(self.workers):
            for _ in range(_IN_FLIGHT):
                send(worker)
        try:
            while running:
                finished, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for task in finished:
                    chunk, worker = running.pop(task), owner.pop(task)
                    try:
                        results = task.result()
                    except Exception as exc:  # the worker died: its rows fail, none is lost
                        results = [(item[0], self._failed(exc)) for item in chunk]
                    for index, result in results:
                        self.usage.add(result.usage)
                        yield index, result
                    send(worker)
        finally:
            for task in running:
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)

    def close(self, interrupted: bool = False) -> None:
        """Stop the worker processes: waited for after a complete run, killed after Ctrl-C."""
        if interrupted:
            self._pool.terminate()
        else:
            self._pool.close()
