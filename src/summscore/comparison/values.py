"""Values as strict JSON holds them (NaN and infinities as null, ids as plain values), and as the
verdict writes them."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["by", "finite", "fmt", "json_id"]


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
