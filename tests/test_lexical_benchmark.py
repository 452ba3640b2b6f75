"""The factual-consistency benchmark runs on its committed sample and prints its table (the
figures themselves are not checked here: they are measured, not asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from factual_consistency import (  # noqa: E402
    balanced_accuracy,
    ngram_precision,
    roc_auc,
)


def test_the_benchmark_prints_a_row_per_dataset_and_score_on_the_sample() -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/factual_consistency.py", "--sample"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    rows = [line.split() for line in done.stdout.splitlines()]
    scored = {(r[0], r[2]) for r in rows if len(r) == 8 and r[1].isdigit()}
    datasets = {"summedits-sales_call", "summedits-sales_email", "frank-cnndm", "frank-xsum"}
    scores = {"alignment", "ragas", "deepeval", "unigram", "bigram"}
    assert scored == {(d, s) for d in datasets for s in scores}, done.stdout
    verdicts = [r for r in done.stdout.splitlines() if "judge beats" in r or "does not beat" in r]
    assert sum("the better baseline" in line for line in verdicts) == 4, done.stdout
    assert any("development sets" in line for line in done.stdout.splitlines()[-4:])
    # The acceptance rule of issue #36: the margins per cut, and the verdict.
    margins = next(line for line in done.stdout.splitlines() if line.startswith("mean margin"))
    assert all(f"{cut} " in margins for cut in ("all", "val", "test")), margins
    assert any(line.startswith("acceptance rule: ") for line in done.stdout.splitlines())
    # FRANK's graded labels give the sample a rank correlation.
    frank = [r for r in rows if len(r) == 8 and r[0] == "frank-cnndm" and r[2] == "alignment"]
    assert frank and frank[0][5] != "-", done.stdout


def test_the_baselines_are_ngram_precision_of_the_summary() -> None:
    assert ngram_precision("The U.S. economy grew 3,800 jobs.", "the us economy grew", 1) == 0.75
    assert ngram_precision("a b c", "a b x", 2) == pytest.approx(0.5)
    assert ngram_precision("a b c", "", 1) == 0.0


def test_roc_auc_counts_ties_as_half_and_balanced_accuracy_weighs_classes_equally() -> None:
    assert roc_auc([1, 0, 1, 0], [0.9, 0.1, 0.5, 0.5]) == pytest.approx(0.875)
    assert balanced_accuracy([1, 1, 1, 0], [0.9, 0.8, 0.1, 0.2], 0.5) == pytest.approx(
        (2 / 3 + 1) / 2
    )


def test_frank_labels_join_their_documents_and_give_graded_figures(tmp_path: Path) -> None:
    import json

    from factual_consistency import load_frank, measure

    folder = tmp_path / "frank" / "data"
    folder.mkdir(parents=True)
    texts = [
        {"hash": f"h{i}", "model_name": "bart", "article": "Anna won.", "summary": s}
        for i, s in enumerate(["Anna won.", "Anna lost.", "Bob won."])
    ]
    labels = [
        {"hash": f"h{i}", "model_name": "bart", "dataset": "xsum", "Factuality": f, "split": "test"}
        for i, f in enumerate(["1.0", "0.5", "0.0"])
    ]
    (folder / "benchmark_data.json").write_text(json.dumps(texts))
    (folder / "human_annotations.json").write_text(json.dumps(labels))
    pairs = list(load_frank(tmp_path))
    assert [(p.dataset, p.label, p.graded) for p in pairs] == [
        ("frank-xsum", 1, 1.0),
        ("frank-xsum", 0, 0.5),
        ("frank-xsum", 0, 0.0),
    ]
    figures = measure(pairs, [0.9, 0.4, 0.1])
    assert figures["spearman"] == pytest.approx(1.0) and figures["auc"] == 1.0


def test_the_cascade_table_counts_llm_calls_against_the_llm_alone() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "benchmarks/factual_consistency.py",
            "--sample",
            "--only",
            "alignment",
            "--datasets",
            "summedits-sales_email",
            "--limit",
            "6",
            "--cascade",
            "0.8",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    (row,) = [line.split() for line in done.stdout.splitlines() if line.startswith("summedits")][1:]
    pairs, alone, cascade = int(row[1]), int(row[2]), int(row[3])
    assert pairs == 6 and 0 < cascade <= alone


def test_the_margin_is_the_judge_minus_the_better_baseline_per_cut() -> None:
    from factual_consistency import Pair
    from fc_stats import cut_margin, primary

    def pair(label: int, cut: str, graded: float | None = None) -> Pair:
        return Pair("set", "id", "source", "summary", label, graded=graded, cut=cut)

    pairs = [pair(1, "val"), pair(0, "val"), pair(1, "test"), pair(0, "test")]
    judge = [0.9, 0.1, 0.2, 0.8]  # ranks the validation cut right, the test cut wrong
    baselines = {"unigram": [0.5, 0.5, 0.5, 0.5], "bigram": [0.1, 0.9, 0.9, 0.1]}
    sets = {"set": [0, 1, 2, 3]}
    assert cut_margin(pairs, judge, baselines, sets, "val") == pytest.approx(1.0 - 0.5)
    assert cut_margin(pairs, judge, baselines, sets, "test") == pytest.approx(0.0 - 1.0)
    # Graded labels are judged on Spearman correlation.
    graded = [pair(1, "val", 1.0), pair(0, "val", 0.5), pair(0, "val", 0.0)]
    assert primary(graded, [0.3, 0.2, 0.1]) == pytest.approx(1.0)
