"""An A/B run (``score --summary-column a,b``) has every guarantee of a one-column run: it
survives ``kill -9`` and a killed ``--resume`` with nothing lost or duplicated (rows keyed by id
and summary column), its CSV cells never run in a spreadsheet (the run's columns included) and
read back exactly, ``summscore compare`` reads it in every format, and a comparison that cannot
be written is one line, exit status 4 and the command that continues the run."""

from __future__ import annotations

import csv
import errno
import json
import os
import random
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from summscore.cli import EXIT_GATE_FAILED, EXIT_OK, EXIT_OUTPUT_ERROR, main
from summscore.files.datasets import read_results
from summscore.files.writer import partial_path

ROWS = 80
COLUMNS = ("summary_a", "=b")  # a column name a spreadsheet would run: its cells are marked
SEED = int(os.environ.get("SUMMSCORE_KILL_SEED", "47"))


def _input(path: Path, rows: int = ROWS) -> list[tuple[str, str]]:
    """The input, and the (id, summary column) of every row the A/B run writes, in order."""
    with path.open("w", encoding="utf-8") as handle:
        for i in range(rows):
            record = {
                "id": f"=r{i}" if i % 5 == 0 else f"r{i}",  # some ids a spreadsheet would run
                "source": f"The council of town {i} approved {i % 90 + 10} homes on Monday. "
                f"Building starts in {2025 + i % 7} and costs {i * 3} million.",
                COLUMNS[0]: f"Town {i} approved {i % 90 + 10} homes.",
                COLUMNS[1]: f"Town {i} approved {i % 90 + 11} homes in {2024 + i % 5}.",
            }
            handle.write(json.dumps(record) + "\n")
    return [(f"=r{i}" if i % 5 == 0 else f"r{i}", c) for i in range(rows) for c in COLUMNS]


def _argv(data: Path, out: Path) -> list[str]:
    return ["score", str(data), "--summary-column", ",".join(COLUMNS), "--out", str(out)]


def _keys(records: Any) -> list[tuple[str, str]]:
    return [(str(r["id"]), r["summary_column"]) for r in records]


def _complete(partial: Path) -> list[dict[str, Any]]:
    rows = []
    for line in partial.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue  # (the line the kill cut)
    return rows


def _killed_run(data: Path, out: Path, at_least: int, rng: random.Random, *more: str) -> None:
    command = [sys.executable, "-m", "summscore.cli", *_argv(data, out), "--no-progress", *more]
    run = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    partial = partial_path(out)
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and run.poll() is None:
            if partial.exists() and partial.read_bytes().count(b"\n") >= at_least:
                time.sleep(rng.uniform(0, 0.02))
                break
            time.sleep(0.005)
        assert run.poll() is None, "the run ended before it could be killed: make it longer"
    finally:
        run.kill()
        run.wait()


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_a_killed_ab_run_and_a_killed_resume_lose_nothing_and_duplicate_nothing(
    tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    rng = random.Random(f"{SEED}{suffix}")
    data = tmp_path / "in.jsonl"
    keys = _input(data)
    out = tmp_path / f"ab{suffix}"
    partial = partial_path(out)

    _killed_run(data, out, rng.randint(5, 40), rng)
    first = _complete(partial)
    assert _keys(first) == keys[: len(first)]  # in order, none twice

    _killed_run(data, out, len(first) + rng.randint(5, 40), rng, "--resume")
    second = _complete(partial)
    assert _keys(second) == keys[: len(second)] and len(second) >= len(first)
    assert _keys(read_results(out)) == _keys(first)  # the first run's rows folded into out

    capsys.readouterr()
    assert main([*_argv(data, out), "--no-progress", "--resume"]) == EXIT_OK
    err = capsys.readouterr().err
    kept = re.search(r"(\d+) rows kept from the earlier run", err)
    assert kept is not None and int(kept.group(1)) >= len(second), err
    final = list(read_results(out))
    assert _keys(final) == keys
    for before, after in zip(second, final):
        assert (after["fingerprint"], after["score"]) == (before["fingerprint"], before["score"])
    assert not partial.exists()
    compared = {p.name for p in tmp_path.glob(f"{out.name}.summary_a-vs-b.compare.*")}
    assert compared == {f"{out.name}.summary_a-vs-b.compare.{k}" for k in ("json", "html")}
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["in.jsonl", out.name, *compared])


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_an_ab_resume_rescores_the_failed_rows_and_keeps_no_earlier_record_of_them(
    tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "in.jsonl"
    keys = _input(data, 10)
    rows = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines()]
    broken = [{**r, COLUMNS[1]: ""} if i % 3 == 0 else r for i, r in enumerate(rows)]
    data.write_text("".join(json.dumps(r) + "\n" for r in broken), encoding="utf-8")
    out = tmp_path / f"ab{suffix}"
    assert main([*_argv(data, out), "--no-progress"]) == 3  # (rows failed: empty summaries)
    failed = [k for k, r in zip(keys, read_results(out)) if r["error"]]
    assert failed == [k for i, k in enumerate(keys) if i % 6 == 1]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    capsys.readouterr()
    assert main([*_argv(data, out), "--no-progress", "--resume"]) == EXIT_OK
    assert f"{len(keys) - len(failed)} rows kept from the earlier run" in capsys.readouterr().err
    final = list(read_results(out))
    assert _keys(final) == keys and not any(r["error"] for r in final)


def _live(cell: str) -> bool:
    return bool(cell) and cell[0] in "=+-@\t\r" and not re.fullmatch(r"[+-]?[\d.eE+-]+", cell)


def test_an_ab_run_in_csv_is_spreadsheet_safe_read_back_exactly_and_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "in.jsonl"
    keys = _input(data, 12)
    jsonl, table = tmp_path / "ab.jsonl", tmp_path / "ab.csv"
    assert main([*_argv(data, jsonl), "--no-progress"]) == EXIT_OK
    assert main([*_argv(data, table), "--no-progress"]) == EXIT_OK
    with table.open(encoding="utf-8", newline="") as handle:
        header, *body = list(csv.reader(handle))
    assert [(header[i], c) for row in body for i, c in enumerate(row) if _live(c)] == []
    assert {row[header.index("summary_column")] for row in body} == {"summary_a", "'=b"}
    assert body[0][header.index("options")].startswith("{")  # one JSON object, read back whole
    # Read back exactly as the JSONL run wrote them: ids, columns, options and every number.
    assert list(read_results(table)) == list(read_results(jsonl))
    assert _keys(read_results(table)) == keys

    capsys.readouterr()
    assert main(["compare", str(table), "--json", "--resamples", "100"]) == EXIT_OK
    from_csv = json.loads(capsys.readouterr().out)
    assert main(["compare", str(jsonl), "--json", "--resamples", "100"]) == EXIT_OK
    from_jsonl = json.loads(capsys.readouterr().out)
    names = ("base", "candidate")  # (the files' names)
    assert {k: v for k, v in from_jsonl.items() if k not in names} == {
        k: v for k, v in from_csv.items() if k not in names
    }
    assert from_csv["matched"] == 12
    # Two runs in different formats, matched by their (marked, then restored) ids.
    columns = ["--base-column", "=b", "--candidate-column", "=b"]
    assert main(["compare", str(jsonl), str(table), *columns, "--json"]) == EXIT_OK
    same = json.loads(capsys.readouterr().out)
    assert (same["matched"], same["mean_difference"], same["settings_differences"]) == (12, 0, [])


def test_a_comparison_that_cannot_be_written_is_one_line_exit_4_and_the_command_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "in.jsonl"
    keys = _input(data, 12)
    out = tmp_path / "ab.jsonl"
    real = os.replace

    def full(source: Any, target: Any) -> None:
        if ".compare." in str(target):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(source, target)

    monkeypatch.setattr(os, "replace", full)
    capsys.readouterr()
    assert main([*_argv(data, out), "--no-progress"]) == EXIT_OUTPUT_ERROR
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("summscore: error")]
    assert len(lines) == 1, err
    assert "no space left on the device (ENOSPC)" in lines[0]
    assert f"the results are complete in {out}" in lines[0]
    assert _keys(read_results(out)) == keys
    assert [p.name for p in tmp_path.glob("*.compare.*")] == []  # nothing half written
    assert [p.name for p in tmp_path.glob(".*")] == []
    monkeypatch.undo()

    command = shlex.split(lines[0].split("make room, then: ", 1)[1])
    assert command[:2] == ["summscore", "score"] and "--resume" in command
    assert main([*command[1:], "--no-progress"]) == EXIT_OK
    assert f"{len(keys)} rows kept from the earlier run" in capsys.readouterr().err
    assert len(list(tmp_path.glob("ab.jsonl.summary_a-vs-b.compare.*"))) == 2


def test_a_compare_report_that_cannot_be_written_exits_4(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "in.jsonl"
    _input(data, 12)
    out = tmp_path / "ab.jsonl"
    assert main([*_argv(data, out), "--no-progress"]) == EXIT_OK
    report = tmp_path / "cmp.html"
    real = os.replace

    def full(source: Any, target: Any) -> None:
        if Path(target) == report:
            raise OSError(errno.EFBIG, os.strerror(errno.EFBIG))
        real(source, target)

    monkeypatch.setattr(os, "replace", full)
    capsys.readouterr()
    assert main(["compare", str(out), "--report", str(report)]) == EXIT_OUTPUT_ERROR
    err = capsys.readouterr().err
    assert f"summscore: error: cannot write {report}: the file reached the size limit" in err
    assert "Traceback" not in err and not report.exists()
    assert [p.name for p in tmp_path.glob(".*")] == []
    monkeypatch.undo()
    os.mkfifo(report)  # a pipe is refused, not waited on
    run = subprocess.run(
        [sys.executable, "-m", "summscore.cli", "compare", str(out), "--report", str(report)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2 and f"--report {report}: " in run.stderr, run.stderr


def test_a_comparison_place_that_cannot_be_written_is_refused_before_anything_is_opened(
    tmp_path: Path,
) -> None:
    data = tmp_path / "in.jsonl"
    _input(data, 3)
    out = tmp_path / "ab.jsonl"
    os.mkfifo(tmp_path / "ab.jsonl.summary_a-vs-b.compare.html")  # (reading it would wait forever)
    run = subprocess.run(
        [sys.executable, "-m", "summscore.cli", *_argv(data, out), "--no-progress"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2, run.stderr
    assert "ab.jsonl.summary_a-vs-b.compare.html (a comparison of this run):" in run.stderr
    assert not out.exists() and not partial_path(out).exists()


def test_an_ab_runs_closing_summary_is_per_summary_column_not_pooled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "in.jsonl"
    _input(data, 12)
    out = tmp_path / "ab.jsonl"
    capsys.readouterr()
    assert main([*_argv(data, out), "--no-progress"]) in (EXIT_OK, EXIT_GATE_FAILED)
    err = capsys.readouterr().err.splitlines()
    head = next(i for i, line in enumerate(err) if line.split() == list(COLUMNS))
    table = {line.split()[0]: line.split()[1:] for line in err[head + 1 : head + 5]}
    assert table["cases"] == ["12", "12"]  # (pooled: one column of 24)
    records = list(read_results(out))
    for column, shown in zip(COLUMNS, table["mean"]):
        scores = [r["score"] for r in records if r["summary_column"] == column]
        assert float(shown) == pytest.approx(sum(scores) / len(scores), abs=6e-4)
