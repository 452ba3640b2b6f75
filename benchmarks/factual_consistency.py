"""Does the offline judge agree with people? Scores public human-labelled factual-consistency
data and prints, per dataset, how well each score separates or ranks what people judged.

    python benchmarks/factual_consistency.py                # the full development sets
    python benchmarks/factual_consistency.py --sample       # the small committed samples (CI)
    python benchmarks/factual_consistency.py --only alignment --limit 200 --datasets summedits
    python benchmarks/factual_consistency.py --labels mine.csv --source-column doc  # your own

``--labels`` reads your own human-labelled pairs instead (any file ``summscore score`` reads, with
a label column: 1/0, true/false, consistent/inconsistent, ...; a graded column, the set and the
cut are optional; rows that cannot be used are named and left out): see ``fc_labels.py``.

The full sets are read, unchanged, from the data folders of their repositories, checked out (or
copied) under the folder named by ``SUMMSCORE_FC_DATA`` (or ``--data``):

* ``factualNLG/data/summedits/summedits_*.json``  (salesforce/factualNLG: SummEdits, binary)
* ``frank/data/human_annotations.json`` with the documents and summaries of either
  ``frank/data/benchmark_data.json`` (artidoro/frank today) or, where that file is missing, the
  repository's first version of them, ``frank/data/articles-wmetrics-reference-json/<hash>.json``
  (commit 5860706: one document per file, each system's summary under the system's name); graded
  (the share of the summary's sentences without error) and binary (no error at all)
* ``AggreFact/data/error_type_mapping/{CLIFF,Goyal21}_error_types.csv`` (Liyan06/AggreFact:
  the CLIFF and Goyal'21 parts, binary)

For FRANK it also measures, the same way, the scores of the reference metrics its authors
published for every pair (``frank/data/baseline_factuality_metrics_outputs.json``: QAGS, FEQA,
FactCC, DAE, BERTScore precision against the article), as ``pub:*`` rows.

A fresh folder is three clones (FRANK's clone has benchmark_data.json):

    git clone https://github.com/salesforce/factualNLG "$SUMMSCORE_FC_DATA/factualNLG"
    git clone https://github.com/artidoro/frank "$SUMMSCORE_FC_DATA/frank"
    git clone https://github.com/Liyan06/AggreFact "$SUMMSCORE_FC_DATA/AggreFact"

Development sets only: the rest of AggreFact (and any other public set) is held out, never
tuned on. Scores compared: the judge's alignment score (deepeval rule), the final scores of the
ragas and deepeval rules, and two trivial baselines, unigram and bigram precision of the summary
against the source (lower-cased alphanumeric tokens). For binary labels: ROC-AUC, and balanced
accuracy at the threshold that is best on the set's validation cut, applied to its test cut; for
graded labels, Spearman and Pearson correlation. A row the scorer could not score counts as 0.
Per dataset it prints the time each scorer took and its pairs per second, and at the end how many
development sets the judge's alignment score beats both baselines on (ROC-AUC on binary sets,
Spearman on FRANK's graded labels).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from fc_stats import cut_margin, paired_bootstrap
from scipy import stats

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge

DATA = Path(__file__).resolve().parent / "data"
# The committed samples (attributed in data/ATTRIBUTION.md): SummEdits' two synthetic domains and
# a few FRANK documents with every annotated summary of each.
SAMPLES = (DATA / "factual_consistency_sample.jsonl", DATA / "frank_sample.jsonl")
SCORES = ("alignment", "ragas", "deepeval", "unigram", "bigram")
SUMMEDITS_DOMAINS = (
    "billsum",
    "ectsum",
    "news",
    "podcast",
    "qmsumm",
    "sales_call",
    "sales_email",
    "samsum",
    "scitldr",
    "shakespeare",
)
DEVELOPMENT_SETS = (
    *(f"summedits-{d}" for d in SUMMEDITS_DOMAINS),
    "frank-cnndm",
    "frank-xsum",
    "cliff-cnndm",
    "cliff-xsum",
    "goyal21-cnndm",
    "goyal21-xsum",
)
BASELINES = ("unigram", "bigram")
# The acceptance rule of issue #36: on each development set the judge is not behind the better
# baseline beyond the 95% paired bootstrap interval, and its mean margin over the better baseline
# on the validation cuts does not fall below what it was when the rule was set.
VALIDATION_FLOOR = 0.071


@dataclass(frozen=True)
class Pair:
    dataset: str
    id: str
    source: str
    summary: str
    label: int  # 1: consistent with the source, 0: not
    graded: float | None = None  # a graded human label where the set has one
    cut: str = "test"  # "val" (thresholds are tuned there) or "test"
    # Scores other systems gave this very pair, as their authors published them (FRANK only).
    published: tuple[tuple[str, float], ...] = ()


# ------------------------------------------------------------------------------------ loaders


def load_summedits(root: Path) -> Iterator[Pair]:
    for path in sorted((root / "factualNLG" / "data" / "summedits").glob("summedits_*.json")):
        domain = path.stem.removeprefix("summedits_")
        for row in json.loads(path.read_text(encoding="utf-8")):
            if str(row["label"]) not in ("0", "1"):
                continue
            yield Pair(
                f"summedits-{domain}",
                str(row["id"]),
                row["doc"],
                row["summary"],
                int(row["label"]),
                cut="val" if row.get("split") == "evaluation" else "test",
            )


FRANK_DATASETS = {"cnndm": "cnndm", "bbc": "xsum", "xsum": "xsum"}  # "bbc" is FRANK's XSum


def _frank_texts(folder: Path) -> dict[tuple[str, str], tuple[str, str]] | None:
    """(hash, model_name) -> (document, summary), from whichever form of FRANK's texts is there."""
    texts = folder / "benchmark_data.json"
    if texts.exists():
        return {
            (row["hash"], row["model_name"]): (row["article"], row["summary"])
            for row in json.loads(texts.read_text(encoding="utf-8"))
        }
    per_article = folder / "articles-wmetrics-reference-json"
    if not per_article.is_dir():
        return None
    found: dict[tuple[str, str], tuple[str, str]] = {}
    for path in sorted(per_article.glob("*.json")):
        row = json.loads(path.read_text(encoding="utf-8"))
        # Each system's summary sits under the system's name, its sentences under "<name>_lines".
        for lines in row.get("model_names") or ():
            model = str(lines).removesuffix("_lines")
            if isinstance(row.get(model), str):
                found[(str(row["hash"]), model)] = (row["article"], row[model])
    return found


# FRANK's own outputs of the metrics its paper compares (data/baseline_factuality_metrics_outputs.json)
FRANK_PUBLISHED = {
    "QAGS": "pub:QAGS",
    "FEQA": "pub:FEQA",
    "FactCC": "pub:FactCC",
    "Dep Entail": "pub:DAE",
    "BertScore P Art": "pub:BERTSc",
}


def _frank_published(folder: Path) -> dict[tuple[str, str], tuple[tuple[str, float], ...]]:
    path = folder / "baseline_factuality_metrics_outputs.json"
    if not path.exists():
        return {}
    out: dict[tuple[str, str], tuple[tuple[str, float], ...]] = {}
    for row in json.loads(path.read_text(encoding="utf-8")):
        values = []
        for field, name in FRANK_PUBLISHED.items():
            try:
                values.append((name, float(row[field])))
            except (KeyError, TypeError, ValueError):
                continue
        out[(row["hash"], row["model_name"])] = tuple(values)
    return out


def load_frank(root: Path) -> Iterator[Pair]:
    folder = root / "frank" / "data"
    labels = folder / "human_annotations.json"
    by_key = _frank_texts(folder) if labels.exists() else None
    if by_key is None:
        return
    published = _frank_published(folder)
    for row in json.loads(labels.read_text(encoding="utf-8")):
        text = by_key.get((row["hash"], row["model_name"]))
        if text is None:
            continue
        factuality = float(row["Factuality"])
        yield Pair(
            f"frank-{FRANK_DATASETS.get(row['dataset'], row['dataset'])}",
            f"{row['hash']}:{row['model_name']}",
            text[0],
            text[1],
            int(factuality == 1.0),
            graded=factuality,
            cut="val" if row.get("split") == "valid" else "test",
            published=published.get((row["hash"], row["model_name"]), ()),
        )


def load_aggrefact(root: Path) -> Iterator[Pair]:
    folder = root / "AggreFact" / "data" / "error_type_mapping"
    for name, path in (("cliff", "CLIFF_error_types.csv"), ("goyal21", "Goyal21_error_types.csv")):
        if not (folder / path).exists():
            continue
        with open(folder / path, newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                error = (row.get("error_type") or "").strip()
                yield Pair(
                    f"{name}-{row['origin']}",
                    str(row["id"]),
                    row["doc"],
                    row["summ"],
                    int(error in ("", "correct")),
                    cut="val" if row.get("cut") == "val" else "test",
                )


def load_sample(path: Path) -> Iterator[Pair]:
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            yield Pair(
                row["dataset"],
                row["id"],
                row["source"],
                row["summary"],
                int(row["label"]),
                row.get("graded"),
                row.get("cut", "test"),
            )


LOADERS: dict[str, Callable[[Path], Iterable[Pair]]] = {
    "summedits": load_summedits,
    "frank": load_frank,
    "aggrefact": load_aggrefact,
}

# ------------------------------------------------------------------------------------ scores

_ALNUM = re.compile(r"[a-z0-9]+")


def ngram_precision(source: str, summary: str, n: int) -> float:
    """Share of the summary's n-grams (lower-cased alphanumeric tokens) found in the source."""

    def grams(text: str) -> list[tuple[str, ...]]:
        tokens = _ALNUM.findall(text.lower())
        return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]

    mine = grams(summary)
    if not mine:
        return 0.0
    theirs = set(grams(source))
    return sum(1 for g in mine if g in theirs) / len(mine)


def _value(x: float | None) -> float:
    return 0.0 if x is None or math.isnan(x) else float(x)


def score_pairs(
    pairs: list[Pair], only: set[str]
) -> tuple[dict[str, list[float]], dict[str, float]]:
    """Every score of every pair, and the seconds each scorer took."""
    columns: dict[str, list[float]] = {name: [] for name in SCORES if name in only}
    seconds: dict[str, float] = {}
    if "alignment" in only or "deepeval" in only:
        scorer = SummarizationScorer(llm=LexicalJudge(), preset="deepeval")
        start = time.perf_counter()
        results = [scorer.score(p.source, p.summary) for p in pairs]
        seconds["deepeval"] = time.perf_counter() - start
        if "alignment" in columns:
            columns["alignment"] = [_value(r.alignment_score) for r in results]
        if "deepeval" in columns:
            columns["deepeval"] = [_value(r.score) for r in results]
    if "ragas" in only:
        scorer = SummarizationScorer(llm=LexicalJudge(), preset="ragas")
        start = time.perf_counter()
        columns["ragas"] = [_value(scorer.score(p.source, p.summary).score) for p in pairs]
        seconds["ragas"] = time.perf_counter() - start
    for n, name in ((1, "unigram"), (2, "bigram")):
        if name in columns:
            start = time.perf_counter()
            columns[name] = [ngram_precision(p.source, p.summary, n) for p in pairs]
            seconds[name] = time.perf_counter() - start
    return columns, seconds


# ----------------------------------------------------------------------------------- metrics


def roc_auc(labels: list[int], scores: list[float]) -> float:
    """The probability that a consistent pair outscores an inconsistent one (ties count half)."""
    ranks = stats.rankdata(scores)
    positive = [r for r, y in zip(ranks, labels, strict=True) if y == 1]
    n_pos, n_neg = len(positive), len(labels) - len(positive)
    if not n_pos or not n_neg:
        return math.nan
    return float((sum(positive) - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def balanced_accuracy(labels: list[int], scores: list[float], threshold: float) -> float:
    pos = [s >= threshold for s, y in zip(scores, labels, strict=True) if y == 1]
    neg = [s < threshold for s, y in zip(scores, labels, strict=True) if y == 0]
    if not pos or not neg:
        return math.nan
    return (sum(pos) / len(pos) + sum(neg) / len(neg)) / 2


def best_threshold(labels: list[int], scores: list[float]) -> float:
    candidates = [*sorted(set(scores)), math.inf]
    return max(candidates, key=lambda t: (balanced_accuracy(labels, scores, t), -t))


def tuned_balanced_accuracy(pairs: list[Pair], scores: list[float]) -> float:
    """Threshold tuned on the validation cut, measured on the test cut (both cuts are the set
    itself when it has no validation cut)."""
    val = [i for i, p in enumerate(pairs) if p.cut == "val"]
    test = [i for i, p in enumerate(pairs) if p.cut != "val"] or val
    val = val or test
    threshold = best_threshold([pairs[i].label for i in val], [scores[i] for i in val])
    return balanced_accuracy([pairs[i].label for i in test], [scores[i] for i in test], threshold)


def measure(pairs: list[Pair], scores: list[float]) -> dict[str, float]:
    labels = [p.label for p in pairs]
    out = {"auc": roc_auc(labels, scores), "bacc": tuned_balanced_accuracy(pairs, scores)}
    graded = [p.graded for p in pairs]
    if all(g is not None for g in graded) and len(set(scores)) > 1 and len(set(graded)) > 1:
        values = [float(g) for g in graded if g is not None]
        out["spearman"] = float(stats.spearmanr(values, scores).statistic)
        out["pearson"] = float(stats.pearsonr(values, scores).statistic)
    return out


# ------------------------------------------------------------------------------------ cascade


def cascade_report(
    by_set: dict[str, list[Pair]],
    threshold: float,
    base_url: str | None = None,
    model: str = "compat",
) -> dict[str, dict[str, float]]:
    """``judge="cascade"`` against the LLM alone, deepeval rule: LLM calls made and saved, how far
    the scores move and the ROC-AUC of each. The LLM is the compat judge server unless
    ``base_url`` names an OpenAI-compatible server (its key from ``OPENAI_API_KEY``)."""
    import contextlib

    import openai

    figures: dict[str, dict[str, float]] = {}
    with contextlib.ExitStack() as stack:
        if base_url is None:
            from compat.judge_server import JudgeServer

            base_url = stack.enter_context(JudgeServer()).url
            where, key = "the compat judge server standing in", "not-needed"
        else:
            where, key = f"{model} at {base_url}", os.environ.get("OPENAI_API_KEY", "not-needed")
        client = openai.AsyncOpenAI(base_url=base_url, api_key=key)
        print(
            f"\njudge='cascade', cascade_threshold={threshold:g}, against the LLM alone ({where})"
        )
        print(
            f"{'dataset':<22}{'pairs':>6}{'LLM calls':>10}{'cascade':>9}{'saved':>7}"
            f"{'mean |d score|':>15}{'max':>6}{'moved':>7}{'AUC LLM':>9}{'AUC cascade':>12}"
        )
        total_alone = total_cascade = 0
        for name, pairs in by_set.items():
            rows = [{"source": p.source, "summary": p.summary} for p in pairs]
            alone = SummarizationScorer(client, model=model, preset="deepeval")
            alone_results = alone.score_many(rows, progress=False)
            mixed = SummarizationScorer(
                client,
                model=model,
                preset="deepeval",
                judge="cascade",
                cascade_threshold=threshold,
            )
            mixed_results = mixed.score_many(rows, progress=False)
            llm_calls = alone.usage.judge_calls
            offline = int(getattr(mixed.judge, "offline_answers", 0))
            cascade_calls = mixed.usage.judge_calls - offline
            total_alone += llm_calls
            total_cascade += cascade_calls
            moved = [
                abs(_value(a.score) - _value(b.score))
                for a, b in zip(alone_results, mixed_results, strict=True)
            ]
            labels = [p.label for p in pairs]
            row = {
                "llm_calls": float(llm_calls),
                "cascade_llm_calls": float(cascade_calls),
                "saved": 1 - cascade_calls / llm_calls if llm_calls else 0.0,
                "mean_abs_moved": sum(moved) / len(moved),
                "max_abs_moved": max(moved),
                "share_moved": sum(1 for m in moved if m > 1e-9) / len(moved),
                "auc_llm": roc_auc(labels, [_value(r.score) for r in alone_results]),
                "auc_cascade": roc_auc(labels, [_value(r.score) for r in mixed_results]),
            }
            figures[name] = row
            print(
                f"{name:<22}{len(pairs):>6}{llm_calls:>10}{cascade_calls:>9}{row['saved']:>7.0%}"
                f"{row['mean_abs_moved']:>15.3f}{row['max_abs_moved']:>6.2f}"
                f"{row['share_moved']:>7.0%}{_fmt(row['auc_llm']):>9}{_fmt(row['auc_cascade']):>12}"
            )
            sys.stdout.flush()
        if total_alone:
            print(
                f"cascade: {total_cascade:,} LLM calls instead of {total_alone:,} "
                f"({1 - total_cascade / total_alone:.0%} saved)"
            )
    return figures


# -------------------------------------------------------------------------------------- main


def _fmt(x: float | None) -> str:
    return "   -  " if x is None or math.isnan(x) else f"{x:6.3f}"


_TIMED = {"deepeval": "judge, deepeval rule", "ragas": "judge, ragas rule"}


def _primary(figures: dict[str, float]) -> tuple[str, float]:
    """The figure a set is judged on: Spearman where people gave graded labels, else ROC-AUC."""
    if "spearman" in figures:
        return "Spearman", figures["spearman"]
    return "ROC-AUC", figures["auc"]


def report(
    by_set: dict[str, list[Pair]], only: set[str], described: str = "development sets"
) -> dict[str, dict[str, object]]:
    figures: dict[str, dict[str, object]] = {}
    verdicts: list[bool] = []
    ties = 0
    behind: list[str] = []  # sets where the judge is behind the better baseline beyond doubt
    # Every pair's judge and baseline scores, for the margins per cut.
    pooled: list[Pair] = []
    judged: list[float] = []
    baseline_scores: dict[str, list[float]] = {b: [] for b in BASELINES}
    indexes: dict[str, list[int]] = {}
    print(
        f"{'dataset':<22}{'pairs':>6} {'score':<10}{'ROC-AUC':>8}{'BAcc':>8}"
        f"{'Spearman':>9}{'Pearson':>9}{'seconds':>9}"
    )
    for name, pairs in by_set.items():
        columns, seconds = score_pairs(pairs, only)
        figures[name] = {
            "pairs": len(pairs),
            "positive": sum(p.label for p in pairs),
            "test_pairs": sum(1 for p in pairs if p.cut != "val"),
        }
        measured: dict[str, dict[str, float]] = {}
        for score, values in columns.items():
            m = measure(pairs, values)
            measured[score] = m
            spent = seconds.get("deepeval" if score == "alignment" else score, 0.0)
            figures[name][score] = {**m, "seconds": spent}
            print(
                f"{name:<22}{len(pairs):>6} {score:<10}{_fmt(m['auc']):>8}{_fmt(m['bacc']):>8}"
                f"{_fmt(m.get('spearman')):>9}{_fmt(m.get('pearson')):>9}{spent:>9.1f}"
            )
        for system in published_systems(pairs):
            values = [dict(p.published).get(system, math.nan) for p in pairs]
            if any(math.isnan(v) for v in values):
                continue
            m = measure(pairs, values)
            figures[name][system] = m
            print(
                f"{name:<22}{len(pairs):>6} {system:<10}{_fmt(m['auc']):>8}{_fmt(m['bacc']):>8}"
                f"{_fmt(m.get('spearman')):>9}{_fmt(m.get('pearson')):>9}{'-':>9}"
            )
        rates = {
            rule: len(pairs) / spent if spent > 0 else math.inf for rule, spent in seconds.items()
        }
        figures[name]["pairs_per_second"] = rates
        print(
            "    time: "
            + ", ".join(
                f"{_TIMED.get(rule, rule)} {seconds[rule]:.1f} s ({rates[rule]:,.0f} pairs/s)"
                for rule in seconds
            )
        )
        baselines = [b for b in BASELINES if b in measured]
        if "alignment" in measured and len(baselines) == len(BASELINES):
            indexes[name] = list(range(len(pooled), len(pooled) + len(pairs)))
            pooled.extend(pairs)
            judged.extend(columns["alignment"])
            for b in BASELINES:
                baseline_scores[b].extend(columns[b])
        if "alignment" in measured and baselines:
            metric, judge = _primary(measured["alignment"])
            found = {b: _primary(measured[b])[1] for b in baselines}
            better = max(
                (b for b in found if not math.isnan(found[b])), key=found.__getitem__, default=None
            )
            if math.isnan(judge) or better is None:
                continue  # one class only (a --limit cut): nothing to compare
            best = found[better]
            beats = judge > best
            verdicts.append(beats)
            difference = paired_bootstrap(
                columns["alignment"],
                columns[better],
                labels=[p.label for p in pairs],
                graded=[float(p.graded or 0) for p in pairs] if metric == "Spearman" else None,
            )
            ties += not difference.decided
            if difference.high < 0:
                behind.append(name)
            figures[name]["judge_beats_baselines"] = beats
            figures[name]["difference"] = vars(difference)
            verdict = "beats" if beats else "does not beat"
            print(
                f"{name:<22}       judge {verdict} the better baseline "
                f"({metric} {judge:.3f} vs {best:.3f} {better}; difference {difference}"
                f"{'' if difference.decided else ': a tie at 95%'})"
            )
        sys.stdout.flush()
    if verdicts:
        print(
            f"judge beats both baselines on {sum(verdicts)} of {len(verdicts)} {described} "
            f"(ROC-AUC; Spearman on graded labels); a tie at 95% (the bootstrap interval of the "
            f"difference includes 0) on {ties} of the {len(verdicts)}"
        )
    if indexes:
        margins = {
            cut: cut_margin(pooled, judged, baseline_scores, indexes, cut)
            for cut in ("all", "val", "test")
        }
        figures["margins"] = dict(margins)
        figures["behind_beyond_interval"] = list(behind)
        print(
            "mean margin over the better baseline: "
            + ", ".join(f"{cut} {_signed(value)}" for cut, value in margins.items())
        )
        floor_kept = not math.isnan(margins["val"]) and round(margins["val"], 3) >= VALIDATION_FLOOR
        where = f"on {', '.join(behind)}" if behind else "on no set"
        print(
            f"acceptance rule: behind the better baseline beyond its 95% interval {where}; "
            f"validation margin {_signed(margins['val'])} "
            f"{'>=' if floor_kept else '<'} {VALIDATION_FLOOR:+.3f}: "
            + ("kept" if floor_kept and not behind else "NOT KEPT")
        )
    return figures


def _cell(figures: dict[str, object], score: str) -> str:
    """A score's figure on a set: ROC-AUC, with Spearman's ρ where people gave graded labels."""
    m = figures.get(score)
    if not isinstance(m, dict):
        return "-"
    auc, rho = m.get("auc", math.nan), m.get("spearman")
    text = "-" if math.isnan(auc) else f"{auc:.3f}"
    return text if rho is None else f"{text} (ρ {rho:.3f})"


_CUT_NAMES = (("all", "all pairs"), ("val", "validation cuts"), ("test", "test cuts"))


def write_figures(figures: dict[str, dict[str, object]], setting: str = "") -> list[Path]:
    """The tables of the docs' offline-judge page, from this run's figures (``--figures``:
    ``docs/figures/offline-judge-*.md``): the agreement per set with the margin over the better
    baseline, and the sets' figures next to those published for reference systems
    (``fc_published.py``)."""
    import figures as docs_figures
    from fc_published import AGGREFACT_BACC, AGGREFACT_SYSTEMS, SUMMEDITS_BACC, SUMMEDITS_SYSTEMS

    sets = {k: v for k, v in figures.items() if isinstance(v, dict) and "pairs" in v}
    agreement = [
        "| set | pairs | offline judge | unigram | bigram | judge minus the better baseline "
        "(95% CI) |",
        "|---|---|---|---|---|---|",
    ]
    for name, f in sets.items():
        d = f.get("difference")
        diff = "-"
        if isinstance(d, dict) and not math.isnan(d["value"]):
            tie = "" if d["low"] > 0 or d["high"] < 0 else ", a tie"
            diff = f"{d['value']:+.3f} [{d['low']:+.3f}, {d['high']:+.3f}]{tie}"
        agreement.append(
            f"| {name} | {f['pairs']:,} | {_cell(f, 'alignment')} | {_cell(f, 'unigram')} | "
            f"{_cell(f, 'bigram')} | {diff} |"
        )
    margins = figures.get("margins")
    if isinstance(margins, dict):
        agreement += [
            "",
            "Mean margin over the better baseline: "
            + ", ".join(f"{label} {_signed(margins[cut])}" for cut, label in _CUT_NAMES)
            + ".",
        ]
    summedits = [
        "| domain | summscore offline | " + " | ".join(SUMMEDITS_SYSTEMS) + " |",
        "|---|---|" + "---|" * len(SUMMEDITS_SYSTEMS),
    ]
    for domain, published in SUMMEDITS_BACC.items():
        f = sets.get(f"summedits-{domain}", {})
        m = f.get("alignment") if isinstance(f, dict) else None
        ours = f"{100 * m['bacc']:.1f}" if isinstance(m, dict) else "(no data)"
        summedits.append(
            f"| {domain} | {ours} | " + " | ".join(f"{x:.1f}" for x in published) + " |"
        )
    aggrefact = [
        "| set (test pairs) | summscore offline | " + " | ".join(AGGREFACT_SYSTEMS) + " |",
        "|---|---|" + "---|" * len(AGGREFACT_SYSTEMS),
    ]
    for name, published in AGGREFACT_BACC.items():
        f = sets.get(name, {})
        m = f.get("alignment") if isinstance(f, dict) else None
        ours = f"{m['bacc']:.3f}" if isinstance(m, dict) else "(no data)"
        tests = f.get("test_pairs", "-") if isinstance(f, dict) else "-"
        aggrefact.append(
            f"| {name} ({tests}) | {ours} | " + " | ".join(f"{x:.3f}" for x in published) + " |"
        )
    systems = sorted({k for f in sets.values() for k in f if str(k).startswith("pub:")})
    head = [
        "set",
        "summscore offline",
        *(s.removeprefix("pub:") for s in systems),
        "unigram",
        "bigram",
    ]
    frank = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, f in sets.items():
        if name.startswith("frank"):
            frank.append(
                f"| {name} ({f['pairs']:,}) | "
                + " | ".join(_cell(f, s) for s in ("alignment", *systems, "unigram", "bigram"))
                + " |"
            )
    written = []
    for stem, lines in (
        ("offline-judge-agreement", agreement),
        ("offline-judge-summedits", summedits),
        ("offline-judge-aggrefact", aggrefact),
        ("offline-judge-frank", frank),
    ):
        command = "python benchmarks/factual_consistency.py --figures"
        written.append(docs_figures.write(stem, "\n".join(lines), command=command, setting=setting))
    return written


def _signed(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:+.3f}"


def published_systems(pairs: list[Pair]) -> list[str]:
    """The systems whose published scores every pair of the set carries (measured like ours,
    never counted as baselines)."""
    names = [name for name, _ in pairs[0].published] if pairs else []
    return [n for n in names if all(n in dict(p.published) for p in pairs)]


def missing_sets(found: Iterable[str]) -> list[str]:
    """The development sets the issue names that the data folder did not provide."""
    return sorted(set(DEVELOPMENT_SETS) - set(found))


def _write_json(path: str, figures: dict[str, object]) -> None:
    """The figures as JSON, a figure that could not be computed (one class only) as null."""

    def plain(value: object) -> object:
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return value

    text = json.dumps(plain(figures), indent=1, allow_nan=False)
    Path(path).write_text(text, encoding="utf-8")


def _read_labels(args: argparse.Namespace) -> tuple[list[Pair], list[str]]:
    """The pairs of the ``--labels`` files, and the rows left out (see fc_labels)."""
    from fc_labels import read_labelled

    from summscore.cases import check_source
    from summscore.errors import MissingExtraError
    from summscore.files.datasets import Columns, InputError

    columns = Columns(source=args.source_column, summary=args.summary_column, id=args.id_column)
    pairs: list[Pair] = []
    problems: list[str] = []
    for path in args.labels:
        try:
            rows, left_out = read_labelled(
                path,
                columns=columns,
                label_column=args.label_column,
                graded_column=args.graded_column,
                dataset_columns=args.dataset_column,
                encoding=args.encoding,
                sheet=args.sheet,
            )
        except (InputError, MissingExtraError) as exc:
            raise SystemExit(f"error: {exc}") from None
        problems.extend(left_out)
        # A source given as a list of passages is one text, joined as the scorer joins it, for
        # the judge and the baselines alike.
        pairs.extend(
            Pair(r.dataset, r.id, check_source(r.source), r.summary, r.label, r.graded, r.cut)
            for r in rows
        )
    return pairs, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=os.environ.get("SUMMSCORE_FC_DATA"))
    parser.add_argument("--sample", action="store_true", help="the small committed sample")
    parser.add_argument("--datasets", nargs="*", help="prefixes of the dataset names to run")
    parser.add_argument("--only", nargs="*", choices=SCORES, default=list(SCORES))
    parser.add_argument("--limit", type=int, help="at most this many pairs per dataset")
    parser.add_argument(
        "--cut",
        choices=("val", "test"),
        help="only the validation or only the test cut of each set (tune on val, report both)",
    )
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument(
        "--figures",
        action="store_true",
        help="also write the docs' tables to docs/figures/offline-judge-*.md",
    )
    parser.add_argument(
        "--cascade",
        type=float,
        metavar="THRESHOLD",
        help="also compare judge='cascade' at this confidence threshold with the LLM alone",
    )
    parser.add_argument(
        "--cascade-base-url",
        help="--cascade: an OpenAI-compatible server for the LLM (default: the compat judge "
        "server standing in); the key is read from OPENAI_API_KEY",
    )
    parser.add_argument("--cascade-model", default="compat", help="--cascade: the model name")
    labelled = parser.add_argument_group(
        "your own labelled pairs (instead of the development sets; see benchmarks/fc_labels.py)"
    )
    labelled.add_argument(
        "--labels",
        nargs="+",
        metavar="FILE",
        help="JSONL, JSON, CSV, TSV or Parquet files of source, summary and a human label",
    )
    labelled.add_argument("--source-column", help="--labels: the source column (default: found)")
    labelled.add_argument("--summary-column", help="--labels: the summary column (default: found)")
    labelled.add_argument("--id-column", help="--labels: the id column (default: id if present)")
    labelled.add_argument("--label-column", help="--labels: 1/0, true/false, ... (default: label)")
    labelled.add_argument("--graded-column", help="--labels: a graded label (judged on Spearman)")
    labelled.add_argument(
        "--dataset-column",
        nargs="+",
        default=(),
        metavar="COLUMN",
        help="--labels: the column(s) naming each row's set (default: dataset, else the file)",
    )
    labelled.add_argument("--encoding", default="utf-8", help="--labels: the files' encoding")
    labelled.add_argument(
        "--sheet", help="--labels: the worksheet of Excel files (where several hold data)"
    )
    args = parser.parse_args(argv)
    described = "development sets"
    if args.labels:
        pairs, problems = _read_labels(args)
        described = "labelled sets"
        for problem in problems[:20]:
            print(f"left out: {problem}")
        if len(problems) > 20:
            print(f"left out: {len(problems) - 20} more rows")
        if problems:
            print(f"{len(problems)} row(s) left out of the figures, {len(pairs)} read")
    elif args.sample:
        pairs = [pair for path in SAMPLES for pair in load_sample(path)]
    elif args.data:
        root = Path(args.data)
        pairs = [p for load in LOADERS.values() for p in load(root)]
    else:
        parser.error("no data: set SUMMSCORE_FC_DATA or pass --data DIR (or --sample)")
    by_set: dict[str, list[Pair]] = {}
    for pair in pairs:
        if args.datasets and not any(pair.dataset.startswith(d) for d in args.datasets):
            continue
        if args.cut and (pair.cut == "val") != (args.cut == "val"):
            continue
        chosen = by_set.setdefault(pair.dataset, [])
        if args.limit is None or len(chosen) < args.limit:
            chosen.append(pair)
    if not by_set:
        if args.labels:
            parser.error(
                "no labelled pair left to score (see the rows left out, --cut, --datasets)"
            )
        parser.error("no pairs found: see the docstring for the expected folder layout")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)  # before the run, not after
    absent = [] if args.sample or args.labels or args.datasets else missing_sets(by_set)
    if absent:
        print(f"not in the data folder (no figure): {', '.join(absent)}")
    start = time.perf_counter()
    figures = report(dict(sorted(by_set.items())), set(args.only), described)
    print(f"total {sum(map(len, by_set.values()))} pairs in {time.perf_counter() - start:.0f} s")
    if args.json:
        _write_json(args.json, figures)
    if args.figures:
        setting = f"{sum(map(len, by_set.values())):,} development pairs"
        for path in write_figures(figures, setting):
            print(f"wrote {path}")
    if args.cascade is not None:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # compat/
        moved = cascade_report(
            dict(sorted(by_set.items())), args.cascade, args.cascade_base_url, args.cascade_model
        )
        if args.json:
            figures["cascade"] = {"threshold": args.cascade, **moved}
            _write_json(args.json, figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
