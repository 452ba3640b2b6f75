"""The throughput benchmarks keep running (tiny sizes; the figures are not checked here)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from .test_benchmarks import _run

ROOT = Path(__file__).resolve().parent.parent


def test_throughput_prints_one_table_per_shape_with_the_bound() -> None:
    out = _run(
        "benchmarks/throughput.py", "--shapes", "2x2", "--latency", "0.01", "--only", "summscore"
    )
    assert "| summscore ragas |" in out and "| summscore deepeval |" in out
    assert "bound (deepeval rule)" in out


def test_lexical_workers_gives_the_same_numbers_on_two_workers() -> None:
    out = _run("benchmarks/lexical_workers.py", "--rows", "8", "--workers", "2")
    assert "| 2 |" in out and "NO" not in out


# ------------------------------------------------- throughput.py --faces: the plan and the table

sys.path.insert(0, str(ROOT / "benchmarks"))
import deepeval_test_run  # noqa: E402
import loop_plan  # noqa: E402
import loop_runners  # noqa: E402
import throughput  # noqa: E402

OTHERS = ("MLflow", "Opik", "Inspect", "LangSmith", "Braintrust", "Phoenix")


def test_every_capped_loop_has_a_default_row_and_a_raised_row_against_score_many() -> None:
    groups = {g.loop.split()[0]: g for g in loop_plan.groups(80)}
    assert set(groups) == {"ragas", "deepeval", *OTHERS}
    for name in ("ragas", "deepeval"):  # their own summarization metric, at the loop's default
        assert [(p.knob, p.face) for p in groups[name].pairs] == [(loop_plan.DEFAULT, "face")]
    for name in OTHERS:
        group = groups[name]
        against = {(p.knob, p.against) for p in group.pairs}
        assert (loop_plan.DEFAULT, "score_many") in against, name
        assert (loop_plan.RAISED, "score_many") in against, name
        for pair in group.pairs:  # each row's two systems run in the group, interleaved
            assert {pair.face, pair.other, "score_many"} <= set(group.systems), name
            if pair.against != "score_many" and name != "Phoenix":  # an own judge: knob raised
                assert pair.knob == loop_plan.RAISED and pair.face == "face, knob raised"
            # the loop alone runs with the face's own setting
            alone = "loop alone" if pair.knob == loop_plan.DEFAULT else "loop alone, knob raised"
            assert pair.alone == alone and alone in group.systems, name
    assert {n for n in OTHERS if len(groups[n].pairs) == 3} == {
        "MLflow",
        "Opik",
        "Braintrust",
        "Phoenix",
    }


def test_the_raised_knob_holds_every_row_at_once_up_to_score_manys_pool() -> None:
    assert loop_plan.rows_at_once(80) == 80
    assert loop_plan.rows_at_once(5000) == 512  # 8 rows per request x the ceiling of 64


def test_an_environment_knob_is_put_back_after_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MLFLOW_GENAI_EVAL_MAX_WORKERS", raising=False)
    monkeypatch.setenv("SUMMSCORE_BENCH_KNOB", "7")
    with loop_runners._env(MLFLOW_GENAI_EVAL_MAX_WORKERS=80, SUMMSCORE_BENCH_KNOB=None):
        assert os.environ["MLFLOW_GENAI_EVAL_MAX_WORKERS"] == "80"
        assert os.environ["SUMMSCORE_BENCH_KNOB"] == "7"  # None: the default, untouched
    assert "MLFLOW_GENAI_EVAL_MAX_WORKERS" not in os.environ
    with pytest.raises(RuntimeError), loop_runners._env(SUMMSCORE_BENCH_KNOB=3):
        raise RuntimeError
    assert os.environ["SUMMSCORE_BENCH_KNOB"] == "7"


class _Server:
    url = "http://127.0.0.1:9"

    def stats(self) -> tuple[int, int]:
        return (0, 0)


def test_a_groups_systems_run_interleaved_the_order_rotating_each_repeat() -> None:
    ran: list[str] = []

    def runner(name: str) -> loop_runners.Runner:
        def run(url: str, cases: list[Any]) -> int:
            if len(cases) > 2:  # the timed run, not the untimed set-up
                ran.append(name)
            return 0

        return run

    group = loop_plan.Group("x", "k=", {n: runner(n) for n in ("a", "b", "c")}, [])
    runs = throughput.run_group(_Server(), group, throughput.make_cases(1, 3), 3)  # type: ignore[arg-type]
    assert ran == ["a", "b", "c", "b", "c", "a", "c", "a", "b"]
    assert {name: len(rows) for name, rows in runs.items()} == {"a": 3, "b": 3, "c": 3}


def _row(seconds: float, rejected: int = 0, failed: int = 0) -> throughput.Row:
    return throughput.Row("s", "", seconds, 300, rejected, 2.0, failed)


def test_a_table_row_gives_the_median_ratio_its_range_and_the_knob_it_ran_with() -> None:
    group = loop_plan.Group("LangSmith evaluate()", "max_concurrency=", {}, [])
    runs = {
        "face, knob raised": [_row(4.0, 3), _row(2.0, 1), _row(5.0, 2)],
        "score_many": [_row(2.0, 6), _row(2.0, 4), _row(4.0, 5)],
    }
    raised = loop_plan.Pair(loop_plan.RAISED, "score_many", "face, knob raised", "score_many")
    line = throughput.table_row("16 x 5", group, raised, runs, 80)
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[:4] == ["16 x 5", "LangSmith evaluate()", "max_concurrency=80", "score_many"]
    assert cells[4] == "0.80x (0.50-1.00)"  # ratios 0.5, 1.0, 0.8: score_many s / face s
    assert cells[5] == f"{2.0 / 80:.3f} / {4.0 / 80:.3f}"
    assert cells[6:] == ["5 / 2 / 5", "300 / 300", "0 / 0", "-", "-"]  # no loop alone
    default = loop_plan.Pair(loop_plan.DEFAULT, "score_many", "face, knob raised", "score_many")
    runs["score_many"][0] = throughput.Row("s", "", 2.0, 0, 0, 0.0, 80, "TimeoutError")
    line = throughput.table_row("16 x 5", group, default, runs, 80)
    assert "| default |" in line and line.endswith("80 / 0 (stopped: TimeoutError) | - | - |")


def test_the_floor_is_the_slower_of_the_loop_alone_and_score_many_or_their_cpu_together() -> None:
    group = loop_plan.Group("Inspect eval()", "max_samples=", {}, [])

    def row(seconds: float, cpu: float) -> throughput.Row:
        return throughput.Row("s", "", seconds, 300, 0, 2.0, 0, None, cpu)

    runs = {
        "face": [row(10.0, 7.0), row(8.0, 6.0), row(6.0, 5.0)],
        "score_many": [row(3.0, 0.5), row(3.0, 0.5), row(3.0, 0.5)],
        "loop alone": [row(2.0, 1.0), row(6.0, 5.0), row(4.0, 4.0)],
    }
    pair = loop_plan.Pair(loop_plan.DEFAULT, "score_many", "face", "score_many", "loop alone")
    cells = [c.strip() for c in throughput.table_row("1 x 1", group, pair, runs, 100).split("|")]
    # floors: max(2, 3, 1.5) = 3 -> 0.30; max(6, 3, 5.5) = 6 -> 0.75; max(4, 3, 4.5) -> 0.75
    assert cells[-3:-1] == [f"{4.0 / 100:.3f}", "0.75x (0.30-0.75)"]


def test_at_a_loops_default_the_floor_is_the_core_given_as_many_rows_at_a_time() -> None:
    """One row at a time (LangSmith's default), a case waits its judge rounds in turn: the floor
    is the core at one row at a time, not score_many with every row at once."""
    groups = {g.loop.split()[0]: g for g in loop_plan.groups(80)}
    held = {"MLflow": 10, "Opik": 16, "LangSmith": 1, "Phoenix": 3}
    for name in OTHERS:
        for pair in groups[name].pairs:
            if pair.knob == loop_plan.RAISED:
                assert pair.core == "score_many", name
            elif name in held:
                assert pair.core == f"core, {held[name]} rows at once", name
                assert pair.core in groups[name].systems
            else:  # no fixed number of rows (Braintrust: none; Inspect: an adaptive limit)
                assert pair.core == "score_many", name

    group = loop_plan.Group("LangSmith evaluate()", "max_concurrency=", {}, [])

    def row(seconds: float, cpu: float) -> throughput.Row:
        return throughput.Row("s", "", seconds, 300, 0, 2.0, 0, None, cpu)

    runs = {
        "face": [row(10.0, 1.0)] * 3,
        "score_many": [row(1.0, 0.5)] * 3,
        "core, 1 rows at once": [row(9.0, 0.5)] * 3,
        "loop alone": [row(0.5, 0.4)] * 3,
    }
    pair = loop_plan.Pair(
        loop_plan.DEFAULT, "score_many", "face", "score_many", "loop alone", "core, 1 rows at once"
    )
    cells = [c.strip() for c in throughput.table_row("1 x 1", group, pair, runs, 100).split("|")]
    assert cells[-2] == "0.90x (0.90-0.90)"  # 9 / 10, where score_many would say 0.10x


def test_the_core_at_a_loops_rows_never_holds_more_rows_than_that(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import asyncio

    from compat.corpus import Case

    held, most = 0, 0

    class Scorer:
        async def ascore(self, source: list[str], summary: str) -> Any:
            nonlocal held, most
            held += 1
            most = max(most, held)
            await asyncio.sleep(0.01)
            held -= 1
            return type("R", (), {"ok": summary != "bad"})()

    monkeypatch.setattr(loop_runners, "_scorer", lambda url, preset: Scorer())
    cases = [
        Case(f"c{i}", ("A source.",), "bad" if i == 4 else "A summary.", "faithful")
        for i in range(9)
    ]
    assert loop_runners.core_rows_at_once("ragas", 3)("http://127.0.0.1:9/v1", cases) == 1
    assert most == 3


def test_a_run_of_some_loops_replaces_their_rows_in_the_figure_and_keeps_the_others() -> None:
    import loop_figure

    head = "What the table shows.\n\n| shape | loop | x |\n| --- | --- | --- |\n"
    whole = loop_figure.merge(
        None,
        head + "| 1 x 1 | ragas evaluate() | a |\n| 1 x 1 | Phoenix x() | b |\n\n"
        "Shapes: 1 x 1 (1 cases).\n",
        (),
        ("1 x 1",),
    )
    assert whole.endswith(f"{', '.join(loop_figure.LOOPS)}: Shapes: 1 x 1 (1 cases).\n")
    again = loop_figure.merge(
        whole,
        head + "| 1 x 1 | Phoenix x() | B |\n\nShapes: 1 x 1 (1 cases), later.\n",
        ("phoenix",),
        ("1 x 1",),
    )
    lines = again.splitlines()
    assert lines[4:6] == ["| 1 x 1 | ragas evaluate() | a |", "| 1 x 1 | Phoenix x() | B |"]
    assert lines[-2].startswith("ragas, deepeval, mlflow,") and "phoenix" not in lines[-2]
    assert lines[-1] == "phoenix: Shapes: 1 x 1 (1 cases), later."
    # another shape: every row and note of the first kept, its rows after theirs
    more = loop_figure.merge(
        again,
        head + "| 2 x 1 | ragas evaluate() | c |\n\nShapes: 2 x 1 (2 cases).\n",
        (),
        ("2 x 1",),
    )
    assert more.splitlines()[4:7] == [*lines[4:6], "| 2 x 1 | ragas evaluate() | c |"]
    assert more.splitlines()[-3:-1] == lines[-2:]


def test_each_deepeval_run_starts_in_an_empty_directory() -> None:
    seen = []
    before = os.getcwd()
    for _ in range(2):
        with loop_runners._fresh_directory():
            seen.append((os.getcwd(), os.listdir(".")))
            Path(".deepeval").mkdir()  # what deepeval leaves behind
    assert os.getcwd() == before
    assert seen[0][0] != seen[1][0] and seen[0][1] == seen[1][1] == []


def test_the_figure_states_the_shapes_and_the_cores_and_the_run_prints_the_load() -> None:
    # The figure is included by docs/benchmarks.md: the machine, never the run's load diary.
    note = throughput.shapes_note([(16, 5), (80, 1)])
    assert note == (
        f"Shapes: 16 x 5 (80 cases), 80 x 1 (80 cases). Machine: {os.cpu_count()} cores."
    )
    assert throughput.load_note(12.04, 15.5) == "load average 12.0 at the start and 15.5 at the end"
    assert "unknown" in throughput.load_note(None, None)


def test_the_service_figure_names_the_machine_but_not_the_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import argparse

    import figures
    import serve_memory

    monkeypatch.setattr(figures, "FIGURES", tmp_path)
    (tmp_path / "service-bounds.md").write_text(
        "| a | b |\n| --- | --- |\n| SIGTERM to exit, idle | 0.3 s |\n", encoding="utf-8"
    )
    args = argparse.Namespace(server_arg=[], preset="deepeval", sources=100, only="latency")
    path = serve_memory.write_figure(args, {"small requests, alone": "p50 13 ms"})
    text = path.read_text("utf-8")
    assert "| SIGTERM to exit, idle | 0.3 s |" in text and "| small requests, alone |" in text
    assert "cores" in text and "load average" not in text


# ------------------------------------------- deepeval_test_run.py: assert_test under test run


def test_a_test_run_row_gives_ratios_calls_failures_and_agreement(tmp_path: Path) -> None:
    report = tmp_path / "junit.xml"
    report.write_text(
        '<testsuites><testsuite><testcase name="test_summary[a]" time="1.5"/>'
        '<testcase name="test_summary[b]" time="0.5"><failure message="x"/></testcase>'
        "</testsuite></testsuites>",
        encoding="utf-8",
    )
    found, seconds = deepeval_test_run.outcomes(report)
    assert found == {"test_summary[a]": "passed", "test_summary[b]": "failed"} and seconds == 2.0
    assert deepeval_test_run.outcomes(tmp_path / "none.xml")[0] == {}  # the run broke: no tests

    def run(seconds: float, tests: float, outcome_b: str, rejected: int = 0) -> Any:
        outcomes = {"test_summary[a]": "passed", "test_summary[b]": outcome_b}
        return deepeval_test_run.Run(seconds, tests, 14, rejected, 1, outcomes)

    pairs = [
        (run(20.0, 10.0, "failed", 2), run(10.0, 5.0, "failed")),
        (run(12.0, 8.0, "failed"), run(12.0, 4.0, "passed")),
        (run(15.0, 9.0, "error", 3), run(10.0, 6.0, "failed")),
    ]
    line = deepeval_test_run.table_row("2 x 1", "deepeval test run", "per test", pairs)
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[:3] == ["2 x 1", "deepeval test run", "per test"]
    assert cells[3] == "1.50x (1.00-2.00)" and cells[4] == "2.00x (1.50-2.00)"
    assert cells[5:] == ["7.500 / 5.000", "14 / 14", "2 / 0", "3 / 2", "5 of 6"]


def test_a_test_run_subprocess_reaches_no_confident_ai_and_runs_this_worktrees_code(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CONFIDENT_API_KEY", "confident-key")
    monkeypatch.setenv("DEEPEVAL_TELEMETRY_OPT_OUT", "0")
    env = deepeval_test_run.environment(tmp_path, tmp_path / "bytecode")
    assert "CONFIDENT_API_KEY" not in env and env["DEEPEVAL_TELEMETRY_OPT_OUT"] == "1"
    assert env["HOME"] == str(tmp_path) and env["DEEPEVAL_HOME"].startswith(str(tmp_path))
    assert env["PYTHONPATH"].split(os.pathsep)[0] == str(ROOT / "src")
    text = (
        deepeval_test_run.write_tests(tmp_path, "face", "module", "http://h/v1", [["s", "t"]])
    ).read_text(encoding="utf-8")
    assert "from summscore.deepeval import SummarizationMetric" in text
    assert "METRIC = make_metric()" in text and "[METRIC]" in text
    compile(text, "test_summaries.py", "exec")
