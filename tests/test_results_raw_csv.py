"""A CSV or TSV results file says itself whether its text cells carry the spreadsheet mark: a
neutralised file's header is quoted like its text cells, a ``--raw-csv`` file's (and an earlier
release's, which wrote text as it is) is not. Every reader (``--resume``, ``compare``, ``report``)
takes the mark off only where it was put on: an id ``'=x`` written raw came back as ``=x``, and
``compare`` of a raw and a neutralised run of the same rows matched none of such ids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from summscore.cli import main
from summscore.files.datasets import read_results

IDS = ["'=x", "''y", "'+1+1", '=HYPERLINK("z")', "plain"]


def _input(tmp_path: Path) -> Path:
    data = tmp_path / "in.jsonl"
    rows = [
        {"id": row_id, "source": f"The mill {i} closed in 1990.", "summary": f"Mill {i} closed."}
        for i, row_id in enumerate(IDS)
    ]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return data


def _score(*args: str) -> int:
    return main(["score", *args, "--no-progress"])


@pytest.mark.parametrize("suffix", [".csv", ".tsv"])
def test_each_file_reads_back_its_own_ids_whatever_the_reader_is_told(
    tmp_path: Path, suffix: str
) -> None:
    data = _input(tmp_path)
    raw, marked = tmp_path / f"raw{suffix}", tmp_path / f"marked{suffix}"
    assert _score(str(data), "--out", str(raw), "--raw-csv") == 0
    assert _score(str(data), "--out", str(marked)) == 0
    assert [r["id"] for r in read_results(raw)] == IDS
    assert [r["id"] for r in read_results(marked)] == IDS


def test_a_file_of_an_earlier_release_is_read_as_it_was_written(tmp_path: Path) -> None:
    """0.1.0 wrote text cells as they are, under a plain header: nothing to take off."""
    old = tmp_path / "old.csv"
    old.write_text("id,score,reason,error\n'=x,1.0,'+ok,\n", encoding="utf-8")
    assert [(r["id"], r["reason"]) for r in read_results(old)] == [("'=x", "'+ok")]


def test_compare_matches_every_id_of_a_raw_and_a_neutralised_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _input(tmp_path)
    raw, marked = tmp_path / "raw.csv", tmp_path / "marked.csv"
    assert _score(str(data), "--out", str(raw), "--raw-csv") == 0
    assert _score(str(data), "--out", str(marked)) == 0
    capsys.readouterr()
    main(["compare", str(raw), str(marked)])
    said = capsys.readouterr().out
    assert f"{len(IDS)} cases matched by id" in said, said
    assert "only in the" not in said


def test_resume_with_or_without_raw_csv_keeps_the_ids(tmp_path: Path) -> None:
    data = _input(tmp_path)
    out = tmp_path / "out.csv"
    assert _score(str(data), "--out", str(out), "--raw-csv") == 0
    assert _score(str(data), "--out", str(out), "--resume") == 0
    assert [r["id"] for r in read_results(out)] == IDS
    assert _score(str(data), "--out", str(out), "--resume", "--raw-csv") == 0
    assert [r["id"] for r in read_results(out)] == IDS
