"""SIGTERM stops a run the way Ctrl-C does: what `timeout`, `docker stop`, Kubernetes and a
cancelled CI job send. The rows finished so far are written as a complete results file, the
resume command is printed, the exit status is 130 (interrupted), and ``--resume`` then scores
only the rest. Before, the process died at once: no results file, no hint, status -15."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from summscore.files.datasets import read_results
from summscore.files.writer import partial_path

from .cli_run_support import ROWS, lines, score_process, wait_for_rows, write_input

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _terminated_run(
    data: Path, out: Path, *more: str, group: bool, sig: int = signal.SIGTERM
) -> tuple[int, str]:
    """Start the command, send SIGTERM once its partial file holds some rows (to the whole
    process group when ``group``: what `timeout` and a CI runner do), and return its status and
    stderr."""
    with score_process(data, out, *more, env={**os.environ, "PYTHONWARNINGS": "ignore"}) as run:
        wait_for_rows(run, out)
        if group:
            os.killpg(run.pid, sig)
        else:
            run.send_signal(sig)
        _, err = run.communicate(timeout=60)
    return run.returncode, err


@pytest.mark.parametrize(
    ("fmt", "workers", "group"),
    [("csv", "1", False), ("jsonl", "2", True)],
    ids=["one process, SIGTERM to it", "two workers, SIGTERM to the group"],
)
def test_sigterm_writes_the_rows_so_far_and_resume_scores_the_rest(
    tmp_path: Path, fmt: str, workers: str, group: bool
) -> None:
    data = tmp_path / "data.jsonl"
    ids = write_input(data)
    out = tmp_path / f"out.{fmt}"
    status, err = _terminated_run(data, out, "--workers", workers, group=group)
    assert status == 130, err
    assert "interrupted; the rows finished so far are in" in err
    assert "--resume" in err
    assert "Traceback" not in err
    kept = list(read_results(out))
    assert 0 < len(kept) < ROWS
    assert [row["id"] for row in kept] == ids[: len(kept)]
    assert all(row["error"] in (None, "") for row in kept), "a stopped run failed no row"
    command = [sys.executable, "-m", "summscore.cli", "score", str(data), "--out", str(out)]
    resumed = subprocess.run(
        [*command, "--no-progress", "--workers", workers, "--resume"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(kept):,} rows kept from the earlier run" in resumed.stderr
    rows = list(read_results(out))
    assert [row["id"] for row in rows] == ids


def test_sighup_stops_a_run_as_sigterm_does(tmp_path: Path) -> None:
    """A closed terminal or a dropped SSH session sends SIGHUP: the run died at once (status -1,
    no results file, no hint); it now writes its rows and exits 130 as for SIGTERM."""
    data = tmp_path / "data.jsonl"
    ids = write_input(data)
    out = tmp_path / "out.jsonl"
    status, err = _terminated_run(data, out, "--workers", "1", group=True, sig=signal.SIGHUP)
    assert status == 130, err
    assert "interrupted; the rows finished so far are in" in err and "--resume" in err
    kept = [row["id"] for row in read_results(out)]
    assert 0 < len(kept) < ROWS and kept == ids[: len(kept)]


def test_a_run_started_under_nohup_keeps_ignoring_sighup(tmp_path: Path) -> None:
    """`nohup` ignores SIGHUP for the command it starts: the run goes on past one."""
    data = tmp_path / "data.jsonl"
    write_input(data)
    out = tmp_path / "out.jsonl"

    def ignore_hup() -> None:  # (what nohup does)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    with score_process(data, out, "--workers", "1", preexec_fn=ignore_hup) as run:
        wait_for_rows(run, out)
        os.killpg(run.pid, signal.SIGHUP)
        _, err = run.communicate(timeout=300)
    assert run.returncode == 0, err
    assert len(list(read_results(out))) == ROWS


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal of Linux")
def test_a_terminal_that_hangs_up_ends_the_run_with_its_rows_written_and_status_130(
    tmp_path: Path,
) -> None:
    """The real case of SIGHUP: the run's terminal closes. Its stderr then fails with EIO (not
    EPIPE), which ended the run as an internal error (status 5) after its rows were written."""
    import fcntl
    import termios

    data = tmp_path / "data.jsonl"
    ids = write_input(data)
    out = tmp_path / "out.jsonl"
    leader, follower = os.openpty()

    def own_terminal() -> None:
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    command = [sys.executable, "-m", "summscore.cli", "score", str(data), "--out", str(out)]
    run = subprocess.Popen(
        [*command, "--workers", "1"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        preexec_fn=own_terminal,
    )
    os.close(follower)
    os.set_blocking(leader, False)
    try:
        deadline = time.monotonic() + 120
        while run.poll() is None and lines(partial_path(out)) < 40:
            assert time.monotonic() < deadline
            with contextlib.suppress(OSError):
                os.read(leader, 65536)  # (the progress bar: a terminal that is read)
            time.sleep(0.01)
        assert run.poll() is None, "the run ended before the terminal closed: make it longer"
        os.close(leader)
        run.wait(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 130
    kept = [row["id"] for row in read_results(out)]
    assert 0 < len(kept) < ROWS and kept == ids[: len(kept)]


def _hung_up_while_starting(answers: Any) -> None:
    """A worker's first steps, a SIGHUP to the process group arriving before it left it."""
    from summscore.calls import pool

    os.kill(os.getpid(), signal.SIGHUP)
    pool._leave_the_group()
    answers.put("alive")


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")
def test_a_worker_hung_up_while_it_starts_lives_on() -> None:
    """SIGHUP to the process group (the terminal closed) is the parent's to handle, as SIGTERM
    is: a worker still starting, not yet out of the group, died of it and failed its rows."""
    from summscore.calls import pool

    context = pool._QuietContext()
    answers = context.SimpleQueue()
    worker = context.Process(target=_hung_up_while_starting, args=(answers,))
    worker.start()
    worker.join(120)
    assert worker.exitcode == 0, worker.exitcode
    assert answers.get() == "alive"
