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
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

__all__ = ["Difference", "paired_bootstrap"]


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
