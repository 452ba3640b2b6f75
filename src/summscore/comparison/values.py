"""Values as strict JSON holds them (NaN and infinities as null, ids as plain values), and as the
verdict writes them; the columns of the per-case table."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

__all__ = ["by", "case_columns", "component_names", "finite", "fmt", "json_id"]


def finite(value: Any) -> Any:
    """NaN and infinities as None (strict JSON)."""
    return None if isinstance(value, float) and not math.isfinite(value) else value


def json_id(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, bool)):
        return value
    if isinstance(value, float):
        return finite(value)
    return str(value)


def fmt(value: float) -> str:
    return f"{value:.3f}"


def by(value: float) -> str:
    """0.004 lower / 0.012 higher / the same."""
    if abs(value) < 0.0005:
        return (
            "the same" if value == 0 else f"{abs(value):.4f} {'higher' if value > 0 else 'lower'}"
        )
    return f"{abs(value):.3f} {'higher' if value > 0 else 'lower'}"


def component_names(cases: Iterable[Any]) -> dict[str, None]:
    """The component names the cases (``runs.RunCase``) have, in first-seen order."""
    return {name: None for case in cases for name in case.components}


def case_columns(components: Iterable[str]) -> list[str]:
    """The columns of ``Comparison.to_pandas`` (``to_records``' keys), for these components."""
    shorts = [name.removesuffix("_score") for name in components]
    return [
        *("id", "base_score", "candidate_score", "difference", "status", "pass_change"),
        *(f"{run}_{short}" for short in shorts for run in ("base", "candidate")),
        *("new_unsupported_claims", "newly_missed_questions", "base_reason", "candidate_reason"),
        *("base_error", "candidate_error"),
    ]
