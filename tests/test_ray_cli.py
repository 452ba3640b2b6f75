"""The CLI's Ray engine (``summscore score --engine ray``) on a local Ray instance against the
compat judge server: it writes, reports, summarises, resumes and exits as the local engine does,
and a run that starts Ray itself shuts it down without a traceback."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ray.data")
from compat.clients import MODEL
from compat.judge_server import JudgeServer

from tests.ray_support import (
    _rows,
)


def test_the_cli_on_ray_writes_what_the_local_engine_writes(
    local_ray: None,
    judge_server: JudgeServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    from summscore.cli import main

    data = tmp_path / "runs.jsonl"
    lines = [
        json.dumps({"id": r["id"], "contexts": r["contexts"], "summary": r["summary"]})
        for r in _rows(6)
    ]
    lines.insert(2, "{broken")
    lines.append(json.dumps({"id": "blank", "source": "Rain fell.", "summary": " "}))
    data.write_text("\n".join(lines), encoding="utf-8")
    common = ["score", str(data), "--judge", "openai", "--base-url", judge_server.url]
    common += ["--model", MODEL, "--preset", "mastra", "--max-concurrency", "2", "--no-progress"]
    local, on_ray = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    capsys.readouterr()
    assert main([*common, "--out", str(local)]) == 3  # two rows fail, and say why
    local_summary = _summary(capsys.readouterr().err)
    assert main([*common, "--out", str(on_ray), "--engine", "ray"]) == 3
    ray_summary = _summary(capsys.readouterr().err)
    expected = [json.loads(line) for line in local.read_text().splitlines()]
    got = [json.loads(line) for line in on_ray.read_text().splitlines()]
    assert [r["id"] for r in got] == [r["id"] for r in expected]
    assert got == expected  # fingerprints too: the local engine resumes a file Ray wrote
    # The same closing summary: counts, spend (judge calls, tokens, cost), failures by cause.
    assert ray_summary == local_summary
    assert any("judge calls" in line and "tokens" in line for line in ray_summary)
    assert any(line.startswith("  failed (1x): ") for line in ray_summary)
    assert main([*common, "--out", str(on_ray), "--resume"]) == 3
    assert "6 rows kept from the earlier run" in capsys.readouterr().err
    assert [json.loads(line) for line in on_ray.read_text().splitlines()] == expected


def test_the_gates_judge_a_ray_run_as_a_local_one(
    local_ray: None, judge_server: JudgeServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from summscore.cli import main

    data = tmp_path / "runs.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in _rows(4)), encoding="utf-8")
    common = ["score", str(data), "--judge", "openai", "--base-url", judge_server.url]
    common += ["--model", MODEL, "--max-concurrency", "2", "--no-progress", "--engine", "ray"]
    common += ["--out", str(tmp_path / "ray.jsonl")]
    assert main([*common, "--fail-under", "1.01"]) == 1  # no mean reaches it
    assert "gate failed: mean score" in capsys.readouterr().err
    assert main([*common, "--fail-under", "0", "--resume"]) == 0
    ab = ["--summary-column", "summary,summary_b"]  # (refused before Ray starts)
    assert main([*common, *ab]) == 2
    assert "need --engine local" in capsys.readouterr().err


def _summary(stderr: str) -> list[str]:
    """The closing summary a run printed: from its "<preset> preset" line to "results:"."""
    lines = stderr.splitlines()
    start = next(i for i, line in enumerate(lines) if " preset, judge " in line)
    end = next(i for i, line in enumerate(lines) if line.startswith("results: "))
    return lines[start:end]


def test_the_cli_on_ray_writes_a_report_of_every_row_from_its_results_file(
    local_ray: None, judge_server: JudgeServer, tmp_path: Path
) -> None:
    import json
    import re

    from summscore.cli import main

    data = tmp_path / "runs.jsonl"
    rows = _rows(5)
    rows[3]["summary"] = " "
    data.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    out, report = tmp_path / "ray.jsonl", tmp_path / "pages" / "ray.html"
    args = ["score", str(data), "--judge", "openai", "--base-url", judge_server.url]
    args += ["--model", MODEL, "--preset", "mastra", "--scale", "10", "--max-concurrency", "2"]
    args += ["--no-progress", "--engine", "ray", "--out", str(out), "--report", str(report)]
    assert main(args) == 3  # the blank summary fails, and the report says why
    results = [json.loads(line) for line in out.read_text().splitlines()]
    page = report.read_text(encoding="utf-8")
    block = re.search(r'id="summscore-data">(.*?)</script>', page, re.S)
    assert block is not None
    shown = json.loads(block.group(1))["cases"]
    assert [c["id"] for c in shown] == [r["id"] for r in rows] == [r["id"] for r in results]
    assert [c["s"] for c in shown] == [r["score"] for r in results]
    assert [c["e"] for c in shown] == [False, False, False, True, False]
    assert "summary cannot be empty" in page and "engine: ray" in page
    assert 'data-figure="cases"><strong>5</strong>' in page
    # Nothing the user has is overwritten: a file that is not a report stays.
    other = tmp_path / "notes.html"
    other.write_text("<p>my notes</p>", encoding="utf-8")
    assert main([*args[:-1], str(other)]) == 2
    assert other.read_text(encoding="utf-8") == "<p>my notes</p>"


def test_the_cli_that_starts_ray_itself_shuts_it_down_without_a_traceback(
    tmp_path: Path,
) -> None:
    # Its own process: the CLI starts Ray only when none is running (the module's local Ray
    # would be kept), and shuts it down at the end.
    import json
    import subprocess
    import sys

    data = tmp_path / "runs.jsonl"
    rows = [
        {"id": "a", "source": "The council approved 450 homes in March.", "summary": "450 homes."},
        {"id": "b", "source": "The council approved 450 homes in March.", "summary": "540 homes."},
    ]
    data.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "summscore.cli", "score", str(data), "--engine", "ray"]
    done = subprocess.run(
        # "local": a Ray of its own, never the module's (another xdist worker may run it)
        [*command, "--address", "local", "--judge", "lexical", "--out", str(out), "--no-progress"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["a", "b"]
    assert "Traceback" not in done.stderr and "results:" in done.stderr
    # Ray logs an error line for a restartable actor whose arguments are in the object store
    # (every Ray Data actor, ray-project/ray#57733): summscore's actors do not restart.
    assert "constructor arguments in the object store" not in done.stderr


def test_resume_on_ray_scores_only_the_rows_a_stopped_run_left(
    local_ray: None,
    judge_server: JudgeServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    from summscore.cli import main

    rows = _rows(8)
    data, rest = tmp_path / "runs.jsonl", tmp_path / "rest.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    rest.write_text("\n".join(json.dumps(r) for r in rows[3:]), encoding="utf-8")
    common = ["--judge", "openai", "--base-url", judge_server.url, "--model", MODEL]
    common += ["--preset", "deepeval", "--max-concurrency", "2", "--no-progress"]
    out = tmp_path / "ray.jsonl"
    assert main(["score", str(data), *common, "--engine", "ray", "--out", str(out)]) == 0
    full = out.read_text().splitlines()
    out.write_text("\n".join(full[:3]) + "\n")  # a run stopped after its first three rows
    judge_server.reset()
    assert main(["score", str(rest), *common, "--out", str(tmp_path / "rest.out.jsonl")]) == 0
    alone = judge_server.stats.requests  # what the five missing rows cost on their own
    judge_server.reset()
    capsys.readouterr()
    resumed = ["score", str(data), *common, "--engine", "ray", "--out", str(out), "--resume"]
    assert main(resumed) == 0
    assert judge_server.stats.requests == alone > 0
    assert out.read_text().splitlines() == full
    assert "3 rows kept from the earlier run (--resume)" in capsys.readouterr().err


def test_a_report_that_cannot_be_written_after_a_ray_run_exits_4_with_the_results_complete(
    local_ray: None,
    judge_server: JudgeServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """As on the local engine (tests/test_cli_report_full.py): the disk under the report is full
    (its page cannot be written: ENOSPC), every row is in the results file, one line names
    the report and the run exits 4, not 0 or a traceback."""
    import errno
    import json

    from summscore.cli import EXIT_OUTPUT_ERROR, main
    from summscore.cli import report as report_module

    def no_room(*args: Any, **kwargs: Any) -> Any:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(report_module, "_write_page", no_room)  # (the page, in the driver)
    rows = _rows(4)
    data, out, report = tmp_path / "runs.jsonl", tmp_path / "ray.jsonl", tmp_path / "r.html"
    data.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    args = ["score", str(data), "--judge", "openai", "--base-url", judge_server.url]
    args += ["--model", MODEL, "--max-concurrency", "2", "--no-progress", "--engine", "ray"]
    assert main([*args, "--out", str(out), "--report", str(report)]) == EXIT_OUTPUT_ERROR
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert f"cannot write {report}" in err and f"the results are complete in {out}" in err
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == [
        r["id"] for r in rows
    ]
    assert not report.exists()


def test_raw_csv_on_ray_writes_the_text_as_it_is(
    local_ray: None, judge_server: JudgeServer, tmp_path: Path
) -> None:
    """``--engine ray`` wrote CSV text cells marked for spreadsheets whatever ``--raw-csv`` said."""
    import csv
    import json

    from summscore.cli import main

    rows = _rows(2)
    rows[0]["id"] = "=formula"
    data = tmp_path / "runs.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    out = tmp_path / "ray.csv"
    common = ["--judge", "openai", "--base-url", judge_server.url, "--model", MODEL]
    common += ["--max-concurrency", "2", "--no-progress", "--engine", "ray", "--raw-csv"]
    assert main(["score", str(data), *common, "--out", str(out)]) == 0
    with out.open(encoding="utf-8", newline="") as handle:
        ids = [row[0] for row in csv.reader(handle)][1:]
    assert ids[0] == "=formula"
