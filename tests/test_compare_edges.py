"""``summscore compare`` and the gates at the edges CI meets: results in memory without ids,
rows that are not results, empty results files, a closed standard output, too few resamples, a
gate that could never fail, and the lines a CI log shows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from summscore import SummaryResult, SummaryResults
from summscore.cli import main
from summscore.comparison import compare
from tests.result_rows import result_record

ROOT = Path(__file__).resolve().parents[1]


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _runs(tmp_path: Path, n: int = 20, drop: float = 0.3, noise: float = 0.0) -> tuple[str, str]:
    base = [result_record(f"c{i}", 0.5 + (i % 5) / 10) for i in range(n)]
    candidate = [
        {**r, "score": r["score"] - drop + (noise if i % 2 else -noise)} for i, r in enumerate(base)
    ]
    return str(_write(tmp_path / "base.jsonl", base)), str(
        _write(tmp_path / "candidate.jsonl", candidate)
    )


def test_results_in_memory_without_ids_are_matched_by_place_and_say_so() -> None:
    # score_many gives a case without an id its place in the batch: two batches in another
    # order pair the wrong cases, which the comparison must not present as matched by id.
    def result(place: int, score: float) -> SummaryResult:
        return SummaryResult(
            id=place, score=score, preset="deepeval", prompt_set="none", judge="lexical",
            threshold=0.5,
        )  # fmt: skip

    scores = [0.3 + i / 40 for i in range(12)]
    base = SummaryResults(result(i, s) for i, s in enumerate(scores))
    candidate = SummaryResults(result(i, s) for i, s in enumerate(reversed(scores)))
    comparison = compare(base, candidate)
    assert comparison.matched_by == "row number"
    assert any("give each case an id" in note for note in comparison.notes)
    named = SummaryResults(r.model_copy(update={"id": f"case-{r.id}"}) for r in base)
    assert compare(named, named).matched_by == "id" and not compare(named, named).notes


def test_rows_that_are_not_results_are_refused_naming_the_missing_score() -> None:
    rows = [{"id": f"c{i}", "source": "Rain fell.", "summary": "It rained."} for i in range(3)]
    with pytest.raises(ValueError, match="no 'score' column; columns: 'id', 'source'"):
        compare(rows, rows)
    pd = pytest.importorskip("pandas")
    with pytest.raises(ValueError, match="not summscore results"):
        compare(pd.DataFrame(rows), [result_record("c0", 0.5)])


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_an_empty_results_file_is_refused_not_passed_by_the_gate(
    tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # An empty or cut-off candidate (a pipeline that wrote nothing) must fail CI, not pass
    # --fail-if-worse as "too few cases".
    base, _ = _runs(tmp_path)
    empty = tmp_path / f"empty{suffix}"
    if suffix == ".csv":
        empty.write_text("id,score,error\n", encoding="utf-8")
    elif suffix == ".parquet":
        pa = pytest.importorskip("pyarrow")
        import pyarrow.parquet as pq

        pq.write_table(pa.table({"id": pa.array([], pa.string()), "score": []}), empty)
    else:
        empty.write_text("", encoding="utf-8")
    assert main(["compare", base, str(empty), "--fail-if-worse"]) == 2
    assert "holds no results" in capsys.readouterr().err


@pytest.mark.parametrize("json_output", [False, True])
def test_a_closed_standard_output_exits_4_without_a_traceback(
    tmp_path: Path, json_output: bool
) -> None:
    # `summscore compare ... | head`: a traceback's exit status 1 would read as "gate failed".
    base, candidate = _runs(tmp_path, drop=0.0)
    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written
    command = [sys.executable, "-m", "summscore", "compare", base, candidate, "--fail-if-worse"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    try:
        done = subprocess.run(
            command + (["--json"] if json_output else []),
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            timeout=120,
        )
    finally:
        os.close(write)
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert done.returncode == 4, done.stderr
    assert "not printed whole" in done.stderr and "gate passed" in done.stderr


def test_too_few_resamples_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # One resample makes the interval the mean itself: any drop would read as a sure regression.
    base, candidate = _runs(tmp_path, drop=0.001, noise=0.05)  # no clear difference
    with pytest.raises(ValueError, match="resamples must be 100 or more"):
        compare(base, candidate, resamples=1)
    assert main(["compare", base, candidate, "--fail-if-worse", "--resamples", "1"]) == 2
    assert "--resamples must be 100 or more" in capsys.readouterr().err
    assert main(["compare", base, candidate, "--fail-if-worse", "--resamples", "100"]) == 0


def test_fail_if_worse_on_a_run_of_one_summary_column_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A gate that cannot fail (nothing to compare) is bad usage, not a pass.
    data = _write(
        tmp_path / "cases.jsonl",
        [{"id": "a", "source": "Rain fell on Monday.", "summary": "It rained on Monday."}],
    )
    out = tmp_path / "out.jsonl"
    command = ["score", str(data), "--out", str(out), "--no-progress", "--fail-if-worse"]
    assert main(command) == 2
    assert "needs two or more --summary-column" in capsys.readouterr().err
    assert not out.exists()  # refused before anything was scored


def test_the_lines_a_ci_log_shows_read_as_sentences(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _write(tmp_path / "b.jsonl", [result_record("a", 0.8)])
    candidate = _write(tmp_path / "c.jsonl", [result_record("a", 0.7)])
    assert main(["compare", str(base), str(candidate), "--fail-if-worse"]) == 1  # (cannot decide)
    captured = capsys.readouterr()
    assert "1 case matched by id, 1 scored in both" in captured.out
    assert "gate failed: 1 case scored in both runs, fewer than the 10" in captured.err
    assert main(["compare", str(base), str(candidate), "--fail-if-worse", "--min-paired", "0"]) == 0
    assert "gate not applied: 1 case scored in both runs is too few" in capsys.readouterr().err
    failing = _write(tmp_path / "failing.jsonl", [{"id": "a", "source": "Rain.", "summary": " "}])
    out = str(tmp_path / "out.jsonl")
    assert main(["score", str(failing), "--out", out, "--no-progress", "--fail-under", "0.5"]) == 3
    assert "gate failed: no row was scored: nothing reaches --fail-under 0.5" in (
        capsys.readouterr().err
    )
    ab = _write(
        tmp_path / "ab.jsonl",
        [
            {"id": f"r{i}", "source": "Rain fell on Monday.", "a": "It rained.", "b": "Snow."}
            for i in range(3)
        ],
    )
    command = ["score", str(ab), "--summary-column", "a,b", "--out", out, "--no-progress"]
    assert main(command) == 0
    assert "summscore: a vs b: Too few cases" in capsys.readouterr().err  # base first


def test_gzipped_results_files_compare_as_the_files_they_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # docs/compare.md: compare reads the text formats gzipped (a results file compressed after the
    # run, as a CI artifact often is); score itself writes them uncompressed.
    import gzip

    cases = tmp_path / "cases.jsonl"
    rows = [json.loads(line) for line in (ROOT / "examples" / "ab.jsonl").read_text().splitlines()]
    _write(cases, [{"id": r["id"], "source": r["source"], "summary": r["summary_a"]} for r in rows])
    plain = [tmp_path / "base.jsonl", tmp_path / "candidate.csv", tmp_path / "candidate.tsv"]
    for out in plain:
        assert main(["score", str(cases), "--out", str(out), "--no-progress"]) == 0
    packed = []
    for out in plain:
        target = out.with_name(out.name + ".gz")
        target.write_bytes(gzip.compress(out.read_bytes()))
        packed.append(target)
    capsys.readouterr()

    def compared(base: Path, candidate: Path) -> dict[str, Any]:
        assert main(["compare", str(base), str(candidate), "--json"]) == 0
        found = json.loads(capsys.readouterr().out)
        return {k: v for k, v in found.items() if k not in ("base", "candidate")}

    for i in (1, 2):
        expected = compared(plain[0], plain[i])
        assert expected["paired"] == len(rows)
        assert compared(packed[0], packed[i]) == expected
