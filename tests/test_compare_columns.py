"""Choosing the summary columns of an A/B run: ``compare ab.results.jsonl --candidate-column a``
takes another column as the base (its first was the candidate itself), and a score run that
names one summary column twice says so instead of scoring one column as a plain run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from summscore.cli import main
from summscore.comparison import compare
from tests.result_rows import result_record


def _ab(columns: tuple[str, ...] = ("summary_a", "summary_b")) -> list[dict[str, object]]:
    return [
        result_record(f"c{i}", 0.9 - 0.3 * k * (i % 2), summary_column=column)
        for i in range(12)
        for k, column in enumerate(columns)
    ]


def test_naming_only_the_candidate_column_takes_the_first_other_column_as_the_base() -> None:
    comparison = compare(_ab(), candidate_column="summary_a")
    assert comparison.base_name.endswith("[summary_b]")
    assert comparison.candidate_name.endswith("[summary_a]")
    assert comparison.score.difference.value > 0  # summary_b is the worse one
    three = compare(_ab(("a", "b", "c")), candidate_column="a")
    assert three.base_name.endswith("[b]")
    assert compare(_ab(("a", "b", "c")), candidate_column="c").base_name.endswith("[a]")
    with pytest.raises(ValueError, match="the same summary column"):
        compare(_ab(), base_column="summary_b", candidate_column="summary_b")


def test_compare_command_with_only_the_candidate_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ab.results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _ab()), encoding="utf-8")
    assert main(["compare", str(path), "--candidate-column", "summary_a", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["base"].endswith("[summary_b]") and found["mean_difference"] > 0


@pytest.mark.parametrize(
    "argv",
    [
        ["--summary-column", "summary_a,summary_a"],
        ["--summary-column", "summary_a", "--summary-column", "summary_a"],
        ["--summary-column", "summary_a,summary_b", "--summary-column", " summary_b"],
    ],
)
def test_a_summary_column_named_twice_is_refused_not_scored_as_one_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    data = tmp_path / "cases.jsonl"
    row = {
        "id": "c0",
        "source": "Rain fell on Monday.",
        "summary_a": "It rained.",
        "summary_b": "Rain.",
    }
    data.write_text(json.dumps(row) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    status = main(["score", str(data), *argv, "--out", str(out), "--no-progress"])
    assert status == 2 and not out.exists()
    error = capsys.readouterr().err
    assert "--summary-column names" in error and "twice" in error
