"""Describing a batch of scores: count, mean, quantiles, failures (for the CLI and the report)."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .result import SummaryResult
from .usage import Usage, format_cost

__all__ = ["BatchSummary", "Summary", "describe", "failure_causes", "histogram", "summarize"]


@dataclass(frozen=True)
class Summary:
    """What a batch of scores looks like (``BatchSummary.scores``). The statistics are over the
    scored cases, and None when nothing was scored.

    Attributes:
        count: Cases, scored or not.
        scored: Cases with a score.
        failed: Cases without one (an error, or NaN).
        mean: The mean score.
        std: The standard deviation of the scores (population: divided by ``scored``).
        minimum: The lowest score.
        p25: The 25th percentile (linear interpolation, as numpy's default).
        median: The median score.
        p75: The 75th percentile.
        maximum: The highest score.
    """

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


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def failure_cause(error: str) -> str:
    """The kind of an error message: its first line with numbers and quoted values blanked out,
    so "cases[3] has no summary field" and "cases[9] has no summary field" count as one cause."""
    line = error.strip().splitlines()[0] if error.strip() else "unknown error"
    line = _NUMBER.sub("N", _QUOTED.sub("'…'", line))
    return line if len(line) <= 120 else line[:119] + "…"


def failure_causes(errors: Iterable[str | None]) -> list[tuple[str, int]]:
    """(cause, count) for every error, most frequent first."""
    counts = Counter(failure_cause(e) for e in errors if e)
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


@dataclass(frozen=True)
class BatchSummary:
    """What a batch of results adds up to: scores, pass rate, components, failures, spend.

    The pass rate is deepeval's rule: a case passes when it was scored and its score reaches
    ``threshold`` (the results' own threshold under the deepeval preset, else half the top score).

    Attributes:
        scores: Count, mean, standard deviation and quantiles of the scored cases.
        threshold: The pass mark the pass rate uses (see above).
        passed: Cases scored at or above ``threshold``.
        components: The mean of each component the preset computed, by name.
        causes: (cause, count) of the failed cases, most frequent first.
        usage: What the whole batch cost.
        offline: True when every result came from the offline judge, which costs nothing.
    """

    scores: Summary
    threshold: float
    passed: int
    components: dict[str, float]
    causes: list[tuple[str, int]]
    usage: Usage = field(default_factory=Usage)
    offline: bool = False
    """True when every result came from the offline LexicalJudge, which costs nothing."""

    @property
    def pass_rate(self) -> float | None:
        """``passed`` divided by every case, failed ones included (a failed case does not pass);
        None for an empty batch."""
        return None if self.scores.count == 0 else self.passed / self.scores.count

    @property
    def cost_text(self) -> str:
        """ "$0.0123", "cost unknown", or "none (offline judge)"."""
        if self.offline and self.usage.cost is None:
            return "none (offline judge)"
        return format_cost(self.usage.cost)

    def rows(self) -> list[tuple[str, str]]:
        """(label, value) pairs for a table: the score statistics, pass rate and mean components."""
        rows = self.scores.rows()
        rate = self.pass_rate
        if rate is not None:
            rows.append((f"pass rate (≥ {self.threshold:g})", f"{rate:.1%}"))
        rows += [
            (f"mean {name.removesuffix('_score')}", f"{v:.3f}")
            for name, v in self.components.items()
        ]
        rows.append(("judge calls", str(self.usage.judge_calls)))
        if self.usage.input_tokens is not None:
            rows.append(
                (
                    "tokens in / out",
                    f"{self.usage.input_tokens:,} / {self.usage.output_tokens or 0:,}",
                )
            )
        rows.append(("cost", self.cost_text))
        return rows


def summarize(
    results: Sequence[SummaryResult], *, threshold: float | None = None, top: float = 1.0
) -> BatchSummary:
    """Summarise a batch of results (see ``BatchSummary``)."""
    if threshold is None:
        threshold = next((r.threshold for r in results if r.threshold is not None), 0.5 * top)
    components: dict[str, list[float]] = {}
    usage = Usage()
    for r in results:
        usage.add(r.usage)
        for name, value in r.components().items():
            if not math.isnan(value):
                components.setdefault(name, []).append(value)
    return BatchSummary(
        scores=describe([r.score for r in results]),
        threshold=threshold,
        passed=sum(1 for r in results if r.ok and r.score >= threshold),
        components={name: sum(v) / len(v) for name, v in components.items()},
        causes=failure_causes(r.error for r in results),
        usage=usage,
        offline=bool(results) and all(r.judge == "lexical" for r in results),
    )
