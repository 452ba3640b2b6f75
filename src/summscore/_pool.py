"""A CPU-bound judge (the offline LexicalJudge) spread over a pool of worker processes.

The judge's work is pure Python, so threads would share one core; each worker process holds its
own judge and answers ``run(task, inputs)``. The numbers are the judge's own: a deterministic judge
answers the same in any process. The pool starts on first use and its processes are spawned
(never forked: summscore runs an event loop in a thread, which a fork would copy mid-flight).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import threading
import weakref
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
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(self._factory,),
                )
                # Stop the workers when this judge is dropped, not only at exit.
                weakref.finalize(self, self._pool.shutdown, wait=False, cancel_futures=True)
            return self._pool

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        loop = asyncio.get_running_loop()
        output = await loop.run_in_executor(
            self._executor(), _run_in_worker, request.task, dict(request.inputs)
        )
        return JudgeReply(output=output)

    def close(self) -> None:
        """Stop the worker processes (they also stop when the program exits)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def __repr__(self) -> str:
        return f"ProcessPoolJudge({self.name!r}, workers={self.workers})"
