"""The signals ``summscore score`` answers itself, in its main thread.

* SIGTERM, what `timeout`, `docker stop`, Kubernetes and a cancelled CI job send, stops a run as
  Ctrl-C does: the rows finished so far are written as a complete results file (and the report
  for them), the ``--resume`` command is printed, and the exit status is 130. Killed at once
  instead, a run left only its partial file and no word of how to go on.
* SIGHUP, what a closed terminal or a dropped SSH session sends, does the same, unless the run
  was started with it ignored (``nohup``): then it is still ignored.
* SIGXFSZ (a file-size limit, ``ulimit -f``) is ignored, so that the write that passes the limit
  fails with EFBIG, an error the run reports with what it kept, instead of killing it silently.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

__all__ = ["keep_going_past_the_size_limit", "stopped_by_signal", "terminate_as_interrupt"]

_STOPPED: list[int] = []  # the signal that stopped the run, once one has


def keep_going_past_the_size_limit() -> None:
    """A file-size limit is an error to report (EFBIG), not a signal that kills the run without
    a word (SIGXFSZ's default)."""
    xfsz = getattr(signal, "SIGXFSZ", None)
    if xfsz is not None and _main_thread():
        signal.signal(xfsz, signal.SIG_IGN)


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """While the block runs, SIGTERM (and SIGHUP, unless ignored) does what SIGINT (Ctrl-C) does
    at that moment, once: a second SIGTERM is the same request (`timeout` sends one to the run and one to its process
    group), not a second Ctrl-C that would stop the run before it has written its rows. The
    earlier handler is put back after the block. Outside the main thread (where no handler can
    be set), nothing changes."""
    if not _main_thread():
        yield
        return
    asked: list[int] = []
    _STOPPED.clear()

    def once(signum: int, frame: FrameType | None) -> None:
        if not asked:
            asked.append(signum)
            _STOPPED.append(signum)
            _as_ctrl_c(signum, frame)

    answered = [signal.SIGTERM]
    hup = getattr(signal, "SIGHUP", None)
    if hup is not None and signal.getsignal(hup) is not signal.SIG_IGN:  # (not under nohup)
        answered.append(hup)
    previous = {signum: signal.signal(signum, once) for signum in answered}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def stopped_by_signal() -> bool:
    """Whether SIGTERM or SIGHUP stopped the run (its status is 130 even when, the terminal gone
    with SIGHUP, its last lines could not be printed)."""
    return bool(_STOPPED)


def _as_ctrl_c(signum: int, frame: FrameType | None) -> None:
    """Hand SIGTERM to SIGINT's handler: asyncio's while the rows are scored (it cancels the run,
    which then writes what is done), Python's KeyboardInterrupt otherwise. Where SIGINT is
    ignored (a job started in the background by a script, `nohup`), SIGTERM still stops the run."""
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, frame)
    else:
        raise KeyboardInterrupt


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()
