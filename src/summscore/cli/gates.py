"""The quality gates for CI: ``score --fail-under MEAN`` and ``--min-pass-rate P`` (a run falls
short), ``compare --fail-if-worse [--min-effect D]`` (the candidate is worse beyond noise). A
gate that fails makes the exit status 1 (see ``usage``)."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any, TextIO

from ..comparison import MIN_CASES
from .usage import UsageError

__all__ = [
    "add_run_gates",
    "add_worse_gate",
    "check_gate_values",
    "gate_options",
    "run_gate_failures",
]


def add_worse_gate(group: argparse._ArgumentGroup | argparse.ArgumentParser) -> None:
    group.add_argument(
        "--fail-if-worse",
        action="store_true",
        help="exit with status 1 when the candidate's mean score (in a score run: each further "
        "--summary-column's, against the first) is lower beyond noise: the upper end of the "
        "95%% interval of the difference is below -D (see --min-effect); it also fails when "
        "it cannot decide: fewer than --min-paired cases scored in both runs, or more than "
        "--max-unmatched of the base's cases missing from the candidate, e.g. --fail-if-worse",
    )
    group.add_argument(
        "--min-effect",
        type=float,
        default=0.0,
        metavar="D",
        help="the drop in mean score that matters, in score units (default 0: any drop the "
        "interval is sure of), e.g. --min-effect 0.02",
    )
    group.add_argument(
        "--min-paired",
        type=int,
        metavar="N",
        help=f"with --fail-if-worse: fail when fewer than N cases are scored in both runs "
        f"(default {MIN_CASES}, the fewest the interval decides on; 0 lets a gate with too few "
        "cases pass, saying so), e.g. --min-paired 200",
    )
    group.add_argument(
        "--max-unmatched",
        type=float,
        metavar="SHARE",
        help="with --fail-if-worse: fail when more than SHARE (0 to 1) of the base's cases have "
        "no match in the candidate (default: no limit; the count is printed), "
        "e.g. --max-unmatched 0.05",
    )


def add_run_gates(group: argparse._ArgumentGroup | argparse.ArgumentParser) -> None:
    group.add_argument(
        "--fail-under",
        type=float,
        metavar="MEAN",
        help="exit with status 1 when the mean score of the rows scored is below MEAN (each "
        "summary column's, with several), e.g. --fail-under 0.7",
    )
    group.add_argument(
        "--min-pass-rate",
        type=float,
        metavar="P",
        help="exit with status 1 when the share of rows that pass (failed rows count as not "
        "passing) is below P, 0 to 1, e.g. --min-pass-rate 0.9",
    )


def check_gate_values(args: argparse.Namespace) -> None:
    """Refuse gate values that cannot mean anything (before any row is scored)."""
    effect = getattr(args, "min_effect", 0.0)
    if effect is not None and (not math.isfinite(effect) or effect < 0):
        raise UsageError(f"--min-effect must be 0 or more, got {effect}")
    for option in ("min_paired", "max_unmatched"):
        if getattr(args, option, None) is not None and not getattr(args, "fail_if_worse", False):
            raise UsageError(f"--{option.replace('_', '-')} applies to --fail-if-worse: add it")
    paired = getattr(args, "min_paired", None)
    if paired is not None and paired < 0:
        raise UsageError(f"--min-paired must be 0 or more, got {paired}")
    unmatched = getattr(args, "max_unmatched", None)
    if unmatched is not None and not 0.0 <= unmatched <= 1.0:
        hint = f" (for {unmatched:g}%, write {unmatched / 100:g})" if 1 < unmatched <= 100 else ""
        raise UsageError(f"--max-unmatched is a share from 0 to 1, got {unmatched:g}{hint}")
    under = getattr(args, "fail_under", None)
    if under is not None and not math.isfinite(under):
        raise UsageError(f"--fail-under must be a number, got {under}")
    rate = getattr(args, "min_pass_rate", None)
    if rate is not None and not 0.0 <= rate <= 1.0:
        hint = f" (for {rate:g}%, write {rate / 100:g})" if 1 < rate <= 100 else ""
        raise UsageError(f"--min-pass-rate is a share from 0 to 1, got {rate:g}{hint}")


def gate_options(args: argparse.Namespace) -> dict[str, Any]:
    """``--min-effect``, ``--min-paired`` and ``--max-unmatched`` as ``Comparison.gate`` and
    ``Comparison.to_dict`` take them (their defaults where not given)."""
    paired = getattr(args, "min_paired", None)
    return {
        "min_effect": getattr(args, "min_effect", 0.0) or 0.0,
        "min_paired": MIN_CASES if paired is None else paired,
        "max_unmatched": getattr(args, "max_unmatched", None),
    }


def run_gate_failures(
    args: argparse.Namespace,
    mean: float | None,
    pass_rate: float | None,
    *,
    label: str = "",
    stream: TextIO | None = None,
) -> list[str]:
    """Check ``--fail-under`` and ``--min-pass-rate`` against a run's figures, print each
    verdict (on ``stream``, default stderr), and return the failures (empty when every gate
    passed or none was asked for)."""
    stream = sys.stderr if stream is None else stream
    failures = []
    where = f" ({label})" if label else ""
    under = getattr(args, "fail_under", None)
    if under is not None:
        if mean is None or mean < under:
            shown = (
                "no row was scored: nothing reaches"
                if mean is None
                else f"mean score {mean:.3f} is below"
            )
            failures.append(f"{shown} --fail-under {under:g}{where}")
        else:
            print(f"summscore: gate passed: mean score {mean:.3f} ≥ {under:g}{where}", file=stream)
    rate = getattr(args, "min_pass_rate", None)
    if rate is not None:
        if pass_rate is None or pass_rate < rate:
            shown = (
                "no row: nothing reaches"
                if pass_rate is None
                else f"pass rate {pass_rate:.1%} is below"
            )
            failures.append(f"{shown} --min-pass-rate {rate:g}{where}")
        else:
            print(
                f"summscore: gate passed: pass rate {pass_rate:.1%} ≥ {rate:g}{where}",
                file=stream,
            )
    for failure in failures:
        print(f"summscore: gate failed: {failure}", file=stream)
    return failures
