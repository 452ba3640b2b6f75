"""The command on real files: nothing overwritten, --resume, Ctrl-C, outputs, whole-file errors."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from summscore.calls.many import _CASES_PER_REQUEST
from summscore.cli import main
from summscore.files.writer import partial_path
from summscore.scorer import SummarizationScorer


def _cases(n: int) -> list[dict[str, Any]]:
    return [
        {
            "id": f"c{i}",
            "source": f"The bridge in town {i} opened in {1900 + i} and carries {i * 100} cars a day.",
            "summary": f"The bridge opened in {1900 + i}.",
        }
        for i in range(n)
    ]


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _score(*args: str) -> int:
    return main(["score", *args, "--no-progress"])


def test_out_that_is_the_input_is_refused_even_through_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _write(tmp_path / "data.jsonl", _cases(2))
    before = data.read_bytes()
    link = tmp_path / "link.jsonl"
    link.symlink_to(data)
    for out in (data, link, tmp_path / "sub" / ".." / "data.jsonl"):
        assert _score(str(data), "--out", str(out), "--force") == 2
        assert "is the input file" in capsys.readouterr().err
    assert data.read_bytes() == before


def test_a_file_summscore_did_not_write_is_replaced_only_with_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _write(tmp_path / "data.jsonl", _cases(2))
    notes = tmp_path / "notes.csv"
    notes.write_text("name,phone\nAda,123\n", encoding="utf-8")
    assert _score(str(data), "--out", str(notes)) == 2
    assert "not a summscore results file" in capsys.readouterr().err
    assert notes.read_text(encoding="utf-8") == "name,phone\nAda,123\n"
    assert _score(str(data), "--out", str(notes), "--force") == 0
    assert "score" in notes.read_text(encoding="utf-8")
    # A results file from an earlier run is replaced without --force.
    out = tmp_path / "out.jsonl"
    assert _score(str(data), "--out", str(out)) == 0
    assert _score(str(data), "--out", str(out)) == 0
    page = tmp_path / "page.html"
    page.write_text("<html>my own page</html>", encoding="utf-8")
    assert _score(str(data), "--out", str(out), "--report", str(page)) == 2
    assert page.read_text(encoding="utf-8") == "<html>my own page</html>"


def test_resume_scores_only_the_missing_rows_and_ends_complete_in_input_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = _cases(6)
    data = _write(tmp_path / "data.jsonl", cases)
    out = tmp_path / "out.jsonl"
    assert _score(str(data), "--out", str(out)) == 0
    full = _jsonl(out)
    # An earlier run that finished rows c3, c0 (marked, to show it is kept), failed c1, and wrote
    # half a line when it was stopped.
    kept = dict(full[0], reason="kept from the first run")
    failed = dict(full[1], score=None, error="JudgeError: the judge was down")
    out.write_text(
        "".join(json.dumps(r) + "\n" for r in (full[3], kept, failed)) + '{"id": "c4", "sco',
        encoding="utf-8",
    )
    capsys.readouterr()
    assert _score(str(data), "--out", str(out), "--resume") == 0
    rows = _jsonl(out)
    assert [r["id"] for r in rows] == [c["id"] for c in cases]
    assert rows[0]["reason"] == "kept from the first run"
    assert rows[1]["error"] is None and rows[1]["score"] is not None  # the failed row, re-asked
    assert rows == [kept, *full[1:]]
    assert "2 rows kept from the earlier run" in capsys.readouterr().err
    assert not list(tmp_path.glob(".*partial*"))


def test_ctrl_c_keeps_finished_rows_writes_the_report_and_resume_completes(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    ctrl_c: None,
) -> None:
    window = _CASES_PER_REQUEST  # cases in flight per request slot: one slot here
    cases = _cases(window + 6)
    data = _write(tmp_path / "data.jsonl", cases)
    out, report = tmp_path / "out.jsonl", tmp_path / "report.html"
    real = SummarizationScorer.ascore
    calls = 0
    stop_at = window + 2  # started only after at least two rows have finished

    async def interrupted(self: SummarizationScorer, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == stop_at:  # what Ctrl-C does: SIGINT, while a row is being judged
            os.kill(os.getpid(), signal.SIGINT)
            await asyncio.sleep(5)
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(SummarizationScorer, "ascore", interrupted)
    code = _score(
        str(data),
        "--out",
        str(out),
        "--report",
        str(report),
        "--max-concurrency",
        "1",
        "--workers",
        "1",
    )
    assert code == 130
    assert "interrupted" in capsys.readouterr().err
    finished = _jsonl(out)
    ids = [r["id"] for r in finished]
    # The rows written before Ctrl-C, in input order (the scorer keeps a few cases in flight per
    # request slot, so with one slot the rows before the interrupted one may have finished;
    # --resume scores the rest).
    assert 1 <= len(ids) < stop_at and ids == [c["id"] for c in cases[: len(ids)]]
    page = report.read_text(encoding="utf-8")
    assert all(i in page for i in ids)
    assert f"c{stop_at - 1}" not in page and f"c{len(cases) - 1}" not in page
    monkeypatch.setattr(SummarizationScorer, "ascore", real)
    calls = 0
    assert _score(str(data), "--out", str(out), "--resume") == 0
    rows = _jsonl(out)
    assert [r["id"] for r in rows] == [c["id"] for c in cases]
    assert rows[: len(finished)] == finished


def test_out_dash_writes_jsonl_to_stdout(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = _write(
        tmp_path / "data.jsonl", [*_cases(2), {"id": "bad\ud800", "source": "x", "summary": ""}]
    )
    assert _score(str(data), "--out", "-") == 3
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    assert [r["id"] for r in rows] == ["c0", "c1", "bad\ud800"]
    assert "results: stdout" in captured.err


def test_parquet_and_tsv_results(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    data = _write(tmp_path / "data.jsonl", [*_cases(3), {"id": 7, "source": "x", "summary": " "}])
    out = tmp_path / "out.parquet"
    assert _score(str(data), "--out", str(out), "--preset", "deepeval") == 3
    table = pq.read_table(out).to_pylist()
    assert [r["id"] for r in table] == ["c0", "c1", "c2", "7"]
    assert table[0]["preset"] == "deepeval" and table[0]["threshold"] == 0.5
    assert table[3]["score"] is None and "summary cannot be empty" in table[3]["error"]
    tsv = tmp_path / "out.tsv"
    assert _score(str(data), "--out", str(tsv), "--limit", "2") == 0
    lines = tsv.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith('"id"\t"score"\t') and len(lines) == 3  # (quoted: marked cells)


def test_results_carry_provenance(tmp_path: Path) -> None:
    data = _write(tmp_path / "data.jsonl", _cases(2))
    out = tmp_path / "out.jsonl"
    assert _score(str(data), "--out", str(out), "--preset", "deepeval", "--threshold", "0.7") == 0
    row = _jsonl(out)[0]
    assert row["preset"] == "deepeval" and row["judge"] == "lexical"
    assert row["prompt_set"] == "none" and row["threshold"] == 0.7 and row["model"] is None
    assert row["judge_calls"] > 0 and "input_tokens" in row and "cost" in row


def test_a_missing_column_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _write(tmp_path / "data.jsonl", [{"id": 1, "article": "A.", "tldr": "B."}] * 3)
    assert _score(str(data), "--out", str(tmp_path / "o.jsonl")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the file's columns are: id, article, tldr" in err
    assert "--source-column" in err
    assert not (tmp_path / "o.jsonl").exists()


def test_duplicate_ids_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = _cases(3)
    data = _write(tmp_path / "data.jsonl", [*cases, cases[1]])
    out = tmp_path / "out.jsonl"
    assert _score(str(data), "--out", str(out)) == 0
    rows = _jsonl(out)
    assert [r["id"] for r in rows] == ["c0", "c1", "c2", "c1"]
    assert rows[3]["warnings"] == ["duplicate id 'c1' (line 4): an earlier row has the same id"]
    assert "1 rows repeat an earlier row's id ('c1')" in capsys.readouterr().err


def test_undecodable_bytes_and_long_cells_through_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data.csv"
    long_source = "The port handled 4 million containers last year. " * 3000
    data.write_bytes(
        b"id,source,summary\n"
        + b'a,"'
        + long_source.encode()
        + b'",The port handled 4 million containers.\n'
        + b"b,Caf\xe9 opened in 1990.,It opened.\n"
    )
    out = tmp_path / "out.jsonl"
    assert _score(str(data), "--out", str(out)) == 3
    rows = _jsonl(out)
    assert rows[0]["error"] is None
    assert "line 3 (id 'b'): column 'source' has bytes that are not valid utf-8" in rows[1]["error"]
    assert _score(str(data), "--out", str(out), "--encoding", "cp1252") == 0


def test_default_out_name_drops_the_format_and_compression_suffixes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gzip

    monkeypatch.chdir(tmp_path)
    (tmp_path / "news.jsonl.gz").write_bytes(
        gzip.compress("".join(json.dumps(r) + "\n" for r in _cases(2)).encode())
    )
    assert _score("news.jsonl.gz") == 0
    assert os.path.exists("summscore-out/news.results.jsonl")


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".parquet"])
def test_resume_works_for_every_results_format(tmp_path: Path, suffix: str) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    from summscore.files.datasets import read_results

    data = _write(tmp_path / "data.jsonl", _cases(5))
    out = tmp_path / f"out{suffix}"
    assert _score(str(data), "--out", str(out), "--limit", "2") == 0
    first = list(read_results(out))
    assert _score(str(data), "--out", str(out), "--resume") == 0
    rows = list(read_results(out))
    assert [str(r["id"]) for r in rows] == ["c0", "c1", "c2", "c3", "c4"]
    assert rows[:2] == first


def test_ctrl_c_during_resume_loses_none_of_the_earlier_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ctrl_c: None
) -> None:
    cases = _cases(10)
    data = _write(tmp_path / "data.jsonl", cases)
    out = tmp_path / "out.jsonl"
    assert _score(str(data), "--out", str(out)) == 0
    full = _jsonl(out)
    # The earlier run holds rows 0, 7, 8 and 9; the resumed run is stopped after two new rows.
    out.write_text("".join(json.dumps(full[i]) + "\n" for i in (0, 7, 8, 9)), encoding="utf-8")
    real = SummarizationScorer.ascore
    calls = 0

    async def interrupted(self: SummarizationScorer, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 3:
            os.kill(os.getpid(), signal.SIGINT)
            await asyncio.sleep(5)
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(SummarizationScorer, "ascore", interrupted)
    assert _score(str(data), "--out", str(out), "--resume", "--max-concurrency", "1") == 130
    ids = {r["id"] for r in _jsonl(out)}
    assert {"c0", "c7", "c8", "c9"} <= ids and len(ids) == len(_jsonl(out))
    monkeypatch.setattr(SummarizationScorer, "ascore", real)
    assert _score(str(data), "--out", str(out), "--resume") == 0
    assert _jsonl(out) == full


def test_whole_file_and_option_problems_are_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _write(tmp_path / "data.jsonl", _cases(2))
    listed = tmp_path / "data.json"
    listed.write_text('{"source": "not a list"}', encoding="utf-8")
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(b"\x1f\x8b\x08\x00garbage")
    out = str(tmp_path / "o.jsonl")
    problems = {
        "unknown encoding 'klingon'": [str(data), "--out", out, "--encoding", "klingon"],
        "is a directory": [str(data), "--out", str(tmp_path)],
        "--resume needs a results file": [str(data), "--out", "-", "--resume"],
        "a .json input is a list of objects": [str(listed), "--out", out],
        "broken.jsonl.gz": [str(broken), "--out", out],
    }
    for expected, args in problems.items():
        assert _score(*args) == 2, expected
        err = capsys.readouterr().err
        assert expected in err and err.count("\n") == 1, err


def test_resume_with_a_limit_keeps_the_earlier_rows_beyond_it(tmp_path: Path) -> None:
    data = _write(tmp_path / "data.jsonl", _cases(6))
    out = tmp_path / "out.jsonl"
    assert _score(str(data), "--out", str(out)) == 0
    full = _jsonl(out)
    out.write_text("".join(json.dumps(r) + "\n" for r in full[1:]), encoding="utf-8")
    assert _score(str(data), "--out", str(out), "--resume", "--limit", "2") == 0
    assert _jsonl(out) == full


@pytest.mark.parametrize("when", ["starting", "scoring"])
def test_ctrl_c_in_a_terminal_stops_the_workers_quietly(
    tmp_path: Path, when: str, ctrl_c: None
) -> None:
    # A terminal's Ctrl-C signals the whole process group: the lexical workers too, which may
    # still be importing ("starting": the parent is setting up or the workers are being born).
    source = "The bridge in town {} opened in 1911 and carries 900 cars a day. "
    rows = [
        {"id": i, "source": source.format(i) * 40, "summary": "It opened."} for i in range(4000)
    ]
    data = _write(tmp_path / "data.jsonl", rows)
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "summscore", "score", str(data), "--out", str(out)]
    run = subprocess.Popen(
        [*command, "--no-progress", "--workers", "2"],
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert run.stderr is not None
    first = run.stderr.readline()  # the columns line: the imports are done, the workers next
    # The rows go to the partial file beside --out while scoring; --out itself appears at the end.
    partial = partial_path(out)
    deadline = time.monotonic() + (0.3 if when == "starting" else 60)
    while time.monotonic() < deadline and (
        when == "starting" or not partial.exists() or partial.stat().st_size < 10_000
    ):
        time.sleep(0.05)
    assert run.poll() is None, "the run ended before it could be interrupted"
    os.killpg(run.pid, signal.SIGINT)
    _, rest = run.communicate(timeout=60)
    err = first + rest
    assert run.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "summscore: interrupted" in err
