"""JSONL results stay one record per line for every line splitter: a text that holds U+0085
(NEL), U+2028 or U+2029 is valid raw inside a JSON string, but Python's ``str.splitlines``, many
editors and JavaScript before ES2019 break a line there. The results writer escapes those three
(``\\u0085``, ``\\u2028``, ``\\u2029``), which reads back as the same text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from summscore.cli import EXIT_OK, main
from summscore.files.lines import json_line

BREAKERS = ["\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("breaker", BREAKERS)
def test_a_line_breaker_in_a_text_is_written_escaped_and_reads_back_the_same(
    breaker: str,
) -> None:
    record = {"id": f"a{breaker}b", "reason": [f"x{breaker}"], "n": 1}
    line = json_line(record)
    assert line.endswith("\n") and len(line.splitlines()) == 1
    assert breaker not in line
    assert json.loads(line) == record


def test_the_results_file_splits_into_its_rows_whatever_splits_it(
    tmp_path: Path,
) -> None:
    data = tmp_path / "in.jsonl"
    rows = [
        {"id": f"row{b}{n}", "source": f"The mill{b} closed in 1990.", "summary": f"Closed{b}."}
        for n, b in enumerate(BREAKERS)
    ]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    for out in (tmp_path / "r.jsonl", tmp_path / "again.jsonl"):
        assert main(["score", str(data), "--out", str(out), "--no-progress"]) == EXIT_OK
        lines = out.read_text(encoding="utf-8").splitlines()
        assert [json.loads(line)["id"] for line in lines] == [r["id"] for r in rows]
    # resume finds every id of a file so written: nothing is scored twice
    out = tmp_path / "r.jsonl"
    assert main(["score", str(data), "--out", str(out), "--resume", "--no-progress"]) == EXIT_OK
    assert len(out.read_text(encoding="utf-8").splitlines()) == len(rows)
