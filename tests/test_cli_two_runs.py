"""Two runs started on the same ``--out`` (an overlapping cron job, a retried CI step): the second
took the first one's partial file for a stopped run's, scored into it as well and ended with
"cannot write out.jsonl: No such file or directory ... make room", exit 4, once the first had
renamed it away. The partial file is locked while a run writes it: the second run is refused
before it opens anything (exit 2), and the first finishes undisturbed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from summscore.cli import EXIT_USAGE, main
from summscore.files.datasets import read_results
from summscore.files.writer import partial_path

from .cli_run_support import ROWS, score_process, wait_for_rows, write_input

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file locks")


def test_a_second_run_on_the_same_out_is_refused_while_the_first_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data.jsonl"
    write_input(data)
    out = tmp_path / "out.jsonl"
    with score_process(data, out, "--workers", "1") as first:
        wait_for_rows(first, out, rows=1)
        capsys.readouterr()
        assert main(["score", str(data), "--out", str(out), "--no-progress"]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert "another summscore run is writing" in err and "Traceback" not in err
        _, first_err = first.communicate(timeout=300)
    assert first.returncode == 0, first_err
    assert [row["id"] for row in read_results(out)] == [f"r{i}" for i in range(ROWS)]


@pytest.mark.parametrize("name", ["out.csv", "out.jsonl"])
def test_the_partial_file_stays_locked_until_the_results_file_is_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """A CSV, TSV, Excel or Parquet results file is written from the partial file after it is
    closed (seconds for a large run): the lock went with the close, so a second run started
    then was let in, removed the partial file being read and began its own, which the first
    run then read as its rows (or deleted as its own, taking the second run's rows with it)."""
    from summscore.files import places, writer
    from summscore.files.writer import ResultWriter

    seen: list[bool] = []
    out = tmp_path / name
    table, replace = writer.write_table, writer.os.replace

    def watched_table(*args: object, **kwargs: object) -> None:
        seen.append(places.in_use(partial_path(out)))
        table(*args, **kwargs)  # type: ignore[arg-type]

    def watched_replace(source: object, target: object) -> None:
        seen.append(places.in_use(partial_path(out)))
        replace(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(writer, "write_table", watched_table)
    monkeypatch.setattr(writer.os, "replace", watched_replace)
    results = ResultWriter(out)
    results.write({"id": "r1", "score": 0.5})
    assert places.in_use(partial_path(out))
    results.close()
    assert seen and all(seen), seen
    assert not partial_path(out).exists() and out.exists()


def test_a_second_run_let_in_before_the_first_opened_its_partial_file_leaves_it_alone(
    tmp_path: Path,
) -> None:
    """Two runs started together both pass the check (no partial file yet); the first opens its
    partial file while the second builds its judge. The second then folded that live file into
    the results (``--resume``) or removed it as a killed run's leftover and began its own: the
    first run's rows went nowhere. Each now tries the lock before it touches the file."""
    from summscore.files.resume import open_resume
    from summscore.files.writer import ResultWriter

    out = tmp_path / "out.jsonl"
    first = ResultWriter(out)
    first.write({"id": "r1", "score": 0.5})
    with pytest.raises(OSError, match="another summscore run is writing"):
        open_resume(out)
    with pytest.raises(OSError, match="another summscore run is writing"):
        ResultWriter(out)
    first.write({"id": "r2", "score": 0.5})
    first.close()
    assert [row["id"] for row in read_results(out)] == ["r1", "r2"]
