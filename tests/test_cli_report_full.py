"""Only the report cannot be written (its folder is full, the results' is not): every row is
still scored and the results file written whole, then one line names the report's file (not a
pattern) and the run exits 4, as docs/cli.md says ("the results complete"). The disk is a fake:
the report's working file refuses writes past a byte budget with ENOSPC."""

from __future__ import annotations

import errno
import json
import os
import shlex
import tempfile
import types
from pathlib import Path
from typing import Any

import pytest

from summscore.cli import EXIT_OK, EXIT_OUTPUT_ERROR, main
from summscore.cli import report as report_module
from summscore.files.datasets import read_results

ROWS = 60


def _input(path: Path, columns: tuple[str, ...] = ("summary",)) -> list[str]:
    rows = [
        {
            "id": f"r{i}",
            "source": f"The council of town {i} approved {i + 10} homes on Monday.",
            **{c: f"Town {i} approved {i + 10 + n} homes." for n, c in enumerate(columns)},
        }
        for i in range(ROWS)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return [r["id"] for r in rows]


class _SmallDisk:
    """A temporary file on a disk with ``room`` bytes left: a write past it fails (ENOSPC)."""

    def __init__(self, room: int, *args: Any, **kwargs: Any) -> None:
        self._file = tempfile.TemporaryFile(*args, **kwargs)  # noqa: SIM115 - closed by close()
        self._room = room

    def write(self, text: str) -> int:
        if len(text) > self._room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self._room -= len(text)
        return self._file.write(text)

    def __iter__(self) -> Any:
        return iter(self._file)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)


def _small_disk(monkeypatch: pytest.MonkeyPatch, room: int | None) -> None:
    """The report's working file gets ``room`` bytes (None: it cannot even be made)."""

    def make(*args: Any, **kwargs: Any) -> Any:
        if room is None:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return _SmallDisk(room, *args, **kwargs)

    fake = types.SimpleNamespace(TemporaryFile=make, gettempdir=tempfile.gettempdir)
    monkeypatch.setattr(report_module, "tempfile", fake)


def _the_line(err: str) -> str:
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("summscore: error")]
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize("room", [20_000, None], ids=["fills-midway", "no-room-at-all"])
def test_a_report_that_cannot_be_written_leaves_the_results_complete_exit_4(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    room: int | None,
) -> None:
    data = tmp_path / "in.jsonl"
    ids = _input(data)
    out, report = tmp_path / "r.jsonl", tmp_path / "tiny" / "r.html"
    _small_disk(monkeypatch, room)
    argv = ["score", str(data), "--out", str(out), "--report", str(report), "--no-progress"]
    assert main(argv) == EXIT_OUTPUT_ERROR
    line = _the_line(capsys.readouterr().err)
    assert f"cannot write {report}: no space left on the device (ENOSPC)" in line
    assert f"the results are complete in {out}" in line
    assert "*" not in line.split(";")[0]  # the real file, not a pattern
    assert [r["id"] for r in read_results(out)] == ids  # every row scored and written
    assert not report.exists()
    assert [p.name for p in tmp_path.rglob(".*")] == []  # no partial or working file left
    monkeypatch.undo()

    # Room made: the command at the end of the line writes the report from the kept rows.
    command = shlex.split(line.split("make room, then: ", 1)[1])
    assert command[:2] == ["summscore", "score"] and "--resume" in command
    assert main([*command[1:], "--no-progress"]) == EXIT_OK
    assert f"{ROWS} rows kept from the earlier run" in capsys.readouterr().err
    assert "summscore" in report.read_text(encoding="utf-8")


def test_an_ab_run_whose_report_fails_still_writes_its_comparisons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "ab.jsonl"
    _input(data, ("a", "b"))
    out, report = tmp_path / "ab.results.jsonl", tmp_path / "r.html"
    _small_disk(monkeypatch, 20_000)
    argv = ["score", str(data), "--summary-column", "a,b", "--out", str(out)]
    assert main([*argv, "--report", str(report), "--no-progress"]) == EXIT_OUTPUT_ERROR
    assert f"cannot write {report}" in _the_line(capsys.readouterr().err)
    assert len(list(read_results(out))) == 2 * ROWS
    assert sorted(p.suffix for p in tmp_path.glob("ab.results.jsonl.a-vs-b.compare.*")) == [
        ".html",
        ".json",
    ]
