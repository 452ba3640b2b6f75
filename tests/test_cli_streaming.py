"""The command streams: rows read no further ahead than one window, results written as they
finish, statistics kept without per-row lists; the memory benchmark keeps running."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from summscore import SummarizationScorer
from summscore.files.datasets import Row
from summscore.files.job import RunSink
from summscore.files.run_stats import RunningSummary
from summscore.files.window import score_windows
from summscore.judges import LexicalJudge
from summscore.results.stats import describe
from tests.result_rows import ListWriter, NoProgress

ROOT = Path(__file__).resolve().parent.parent


def test_rows_are_read_no_further_ahead_than_one_window_and_written_in_order() -> None:
    read = 0
    written_when_read: list[int] = []
    writer = ListWriter()

    def rows() -> Iterator[Row]:
        nonlocal read
        for i in range(100):
            read += 1
            written_when_read.append(len(writer.records))
            if i % 7 == 3:
                yield Row(id=i, error=f"line {i + 1} is broken", where=f"line {i + 1}")
            else:
                yield Row(id=i, source=f"The mill {i} closed in 1990.", summary="It closed.")

    scorer = SummarizationScorer(LexicalJudge(), max_concurrency=4)
    sink = RunSink(writer, model=None, top=1.0, keep_for_report=False)  # type: ignore[arg-type]
    asyncio.run(score_windows(scorer, rows(), sink, NoProgress(), window=10))
    assert [r["id"] for r in writer.records] == list(range(100))
    # Row k is read only once the rows of the window before it are written.
    assert all(written >= (index // 10) * 10 for index, written in enumerate(written_when_read))
    assert sink.stats.count == 100 and sink.stats.failed == len(range(3, 100, 7))


@pytest.mark.parametrize("n", [1, 2, 5, 101, 4000])
def test_running_statistics_agree_with_the_exact_ones(n: int) -> None:
    rng = random.Random(n)
    scores = [rng.random() ** 2 for _ in range(n)]
    running = RunningSummary()
    scorer = SummarizationScorer(LexicalJudge())
    for value in scores:
        result = scorer.failed_result(ValueError("x")).model_copy(
            update={"score": value, "error": None}
        )
        running.add(result)
    running.add(scorer.failed_result(ValueError("line 9 (id 'z'): summary cannot be empty")))
    exact, approx = describe([*scores, None]), running.summary()
    assert (approx.count, approx.scored, approx.failed) == (exact.count, exact.scored, exact.failed)
    for name in ("mean", "std", "minimum", "p25", "median", "p75", "maximum"):
        assert getattr(approx, name) == pytest.approx(getattr(exact, name), abs=2e-5), name
    assert running.causes == {"summary cannot be empty": 1}


def test_the_memory_benchmark_runs_and_prints_the_ratio() -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/cli_memory.py", "--sizes", "30,60"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines[2:4]] == ["30", "60"]
    assert lines[-1].startswith("peak RSS ratio 60 / 30 rows: ")


@pytest.mark.parametrize(
    ("errors", "cause"),
    [
        (
            [
                "ValueError: line 3 (id 'x'): summary is required: a string, got None",
                "ValueError: line 4 (id 'Smith (2020) review'): summary is required: a string, "
                "got None",
                'ValueError: line 5 (id "it\'s (1)"): summary is required: a string, got None',
            ],
            "summary is required: a string, got None",
        ),
        (
            [
                "ValueError: line 12 (id 'a7'): column 'source' has bytes that are not valid "
                "utf-8 (byte 0xe9 at character 31); pass --encoding",
                "ValueError: line 40 (id 'b9'): column 'source' has bytes that are not valid "
                "utf-8 (byte 0x92 at character 7); pass --encoding",
            ],
            "column 'source' has bytes that are not valid utf-8; pass --encoding",
        ),
        (
            ["ValueError: row 5 (id 'f1'): column 'Summary (model A)' holds the Excel error #N/A"],
            "column 'Summary (model A)' holds the Excel error #N/A",
        ),
        # A column name with a number in it is the user's, quoted or not.
        (
            [
                "ValueError: line 2: no summary (column 'summary (v2)' is missing from this row)",
                "ValueError: line 9: no summary (column 'summary (v2)' is missing from this row)",
            ],
            "no summary (column 'summary (v2)' is missing from this row)",
        ),
        (
            ["ValueError: line 2: no summary (column '2024' is missing from this row)"],
            "no summary (column '2024' is missing from this row)",
        ),
        (
            ["ValueError: line 4: summary (v2) cannot be empty or whitespace only"],
            "summary (v2) cannot be empty or whitespace only",
        ),
        # A judge's message without an exception name is a whole phrase too.
        (
            [
                "the judge generated no questions from the source (12 keyphrases), so the QA "
                "score is undefined",
                "the judge generated no questions from the source (3 keyphrases), so the QA "
                "score is undefined",
            ],
            "the judge generated no questions from the source, so the QA score is undefined",
        ),
    ],
)
def test_failures_of_one_kind_share_one_whole_cause_whatever_their_rows(
    errors: list[str], cause: str
) -> None:
    running = RunningSummary()
    for error in errors:
        running.add_values(None, error, {})
    assert running.causes == {cause: len(errors)}
