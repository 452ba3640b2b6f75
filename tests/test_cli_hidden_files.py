"""The hidden working files a run writes beside its outputs (the partial file, a file written
before it is renamed into place: results in their own format, the report, a comparison) are
never written through a link: a link there is refused before anything is opened (exit 2), and
the writers open them afresh (``places.create_new``), so a link that slips past the check is
refused too. Nothing a link points to is truncated, and no output ends up a link."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from summscore.cli import EXIT_OK, EXIT_USAGE, main
from summscore.cli.outputs import write_whole
from summscore.files.datasets import read_results
from summscore.files.places import ForeignFileError
from summscore.files.tables import write_table
from summscore.files.writer import ResultWriter, partial_path, writing_path

ROWS = [
    {"id": 1, "source": "The bridge opened in 1901.", "summary": "It opened in 1901."},
    {"id": 2, "source": "Dogs bark loudly at night.", "summary": "Dogs bark."},
]
PRECIOUS = "precious: the user's own file\n"

pytestmark = pytest.mark.skipif(os.name == "nt", reason="symbolic links need privileges")


@pytest.fixture
def rows(tmp_path: Path) -> Path:
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    return path


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    path = tmp_path / "victim.txt"
    path.write_text(PRECIOUS, encoding="utf-8")
    return path


def _score(*args: str) -> int:
    return main(["score", *args, "--judge", "lexical", "--no-progress"])


def _untouched(victim: Path, *outputs: Path) -> None:
    assert victim.read_text(encoding="utf-8") == PRECIOUS
    for path in outputs:
        assert not path.is_symlink()


@pytest.mark.parametrize("name", ["res.jsonl", "res.csv", "res.parquet"])
def test_a_link_at_the_partial_file_is_refused_before_anything_is_opened(
    rows: Path, victim: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = rows.with_name(name)
    partial_path(out).symlink_to(victim.name)
    assert _score(str(rows), "--out", str(out)) == EXIT_USAGE
    err = capsys.readouterr().err
    (line,) = [x for x in err.splitlines() if x.startswith("summscore: error")]
    assert "partial file" in line and "symbolic link" in line
    _untouched(victim, out)
    assert not out.exists()


def test_a_link_at_the_results_working_file_is_refused(
    rows: Path, victim: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = rows.with_name("res.csv")
    writing_path(out).symlink_to(victim.name)
    assert _score(str(rows), "--out", str(out)) == EXIT_USAGE
    assert "working file" in capsys.readouterr().err
    _untouched(victim, out)


def test_a_link_at_the_reports_working_file_is_refused(rows: Path, victim: Path) -> None:
    out, report = rows.with_name("res.jsonl"), rows.with_name("r.html")
    report.with_name(".r.html.writing").symlink_to(victim.name)
    assert _score(str(rows), "--out", str(out), "--report", str(report)) == EXIT_USAGE
    _untouched(victim, out, report)
    assert not out.exists()


def test_a_link_at_an_ab_comparisons_working_file_is_refused(tmp_path: Path, victim: Path) -> None:
    data = tmp_path / "ab.jsonl"
    data.write_text(
        "".join(json.dumps({**r, "b": "Cats sleep."}) + "\n" for r in ROWS), encoding="utf-8"
    )
    out = tmp_path / "ab.results.jsonl"
    tmp_path.joinpath(f".{out.name}.summary-vs-b.compare.json.writing").symlink_to(victim.name)
    code = _score(str(data), "--summary-column", "summary,b", "--out", str(out))
    assert code == EXIT_USAGE
    _untouched(victim)
    assert list(tmp_path.glob(f"{out.name}.*")) == []


def test_a_link_at_compares_report_working_file_is_refused(rows: Path, victim: Path) -> None:
    out = rows.with_name("res.jsonl")
    assert _score(str(rows), "--out", str(out)) == EXIT_OK
    report = rows.with_name("c.html")
    report.with_name(".c.html.writing").symlink_to(victim.name)
    assert main(["compare", str(out), str(out), "--report", str(report)]) == EXIT_USAGE
    _untouched(victim, report)


def test_a_killed_runs_leftover_partial_file_is_replaced_and_a_hard_link_keeps_its_data(
    rows: Path, tmp_path: Path
) -> None:
    out = rows.with_name("res.jsonl")
    partial_path(out).write_text('{"id": 1, "score": 0.5}\n{"id": 2, "sc', encoding="utf-8")
    assert _score(str(rows), "--out", str(out)) == EXIT_OK
    assert [r["id"] for r in read_results(out)] == [1, 2]
    # A plain file with a second name: replaced under summscore's name, kept under the other.
    other = tmp_path / "kept.jsonl"
    other.write_text(PRECIOUS, encoding="utf-8")
    os.link(other, partial_path(out))
    assert _score(str(rows), "--out", str(out)) == EXIT_OK
    assert other.read_text(encoding="utf-8") == PRECIOUS
    assert not partial_path(out).exists()


# ------------------------------------------ the writers themselves, past the command's checks


def test_the_results_writer_never_writes_through_a_link(tmp_path: Path, victim: Path) -> None:
    out = tmp_path / "res.jsonl"
    partial_path(out).symlink_to(victim.name)
    with pytest.raises(ForeignFileError, match="symbolic link"):
        ResultWriter(out)
    _untouched(victim, out)


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_a_table_is_never_written_through_a_link(tmp_path: Path, victim: Path, fmt: str) -> None:
    staged = tmp_path / f".res.{fmt}.writing.{fmt}"
    staged.symlink_to(victim.name)
    with pytest.raises(ForeignFileError):
        write_table(staged, fmt, [{"id": 1, "score": 0.5}])
    _untouched(victim)
    assert staged.is_symlink()  # (left for the user to look at: not summscore's to remove)


def test_a_whole_file_is_never_written_through_a_link(tmp_path: Path, victim: Path) -> None:
    target = tmp_path / "c.json"
    tmp_path.joinpath(".c.json.writing").symlink_to(victim.name)
    with pytest.raises(ForeignFileError):
        write_whole(target, "{}")
    _untouched(victim)
    assert not target.exists()


def test_a_pipe_at_the_partial_file_is_refused_not_waited_on(rows: Path, tmp_path: Path) -> None:
    """The check for another run writing ``--out`` opened the partial file to try its lock: a
    named pipe there (nothing writing to it) held the run at that open for ever."""
    import subprocess
    import sys

    out = tmp_path / "out.jsonl"
    os.mkfifo(partial_path(out))
    command = [sys.executable, "-m", "summscore.cli", "score", str(rows), "--out", str(out)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:  # (bounded: the check opens nothing that can wait)
        pytest.fail("the run waited on the pipe at its partial file")
    assert done.returncode == EXIT_USAGE, done.stderr
    assert "Traceback" not in done.stderr
