"""A CPU-bound judge (the offline LexicalJudge) spread over a pool of worker processes.

The judge's work is pure Python, so threads would share one core; each worker process holds its
own judge and answers ``run(task, inputs)``. The numbers are the judge's own: a deterministic judge
answers the same in any process. The pool starts on first use and its processes are spawned
(never forked: summscore runs an event loop in a thread, which a fork would copy mid-flight).

Each request goes to the worker its text hashes to (the text a task reads: ``text``, else
``evidence``), not to whichever worker is free: the judge memoises its analysis of a text, and a
case asks several questions of the same source, so a source is analysed in one worker instead of
in each of them (with a shared queue, a pool of two did nearly twice the work of one process
under the deepeval rule).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import multiprocessing
import threading
import weakref
import zlib
from collections.abc import Callable, Mapping
from typing import Any

from .judges.base import JudgeReply, JudgeRequest

__all__ = ["ProcessPoolJudge"]

_worker_judge: Any = None


def _start_worker(factory: Callable[[], Any]) -> None:
    global _worker_judge
    _worker_judge = factory()


def _run_in_worker(task: str, inputs: Mapping[str, Any]) -> Any:
    return _worker_judge.run(task, inputs)


def _worker_for(inputs: Mapping[str, Any], workers: int, turns: itertools.count[int]) -> int:
    """The worker that holds the analysis of the text ``inputs`` are about (a stable hash of it:
    the same text goes to the same worker in every run), or the next in turn without one."""
    for field in ("text", "evidence"):
        text = inputs.get(field)
        if isinstance(text, str) and text:
            return zlib.crc32(text.encode("utf-8", "surrogatepass")) % workers
    return next(turns) % workers


class ProcessPoolJudge:
    """Answer with ``factory()`` judges in ``workers`` processes.

    ``factory`` must be picklable (a class or module-level function) and build a judge with a
    synchronous ``run(task, inputs)``, as :class:`summscore.judges.LexicalJudge` has.
    """

    def __init__(self, factory: Callable[[], Any], workers: int) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a positive integer, got {workers!r}")
        probe = factory()
        if not callable(getattr(probe, "run", None)):
            raise TypeError(f"{type(probe).__name__} has no run(task, inputs): it cannot be pooled")
        self.name: str = probe.name
        self.reads_prompts: bool = probe.reads_prompts
        # The offline judge's graded claim support counts only from a judge that declares it.
        self.grades_claims: bool = bool(getattr(probe, "grades_claims", False))
        self.cache_identity: str | None = getattr(probe, "cache_identity", None)
        self.workers = workers
        self._factory = factory
        self._pools: list[concurrent.futures.ProcessPoolExecutor] = []
        self._lock = threading.Lock()
        self._next = itertools.count()  # requests without a text take turns

    def _executor(self, inputs: Mapping[str, Any]) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if not self._pools:
                context = multiprocessing.get_context("spawn")
                self._pools = [
                    concurrent.futures.ProcessPoolExecutor(
                        max_workers=1,
                        mp_context=context,
                        initializer=_start_worker,
                        initargs=(self._factory,),
                    )
                    for _ in range(self.workers)
                ]
                # Stop the workers when this judge is dropped, not only at exit.
                for pool in self._pools:
                    weakref.finalize(self, pool.shutdown, wait=False, cancel_futures=True)
            pools = self._pools
        return pools[_worker_for(inputs, len(pools), self._next)]

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        loop = asyncio.get_running_loop()
        inputs = dict(request.inputs)
        output = await loop.run_in_executor(
            self._executor(inputs), _run_in_worker, request.task, inputs
        )
        return JudgeReply(output=output)

    def close(self) -> None:
        """Stop the worker processes (they also stop when the program exits)."""
        with self._lock:
            pools, self._pools = self._pools, []
        for pool in pools:
            pool.shutdown(wait=True, cancel_futures=True)

    def __repr__(self) -> str:
        return f"ProcessPoolJudge({self.name!r}, workers={self.workers})"
