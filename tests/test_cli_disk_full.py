"""A full disk (ENOSPC) or the file-size limit (EFBIG) ends the run with one line that names the
file and the exact command that continues it, exit status 4, no traceback and no "never awaited"
warning; the rows finished are kept and that command completes the file."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import resource
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from summscore.cli import EXIT_OK, EXIT_OUTPUT_ERROR, main
from summscore.files.datasets import read_results
from summscore.files.writer import OutputError, ResultWriter, partial_path

ROWS = 120


def _input(path: Path) -> list[str]:
    rows = [
        {
            "id": f"r{i}",
            "source": f"The council of town {i} approved {i + 10} homes on Monday. "
            f"Building starts in {2025 + i % 7}.",
            "summary": f"Town {i} approved {i + 10} homes.",
        }
        for i in range(ROWS)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return [r["id"] for r in rows]


def _the_line(err: str) -> str:
    assert "Traceback" not in err and "never awaited" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("summscore: error")]
    assert len(lines) == 1, err
    return lines[0]


def _resume_command(line: str) -> list[str]:
    command = shlex.split(line.split("make room, then: ", 1)[1])
    assert command[:2] == ["summscore", "score"] and "--resume" in command
    return command[1:]


def _limit_file_size(size: int) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_the_file_size_limit_is_one_line_exit_4_and_the_resume_command_completes(
    tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    data = tmp_path / "in.jsonl"
    ids = _input(data)
    out = tmp_path / f"out{suffix}"
    # A real limit in a real process (ulimit -f): the command itself turns SIGXFSZ into EFBIG.
    run = subprocess.run(
        [sys.executable, "-m", "summscore.cli", "score", str(data), "--out", str(out)],
        capture_output=True,
        text=True,
        preexec_fn=lambda: _limit_file_size(48 * 1024),
        cwd=tmp_path,
        check=False,
    )
    assert run.returncode == EXIT_OUTPUT_ERROR, run.stderr
    line = _the_line(run.stderr)
    assert f"cannot write {partial_path(out)}" in line and "(EFBIG)" in line
    complete = 0
    for text in partial_path(out).read_text(encoding="utf-8").splitlines():
        with contextlib.suppress(ValueError):
            complete += isinstance(json.loads(text), dict)  # (the last line may be cut)
    assert complete > 0 and f"the {complete:,} rows finished so far are kept" in line
    assert not out.exists()

    capsys.readouterr()
    os.chdir(tmp_path)
    assert main(_resume_command(line)) == EXIT_OK
    assert "rows kept from the earlier run" in capsys.readouterr().err
    assert [str(r["id"]) for r in read_results(out)] == ids


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A folder on a 32 kB tmpfs where root can mount one; else None (simulated below)."""
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = os.geteuid() == 0 and (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=32k", "tmpfs", str(folder)],
            capture_output=True,
            check=False,
        ).returncode
        == 0
    )
    try:
        yield folder if mounted else Path()
    finally:
        if mounted:
            subprocess.run(["umount", str(folder)], check=False)


def test_a_full_disk_is_one_line_exit_4_and_the_earlier_results_stay_whole(
    tmp_path: Path,
    full_disk: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = tmp_path / "in.jsonl"
    ids = _input(data)
    folder = full_disk if full_disk != Path() else tmp_path
    out = folder / "out.jsonl"
    # An earlier complete run of the first rows: a run that cannot finish never truncates it.
    assert main(["score", str(data), "--out", str(out), "--no-progress", "--limit", "3"]) == 0
    before = out.read_bytes()
    if full_disk == Path():  # no tmpfs here: the disk fills at the write layer after 40 rows
        real = ResultWriter.write

        def write(self: ResultWriter, record: dict[str, object]) -> None:
            if self.rows >= 40:
                raise OutputError(self.where, OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
            real(self, record)

        monkeypatch.setattr(ResultWriter, "write", write)
    capsys.readouterr()
    assert main(["score", str(data), "--out", str(out), "--no-progress"]) == EXIT_OUTPUT_ERROR
    line = _the_line(capsys.readouterr().err)
    assert f"cannot write {partial_path(out)}: no space left on the device (ENOSPC)" in line
    assert out.read_bytes() == before
    monkeypatch.undo()

    # Room made (the results moved to a roomy folder with their partial file), then resumed.
    roomy = tmp_path / "roomy"
    roomy.mkdir()
    for name in (out.name, partial_path(out).name):
        (roomy / name).write_bytes((folder / name).read_bytes())
    moved = roomy / out.name
    partial_rows = len(partial_path(moved).read_bytes().splitlines())
    command = _resume_command(line.replace(str(out), str(moved)))
    assert main([*command, "--no-progress"]) == EXIT_OK
    kept = capsys.readouterr().err
    assert f"{partial_rows - 1} rows kept" in kept or f"{partial_rows} rows kept" in kept
    assert [str(r["id"]) for r in read_results(moved)] == ids
