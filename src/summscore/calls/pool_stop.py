"""Stopping a pool's worker processes mid-task (Ctrl-C, a cancelled request) so that nothing of
theirs holds the program's exit.

Killing a process that ``concurrent.futures.ProcessPoolExecutor`` manages leaves threads in this
process that the interpreter's exit waits for, with no timeout: the executor's manager thread
(``concurrent.futures``' exit hook joins it) and its request queue's feeder thread
(``multiprocessing``'s exit hook joins it). Either, left blocked on a pipe to the dead worker,
held the exit forever; see ``abandon_pipes``.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["MANAGER_WAIT", "abandon_pipes", "kill"]

# How long a killing waits for the executors' manager threads to see their workers gone.
MANAGER_WAIT = 10.0

# One killing at a time: each swaps threading.excepthook while its workers die, and two that
# interleave (a worker replaced after its request was cancelled, then Ctrl-C's terminate) would
# restore each other's hook too early.
_KILLING = threading.Lock()


def kill(pools: list[concurrent.futures.ProcessPoolExecutor]) -> None:
    """Kill the worker processes of ``pools`` and wait (up to ``MANAGER_WAIT``) until each
    executor's manager thread has seen its worker gone."""
    # (private attributes of ProcessPoolExecutor: its manager thread and its processes)
    managers = [getattr(pool, "_executor_manager_thread", None) for pool in pools]
    with _KILLING, _quiet_managers([t for t in managers if t is not None]) as wait:
        for pool in pools:
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.kill()  # (SIGKILL: a worker still starting holds SIGTERM back)
            abandon_pipes(pool)
            pool.shutdown(wait=False)
        wait(MANAGER_WAIT)


def abandon_pipes(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Let no pipe to ``pool``'s killed worker hold this process (private attributes of
    ProcessPoolExecutor, the same from CPython 3.10 to 3.13):

    * close this process's copy of the write end of the pipe the worker answers on. Only the
      worker writes to it, so once the worker is dead the pipe ends. A worker killed halfway
      through sending an answer (a chunk of rows' results is tens of kilobytes: several writes,
      the last waiting while the pipe is full) left the manager thread reading the rest of it
      for ever, since this process's own copy kept the pipe open: the exit then hung (about one
      Ctrl-C in twenty on a loaded machine). Now that read fails and the thread ends;
    * not wait at exit for the thread that feeds the worker its requests. One blocked writing a
      request larger than the pipe holds (a chunk of long texts), which the dead worker will
      never read, held the exit for ever: CPython 3.10 and 3.11 unblock it only in a step their
      manager thread skips once a request it holds was cancelled (see ``_quiet_managers``).
      What it has not sent was for the dead worker."""
    replies = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if replies is not None:
        replies.close()
    requests: Any = getattr(pool, "_call_queue", None)
    if requests is not None:
        requests.cancel_join_thread()


@contextlib.contextmanager
def _quiet_managers(threads: list[threading.Thread]) -> Iterator[Callable[[float], None]]:
    """While workers are killed: a function that waits until each executor's manager thread has
    seen its worker gone and finished, and quiet for the one error those threads are expected to
    raise.

    A manager thread still tearing down its wake-up pipe when the interpreter's exit hook writes
    to that pipe made the exit print "OSError: [Errno 9] Bad file descriptor" (about 1 Ctrl-C in
    30), hence the wait. And a manager thread that finds a request asyncio has already cancelled
    (Ctrl-C cancels every task) fails it with ``InvalidStateError`` in CPython's
    ``terminate_broken`` and ends there, as soon as the worker dies: that exception is expected,
    and is not printed."""
    previous = threading.excepthook

    def quiet(args: threading.ExceptHookArgs) -> None:
        if args.thread in threads and isinstance(
            args.exc_value, concurrent.futures.InvalidStateError
        ):
            return
        previous(args)

    def wait(timeout: float) -> None:
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))

    threading.excepthook = quiet
    try:
        yield wait
    finally:
        threading.excepthook = previous
