"""``summscore compare`` and the gates on the command line, end to end with the offline judge:
an A/B run asks each source's questions once and writes its comparison beside the results, a
known set of worse summaries is found, runs scored differently are refused, and every exit
status is the documented one."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from summscore.cli import main
from summscore.judges import LexicalJudge

TOWNS = (
    "Leeds Ghent Porto Lyon Graz Turku Bergen Malmo Cork Brno Pisa Split Aarhus Bilbao Krakow "
    "Utrecht Lille Basel Tartu Oulu"
).split()
MONTHS = ("March", "April", "May", "June", "July", "August", "September", "October")
WORSE = {f"t{i}" for i in range(0, len(TOWNS), 4)}  # every 4th candidate summary gets a wrong fact


def _cases(ids: bool = True) -> list[dict[str, Any]]:
    rows = []
    for i, town in enumerate(TOWNS):
        homes, month, cost = 40 + 7 * i, MONTHS[i % 8], 3 + i
        source = (
            f"The council of {town} approved {homes} new homes on Monday. Building will start in "
            f"{month} and will cost {cost} million euros, the mayor said."
        )
        good = f"{town}'s council approved {homes} new homes; building starts in {month} and costs {cost} million euros."
        bad = f"{town}'s council approved {homes + 37} new homes; building starts in {MONTHS[(i + 3) % 8]} and costs {cost} million euros."
        row = {"source": source, "summary_a": good, "summary_b": bad if f"t{i}" in WORSE else good}
        rows.append({"id": f"t{i}", **row} if ids else row)
    return rows


def _file(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


class CountingJudge(LexicalJudge):
    """The offline judge, counting the requests of each task."""

    def __init__(self) -> None:
        super().__init__()
        self.tasks: Counter[str] = Counter()

    async def complete(self, request: Any) -> Any:
        self.tasks[request.task] += 1
        return await super().complete(request)


def test_an_ab_run_asks_each_source_once_and_writes_the_comparison_beside_the_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    judge = CountingJudge()
    monkeypatch.setattr("summscore.cli.scorer_options.make_judge", lambda args: judge)
    data = _file(tmp_path / "ab.jsonl", _cases())
    out = tmp_path / "ab.results.jsonl"
    argv = ["score", str(data), "--summary-column", "summary_a,summary_b", "--out", str(out)]
    assert main([*argv, "--no-progress"]) == 0
    rows = _jsonl(out)
    assert [(r["id"], r["summary_column"]) for r in rows[:4]] == [
        ("t0", "summary_a"),
        ("t0", "summary_b"),
        ("t1", "summary_a"),
        ("t1", "summary_b"),
    ]
    assert len(rows) == 2 * len(TOWNS) and not any(r["warnings"] for r in rows)  # no "duplicate id"
    # The source side (truths, questions, the source's answers) once per source, not per summary.
    assert judge.tasks["truths"] == judge.tasks["questions"] == len(TOWNS)
    assert judge.tasks["claims"] == judge.tasks["verdicts"] == 2 * len(TOWNS)
    assert judge.tasks["answers"] == 3 * len(TOWNS)
    report = tmp_path / "ab.results.jsonl.summary_a-vs-summary_b.compare.html"
    written = json.loads(report.with_suffix(".json").read_text(encoding="utf-8"))
    assert set(written["regressed"]) == WORSE and written["improved"] == []
    assert written["ci_high"] < 0 and written["verdict"] == "worse"
    assert report.read_text(encoding="utf-8").startswith("<!doctype html>")
    err = capsys.readouterr().err
    assert "summary columns 'summary_a', 'summary_b'" in err
    assert "summary_a vs summary_b: The candidate is worse by" in err
    # The gate: the same run with --fail-if-worse (and repeated --summary-column) exits 1.
    repeated = [
        "score",
        str(data),
        "--summary-column",
        "summary_a",
        "--summary-column",
        "summary_b",
    ]
    code = main([*repeated, "--out", str(out), "--fail-if-worse", "--no-progress"])
    assert code == 1
    assert "gate failed: the candidate is worse" in capsys.readouterr().err


def test_two_runs_compared_find_the_summaries_made_worse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _file(tmp_path / "cases.jsonl", _cases())
    base, candidate = tmp_path / "base.jsonl", tmp_path / "candidate.csv"
    for column, out in (("summary_a", base), ("summary_b", candidate)):
        argv = ["score", str(data), "--summary-column", column, "--out", str(out)]
        assert main([*argv, "--no-progress"]) == 0
    capsys.readouterr()
    report = tmp_path / "comparison.html"
    code = main(["compare", str(base), str(candidate), "--json", "--report", str(report)])
    assert code == 0
    captured = capsys.readouterr()
    data_out = json.loads(captured.out)
    assert data_out["matched"] == len(TOWNS) and data_out["matched_by"] == "id"
    assert data_out["unmatched_base"] == [] and data_out["unmatched_candidate"] == []
    assert set(data_out["regressed"]) == WORSE and data_out["ci_high"] < 0
    assert data_out["pass_rate_difference"] < 0
    assert "The candidate is worse by" in captured.err and report.exists()
    assert main(["compare", str(base), str(candidate), "--fail-if-worse"]) == 1
    assert "gate failed" in capsys.readouterr().err
    effect = ["--fail-if-worse", "--min-effect", "0.9"]  # no drop that large
    assert main(["compare", str(base), str(candidate), *effect]) == 0
    assert main(["compare", str(base), str(base), "--fail-if-worse"]) == 0
    out = capsys.readouterr().out
    assert (
        "No difference: the cases scored in both runs have the same scores" in out
        and "gate passed" not in out
    )  # the gate speaks on stderr


def test_without_ids_rows_are_matched_by_their_text_whatever_their_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = _cases(ids=False)
    shuffled = rows[:]
    random.Random(4).shuffle(shuffled)
    base, candidate = tmp_path / "base.jsonl", tmp_path / "candidate.jsonl"
    for source, column, out in ((rows, "summary_a", base), (shuffled[2:], "summary_b", candidate)):
        data = _file(tmp_path / f"{out.stem}.input.jsonl", source)
        argv = ["score", str(data), "--summary-column", column, "--out", str(out)]
        assert main([*argv, "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["compare", str(base), str(candidate), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["matched_by"] == "fingerprint" and found["matched"] == len(TOWNS) - 2
    assert len(found["unmatched_base"]) == 2 and found["unmatched_candidate"] == []
    worse_rows = {i + 1 for i, r in enumerate(rows) if r["summary_a"] != r["summary_b"]}
    dropped = {rows.index(r) + 1 for r in shuffled[:2]}
    assert set(found["regressed"]) == worse_rows - dropped  # the base's row numbers


def test_runs_scored_under_different_rules_are_refused_with_exit_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _file(tmp_path / "cases.jsonl", _cases())
    runs = []
    for preset in ("deepeval", "ragas"):
        out = tmp_path / f"{preset}.jsonl"
        argv = ["score", str(data), "--summary-column", "summary_a", "--preset", preset]
        assert main([*argv, "--out", str(out), "--no-progress"]) == 0
        runs.append(str(out))
    capsys.readouterr()
    assert main(["compare", *runs]) == 2
    err = capsys.readouterr().err
    assert "scored differently" in err and "preset: deepeval (base) vs ragas (candidate)" in err
    assert main(["compare", *runs, "--allow-different"]) == 0
    assert "allowed difference in settings: preset" in capsys.readouterr().out


def test_bad_inputs_to_compare_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = _file(
        tmp_path / "r.jsonl", [{"id": "a", "score": 0.5, "reason": None, "error": None}]
    )
    assert main(["compare", str(tmp_path / "missing.jsonl"), str(results)]) == 2
    assert "no such file" in capsys.readouterr().err
    other = _file(tmp_path / "other.jsonl", [{"name": "not results"}])
    assert main(["compare", str(other), str(results)]) == 2
    assert "not a summscore results file" in capsys.readouterr().err
    assert main(["compare", str(results)]) == 2  # one run, one column
    mine = tmp_path / "mine.html"
    mine.write_text("<p>my notes</p>", encoding="utf-8")
    assert main(["compare", str(results), str(results), "--report", str(mine)]) == 2
    assert mine.read_text(encoding="utf-8") == "<p>my notes</p>"
    assert main(["compare", str(results), str(results), "--min-effect", "-1"]) == 2
    assert main(["compare", str(results), str(results), "--resamples", "0"]) == 2


def test_score_gates_exit_1_and_failed_rows_exit_3_even_when_a_gate_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _file(tmp_path / "cases.jsonl", _cases())
    out = tmp_path / "out.jsonl"
    common = [
        "score",
        str(data),
        "--summary-column",
        "summary_a",
        "--out",
        str(out),
        "--no-progress",
    ]
    assert main([*common, "--fail-under", "0.5", "--min-pass-rate", "0.9"]) == 0
    assert "gate passed: mean score" in capsys.readouterr().err
    assert main([*common, "--fail-under", "0.99"]) == 1
    assert "gate failed: mean score 0.744 is below --fail-under 0.99" in capsys.readouterr().err
    assert main([*common, "--min-pass-rate", "1"]) == 0
    assert main([*common, "--min-pass-rate", "90"]) == 2
    assert "for 90%, write 0.9" in capsys.readouterr().err
    broken = _file(
        tmp_path / "broken.jsonl",
        [*_cases()[:12], {"id": "x", "source": "Rain.", "summary_a": " "}],
    )
    failing = [
        "score",
        str(broken),
        "--summary-column",
        "summary_a",
        "--out",
        str(out),
        "--no-progress",
    ]
    assert main(failing) == 3
    assert main([*failing, "--min-pass-rate", "1"]) == 3  # rows failed and the gate failed
    assert "gate failed: pass rate" in capsys.readouterr().err
    ab = ["score", str(data), "--summary-column", "summary_a,summary_b", "--no-progress"]
    assert main([*ab, "--out", "-"]) == 2
    assert "need a results file" in capsys.readouterr().err


def test_an_ab_run_resumes_by_id_and_summary_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _file(tmp_path / "ab.jsonl", _cases())
    out = tmp_path / "ab.results.jsonl"
    # (column names match as the file spells them, in any letter case)
    argv = ["score", str(data), "--summary-column", "Summary_A, summary_b", "--out", str(out)]
    assert main([*argv, "--limit", "5", "--no-progress"]) == 0
    assert (tmp_path / "ab.results.jsonl.summary_a-vs-summary_b.compare.html").exists()
    assert len(_jsonl(out)) == 10
    capsys.readouterr()
    assert main([*argv, "--resume", "--no-progress"]) == 0
    assert "10 rows kept from the earlier run" in capsys.readouterr().err
    rows = _jsonl(out)
    keys = [(r["id"], r["summary_column"]) for r in rows]
    assert len(keys) == len(set(keys)) == 2 * len(TOWNS)


def test_a_summary_column_named_with_a_comma_is_read_whole(tmp_path: Path) -> None:
    rows = [{"id": r["id"], "source": r["source"], "tl, dr": r["summary_a"]} for r in _cases()[:3]]
    data = _file(tmp_path / "comma.jsonl", rows)
    out = tmp_path / "out.jsonl"
    argv = ["score", str(data), "--summary-column", "tl, dr", "--out", str(out), "--no-progress"]
    assert main(argv) == 0
    assert {r["summary_column"] for r in _jsonl(out)} == {"tl, dr"}
