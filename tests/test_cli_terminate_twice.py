"""A second SIGTERM is the same request as the first, not a second Ctrl-C: `timeout` sends one to
the run and one to its process group, a script may signal the run and then its group. Handed to
SIGINT's handler each time, the second raised KeyboardInterrupt while the stopped run wrote what
it had: no results file, only the hidden partial file, no --resume hint (3 runs in 4 with two
SIGTERMs 10 ms apart)."""

from __future__ import annotations

import signal
import sys

import pytest

from summscore.cli.signals import terminate_as_interrupt

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def test_a_second_sigterm_is_not_a_second_ctrl_c() -> None:
    seen: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
    try:
        with terminate_as_interrupt():
            signal.raise_signal(signal.SIGTERM)
            signal.raise_signal(signal.SIGTERM)
            signal.raise_signal(signal.SIGTERM)
        assert seen == [signal.SIGINT]
        with terminate_as_interrupt():  # (a new run: its first SIGTERM stops it)
            signal.raise_signal(signal.SIGTERM)
        assert seen == [signal.SIGINT, signal.SIGINT]
    finally:
        signal.signal(signal.SIGINT, previous)


def test_ctrl_c_after_sigterm_still_counts() -> None:
    seen: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
    try:
        with terminate_as_interrupt():
            signal.raise_signal(signal.SIGTERM)
            signal.raise_signal(signal.SIGINT)  # (the user's own second Ctrl-C: stop now)
        assert seen == [signal.SIGINT, signal.SIGINT]
    finally:
        signal.signal(signal.SIGINT, previous)
