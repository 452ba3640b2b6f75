"""Ctrl-C or SIGTERM that reaches ``summscore score --workers 2`` while one of its offline judge's
worker processes is being started (its fork and exec, a few milliseconds) stops the run as at any
other moment. The parent used to set SIGINT to "ignore" for that instant (so that the worker was
born ignoring it): a Ctrl-C then, taken by another of its threads, was lost (the run went on to
the end, exit 0), and a SIGTERM, handed to SIGINT's handler, found it ignored and raised
KeyboardInterrupt in the middle of the start, so that the half-started worker printed
"EOFError: Ran out of input" and was left behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "setsid"), reason="POSIX signals")

# The signal lands right after the first worker's fork and exec, before the parent has sent it
# what it runs: as when it arrives during them. (A short sleep lets another thread take it.)
_INJECT = """
import os, signal, sys, time
import multiprocessing.util as util
real, sent = util.spawnv_passfds, []
def spawnv_passfds(path, args, passfds):
    pid = real(path, args, passfds)
    if "--multiprocessing-fork" in args and not sent:
        sent.append(pid)
        os.kill(os.getpid(), getattr(signal, sys.argv[1]))
        time.sleep(0.05)
    return pid
util.spawnv_passfds = spawnv_passfds
if __name__ == "__main__":
    from summscore.cli import main
    sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_a_signal_while_a_worker_starts_stops_the_run_quietly(tmp_path: Path, name: str) -> None:
    data = tmp_path / "data.jsonl"
    with data.open("w", encoding="utf-8") as handle:
        for i in range(300):
            source = f"The council of town {i} approved {i + 10} homes on Monday."
            row = {"id": f"r{i}", "source": source, "summary": f"Town {i} approved homes."}
            handle.write(json.dumps(row) + "\n")
    script = tmp_path / "inject.py"
    script.write_text(_INJECT, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    command = [sys.executable, str(script), name, "score", str(data), "--out", str(out)]
    run = subprocess.run(
        [*command, "--no-progress", "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        start_new_session=True,
    )
    assert run.returncode == 130, run.stderr  # (a lost Ctrl-C: 0, the whole file scored)
    assert "Traceback" not in run.stderr and "EOFError" not in run.stderr, run.stderr
    assert "--resume" in run.stderr
