"""What a comparison finds: ``Comparison``, with the paired figures, the verdict in words,
the per-case table (``Comparison.to_pandas``) and the JSON object scripts read."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .._version import __version__
from ..masking.replies import redact_value
from .changes import CaseChange, MetricChange, PassRateChange, Verdict
from .gate import Gate, decide_gate
from .runs import RunCase
from .stats import MIN_CASES
from .values import by as _by
from .values import case_columns, component_names, finite, json_id
from .values import fmt as _fmt

__all__ = ["Comparison"]

WORST_LISTED = 20
"""Regressions (and improvements) listed with their evidence in the JSON object."""


@dataclass
class Comparison:
    """Two runs compared case by case (see ``summscore.compare``).

    The figures cover the matched cases scored in both runs; the others are listed
    (``failed_base``, ``failed_candidate``, ``unmatched_base``, ``unmatched_candidate``).

    Attributes:
        base_name: The base run's name (its file's path, or ``name=``).
        candidate_name: The candidate run's name.
        cases: Every matched case, in the base run's order.
        unmatched_base: The base's cases with no match in the candidate.
        unmatched_candidate: The candidate's cases with no match in the base.
        matched_by: How cases were paired: "id", "fingerprint" or "row number".
        score: The mean score in each run and the paired difference with its bootstrap
            interval.
        components: The same for each component both runs have (alignment and coverage, or
            QA and conciseness), by name.
        pass_rate: The change in the pass rate, with McNemar's exact test.
        seed: The bootstrap's seed (``--seed``): the same runs give the same interval.
        resamples: The bootstrap's number of resamples (``--resamples``).
        tolerance: Differences this small or smaller count as unchanged (``--tolerance``).
        top: The highest score on the runs' scale (1, or Mastra's ``scale``).
        source_changed: Ids whose source text differs between the runs (not compared).
        differences: The settings the runs differ in (compared with ``allow_different``).
        notes: What to know about the comparison (ids that are row numbers, rows with no valid
            score, different summscore versions).
    """

    base_name: str
    candidate_name: str
    cases: list[CaseChange]
    unmatched_base: list[RunCase]
    unmatched_candidate: list[RunCase]
    matched_by: str
    score: MetricChange
    components: dict[str, MetricChange]
    pass_rate: PassRateChange
    seed: int
    resamples: int
    tolerance: float = 0.0
    top: float = 1.0
    source_changed: list[Any] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    # ------------------------------------------------------------------ counts and lists

    @property
    def matched(self) -> int:
        """The number of matched cases, scored or not."""
        return len(self.cases)

    @property
    def paired(self) -> int:
        """Matched cases scored in both runs: the ones the figures are over."""
        return self.score.difference.n

    def _ids(self, status: str) -> list[Any]:
        return [c.id for c in self.cases if c.status == status]

    @property
    def improved(self) -> list[Any]:
        """Ids of the cases whose score went up by more than ``tolerance``, in base order."""
        return self._ids("improved")

    @property
    def regressed(self) -> list[Any]:
        """Ids of the cases whose score went down by more than ``tolerance``, in base order
        (``regressions()`` gives them the biggest drop first, with their evidence)."""
        return self._ids("regressed")

    @property
    def unchanged(self) -> list[Any]:
        """Ids of the cases scored in both runs whose score moved by ``tolerance`` or less."""
        return self._ids("unchanged")

    @property
    def failed_base(self) -> list[Any]:
        """Ids of matched cases the base run did not score (their ``error`` says why)."""
        return [c.id for c in self.cases if not c.base.scored]

    @property
    def failed_candidate(self) -> list[Any]:
        """Ids of matched cases the candidate run did not score (their ``error`` says why)."""
        return [c.id for c in self.cases if not c.candidate.scored]

    def regressions(self) -> list[CaseChange]:
        """The regressed cases, the biggest drop first (ties in base order)."""
        return sorted(
            (c for c in self.cases if c.status == "regressed"), key=lambda c: c.difference
        )

    def improvements(self) -> list[CaseChange]:
        """The improved cases, the biggest gain first."""
        return sorted(
            (c for c in self.cases if c.status == "improved"), key=lambda c: -c.difference
        )

    # ------------------------------------------------------------------ the verdict

    def worse(self, min_effect: float = 0.0) -> bool:
        """The CI gate: True when the interval says the candidate's mean score is lower by more
        than ``min_effect`` (its upper end is below ``-min_effect``), on at least
        ``summscore.comparison.stats.MIN_CASES`` cases scored in both runs."""
        d = self.score.difference
        return d.n >= MIN_CASES and not math.isnan(d.high) and d.high < -min_effect

    def gate(
        self,
        min_effect: float = 0.0,
        *,
        min_paired: int = MIN_CASES,
        max_unmatched: float | None = None,
    ) -> Gate:
        """The CI gate (``--fail-if-worse``): fails when the candidate is ``worse(min_effect)``,
        and when it cannot decide: fewer than ``min_paired`` cases scored in both runs, or more
        than ``max_unmatched`` (a share, 0 to 1; None: no limit) of the base's cases without a
        match in the candidate. ``.passed``, ``.outcome`` and ``.text`` say how it went."""
        return decide_gate(
            paired=self.paired,
            matched=self.matched,
            unmatched=len(self.unmatched_base),
            worse=self.worse(min_effect),
            min_effect=min_effect,
            min_paired=min_paired,
            max_unmatched=max_unmatched,
        )

    def verdict(self, min_effect: float = 0.0) -> Verdict:
        """The headline: whether the candidate is worse, better or neither, in words."""
        d = self.score.difference
        level = f"{d.confidence:.0%} interval"
        if d.n == 0:
            return Verdict(
                "nothing to compare", "No case was scored in both runs: nothing to compare."
            )
        if d.n < MIN_CASES:
            return Verdict(
                "too few cases",
                f"Too few cases to tell: {d.n} scored in both runs, at least {MIN_CASES} are "
                f"needed; the candidate's mean score is {_by(d.value)}.",
            )
        span = f"({level} {_fmt(-d.high)} to {_fmt(-d.low)})"
        if d.high < 0:
            text = f"The candidate is worse by {_fmt(-d.value)} {span}: likely a real regression."
            if not self.worse(min_effect):
                text = (
                    f"The candidate is worse by {_fmt(-d.value)} {span}: likely real, but not "
                    f"clearly by more than {min_effect:g} (the minimum effect)."
                )
            return Verdict("worse", text)
        if d.low > 0:
            span = f"({level} {_fmt(d.low)} to {_fmt(d.high)})"
            return Verdict(
                "better",
                f"The candidate is better by {_fmt(d.value)} {span}: likely a real improvement.",
            )
        if d.value == 0 and d.low == 0 and d.high == 0:
            return Verdict(
                "no clear difference",
                "No difference: the cases scored in both runs have the same scores in both.",
            )
        return Verdict(
            "no clear difference",
            f"No clear difference: the candidate's mean score is {_by(d.value)} ({level} "
            f"{_by(d.low)} to {_by(d.high)}), within what noise gives.",
        )

    # ------------------------------------------------------------------ outputs

    def to_dict(
        self,
        min_effect: float = 0.0,
        *,
        min_paired: int = MIN_CASES,
        max_unmatched: float | None = None,
    ) -> dict[str, Any]:
        """The JSON object ``summscore compare --json`` prints (NaN as null); ``gate`` holds
        ``gate(min_effect, min_paired=..., max_unmatched=...)``. Keys quoted in its texts (ids,
        claims, reasons, errors, notes) are masked, as in the HTML comparison."""
        d, p = self.score.difference, self.pass_rate
        verdict = self.verdict(min_effect)
        gate = self.gate(min_effect, min_paired=min_paired, max_unmatched=max_unmatched)
        data = {
            "summscore_version": __version__,
            "base": self.base_name,
            "candidate": self.candidate_name,
            "matched": self.matched,
            "matched_by": self.matched_by,
            "paired": self.paired,
            "unmatched_base": [json_id(c.id) for c in self.unmatched_base],
            "unmatched_candidate": [json_id(c.id) for c in self.unmatched_candidate],
            "source_changed": [json_id(i) for i in self.source_changed],
            "failed_base": [json_id(i) for i in self.failed_base],
            "failed_candidate": [json_id(i) for i in self.failed_candidate],
            "mean_base": finite(self.score.base_mean),
            "mean_candidate": finite(self.score.candidate_mean),
            "mean_difference": finite(d.value),
            "ci_low": finite(d.low),
            "ci_high": finite(d.high),
            "confidence": d.confidence,
            "pass_rate_base": finite(p.base),
            "pass_rate_candidate": finite(p.candidate),
            "pass_rate_difference": finite(p.difference.value),
            "pass_rate_ci_low": finite(p.difference.low),
            "pass_rate_ci_high": finite(p.difference.high),
            "newly_failing": p.newly_failing,
            "newly_passing": p.newly_passing,
            "mcnemar_p": finite(p.p_value),
            "components": {
                name: {
                    "mean_base": finite(m.base_mean),
                    "mean_candidate": finite(m.candidate_mean),
                    "difference": finite(m.difference.value),
                    "ci_low": finite(m.difference.low),
                    "ci_high": finite(m.difference.high),
                    "cases": m.difference.n,
                }
                for name, m in self.components.items()
            },
            "improved": [json_id(i) for i in self.improved],
            "regressed": [json_id(i) for i in self.regressed],
            "unchanged": len(self.unchanged),
            "verdict": verdict.kind,
            "verdict_text": verdict.text,
            "min_effect": min_effect,
            "worse": self.worse(min_effect),
            "gate": gate.to_dict(),
            "worst_regressions": [c.to_dict() for c in self.regressions()[:WORST_LISTED]],
            "best_improvements": [c.to_dict() for c in self.improvements()[:WORST_LISTED]],
            "seed": self.seed,
            "resamples": self.resamples,
            "tolerance": self.tolerance,
            "settings_differences": list(self.differences),
            "notes": list(self.notes),
        }
        masked: dict[str, Any] = redact_value(data)
        return masked

    def to_records(self) -> list[dict[str, Any]]:
        """One flat dict per matched case: id, both scores, the difference, status, pass change,
        the components of both runs, the evidence that changed, both reasons and errors."""
        names = list(self.components)
        records = []
        for c in self.cases:
            record = {
                "id": c.id,
                "base_score": c.base.score,
                "candidate_score": c.candidate.score,
                "difference": c.difference,
                "status": c.status,
                "pass_change": c.pass_change,
            }
            for name in names:
                short = name.removesuffix("_score")
                record[f"base_{short}"] = c.base.components.get(name, math.nan)
                record[f"candidate_{short}"] = c.candidate.components.get(name, math.nan)
            record.update(
                new_unsupported_claims=list(c.new_unsupported_claims),
                newly_missed_questions=list(c.newly_missed_questions),
                base_reason=c.base.reason,
                candidate_reason=c.candidate.reason,
                base_error=c.base.error,
                candidate_error=c.candidate.error,
            )
            records.append(record)
        return records

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame``, one row per matched case (see ``to_records``; needs pandas),
        with the same columns when no case matched (``t[t.status == "regressed"]`` works)."""
        try:
            import pandas as pd
        except ImportError as exc:
            raise ImportError("to_pandas() needs pandas: pip install pandas") from exc
        names = list(self.components) or [  # (none matched: those both runs' cases have)
            n for n in component_names(self.unmatched_base)
            if n in component_names(self.unmatched_candidate)
        ]  # fmt: skip
        return pd.DataFrame.from_records(self.to_records(), columns=case_columns(names))

    def __repr__(self) -> str:
        d = self.score.difference
        return (
            f"Comparison({self.paired} cases scored in both of {self.matched} matched, "
            f"difference {d}, {len(self.regressed)} regressed, {len(self.improved)} improved: "
            f"{self.verdict().kind})"
        )

    __str__ = __repr__
