"""A CPU-bound judge (the offline LexicalJudge) spread over a pool of worker processes.

The judge's work is pure Python, so threads would share one core; each worker process holds its
own judge and answers ``run(task, inputs)``. The numbers are the judge's own: a deterministic judge
answers the same in any process. The pool starts on first use and its processes are spawned
(never forked: summscore runs an event loop in a thread, which a fork would copy mid-flight).

Each request goes to the worker its case's source hashes to (``JudgeRequest.affinity``; else the
text the task reads), not to whichever worker is free: the judge memoises its analysis of a text
and of each sentence, and a case asks several questions of its source (the deepeval rule's
verdicts read the source's own sentences again), so a source is analysed in one worker instead of
in each (with a shared queue, a pool of two did nearly twice the work of one process under the
deepeval rule). A worker with more requests waiting than another (by more than ``_SPILL``) gives
the next one to the least busy: many summaries of one source still use every worker.

A request cancelled while its worker is on it (the service's deadline, Ctrl-C) stops that worker
and starts another in its place: a pathological text cannot hold a worker. The other requests
that worker held are sent again to its replacement.

With ``max_worker_rss``, each worker reports its resident memory after every request; one past
the bound is recycled between requests: new requests go to a fresh worker at once, and the old
one finishes the requests it holds (none is lost or sent twice), then is stopped. A worker's
memory is then at most the bound plus what one request needs.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import contextlib
import itertools
import multiprocessing
import multiprocessing.context
import os
import signal
import sys
import threading
import time
import weakref
import zlib
from collections.abc import Callable, Mapping
from typing import Any

from ..judges.base import JudgeReply, JudgeRequest
from . import pool_stop
from .reply_cache import cache_identity

__all__ = ["ProcessPoolJudge"]

_worker_judge: Any = None


# What a process group is sent that the parent handles (``cli.signals``): blocked in a worker
# until it has left the group.
_GROUP_SIGNALS = frozenset(
    {signal.SIGINT, signal.SIGTERM, *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])}
)


class _QuietProcess(multiprocessing.context.SpawnProcess):
    """A worker that ignores Ctrl-C from birth and lives in a session of its own. A terminal's
    Ctrl-C signals the whole process group, and so do systemd's SIGTERM (its default kill mode),
    `timeout`'s and a CI runner's: the parent stops the run or answers what is in flight, then
    stops its workers itself. A worker that raised KeyboardInterrupt too would print a traceback
    (while still importing, if it was young), and one that died of SIGTERM at once failed the
    rows or requests it held (so did one SIGHUP reached: a closed terminal's). So the worker
    inherits SIGINT, SIGTERM and SIGHUP blocked (a signal mask survives exec), ignores SIGINT,
    leaves the group, then unblocks them (``_leave_the_group``). The parent blocks them only in
    the thread that starts the worker and keeps its own handlers: a signal that arrives in that
    instant is taken by another of its threads, or once the worker is started. (SIGINT set to
    "ignore" in the parent for that instant lost a Ctrl-C that another thread took, and made
    ``score``'s SIGTERM, handed to SIGINT's handler, raise KeyboardInterrupt halfway through the
    start.)"""

    def start(self) -> None:
        quiet = threading.current_thread() is threading.main_thread() and hasattr(
            signal, "pthread_sigmask"
        )
        if not quiet:
            super().start()
            return
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _GROUP_SIGNALS)
        try:
            super().start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


class _QuietContext(multiprocessing.context.SpawnContext):
    Process = _QuietProcess


def _start_worker(factory: Callable[[], Any]) -> None:
    global _worker_judge
    # (Blocked since the spawn: a Ctrl-C meant for the group is dropped. A worker started from
    # another thread than the main one gets here before it ignores it.)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _leave_the_group()
    parent = os.getppid()
    threading.Thread(target=_outlive_no_parent, args=(parent,), daemon=True).start()
    _worker_judge = factory()


def _leave_the_group() -> None:
    """Start a session of its own, out of the parent's process group: a signal sent to the
    group is the parent's to handle. A SIGTERM that reached this worker while it started, still
    in the group, is dropped (it was the group's: setting SIGTERM to "ignore" discards it), then
    SIGTERM is taken again (blocked since the spawn: see ``_QuietProcess``). The pool itself
    stops a worker with SIGKILL (``pool_stop.kill``), which nothing holds back. SIGINT, ignored
    by now, is unblocked too."""
    if hasattr(os, "setsid"):
        with contextlib.suppress(OSError):  # (a session leader already)
            os.setsid()
    for signum in _GROUP_SIGNALS - {signal.SIGINT}:  # (SIGTERM; SIGHUP: a terminal closed)
        previous = signal.signal(signum, signal.SIG_IGN)
        signal.signal(signum, signal.SIG_DFL if previous is None else previous)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _GROUP_SIGNALS)


def _outlive_no_parent(parent: int) -> None:
    """End this worker when the process that started it is gone (killed by a signal, say, with
    no chance to stop its pool): an orphaned worker would wait for requests forever."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _run_in_worker(task: str, inputs: Mapping[str, Any]) -> Any:
    return _worker_judge.run(task, inputs)


def _run_and_measure(task: str, inputs: Mapping[str, Any]) -> tuple[Any, int]:
    """The answer and this worker's resident memory after it, in bytes."""
    return _worker_judge.run(task, inputs), resident_bytes()


def resident_bytes() -> int:
    """This process's resident set size in bytes: the current one from ``/proc`` (Linux), else
    the peak (``getrusage``, in KiB on Linux and bytes on macOS); 0 where neither exists."""
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        pass
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)


# How many more requests than the least busy worker the preferred one may have waiting before the
# next request goes elsewhere (enough that a handful of cases keep to their worker).
_SPILL = 2


def preferred_worker(request: JudgeRequest, workers: int, turns: itertools.count[int]) -> int:
    """The worker that holds the analysis of the source ``request`` is about (a stable hash of the
    case's source, else of the text the task reads: the same text goes to the same worker in
    every run), or the next in turn for a request with neither."""
    candidates = (request.affinity, request.inputs.get("text"), request.inputs.get("evidence"))
    for text in candidates:
        if isinstance(text, str) and text:
            return zlib.crc32(text.encode("utf-8", "surrogatepass")) % workers
    return next(turns) % workers


def choose_worker(preferred: int, waiting: list[int]) -> int:
    """``preferred`` unless it has more than ``_SPILL`` requests more waiting than the least busy
    worker; then the least busy (the lowest-numbered of equals)."""
    least = min(range(len(waiting)), key=waiting.__getitem__)
    return preferred if waiting[preferred] - waiting[least] <= _SPILL else least


class ProcessPoolJudge:
    """Answer with ``factory()`` judges in ``workers`` processes.

    ``factory`` must be picklable (a class or module-level function) and build a judge with a
    synchronous ``run(task, inputs)``, as ``summscore.judges.LexicalJudge`` has.
    ``max_worker_rss`` (bytes, default None: no bound) recycles a worker whose resident memory
    is past it after a request (see the module's docstring).
    """

    def __init__(
        self, factory: Callable[[], Any], workers: int, *, max_worker_rss: int | None = None
    ) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a positive integer, got {workers!r}")
        if max_worker_rss is not None and (
            isinstance(max_worker_rss, bool)
            or not isinstance(max_worker_rss, int)
            or max_worker_rss < 1
        ):
            raise ValueError(
                f"max_worker_rss must be a positive number of bytes, got {max_worker_rss!r}"
            )
        probe = factory()
        if not callable(getattr(probe, "run", None)):
            raise TypeError(f"{type(probe).__name__} has no run(task, inputs): it cannot be pooled")
        self.name: str = probe.name
        self.reads_prompts: bool = probe.reads_prompts
        # The offline judge's graded claim support counts only from a judge that declares it.
        self.grades_claims: bool = bool(getattr(probe, "grades_claims", False))
        self.cache_identity: str = cache_identity(probe)  # the pooled judge's, with its version
        # The pooled judge's own size check (the offline judge's cap per text), made here before
        # a case is sent (see judges.pricing.check_judge_fits).
        fits = getattr(probe, "check_fits", None)
        if callable(fits):
            self.check_fits = fits
        self.workers = workers
        self._factory = factory
        self._pools: list[concurrent.futures.ProcessPoolExecutor] = []
        self._lock = threading.Lock()
        self._next = itertools.count()  # requests without a text take turns
        self._waiting: list[int] = []  # requests sent to each worker and not yet answered
        self.answered: list[int] = [0] * workers  # requests each worker answered
        self.restarted = 0  # workers stopped mid-task (their request was cancelled) and replaced
        self.max_worker_rss = max_worker_rss
        self.recycled = 0  # workers replaced between requests for passing max_worker_rss
        self.worker_rss: list[int] = [0] * workers  # each worker's memory after its last request
        self._held: dict[concurrent.futures.ProcessPoolExecutor, set[Any]] = {}  # requests sent
        self._retiring: list[concurrent.futures.ProcessPoolExecutor] = []  # recycled, finishing
        self._killers: list[threading.Thread] = []  # threads stopping replaced workers

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=1,
            mp_context=_QuietContext(),
            initializer=_start_worker,
            initargs=(self._factory,),
        )
        # Stop the worker when this judge is dropped, not only at exit.
        weakref.finalize(self, pool.shutdown, wait=False, cancel_futures=True)
        return pool

    def _start(self) -> list[concurrent.futures.ProcessPoolExecutor]:
        with self._lock:
            if not self._pools:
                self._pools = [self._executor() for _ in range(self.workers)]
                self._waiting = [0] * self.workers
            return self._pools

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        pools = self._start()
        with self._lock:
            worker = choose_worker(preferred_worker(request, len(pools), self._next), self._waiting)
        return JudgeReply(output=await self.run_on(worker, request.task, request.inputs))

    async def run_on(self, worker: int, task: str, inputs: Mapping[str, Any]) -> Any:
        """``run(task, inputs)`` of the judge in worker ``worker`` (0 to workers - 1)."""
        pools = self._start()
        with self._lock:
            self._waiting[worker] += 1
        inputs = dict(inputs)
        measured = self.max_worker_rss is not None
        try:
            while True:
                executor = self._pools[worker] if self._pools else pools[worker]
                future = executor.submit(
                    _run_and_measure if measured else _run_in_worker, task, inputs
                )
                self._hold(executor, future)
                try:
                    output = await asyncio.wrap_future(future)
                    break
                except asyncio.CancelledError:
                    if not future.cancel():  # the worker is on it (or holds it next): stop it
                        self._replace(worker, executor)
                    raise
                except concurrent.futures.process.BrokenProcessPool:
                    if not self._pools or self._pools[worker] is executor:
                        raise
                    # Its worker was stopped for another request's sake: ask the new one.
        finally:
            with self._lock:
                self._waiting[worker] -= 1
        with self._lock:
            self.answered[worker] += 1
        if measured:
            output, rss = output
            self.worker_rss[worker] = rss
            if self.max_worker_rss is not None and rss > self.max_worker_rss:
                self._recycle(worker, executor)
        return output

    def _hold(self, executor: concurrent.futures.ProcessPoolExecutor, future: Any) -> None:
        """Count ``future`` as held by ``executor`` until it is done (see _recycle)."""
        with self._lock:
            held = self._held.setdefault(executor, set())
            held.add(future)

        def release(done: Any) -> None:
            with self._lock:
                held.discard(done)

        future.add_done_callback(release)

    def _recycle(self, worker: int, executor: concurrent.futures.ProcessPoolExecutor) -> None:
        """Send new requests for ``worker`` to a fresh process; the old one finishes the
        requests it holds, then is stopped (killed: it has nothing left to do, and a process
        holding gigabytes takes seconds to tear its objects down)."""
        with self._lock:
            if not self._pools or self._pools[worker] is not executor:
                return  # recycled or replaced already, or the pool was closed
            self._pools[worker] = self._executor()
            self.recycled += 1
            held = list(self._held.pop(executor, ()))
            self._retiring.append(executor)

        def retire() -> None:
            concurrent.futures.wait(held)
            with self._lock:
                if executor not in self._retiring:
                    return  # terminate() stopped it already
                self._retiring.remove(executor)
                self._held.pop(executor, None)
            self._kill([executor])

        retirer = threading.Thread(target=retire, name="summscore-pool-recycle", daemon=True)
        with self._lock:
            self._killers = [t for t in self._killers if t.is_alive()] + [retirer]
        retirer.start()

    def _replace(self, worker: int, executor: concurrent.futures.ProcessPoolExecutor) -> None:
        """Put a new worker in the place of ``executor`` and kill its process (in a thread: the
        event loop does not wait for it)."""
        with self._lock:
            if not self._pools or self._pools[worker] is not executor:
                return  # replaced already, or the pool was closed
            self._pools[worker] = self._executor()
            self.restarted += 1
            self._held.pop(executor, None)
        killer = threading.Thread(
            target=self._kill, args=([executor],), name="summscore-pool-restart", daemon=True
        )
        with self._lock:
            self._killers = [t for t in self._killers if t.is_alive()] + [killer]
        killer.start()

    def _join_killers(self) -> None:
        """Wait until the replaced workers are gone (their manager threads too: one still
        running at the interpreter's exit trips its exit hook)."""
        with self._lock:
            killers, self._killers = self._killers, []
        deadline = time.monotonic() + pool_stop.MANAGER_WAIT
        for thread in killers:
            thread.join(max(0.0, deadline - time.monotonic()))

    def close(self) -> None:
        """Stop the worker processes (they also stop when the program exits)."""
        with self._lock:
            pools, self._pools = self._pools, []
            self._held.clear()
        for pool in pools:
            pool.shutdown(wait=True, cancel_futures=True)
        self._join_killers()

    def terminate(self) -> None:
        """Stop the worker processes now, mid-task (after Ctrl-C: the run is over, and a long
        text being judged would otherwise hold the exit until it is done)."""
        with self._lock:
            pools, self._pools = self._pools, []
            pools += self._retiring
            self._retiring = []
            self._held.clear()
        self._kill(pools)
        self._join_killers()

    @staticmethod
    def _kill(pools: list[concurrent.futures.ProcessPoolExecutor]) -> None:
        pool_stop.kill(pools)  # (nothing of theirs left to hold the exit)

    def __repr__(self) -> str:
        return f"ProcessPoolJudge({self.name!r}, workers={self.workers})"
