"""Describing a batch of scores: count, mean, quantiles, failures (for the CLI and the report)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Summary", "describe", "histogram"]


@dataclass(frozen=True)
class Summary:
    """What a batch of scores looks like. Quantiles are None when nothing was scored."""

    count: int
    scored: int
    failed: int
    mean: float | None
    std: float | None
    minimum: float | None
    p25: float | None
    median: float | None
    p75: float | None
    maximum: float | None

    def rows(self) -> list[tuple[str, str]]:
        """(label, value) pairs for a table."""

        def fmt(value: float | None) -> str:
            return "-" if value is None else f"{value:.3f}"

        return [
            ("cases", str(self.count)),
            ("scored", str(self.scored)),
            ("failed", str(self.failed)),
            ("mean", fmt(self.mean)),
            ("std", fmt(self.std)),
            ("min", fmt(self.minimum)),
            ("25%", fmt(self.p25)),
            ("median", fmt(self.median)),
            ("75%", fmt(self.p75)),
            ("max", fmt(self.maximum)),
        ]


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    position = (len(ordered) - 1) * q
    low = math.floor(position)
    high = math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def describe(scores: Iterable[float | None]) -> Summary:
    """Summarise ``scores``; None and NaN count as failed."""
    values = list(scores)
    ok = sorted(v for v in values if v is not None and not math.isnan(v))
    failed = len(values) - len(ok)
    if not ok:
        return Summary(len(values), 0, failed, *([None] * 7))
    mean = sum(ok) / len(ok)
    std = math.sqrt(sum((v - mean) ** 2 for v in ok) / len(ok))
    return Summary(
        count=len(values),
        scored=len(ok),
        failed=failed,
        mean=mean,
        std=std,
        minimum=ok[0],
        p25=_quantile(ok, 0.25),
        median=_quantile(ok, 0.5),
        p75=_quantile(ok, 0.75),
        maximum=ok[-1],
    )


def histogram(scores: Iterable[float | None], *, bins: int = 10, top: float = 1.0) -> list[int]:
    """Counts of scores in ``bins`` equal bins over [0, top]; the last bin includes ``top``."""
    counts = [0] * bins
    for value in scores:
        if value is None or math.isnan(value):
            continue
        index = int(min(max(value / top, 0.0), 1.0) * bins)
        counts[min(index, bins - 1)] += 1
    return counts
