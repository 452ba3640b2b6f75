"""The parts of a comparison: one matched case (``CaseChange``), a mean and its paired difference
(``MetricChange``), the pass rate's change (``PassRateChange``) and the headline (``Verdict``)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .runs import RunCase
from .stats import Interval
from .values import finite, json_id

__all__ = ["CaseChange", "MetricChange", "PassRateChange", "Verdict"]

_SLACK = 1e-9  # differences this small are rounding, not a change


def _absent(items: Iterable[str], others: Iterable[str]) -> tuple[str, ...]:
    """``items`` that ``others`` lacks, in their order."""
    known = set(others)
    return tuple(item for item in items if item not in known)


@dataclass(frozen=True)
class CaseChange:
    """One matched case: its two results and what changed between them.

    Attributes:
        id: The case's id (its row number when the runs were matched by place or fingerprint).
        base: The case in the base run.
        candidate: The case in the candidate run.
        tolerance: Differences this small or smaller count as unchanged (``--tolerance``).
    """

    id: Any
    base: RunCase
    candidate: RunCase
    tolerance: float = 0.0

    @property
    def difference(self) -> float:
        """Candidate score minus base score; NaN when either run did not score the case."""
        if not (self.base.scored and self.candidate.scored):
            return math.nan
        return self.candidate.score - self.base.score

    @property
    def status(self) -> str:
        """ "improved", "regressed", "unchanged", or "failed" (not scored in one run or both)."""
        d = self.difference
        if math.isnan(d):
            return "failed"
        if d > self.tolerance + _SLACK:
            return "improved"
        if d < -(self.tolerance + _SLACK):
            return "regressed"
        return "unchanged"

    @property
    def pass_change(self) -> str | None:
        """ "pass -> fail" or "fail -> pass" when the verdict flipped (both scored)."""
        a, b = self.base.passed, self.candidate.passed
        if a is None or b is None or a == b:
            return None
        return "pass -> fail" if a else "fail -> pass"

    @property
    def new_unsupported_claims(self) -> tuple[str, ...]:
        """Claims the candidate's summary makes that the judge did not find supported, and that
        the base summary's unsupported claims do not include."""
        return _absent(self.candidate.unsupported_claims, self.base.unsupported_claims)

    @property
    def newly_missed_questions(self) -> tuple[str, ...]:
        """Key points (questions the source answers) the candidate misses and the base did not."""
        return _absent(self.candidate.missed_questions, self.base.missed_questions)

    @property
    def resolved_claims(self) -> tuple[str, ...]:
        """The base's unsupported claims the candidate no longer makes."""
        return _absent(self.base.unsupported_claims, self.candidate.unsupported_claims)

    @property
    def now_covered_questions(self) -> tuple[str, ...]:
        """Key points the base missed and the candidate covers."""
        return _absent(self.base.missed_questions, self.candidate.missed_questions)

    def to_dict(self) -> dict[str, Any]:
        """The case as the JSON object lists it (``worst_regressions``): both scores, the
        difference, status, pass change, the evidence that changed, both reasons and errors."""
        return {
            "id": json_id(self.id),
            "base_score": finite(self.base.score),
            "candidate_score": finite(self.candidate.score),
            "difference": finite(self.difference),
            "status": self.status,
            "pass_change": self.pass_change,
            "new_unsupported_claims": list(self.new_unsupported_claims),
            "newly_missed_questions": list(self.newly_missed_questions),
            "base_reason": self.base.reason,
            "candidate_reason": self.candidate.reason,
            "base_error": self.base.error,
            "candidate_error": self.candidate.error,
        }


@dataclass(frozen=True)
class MetricChange:
    """A mean over the cases scored in both runs, in each run, and the paired difference.

    Attributes:
        name: What is averaged: "score", or a component ("alignment_score", ...).
        base_mean: The mean in the base run, over the cases scored in both runs.
        candidate_mean: The mean in the candidate run, over the same cases.
        difference: The paired mean difference (candidate minus base) with its bootstrap
            interval and the number of cases it is over.
    """

    name: str
    base_mean: float
    candidate_mean: float
    difference: Interval


@dataclass(frozen=True)
class PassRateChange:
    """The pass rate over the cases scored in both runs, its paired difference, and the exact
    McNemar test of that change.

    Attributes:
        base: The base run's pass rate, 0 to 1.
        candidate: The candidate run's pass rate, 0 to 1.
        difference: The paired difference of the pass rates with its bootstrap interval.
        newly_failing: Cases that passed in the base and fail in the candidate.
        newly_passing: Cases that failed in the base and pass in the candidate.
        p_value: McNemar's exact p-value: the chance of a split between ``newly_failing`` and
            ``newly_passing`` at least this uneven if neither run were better.
    """

    base: float
    candidate: float
    difference: Interval
    newly_failing: int
    newly_passing: int
    p_value: float


@dataclass(frozen=True)
class Verdict:
    """The headline of a comparison (``Comparison.verdict``).

    Attributes:
        kind: "worse", "better", "no clear difference", "too few cases" or "nothing to
            compare".
        text: The same in a sentence, with the figures.
    """

    kind: str
    text: str
