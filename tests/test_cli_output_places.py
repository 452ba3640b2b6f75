"""Nothing is opened before every output place is checked: an unusable ``--out``, ``--report``,
partial file or ``--cache`` is one line and exit status 2, and the earlier complete results file
is never truncated by a run that fails before scoring."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from summscore.cli import EXIT_OK, EXIT_USAGE, main

ROWS = [
    {"id": f"r{i}", "source": f"The bridge opened in {1900 + i}.", "summary": "It opened."}
    for i in range(5)
]


@pytest.fixture
def earlier(tmp_path: Path) -> tuple[Path, Path, bytes]:
    """An input, and the complete results file of an earlier run of it."""
    data = tmp_path / "in.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert _score(str(data), "--out", str(out)) == EXIT_OK
    return data, out, out.read_bytes()


def _score(*args: str) -> int:
    return main(["score", *args, "--no-progress"])


def _one_line_error(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("summscore: error")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_a_report_in_a_folder_that_is_a_file_is_refused_before_the_results_are_touched(
    earlier: tuple[Path, Path, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, out, before = earlier
    (tmp_path / "notadir").write_text("a file\n", encoding="utf-8")
    report = tmp_path / "notadir" / "r.html"
    capsys.readouterr()
    assert _score(str(data), "--out", str(out), "--report", str(report)) == EXIT_USAGE
    line = _one_line_error(capsys.readouterr().err)
    assert "--report" in line and "notadir is a file, not a folder" in line
    assert out.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "notadir", "out.jsonl"]


@pytest.mark.parametrize("option", ["--out", "--cache"])
def test_an_out_or_cache_under_a_file_is_refused(
    earlier: tuple[Path, Path, bytes],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    option: str,
) -> None:
    data, out, before = earlier
    (tmp_path / "notadir").write_text("a file\n", encoding="utf-8")
    place = tmp_path / "notadir" / ("r.jsonl" if option == "--out" else "cache")
    args = ["--out", str(out)] if option == "--cache" else []
    capsys.readouterr()
    assert _score(str(data), option, str(place), *args) == EXIT_USAGE
    assert "notadir is a file, not a folder" in _one_line_error(capsys.readouterr().err)
    assert out.read_bytes() == before


def test_a_device_or_a_folder_is_never_replaced_by_the_results(
    earlier: tuple[Path, Path, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, _, _ = earlier
    for place, said in ((Path(os.devnull), "not a regular file"), (tmp_path, "is a directory")):
        assert _score(str(data), "--out", str(place)) == EXIT_USAGE
        assert said in _one_line_error(capsys.readouterr().err)
    assert Path(os.devnull).is_char_device()


@contextlib.contextmanager
def _read_only_folder(folder: Path) -> Iterator[Path]:
    """A folder nothing can be written in, even by root (a read-only mount), or by permissions
    for another user."""
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"root, and no read-only mount can be made here: {mounted.stderr!r}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_a_report_in_a_read_only_folder_is_refused_before_the_results_are_touched(
    earlier: tuple[Path, Path, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, out, before = earlier
    with _read_only_folder(tmp_path / "locked") as locked:
        capsys.readouterr()
        code = _score(str(data), "--out", str(out), "--report", str(locked / "r.html"))
        line = _one_line_error(capsys.readouterr().err)
        assert code == EXIT_USAGE and "cannot write in" in line and "--report" in line
        assert _score(str(data), "--out", str(locked / "out.jsonl")) == EXIT_USAGE
        assert "cannot write in" in _one_line_error(capsys.readouterr().err)
    assert out.read_bytes() == before


def test_results_written_through_a_symlinked_out_land_in_the_linked_file(
    earlier: tuple[Path, Path, bytes], tmp_path: Path
) -> None:
    """The results are finished by a rename; a symlinked ``--out`` must keep its link (the
    user's link is not replaced by a file) and the file it points to gets the results."""
    data, out, _ = earlier
    link = tmp_path / "latest.jsonl"
    link.symlink_to(out)
    assert _score(str(data), "--out", str(link), "--force") == EXIT_OK
    assert link.is_symlink() and link.resolve() == out.resolve()
    assert len(out.read_text(encoding="utf-8").splitlines()) == len(ROWS)
    assert not any(p.name.startswith(".latest") for p in tmp_path.iterdir())


@pytest.mark.parametrize("clash", ["--out", "--report"])
def test_a_cache_folder_at_the_results_or_report_path_is_refused_before_anything_is_made(
    earlier: tuple[Path, Path, bytes],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    clash: str,
) -> None:
    """The cache is a folder: at the path of the results file or the report, it was made first and
    the run ended after scoring with "cannot write ...: Is a directory" and exit 4."""
    data, out, before = earlier
    place = tmp_path / ("new.jsonl" if clash == "--out" else "r.html")
    args = (
        ["--out", str(place)] if clash == "--out" else ["--out", str(out), "--report", str(place)]
    )
    capsys.readouterr()
    assert _score(str(data), *args, "--cache", str(place)) == EXIT_USAGE
    line = _one_line_error(capsys.readouterr().err)
    assert "--cache" in line and clash in line
    assert out.read_bytes() == before
    assert not place.exists()


def test_an_out_that_is_a_loop_of_links_is_one_line_and_exit_2(
    earlier: tuple[Path, Path, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Python 3.11's ``Path.resolve`` raises RuntimeError on a loop: it was an internal error,
    exit 5 with a traceback."""
    data, _, _ = earlier
    (tmp_path / "a.jsonl").symlink_to(tmp_path / "b.jsonl")
    (tmp_path / "b.jsonl").symlink_to(tmp_path / "a.jsonl")
    capsys.readouterr()
    assert _score(str(data), "--out", str(tmp_path / "a.jsonl")) == EXIT_USAGE
    line = _one_line_error(capsys.readouterr().err)
    assert "--out" in line and "a.jsonl" in line
