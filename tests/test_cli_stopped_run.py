"""A run started without --resume beside the partial file of a stopped run scores those rows
again: it says so, with the count and the file, and how to keep them; with --resume it keeps
them and says nothing of the kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from summscore.cli import EXIT_OK, main
from summscore.files.writer import partial_path


def _stopped_run(tmp_path: Path, rows: int) -> tuple[Path, Path]:
    data, out = tmp_path / "in.jsonl", tmp_path / "r.jsonl"
    data.write_text(
        "".join(
            json.dumps({"id": i, "source": f"Town {i} built {i + 3} homes.", "summary": "Homes."})
            + "\n"
            for i in range(6)
        ),
        encoding="utf-8",
    )
    assert main(["score", str(data), "--out", str(out), "--no-progress"]) == EXIT_OK
    kept = out.read_text(encoding="utf-8").splitlines()[:rows]
    out.unlink()
    partial_path(out).write_text("".join(line + "\n" for line in kept), encoding="utf-8")
    return data, out


def test_a_run_without_resume_says_it_scores_a_stopped_runs_rows_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, out = _stopped_run(tmp_path, 3)
    capsys.readouterr()
    assert main(["score", str(data), "--out", str(out), "--no-progress"]) == EXIT_OK
    err = capsys.readouterr().err
    assert f"a stopped run left 3 rows in {partial_path(out)}" in err
    assert "--resume" in err
    assert len(out.read_text(encoding="utf-8").splitlines()) == 6


def test_with_resume_the_rows_are_kept_and_no_such_note_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, out = _stopped_run(tmp_path, 3)
    capsys.readouterr()
    assert main(["score", str(data), "--out", str(out), "--resume", "--no-progress"]) == EXIT_OK
    err = capsys.readouterr().err
    assert "a stopped run left" not in err and "3 rows kept from the earlier run" in err
