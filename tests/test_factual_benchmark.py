"""The factual-consistency benchmark: FRANK's first per-article layout, the reference metrics its
authors published, the per-dataset speed and the final count of sets the judge wins."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from compat.judge_server import JudgeServer  # noqa: E402
from factual_consistency import (  # noqa: E402
    DEVELOPMENT_SETS,
    Pair,
    cascade_report,
    load_frank,
    measure,
    missing_sets,
    report,
)


def _frank_first_layout(root: Path) -> None:
    """FRANK as its repository first published it: one file per document, each system's summary
    under the system's name (and its sentences under "<name>_lines")."""
    folder = root / "frank" / "data"
    (folder / "articles-wmetrics-reference-json").mkdir(parents=True)
    article = {
        "hash": "h1",
        "article": "Anna won the race in Paris.",
        "bart": "anna won the race .",
        "bart_lines": ["anna won the race ."],
        "pgn": "anna lost the race in rome .",
        "pgn_lines": ["anna lost the race in rome ."],
        "model_names": ["bart_lines", "pgn_lines"],
    }
    xsum = {
        "hash": "42",
        "article": "Bob met Carol in Oslo.",
        "BERTS2S": "bob met carol in oslo .",
        "model_names": ["BERTS2S_lines"],
    }
    for row in (article, xsum):
        path = folder / "articles-wmetrics-reference-json" / f"{row['hash']}.json"
        path.write_text(json.dumps(row), encoding="utf-8")
    labels = [
        {"hash": "h1", "model_name": "bart", "dataset": "cnndm", "Factuality": "1.0"},
        {"hash": "h1", "model_name": "pgn", "dataset": "cnndm", "Factuality": "0.5"},
        {"hash": "42", "model_name": "BERTS2S", "dataset": "bbc", "Factuality": "1.0"},
        {"hash": "h1", "model_name": "s2s", "dataset": "cnndm", "Factuality": "0.0"},  # no text
    ]
    for row in labels:
        row["split"] = "test"
    (folder / "human_annotations.json").write_text(json.dumps(labels), encoding="utf-8")
    published = [
        {"hash": "h1", "model_name": "bart", "QAGS": "0.9", "FEQA": "0.5", "FactCC": "1.0"},
        {"hash": "h1", "model_name": "pgn", "QAGS": "0.2", "FEQA": "", "FactCC": "0.0"},
    ]
    (folder / "baseline_factuality_metrics_outputs.json").write_text(
        json.dumps(published), encoding="utf-8"
    )


def test_frank_reads_its_first_per_article_layout_with_the_published_metric_scores(
    tmp_path: Path,
) -> None:
    _frank_first_layout(tmp_path)
    pairs = {p.id: p for p in load_frank(tmp_path)}
    assert set(pairs) == {"h1:bart", "h1:pgn", "42:BERTS2S"}  # a label without text is left out
    pgn = pairs["h1:pgn"]
    assert (pgn.dataset, pgn.source, pgn.summary) == (
        "frank-cnndm",
        "Anna won the race in Paris.",
        "anna lost the race in rome .",
    )
    assert (pgn.label, pgn.graded) == (0, 0.5)
    assert pairs["42:BERTS2S"].dataset == "frank-xsum"  # FRANK calls its XSum part "bbc"
    # A metric with no usable value for a pair is not claimed for it.
    assert dict(pgn.published) == {"pub:QAGS": 0.2, "pub:FactCC": 0.0}
    assert pairs["42:BERTS2S"].published == ()


def test_benchmark_data_json_wins_over_the_per_article_layout(tmp_path: Path) -> None:
    _frank_first_layout(tmp_path)
    texts = [{"hash": "h1", "model_name": "bart", "article": "Doc.", "summary": "Sum."}]
    (tmp_path / "frank" / "data" / "benchmark_data.json").write_text(json.dumps(texts))
    assert [(p.id, p.source) for p in load_frank(tmp_path)] == [("h1:bart", "Doc.")]


def _pairs(name: str, labels: list[int], graded: list[float] | None = None) -> list[Pair]:
    # The consistent summaries copy the source; the others invent words the source lacks.
    return [
        Pair(
            name,
            str(i),
            "The council approved the new budget of 3 million on Monday.",
            "The council approved the new budget."
            if y
            else "The mayor vetoed a tax cut for farmers.",
            y,
            graded=None if graded is None else graded[i],
        )
        for i, y in enumerate(labels)
    ]


def test_the_report_prints_speed_per_dataset_and_counts_the_sets_the_judge_wins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    by_set = {
        "summedits-x": _pairs("summedits-x", [1, 0, 1, 0]),
        "frank-x": _pairs("frank-x", [1, 0, 0, 1], graded=[1.0, 0.2, 0.5, 1.0]),
    }
    figures = report(by_set, {"alignment", "unigram", "bigram"})
    out = capsys.readouterr().out
    timing = [line for line in out.splitlines() if line.startswith("    time:")]
    assert len(timing) == 2 and all("pairs/s" in line for line in timing)
    rate = figures["summedits-x"]["pairs_per_second"]
    assert isinstance(rate, dict) and set(rate) == {"deepeval", "unigram", "bigram"}
    sets = [f for f in figures.values() if isinstance(f, dict) and "pairs" in f]
    wins = sum(bool(f["judge_beats_baselines"]) for f in sets)
    assert f"judge beats both baselines on {wins} of 2 development sets" in out
    assert "(Spearman " in out and "(ROC-AUC " in out  # graded sets are judged on Spearman


def test_a_set_with_one_class_only_is_left_out_of_the_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    figures = report({"s": _pairs("s", [0, 0, 0])}, {"alignment", "unigram"})
    assert "judge_beats_baselines" not in figures["s"]
    assert "development sets" not in capsys.readouterr().out
    assert math.isnan(measure(_pairs("s", [0, 0]), [0.1, 0.2])["auc"])


def test_missing_development_sets_are_named() -> None:
    assert len(DEVELOPMENT_SETS) == 16  # ten SummEdits domains, FRANK, CLIFF and Goyal'21 x 2
    found = [s for s in DEVELOPMENT_SETS if "shakespeare" not in s and "billsum" not in s]
    assert missing_sets(found) == ["summedits-billsum", "summedits-shakespeare"]


def test_the_cascade_comparison_runs_against_a_server_it_is_given_and_never_prints_the_key(
    judge_server: JudgeServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-benchmark-secret-4242")
    by_set = {"s": _pairs("s", [1, 0, 1, 0])}
    all_offline = cascade_report(by_set, 0.0, judge_server.url, "gpt-4o-mini")["s"]
    all_llm = cascade_report(by_set, 1.01, judge_server.url, "gpt-4o-mini")["s"]
    assert 0 < all_offline["cascade_llm_calls"] < all_offline["llm_calls"]
    assert all_offline["saved"] > 0
    assert all_llm["cascade_llm_calls"] == all_llm["llm_calls"] and all_llm["saved"] == 0
    assert all_llm["max_abs_moved"] == 0.0  # the same LLM answers everything
    out = capsys.readouterr().out
    assert "gpt-4o-mini at http://127.0.0.1" in out
    assert "sk-benchmark-secret-4242" not in out


def test_the_bootstrap_tells_a_real_difference_from_a_tie() -> None:
    import random

    from fc_stats import paired_bootstrap

    rng = random.Random(3)
    labels = [1] * 40 + [0] * 60
    informed = [y + rng.random() * 0.8 for y in labels]  # mostly separates the classes
    noise = [rng.random() for _ in labels]
    real = paired_bootstrap(informed, noise, labels=labels, resamples=400)
    assert real.decided and real.low > 0 and real.low <= real.value <= real.high
    same = paired_bootstrap(noise, noise, labels=labels, resamples=400)
    assert same.value == same.low == same.high == 0 and not same.decided
    assert paired_bootstrap(informed, noise, labels=labels, resamples=400) == real  # seeded


def test_the_bootstrap_keeps_both_classes_when_one_is_rare() -> None:
    """Goyal'21 CNN/DM has 2 consistent summaries in 50: a plain bootstrap draws none of them in
    about one resample in eight; a stratified one always keeps both."""
    from fc_stats import paired_bootstrap

    labels = [1, 1] + [0] * 48
    a = [0.9, 0.2] + [i / 100 for i in range(48)]
    b = [0.1, 0.95] + [i / 100 for i in range(48)]
    difference = paired_bootstrap(a, b, labels=labels, resamples=300)
    assert not math.isnan(difference.low) and difference.low < difference.value < difference.high


def test_the_bootstrap_on_graded_labels_compares_rank_correlations() -> None:
    from fc_stats import paired_bootstrap

    graded = [i / 30 for i in range(30)]
    labels = [int(g == 1) for g in graded]
    difference = paired_bootstrap(graded, graded[::-1], labels=labels, graded=graded, resamples=200)
    assert difference.value == pytest.approx(2.0) and difference.decided
