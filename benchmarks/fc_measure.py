"""The scores and figures of ``factual_consistency.py``: the trivial baselines, the offline
judge's scores per pair, ROC-AUC / balanced accuracy / correlations, and the cascade report."""

from __future__ import annotations

import math
import os
import re
import sys
import time

from fc_data import SCORES, Pair
from scipy import stats

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge

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


def _fmt(x: float | None) -> str:
    return "   -  " if x is None or math.isnan(x) else f"{x:6.3f}"
