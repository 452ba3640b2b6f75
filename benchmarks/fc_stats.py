"""How sure is a "beats" or "does not beat"? A paired bootstrap of the difference between two
scores' agreement with people, over the same pairs.

On a development set of 50 pairs with 2 consistent summaries, or one where every metric's
correlation is near zero, the sign of "judge minus baseline" can flip with a handful of pairs.
The interval says when it is a tie: it is printed beside each verdict, never used to change it.

Binary labels are resampled within each class (a stratified bootstrap: every resample keeps the
set's consistent and inconsistent counts, so ROC-AUC is always defined); graded labels are
resampled as pairs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from scipy import stats

__all__ = ["Difference", "cut_margin", "mean_margin", "paired_bootstrap", "primary"]


@dataclass(frozen=True)
class Difference:
    """``a`` minus ``b`` on the full set, and the 95% bootstrap interval of that difference."""

    value: float
    low: float
    high: float

    @property
    def decided(self) -> bool:
        """True when the interval leaves out 0: one score is better, not a tie."""
        return self.low > 0 or self.high < 0

    def __str__(self) -> str:
        return f"{self.value:+.3f}, 95% CI [{self.low:+.3f}, {self.high:+.3f}]"


def _auc(labels: np.ndarray, scores: np.ndarray) -> float:
    ranks = stats.rankdata(scores)
    positive = labels == 1
    n_pos = int(positive.sum())
    n_neg = len(labels) - n_pos
    if not n_pos or not n_neg:
        return math.nan
    return float((ranks[positive].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def _spearman(graded: np.ndarray, scores: np.ndarray) -> float:
    x, y = stats.rankdata(graded), stats.rankdata(scores)
    if x.std() == 0 or y.std() == 0:
        return math.nan
    return float(np.corrcoef(x, y)[0, 1])


def paired_bootstrap(
    a: Sequence[float],
    b: Sequence[float],
    *,
    labels: Sequence[int],
    graded: Sequence[float] | None = None,
    resamples: int = 2000,
    seed: int = 0,
) -> Difference:
    """ROC-AUC(a) - ROC-AUC(b) on binary ``labels``, or Spearman(a) - Spearman(b) against
    ``graded`` labels when given, with its 95% percentile interval over ``resamples`` paired
    resamples (the same pairs drawn for both scores). Deterministic for a given ``seed``."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    binary = np.asarray(labels, dtype=int)
    if not len(x) == len(y) == len(binary):
        raise ValueError("a, b and labels must have one entry per pair")
    rng = np.random.default_rng(seed)
    if graded is not None:
        target = np.asarray(graded, dtype=float)

        def metric(idx: np.ndarray, s: np.ndarray) -> float:
            return _spearman(target[idx], s[idx])

        def draw() -> np.ndarray:
            return rng.integers(0, len(x), len(x))

    else:
        pos, neg = np.flatnonzero(binary == 1), np.flatnonzero(binary == 0)

        def metric(idx: np.ndarray, s: np.ndarray) -> float:
            return _auc(binary[idx], s[idx])

        def draw() -> np.ndarray:
            return np.concatenate((rng.choice(pos, len(pos)), rng.choice(neg, len(neg))))

    everything = np.arange(len(x))
    value = metric(everything, x) - metric(everything, y)
    diffs = [metric(idx, x) - metric(idx, y) for idx in (draw() for _ in range(resamples))]
    kept = np.array([d for d in diffs if not math.isnan(d)])
    if math.isnan(value) or not len(kept):
        return Difference(math.nan, math.nan, math.nan)
    low, high = np.percentile(kept, [2.5, 97.5])
    return Difference(float(value), float(low), float(high))


class _Labelled(Protocol):
    label: int
    graded: float | None
    cut: str


def primary(pairs: Sequence[_Labelled], scores: Sequence[float]) -> float:
    """The figure a set is judged on: Spearman correlation where people gave graded labels to
    every pair, else ROC-AUC (NaN where one class only leaves nothing to rank)."""
    s = np.asarray(scores, dtype=float)
    if pairs and all(p.graded is not None for p in pairs):
        return _spearman(np.asarray([float(p.graded or 0) for p in pairs]), s)
    return _auc(np.asarray([p.label for p in pairs], dtype=int), s)


def cut_margin(
    pairs: Sequence[_Labelled],
    scores: Sequence[float],
    baselines: Mapping[str, Sequence[float]],
    sets: Mapping[str, Sequence[int]],
    cut: str = "all",
) -> float:
    """The mean, over the sets (``sets``: name -> indexes of its pairs), of the judge's figure
    (:func:`primary`) minus the better baseline's, on the validation cut (``cut="val"``), the
    test cut (``"test"``) or every pair (``"all"``). Sets where a figure is undefined on that cut
    are left out."""
    found: list[float] = []
    for index in sets.values():
        chosen = [i for i in index if cut == "all" or (pairs[i].cut == "val") == (cut == "val")]
        if not chosen:
            continue
        subset = [pairs[i] for i in chosen]
        judge = primary(subset, [scores[i] for i in chosen])
        rivals = [primary(subset, [b[i] for i in chosen]) for b in baselines.values()]
        rivals = [r for r in rivals if not math.isnan(r)]
        if math.isnan(judge) or not rivals:
            continue
        found.append(judge - max(rivals))
    return sum(found) / len(found) if found else math.nan


def _figure(graded: bool, truth: np.ndarray, values: np.ndarray) -> float:
    return _spearman(truth, values) if graded else _auc(truth.astype(int), values)


def mean_margin(
    pairs: Sequence[_Labelled],
    scores: Sequence[float],
    rivals: Mapping[str, Sequence[float]],
    sets: Mapping[str, Sequence[int]],
    *,
    cut: str = "all",
    resamples: int = 1000,
    seed: int = 0,
) -> Difference:
    """:func:`cut_margin` (the mean over the sets of ``scores``' figure minus the best of
    ``rivals``'), with its 95% bootstrap interval: each resample draws every set's pairs again
    (within each class on binary labels, as :func:`paired_bootstrap` does), the same pairs for
    ``scores`` and every rival. Deterministic for a given ``seed``."""
    value = cut_margin(pairs, scores, rivals, sets, cut)
    rng = np.random.default_rng(seed)
    s = np.asarray(scores, dtype=float)
    r = [np.asarray(v, dtype=float) for v in rivals.values()]
    prepared = []
    for index in sets.values():
        chosen = np.asarray(
            [i for i in index if cut == "all" or (pairs[i].cut == "val") == (cut == "val")],
            dtype=int,
        )
        if not len(chosen):
            continue
        graded = all(pairs[i].graded is not None for i in chosen)
        target = np.asarray(
            [float(pairs[i].graded or 0) if graded else pairs[i].label for i in chosen]
        )
        labels = np.asarray([pairs[i].label for i in chosen], dtype=int)
        prepared.append((chosen, graded, target, np.flatnonzero(labels == 1), labels))
    means = []
    for _ in range(resamples):
        found = []
        for chosen, graded, target, positive, labels in prepared:
            if graded:
                draw = rng.integers(0, len(chosen), len(chosen))
            else:
                negative = np.flatnonzero(labels == 0)
                draw = np.concatenate(
                    (rng.choice(positive, len(positive)), rng.choice(negative, len(negative)))
                    if len(positive) and len(negative)
                    else (np.arange(len(chosen)),)
                )
            truth = target[draw] if graded else labels[draw]
            mine = _figure(graded, truth, s[chosen[draw]])
            others = [_figure(graded, truth, v[chosen[draw]]) for v in r]
            others = [x for x in others if not math.isnan(x)]
            if not math.isnan(mine) and others:
                found.append(mine - max(others))
        if found:
            means.append(sum(found) / len(found))
    if math.isnan(value) or not means:
        return Difference(math.nan, math.nan, math.nan)
    low, high = np.percentile(means, [2.5, 97.5])
    return Difference(float(value), float(low), float(high))
