"""The CI gates where they could not decide, or could be fooled: a gate with too few cases (or
too many unmatched) fails instead of passing; a crash exits 5, not 1 ("gate failed"); scores
off the scale in a hand-edited results file are not scores; A/B comparisons of results in two
formats do not replace each other."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from summscore.cli import EXIT_INTERNAL_ERROR, main
from summscore.comparison import compare
from tests.result_rows import result_record

ROOT = Path(__file__).resolve().parents[1]
KEY = "sk-proj-abcdefghijklmnopqrstuvwx1234"


def _write(path: Path, rows: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------- 1. a gate that cannot decide


def test_a_candidate_whose_ids_all_changed_fails_the_gate_naming_the_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _write(tmp_path / "b.jsonl", [result_record(f"c{i}", 0.8) for i in range(40)])
    renamed = _write(tmp_path / "c.jsonl", [result_record(f"new-{i}", 0.2) for i in range(40)])
    assert main(["compare", base, renamed, "--fail-if-worse"]) == 1
    err = capsys.readouterr().err
    assert "gate failed: 0 cases scored in both runs, fewer than the 10 needed" in err
    assert "40 without a match in the candidate" in err and "--min-paired 10" in err
    # Saying so is a choice: --min-paired 0 lets it pass, with the old notice.
    assert main(["compare", base, renamed, "--fail-if-worse", "--min-paired", "0"]) == 0
    assert "gate not applied" in capsys.readouterr().err


def test_a_candidate_that_scored_3_of_many_rows_fails_the_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _write(tmp_path / "b.jsonl", [result_record(f"c{i}", 0.8) for i in range(200)])
    mostly_failed = [result_record(f"c{i}", 0.8 if i < 3 else None) for i in range(200)]
    candidate = _write(tmp_path / "c.jsonl", mostly_failed)
    assert main(["compare", base, candidate, "--fail-if-worse", "--json"]) == 1
    captured = capsys.readouterr()
    assert "197 matched but not scored" in captured.err
    gate = json.loads(captured.out)["gate"]
    assert gate["passed"] is False and gate["outcome"] == "too few cases"
    assert gate["min_paired"] == 10 and gate["base_cases"] == 200
    # In Python, the same decision.
    decision = compare(base, candidate).gate()
    assert not decision.passed and decision.paired == 3 and decision.not_scored == 197
    assert compare(base, candidate).gate(min_paired=3).passed


def test_max_unmatched_fails_a_candidate_that_covers_too_little_of_the_base(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _write(
        tmp_path / "b.jsonl", [result_record(f"c{i}", 0.5 + i % 5 / 10) for i in range(100)]
    )
    half = _write(
        tmp_path / "c.jsonl", [result_record(f"c{i}", 0.5 + i % 5 / 10) for i in range(50)]
    )
    gate = ["compare", base, half, "--fail-if-worse"]
    assert main(gate) == 0
    assert "50 without a match in the candidate" in capsys.readouterr().err  # said, not hidden
    assert main([*gate, "--max-unmatched", "0.1"]) == 1
    err = capsys.readouterr().err
    assert "50 of the base's 100 cases (50.0%) have no match" in err and "--max-unmatched" in err
    assert main([*gate, "--max-unmatched", "0.5"]) == 0
    assert compare(base, half).gate(max_unmatched=0.1).outcome == "too many unmatched"


def test_the_gate_options_are_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = _write(tmp_path / "b.jsonl", [result_record(f"c{i}", 0.8) for i in range(12)])
    assert main(["compare", base, base, "--min-paired", "50"]) == 2  # a gate option, no gate
    assert "--min-paired applies to --fail-if-worse" in capsys.readouterr().err
    assert main(["compare", base, base, "--fail-if-worse", "--max-unmatched", "5"]) == 2
    assert "(for 5%, write 0.05)" in capsys.readouterr().err
    assert main(["compare", base, base, "--fail-if-worse", "--min-paired", "-1"]) == 2
    with pytest.raises(ValueError, match="max_unmatched"):
        compare(base, base).gate(max_unmatched=2.0)
    # Enough cases asked for and not there: 12 < 50.
    assert main(["compare", base, base, "--fail-if-worse", "--min-paired", "50"]) == 1


# ---------------------------------------------------------------- 2. a crash is not "gate failed"


def test_an_unexpected_error_exits_5_with_the_traceback_and_no_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import summscore.cli
    import summscore.cli.compare

    def boom(*args: Any) -> int:
        raise RuntimeError(f"a bug, with a key in the message: {KEY}")

    base = _write(tmp_path / "b.jsonl", [result_record(f"c{i}", 0.8) for i in range(12)])
    monkeypatch.setattr(summscore.cli.compare, "run_compare", boom)
    assert main(["compare", base, base, "--fail-if-worse"]) == EXIT_INTERNAL_ERROR == 5
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "RuntimeError" in err
    assert "summscore: internal error" in err and "please report it" in err
    assert KEY not in err and KEY[:14] not in err
    monkeypatch.setattr(summscore.cli, "run_score", boom)
    assert main(["score", base, "--no-progress"]) == 5

    def interrupted(*args: Any) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(summscore.cli, "run_score", interrupted)
    assert main(["score", base, "--no-progress"]) == 130


def test_the_command_exits_5_on_a_crash(tmp_path: Path) -> None:
    # The console script and python -m summscore exit with what main returns.
    base = _write(tmp_path / "b.jsonl", [result_record(f"c{i}", 0.8) for i in range(12)])
    code = (
        "import sys, summscore.comparison.result as r\n"
        "def boom(*a, **k): raise ZeroDivisionError('division by zero')\n"
        "r.Comparison.verdict = boom\n"
        "from summscore.cli import main\n"
        f"sys.exit(main(['compare', {base!r}, {base!r}, '--fail-if-worse']))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 5, done.stderr
    assert "ZeroDivisionError" in done.stderr and "internal error" in done.stderr


# ---------------------------------------------------------------- 3. scores off the scale


def test_scores_off_the_scale_are_not_scores_naming_the_row_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [result_record(f"c{i}", 0.6) for i in range(12)]
    edited = [dict(r) for r in rows]
    edited[3]["score"] = 1.7
    edited[5]["score"] = -0.4
    edited[7]["alignment_score"] = 3.0
    edited[8]["score"] = "abc"
    base, candidate = _write(tmp_path / "b.jsonl", rows), _write(tmp_path / "c.jsonl", edited)
    comparison = compare(base, candidate)
    assert comparison.failed_candidate == ["c3", "c5", "c7", "c8"]
    assert comparison.paired == 8 and comparison.score.candidate_mean == pytest.approx(0.6)
    note = next(n for n in comparison.notes if "no valid score" in n)
    assert "4 rows have no valid score" in note
    assert "row 4 (id 'c3'): score 1.7 is outside 0 to 1" in note
    assert "row 6 (id 'c5'): score -0.4 is outside 0 to 1" in note
    assert "row 8 (id 'c7'): alignment_score 3 is outside 0 to 1" in note
    assert "row 9 (id 'c8'): score 'abc' is not a number" in note
    case = next(c for c in comparison.cases if c.id == "c3")
    assert case.candidate.error is not None and "score 1.7 is outside" in case.candidate.error
    assert main(["compare", base, candidate]) == 0
    out = capsys.readouterr().out
    assert "4 not scored in the candidate" in out and "no valid score" in out


def test_mastra_scores_are_checked_on_its_scale(tmp_path: Path) -> None:
    def mastra(i: int, score: float) -> dict[str, Any]:
        return result_record(f"c{i}", score, preset="mastra", options={"scale": 10}, threshold=None)

    base = _write(tmp_path / "b.jsonl", [mastra(i, 7.5) for i in range(12)])
    edited = [mastra(i, 11.0 if i == 2 else 8.5) for i in range(12)]
    comparison = compare(base, _write(tmp_path / "c.jsonl", edited))
    assert comparison.failed_candidate == ["c2"]
    assert any("score 11 is outside 0 to 10" in n for n in comparison.notes)


# ---------------------------------------------------------------- 4. A/B files across formats


def test_ab_comparisons_of_two_formats_do_not_replace_each_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = "Rain fell on Monday in the north, and the river rose by two metres."
    data = _write(
        tmp_path / "ab.jsonl",
        [
            {"id": f"r{i}", "source": source, "a": "Rain fell on Monday.", "b": "Snow fell."}
            for i in range(3)
        ],
    )
    for suffix in (".jsonl", ".csv"):
        out = str(tmp_path / f"x{suffix}")
        assert main(["score", data, "--summary-column", "a,b", "--out", out, "--no-progress"]) == 0
    names = sorted(p.name for p in tmp_path.glob("x.*.compare.*"))
    assert names == [
        "x.csv.a-vs-b.compare.html",
        "x.csv.a-vs-b.compare.json",
        "x.jsonl.a-vs-b.compare.html",
        "x.jsonl.a-vs-b.compare.json",
    ]
    written = json.loads((tmp_path / "x.jsonl.a-vs-b.compare.json").read_text(encoding="utf-8"))
    assert written["base"].startswith(str(tmp_path / "x.jsonl"))


def test_two_summary_columns_that_would_share_a_comparison_file_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _write(
        tmp_path / "ab.jsonl",
        [{"id": "r0", "source": "Rain fell.", "a": "Rain.", "b c": "Snow.", "b_c": "Hail."}],
    )
    out = tmp_path / "x.jsonl"
    argv = ["score", data, "--summary-column", "a,b c,b_c", "--out", str(out), "--no-progress"]
    assert main(argv) == 2
    assert "would write the same comparison" in capsys.readouterr().err
    assert not out.exists()  # refused before scoring
