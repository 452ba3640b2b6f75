"""``--out -`` and ``--engine ray``: the same "nothing of the user's is overwritten" checks as a
results file on the local engine. The Ray engine is checked at its plan (what the CLI hands to
summscore.ray), without starting Ray: tests/test_ray_cli.py runs it for real (.ci/steps/ray.sh)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from summscore.cli import EXIT_OK, EXIT_USAGE, main

ROW = {"id": "a", "source": "The bridge opened in 1901.", "summary": "It opened in 1901."}
USERS_PAGE = "<!doctype html><title>my notes</title><p>hand-written</p>"


@pytest.fixture
def rows(tmp_path: Path) -> Path:
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(ROW) + "\n", encoding="utf-8")
    return path


def _score(*args: str) -> int:
    return main(["score", *args, "--judge", "lexical", "--no-progress"])


# ------------------------------------------------------------------ --out - on the local engine


def test_out_stdout_still_refuses_a_report_file_that_summscore_did_not_write(
    rows: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "notes.html"
    page.write_text(USERS_PAGE, encoding="utf-8")
    assert _score(str(rows), "--out", "-", "--report", str(page)) == EXIT_USAGE
    assert page.read_text(encoding="utf-8") == USERS_PAGE
    captured = capsys.readouterr()
    assert "--report" in captured.err and "--force" in captured.err
    assert captured.out == ""  # refused before any row was scored


def test_out_stdout_refuses_a_report_that_is_the_input_file(rows: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    report.symlink_to(rows)  # the report's name leads to the input
    before = rows.read_bytes()
    assert _score(str(rows), "--out", "-", "--report", str(report), "--force") == EXIT_USAGE
    assert rows.read_bytes() == before


def test_out_stdout_with_a_report_of_its_own_writes_both(
    rows: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.html"
    assert _score(str(rows), "--out", "-", "--report", str(report)) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["id"] == "a"
    assert "summscore" in report.read_text(encoding="utf-8")


# ------------------------------------------------------------------ --engine ray, at its plan


@pytest.fixture
def ray_plan(monkeypatch: pytest.MonkeyPatch) -> list[argparse.Namespace]:
    """What the CLI hands to summscore.ray.run_score_file (Ray itself is not started)."""
    pytest.importorskip("ray")
    import summscore.ray

    calls: list[argparse.Namespace] = []

    def run_score_file(args: argparse.Namespace, make_scorer: Any) -> int:
        calls.append(args)
        return EXIT_OK

    monkeypatch.setattr(summscore.ray, "run_score_file", run_score_file)
    return calls


def test_ray_out_stdout_is_handed_on_as_stdout_and_no_file_named_dash_is_made(
    rows: Path, ray_plan: list[argparse.Namespace], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(rows.parent)
    assert _score(str(rows), "--engine", "ray", "--out", "-") == EXIT_OK
    assert [args.out for args in ray_plan] == ["-"]
    assert not (rows.parent / "-").exists()


def test_ray_refuses_to_write_over_the_input_or_a_file_summscore_did_not_write(
    rows: Path, tmp_path: Path, ray_plan: list[argparse.Namespace]
) -> None:
    mine = tmp_path / "mine.jsonl"
    mine.write_text('{"my": "data"}\n', encoding="utf-8")
    assert _score(str(rows), "--engine", "ray", "--out", str(rows)) == EXIT_USAGE
    assert _score(str(rows), "--engine", "ray", "--out", str(mine)) == EXIT_USAGE
    assert mine.read_text(encoding="utf-8") == '{"my": "data"}\n'
    assert ray_plan == []  # refused before any Ray work
    assert _score(str(rows), "--engine", "ray", "--out", str(mine), "--force") == EXIT_OK
    assert [args.out for args in ray_plan] == [str(mine)]


def test_ray_resume_is_handed_on_and_never_reads_a_file_summscore_did_not_write(
    rows: Path, tmp_path: Path, ray_plan: list[argparse.Namespace]
) -> None:
    mine = tmp_path / "mine.jsonl"
    mine.write_text('{"my": "data"}\n', encoding="utf-8")
    assert _score(str(rows), "--engine", "ray", "--out", str(mine), "--resume") == EXIT_USAGE
    assert _score(str(rows), "--engine", "ray", "--out", "-", "--resume") == EXIT_USAGE
    assert ray_plan == []
    out = tmp_path / "out.jsonl"
    assert _score(str(rows), "--engine", "ray", "--out", str(out), "--resume") == EXIT_OK
    assert [(args.out, args.resume) for args in ray_plan] == [(str(out), True)]
