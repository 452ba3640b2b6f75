"""The statistics of a paired comparison, in pure Python (the core depends on no numeric library).

- ``paired_bootstrap``: the mean of per-case differences with a percentile bootstrap
  interval, every resample drawing the same cases for every metric given (score, components,
  pass indicator), seeded and reproducible on any platform. The interval is Hesterberg's
  *expanded* percentile interval: its tail probability is widened by the ratio of Student's
  t to the normal quantile with ``sqrt(n / (n - 1))``, which corrects the plain percentile
  interval's known narrowness on small samples (it converges to the plain one as n grows).
- ``mcnemar_exact``: the exact (binomial) McNemar test of a change in a paired pass rate.
- ``t_quantile``, ``normal_cdf``: what the expansion needs.

Below ``MIN_CASES`` paired cases no interval is trusted to decide (the coverage measured in
``tests/test_compare_stats.py`` falls below 90% there), and the comparison says so.
"""

from __future__ import annotations

import math
import random
import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MIN_CASES",
    "MIN_RESAMPLES",
    "Interval",
    "expanded_alpha",
    "mcnemar_exact",
    "normal_cdf",
    "paired_bootstrap",
    "quantile",
    "t_cdf",
    "t_quantile",
]

MIN_CASES = 10
"""The fewest paired cases from which a comparison draws a conclusion."""

MIN_RESAMPLES = 100
"""The fewest resamples a comparison takes: fewer cannot place a 95% interval's ends (a 2.5%
tail of 40 resamples is one value; of 1, the interval is the mean itself, and any drop reads as
sure)."""

_INDEX_TYPE = next(code for code in ("I", "L") if array(code).itemsize == 4)


@dataclass(frozen=True)
class Interval:
    """A mean difference and its bootstrap interval. NaN where undefined: with no case, the
    value and both ends; with one case, the ends.

    Attributes:
        value: The mean of the paired differences (candidate minus base).
        low: The interval's lower end.
        high: The interval's upper end.
        n: The paired cases it is over.
        confidence: The interval's level (0.95: a 95% interval).
    """

    value: float
    low: float
    high: float
    n: int
    confidence: float = 0.95

    @property
    def excludes_zero(self) -> bool:
        """True when the whole interval is above 0 or below 0."""
        return self.low > 0 or self.high < 0

    def __str__(self) -> str:
        if math.isnan(self.value):
            return "n/a"
        if math.isnan(self.low):
            return f"{self.value:+.3f}"
        return f"{self.value:+.3f} [{self.low:+.3f}, {self.high:+.3f}]"


def normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny, qab, qap, qam = 1e-300, a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-15:
            break
    return h


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError(f"df must be positive, got {df}")
    tail = 0.5 * _incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (0 < p < 1)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be between 0 and 1, got {p}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(200):
        middle = (low + high) / 2.0
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


def expanded_alpha(n: int, confidence: float = 0.95) -> float:
    """The two-sided tail probability the expanded percentile interval uses for ``n`` cases:
    ``2 * Phi(-sqrt(n / (n - 1)) * t_{1 - alpha/2, n - 1})`` (Hesterberg 2015), below the nominal
    ``1 - confidence`` for small ``n`` and equal to it in the limit."""
    alpha = 1.0 - confidence
    if n < 2:
        return alpha
    t = t_quantile(1.0 - alpha / 2.0, n - 1)
    return 2.0 * normal_cdf(-math.sqrt(n / (n - 1)) * t)


def quantile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks of sorted values (numpy's default)."""
    position = (len(ordered) - 1) * q
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def paired_bootstrap(
    differences: Sequence[Sequence[float]],
    *,
    resamples: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
) -> list[Interval]:
    """The mean of each list of per-case differences with its bootstrap interval.

    Every list holds one difference per paired case, the same cases in the same order (NaN is
    refused: leave out the cases a metric lacks before, and say so); each resample draws
    ``len`` cases with replacement, the same ones for every list. The resampled means are sums of
    the differences rounded to ``_QUANTUM`` (exact integer sums, so the result does not depend
    on the order of additions); the mean itself is exact. Deterministic for a given ``seed`` on
    every platform and Python version: the cases drawn come from
    ``random.Random(seed).randbytes``, and numpy, where installed, only adds the same integers
    faster (a test holds both ways equal).
    """
    if not differences:
        return []
    n = len(differences[0])
    if any(len(d) != n for d in differences):
        raise ValueError("every list of differences must have one value per paired case")
    if resamples < 1:
        raise ValueError(f"resamples must be 1 or more, got {resamples}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    columns = [[float(v) for v in d] for d in differences]
    for column in columns:
        if not all(math.isfinite(v) for v in column):
            raise ValueError("a difference is NaN or infinite: leave such cases out first")
    means = [math.fsum(c) / n if n else math.nan for c in columns]
    if n < 2:
        return [Interval(m, math.nan, math.nan, n, confidence) for m in means]
    units = [[round(v / _QUANTUM) for v in column] for column in columns]
    sums = _resampled_sums(units, n, resamples, random.Random(seed))
    tail = expanded_alpha(n, confidence) / 2.0
    intervals = []
    for mean, found in zip(means, sums):
        found.sort()
        if found[0] == found[-1]:  # every resample alike: no spread to speak of
            low = high = mean
        else:
            low = quantile(found, tail) * _QUANTUM / n
            high = quantile(found, 1.0 - tail) * _QUANTUM / n
        intervals.append(Interval(mean, low, high, n, confidence))
    return intervals


_QUANTUM = 1e-9
"""The resolution of the differences the bootstrap adds up (scores are printed to 3 decimals)."""
_CHUNK = 1 << 22  # indices drawn at once by the numpy path (16 MB of random bytes)


def _draw(rng: random.Random, n: int, count: int) -> bytes:
    """``count`` resamples' case indices, 4 little-endian bytes each (taken modulo n: the bias is
    below n / 2**32, none that shows). Drawing k resamples at once gives the bytes of k draws."""
    return rng.randbytes(4 * n * count)


def _resampled_sums(
    units: list[list[int]], n: int, resamples: int, rng: random.Random
) -> list[list[int]]:
    """For each column, the sum of each resample's drawn values (integers, so exact)."""
    try:
        import numpy as np
    except ImportError:
        np = None  # type: ignore[assignment]
    if np is not None and _use_numpy:
        return _sums_numpy(np, units, n, resamples, rng)
    sums: list[list[int]] = [[0] * resamples for _ in units]
    for r in range(resamples):
        raw = array(_INDEX_TYPE)
        raw.frombytes(_draw(rng, n, 1))
        if sys.byteorder == "big":
            raw.byteswap()
        picked = list(map(n.__rmod__, raw))
        for k, column in enumerate(units):
            sums[k][r] = sum(map(column.__getitem__, picked))
    return sums


def _sums_numpy(
    np: Any, units: list[list[int]], n: int, resamples: int, rng: random.Random
) -> list[list[int]]:
    arrays = [np.asarray(column, dtype=np.int64) for column in units]
    sums: list[list[int]] = [[] for _ in units]
    per_chunk = max(1, _CHUNK // n)
    done = 0
    while done < resamples:
        count = min(per_chunk, resamples - done)
        picked = (np.frombuffer(_draw(rng, n, count), dtype="<u4") % n).reshape(count, n)
        for k, values in enumerate(arrays):
            sums[k].extend(int(s) for s in values[picked].sum(axis=1))
        done += count
    return sums


_use_numpy = True
"""False forces the pure-Python path (tests compare the two)."""


_EXACT_UP_TO = 1000
"""Discordant cases up to which McNemar's p-value is summed in whole numbers (beyond, in logs:
the counts' binomial coefficients grow past what is quick to add)."""


def _log_binomial_pmf(k: int, n: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2.0)


def mcnemar_exact(worse: int, better: int) -> float:
    """The two-sided exact McNemar p-value for a paired pass rate: ``worse`` cases passed in the
    base and failed in the candidate, ``better`` the other way round. Under no change each
    discordant case is a fair coin: p = min(1, 2 P(X <= min(worse, better))), X ~ Bin(worse +
    better, 1/2). 1.0 when no case changed."""
    if worse < 0 or better < 0:
        raise ValueError("counts cannot be negative")
    n = worse + better
    if n == 0:
        return 1.0
    k = min(worse, better)
    if n <= _EXACT_UP_TO:  # in whole numbers, then one correctly rounded division: exact
        return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2**n)
    logs = [_log_binomial_pmf(i, n) for i in range(k + 1)]
    top = max(logs)
    tail = math.exp(top) * math.fsum(math.exp(v - top) for v in logs)
    return min(1.0, 2.0 * tail)
