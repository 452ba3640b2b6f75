"""A `summscore score` run in a process of its own, for the tests that stop it, hang up on it or
start a second run beside it: the input they score, the run started in a new session, a wait
until its partial file holds some rows, and the process group killed if the test ends early."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from summscore.files.writer import partial_path

ROWS = 2400


def write_input(path: Path, rows: int = ROWS) -> list[str]:
    """``rows`` rows of 40 sources, long enough to be stopped halfway; their ids."""
    ids = [f"r{i}" for i in range(rows)]
    with path.open("w", encoding="utf-8") as handle:
        for i, row_id in enumerate(ids):
            record = {
                "id": row_id,
                "source": f"The council of town {i % 40} approved {i % 90 + 10} homes on Monday. "
                f"Building starts in {2025 + i % 7} and costs {i % 40 * 3} million. "
                "Residents asked for a new school and a park near the river.",
                "summary": f"Town {i % 40} approved {i % 90 + 10 + i % 2} homes. "
                f"Building starts in {2025 + i % 7}.",
            }
            handle.write(json.dumps(record) + "\n")
    return ids


def lines(path: Path) -> int:
    """The lines ``path`` holds (0 when it does not exist)."""
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@contextlib.contextmanager
def score_process(
    data: Path, out: Path, *more: str, **popen: Any
) -> Iterator[subprocess.Popen[str]]:
    """``summscore score DATA --out OUT --no-progress MORE`` in a new session (stderr piped, as
    text); its process group is killed if it is still running when the block ends."""
    command = [sys.executable, "-m", "summscore.cli", "score", str(data), "--out", str(out)]
    run = subprocess.Popen(
        [*command, "--no-progress", *more],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        **popen,
    )
    try:
        yield run
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()


def wait_for_rows(run: subprocess.Popen[Any], out: Path, rows: int = 40) -> None:
    """Wait (at most 120 s) until the run's partial file holds ``rows`` lines; the run must still
    be going then."""
    deadline = time.monotonic() + 120
    while run.poll() is None and lines(partial_path(out)) < rows:
        assert time.monotonic() < deadline, "the run wrote too few rows in 120 s"
        time.sleep(0.01)
    assert run.poll() is None, "the run ended before it could be stopped: make it longer"
