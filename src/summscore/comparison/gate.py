"""The CI gate's decision on a comparison (``Comparison.gate``; ``--fail-if-worse``).

A gate that cannot decide fails: with fewer than ``min_paired`` cases scored in both runs (the
candidate's ids all changed, or it scored 3 of 1,000 rows), or with more than
``max_unmatched`` of the base's cases missing from the candidate, the gate does not pass
quietly as "not applied"; it fails and says why, with the counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .stats import MIN_CASES

__all__ = ["Gate", "decide_gate"]


@dataclass(frozen=True)
class Gate:
    """The CI gate's decision on a comparison (``Comparison.gate``; ``--fail-if-worse``).

    Attributes:
        passed: True when the gate passes.
        outcome: "passed", "worse", "too few cases", "too many unmatched", or "not applied"
            (fewer than ``MIN_CASES`` cases to decide on, which only a ``min_paired`` below it
            accepts).
        text: Why, in a sentence with the counts.
        paired: Matched cases scored in both runs.
        base_cases: The base run's cases.
        unmatched_base: The base's cases with no match in the candidate.
        not_scored: Matched cases not scored in one run or both.
        min_effect: The drop the gate tolerates, in score units (``--min-effect``).
        min_paired: The fewest cases scored in both runs it decides on (``--min-paired``).
        max_unmatched: The largest share (0 to 1) of the base's cases it lets go unmatched
            (``--max-unmatched``); None: no limit.
    """

    passed: bool
    outcome: str
    text: str
    paired: int
    base_cases: int
    unmatched_base: int
    not_scored: int
    min_effect: float
    min_paired: int
    max_unmatched: float | None

    @property
    def unmatched_share(self) -> float:
        """The share of the base's cases the candidate has no match for (0 with no case)."""
        return self.unmatched_base / self.base_cases if self.base_cases else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The decision as the JSON object's ``gate`` holds it."""
        return {
            "passed": self.passed,
            "outcome": self.outcome,
            "text": self.text,
            "min_effect": self.min_effect,
            "min_paired": self.min_paired,
            "max_unmatched": self.max_unmatched,
            "base_cases": self.base_cases,
            "unmatched_share": round(self.unmatched_share, 6),
        }


def check_gate_options(min_effect: float, min_paired: int, max_unmatched: float | None) -> None:
    """Refuse values that cannot mean anything (ValueError naming the parameter)."""
    if not math.isfinite(min_effect) or min_effect < 0:
        raise ValueError(f"min_effect must be 0 or more, got {min_effect}")
    if isinstance(min_paired, bool) or not isinstance(min_paired, int) or min_paired < 0:
        raise ValueError(f"min_paired must be a whole number, 0 or more, got {min_paired!r}")
    if max_unmatched is not None and not 0.0 <= max_unmatched <= 1.0:
        raise ValueError(f"max_unmatched is a share from 0 to 1, got {max_unmatched}")


def decide_gate(
    *,
    paired: int,
    matched: int,
    unmatched: int,
    worse: bool,
    min_effect: float = 0.0,
    min_paired: int = MIN_CASES,
    max_unmatched: float | None = None,
) -> Gate:
    """The gate on a comparison (see ``Comparison.gate``): ``paired`` cases scored in both
    runs of ``matched``, ``unmatched`` base cases without a match, ``worse``: whether the
    interval says the candidate is worse by more than ``min_effect``."""
    check_gate_options(min_effect, min_paired, max_unmatched)
    base_cases = matched + unmatched
    not_scored = matched - paired

    def gate(passed: bool, outcome: str, text: str) -> Gate:
        return Gate(
            passed, outcome, text, paired, base_cases, unmatched, not_scored, min_effect,
            min_paired, max_unmatched,
        )  # fmt: skip

    share = unmatched / base_cases if base_cases else 0.0
    counts = _counts(base_cases, unmatched, not_scored)
    if max_unmatched is not None and share > max_unmatched:
        return gate(
            False,
            "too many unmatched",
            f"{unmatched:,} of the base's {base_cases:,} cases ({share:.1%}) have no match in "
            f"the candidate, more than the {max_unmatched:.1%} allowed",
        )
    if paired < min_paired:
        return gate(
            False,
            "too few cases",
            f"{_cases(paired)} scored in both runs, fewer than the {min_paired:,} needed to "
            f"decide ({counts})",
        )
    effect = f" by more than {min_effect:g}" if min_effect else ""
    if worse:
        return gate(False, "worse", f"the candidate is worse{effect}")
    if paired < MIN_CASES:
        return gate(
            True,
            "not applied",
            f"{_cases(paired)} scored in both runs {'is' if paired == 1 else 'are'} too few to "
            f"tell (at least {MIN_CASES}); the gate required {min_paired:,}",
        )
    where = f" ({_cases(paired)} scored in both; {counts})" if unmatched or not_scored else ""
    return gate(True, "passed", f"not clearly worse{effect}{where}")


def _counts(base_cases: int, unmatched: int, not_scored: int) -> str:
    return (
        f"the base has {_cases(base_cases)}: {unmatched:,} without a match in the candidate, "
        f"{not_scored:,} matched but not scored in one run or both"
    )


def _cases(n: int) -> str:
    return f"{n:,} case" if n == 1 else f"{n:,} cases"
