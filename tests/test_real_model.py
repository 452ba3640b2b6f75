"""A real local model in the loop (compat/real_model.py): summscore fails no row upstream scores.

Runs only with ``pytest -m real_model`` and a model: SUMMSCORE_REAL_MODEL_GGUF (a GGUF file) and
SUMMSCORE_LLAMA_PYTHON (a python that imports llama_cpp.server). .ci/steps/real_model.sh sets
both up from PyPI packages.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.real_model

GGUF = os.environ.get("SUMMSCORE_REAL_MODEL_GGUF")
PYTHON = os.environ.get("SUMMSCORE_LLAMA_PYTHON")
PAIRS = int(os.environ.get("SUMMSCORE_REAL_MODEL_PAIRS", "6"))
BUDGET = float(os.environ.get("SUMMSCORE_REAL_MODEL_BUDGET", "1200"))  # seconds, all systems
# Which systems to run, separated by ";" (names as in compat.real_model's table); all by default.
SYSTEMS = [s for s in os.environ.get("SUMMSCORE_REAL_MODEL_SYSTEMS", "").split(";") if s.strip()]
CLI = os.environ.get("SUMMSCORE_REAL_MODEL_CLI", "1") != "0"


@pytest.mark.skipif(not (GGUF and PYTHON), reason="needs SUMMSCORE_REAL_MODEL_GGUF and _PYTHON")
def test_summscore_scores_every_row_upstream_scores_on_a_real_model() -> None:
    from compat.real_model import LlamaServer, SystemRun, run_suite, table
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
    by_name = {run.name: run for run in runs}
    for upstream, ours in (
        ("ragas (upstream)", "summscore ragas, upstream prompts"),
        ("deepeval (upstream)", "summscore deepeval, upstream prompts"),
    ):
        if upstream not in by_name or ours not in by_name:
            continue
        theirs = {o.id: o for o in by_name[upstream].outcomes}
        for outcome in by_name[ours].outcomes:
            if outcome.skipped or theirs[outcome.id].skipped:
                continue
            if theirs[outcome.id].score is not None:
                assert outcome.score is not None, (ours, outcome.id, outcome.error)
