"""A results file that is damaged or cut off (a truncated artifact download, a torn last line,
a line of garbage) is refused by ``summscore compare`` naming the file and the line, exit
status 2: read in part, its missing rows would only show as "only in the base" while the gate
decided on the rest. ``summscore score`` never leaves such a file (it writes its results whole)."""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from summscore.cli import main
from summscore.comparison import compare
from tests.result_rows import result_record

ROWS = 30


def _lines() -> list[str]:
    # Reasons that do not compress away, so that half a gzip file holds some whole rows.
    noise = random.Random(47)
    return [
        json.dumps(result_record(f"c{i}", 0.5 + (i % 5) / 10, reason=noise.randbytes(300).hex()))
        + "\n"
        for i in range(ROWS)
    ]


def _torn_last_line(path: Path) -> Path:
    text = "".join(_lines())
    path = path.with_suffix(".jsonl")
    path.write_text(text[: len(text) - 120], encoding="utf-8")  # the last record cut short
    return path


def _garbage_line(path: Path) -> Path:
    lines = _lines()
    lines[7] = '{"id": "c7", "score": 0.6, oops\n'
    path = path.with_suffix(".jsonl")
    path.write_text("".join(lines), encoding="utf-8")
    return path


def _truncated_gzip(path: Path) -> Path:
    data = gzip.compress("".join(_lines()).encode(), mtime=0)
    path = path.with_suffix(".jsonl.gz")
    path.write_bytes(data[: len(data) // 2])
    return path


def _cut_csv(path: Path) -> Path:
    path = path.with_suffix(".csv")
    header = "id,score,error,reason,preset,judge,prompt_set,threshold\n"
    rows = [f'c{i},0.6,,"{"y" * 50}",deepeval,lexical,none,0.5\n' for i in range(ROWS)]
    text = header + "".join(rows)
    path.write_text(text[: len(text) - 40], encoding="utf-8")  # inside the last quoted cell
    return path


DAMAGES = [_torn_last_line, _garbage_line, _truncated_gzip, _cut_csv]


@pytest.mark.parametrize("damage", DAMAGES, ids=lambda f: f.__name__.strip("_"))
def test_a_damaged_results_file_is_refused_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: Callable[[Path], Path]
) -> None:
    base = tmp_path / "base.jsonl"
    base.write_text("".join(_lines()), encoding="utf-8")
    damaged = damage(tmp_path / "candidate")
    with pytest.raises(ValueError, match=r"line \d+") as caught:
        compare(base, damaged)
    assert str(damaged) in str(caught.value)
    status = main(["compare", str(base), str(damaged), "--fail-if-worse"])
    error = capsys.readouterr().err
    assert status == 2, error
    assert str(damaged) in error and "line" in error
    with pytest.raises(ValueError, match=r"line \d+"):  # as the base too
        compare(damaged, base)
