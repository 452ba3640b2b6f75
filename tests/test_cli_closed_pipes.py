"""A reader that stops (`summscore ... 2>&1 | head`) closes standard output and standard error
at once: the command exits 4 (the output was not delivered whole), as with stdout alone, never
5 (a bug) or 120 (Python's failed flush at exit), and writes no traceback anywhere."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROW = {"id": "a", "source": "The bridge opened in 1901.", "summary": "It opened in 1901."}


def _run_into_closed_pipe(
    argv: list[str], *, stdout: bool = True, stderr: bool = False
) -> subprocess.CompletedProcess[str]:
    """``summscore argv`` with the chosen streams writing into a pipe whose reader is gone
    before anything is written; the others are captured."""
    read, write = os.pipe()
    os.close(read)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    try:
        return subprocess.run(
            [sys.executable, "-m", "summscore", *argv],
            stdout=write if stdout else subprocess.PIPE,
            stderr=write if stderr else subprocess.PIPE,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write)


@pytest.fixture
def results(tmp_path: Path) -> Path:
    data = tmp_path / "in.jsonl"
    data.write_text(json.dumps(ROW) + "\n", encoding="utf-8")
    out = tmp_path / "r.jsonl"
    from summscore.cli import main

    assert main(["score", str(data), "--out", str(out), "--no-progress"]) == 0
    return out


@pytest.mark.parametrize("command", ["compare", "score"])
def test_both_streams_closed_exit_4(results: Path, command: str) -> None:
    if command == "compare":
        argv = ["compare", str(results), str(results), "--json"]
    else:
        argv = ["score", str(results.with_name("in.jsonl")), "--out", "-", "--no-progress"]
    done = _run_into_closed_pipe(argv, stderr=True)
    assert done.returncode == 4


def test_stderr_alone_closed_exits_4_not_5(results: Path) -> None:
    out = results.with_name("again.jsonl")
    argv = ["score", str(results.with_name("in.jsonl")), "--out", str(out), "--no-progress"]
    done = _run_into_closed_pipe(argv, stdout=False, stderr=True)
    assert done.returncode == 4
    assert "Traceback" not in done.stdout
