"""Every results format survives ``kill -9``: real runs are killed at random points (bounded),
then a ``--resume`` run that is itself killed, then a last ``--resume``; nothing scored before a
kill is lost, nothing is duplicated, and the file ends complete in input order."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from summscore.cli import main
from summscore.files.datasets import read_results
from summscore.files.writer import partial_path

from .cli_run_support import lines

ROWS = 160
SEED = int(os.environ.get("SUMMSCORE_KILL_SEED", "43"))


def _input(path: Path) -> list[str]:
    ids = [f"r{i}" for i in range(ROWS)]
    with path.open("w", encoding="utf-8") as handle:
        for i, row_id in enumerate(ids):
            record = {
                "id": row_id,
                "source": f"The council of town {i} approved {i % 90 + 10} homes on Monday. "
                f"Building starts in {2025 + i % 7} and costs {i * 3} million.",
                "summary": f"Town {i} approved {i % 90 + 10 + i % 2} homes.",
            }
            handle.write(json.dumps(record) + "\n")
    return ids


def _complete(partial: Path) -> list[dict[str, Any]]:
    """The rows a killed run left in its partial file (a line the kill cut is not a row)."""
    rows = []
    for line in partial.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue
    return rows


def _killed_run(data: Path, out: Path, at_least: int, rng: random.Random, *more: str) -> None:
    """Start the command, and SIGKILL it once its partial file holds ``at_least`` lines (and a
    random few milliseconds more, to land inside a write as often as between two)."""
    command = [sys.executable, "-m", "summscore.cli", "score", str(data), "--out", str(out)]
    run = subprocess.Popen(
        [*command, "--no-progress", *more],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    partial = partial_path(out)
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and run.poll() is None:
            if lines(partial) >= at_least:
                time.sleep(rng.uniform(0, 0.02))
                break
            time.sleep(0.005)
        assert run.poll() is None, "the run ended before it could be killed: make it longer"
    finally:
        run.kill()
        run.wait()


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".tsv", ".parquet"])
def test_a_killed_run_and_a_killed_resume_lose_nothing_and_duplicate_nothing(
    tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    rng = random.Random(f"{SEED}{suffix}")
    data = tmp_path / "in.jsonl"
    ids = _input(data)
    out = tmp_path / f"out{suffix}"
    partial = partial_path(out)

    _killed_run(data, out, rng.randint(5, 50), rng)
    first = _complete(partial)
    assert [r["id"] for r in first] == ids[: len(first)]  # in order, none twice

    # The resume run reuses the first run's rows, scores more, and is killed in its turn.
    _killed_run(data, out, len(first) + rng.randint(5, 50), rng, "--resume")
    second = _complete(partial)
    assert [r["id"] for r in second] == ids[: len(second)] and len(second) >= len(first)
    assert [str(r["id"]) for r in read_results(out)] == [r["id"] for r in first]  # folded in

    capsys.readouterr()
    assert main(["score", str(data), "--out", str(out), "--no-progress", "--resume"]) == 0
    kept = re.search(r"(\d+) rows kept from the earlier run", capsys.readouterr().err)
    assert kept is not None and int(kept.group(1)) >= len(second)
    final = list(read_results(out))
    assert [str(r["id"]) for r in final] == ids
    for before, after in zip(second, final):
        assert (after["fingerprint"], after["score"]) == (before["fingerprint"], before["score"])
    assert not partial.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["in.jsonl", out.name])
