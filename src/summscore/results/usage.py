"""What judging cost: ``Usage`` (calls, tokens, cost) and how a cost is written."""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = ["Usage", "format_cost"]


class Usage(BaseModel):
    """Judge spend for one result (or, on ``SummarizationScorer.usage``, for a whole scorer).

    ``input_tokens``, ``output_tokens`` and ``cost`` are None when the backend does not report them.
    ``reused_calls`` counts judge calls this result did not have to make because the source-side
    work (keyphrases, questions, truths, the source's answers) was already in the scorer's cache;
    ``cached_calls`` counts replies read from the persistent reply cache instead of the judge
    (their tokens and cost are not counted again).

    Attributes:
        judge_calls: Requests the judge answered (each re-ask of an unusable reply is one more).
        retries: Attempts sent again after a transient failure (429, timeout, 5xx, a dropped
            connection).
        input_tokens: Prompt tokens, as the backend reported them; None when it does not.
        output_tokens: Completion tokens, as the backend reported them; None when it does not.
        cost: US dollars at the model's list price (genai-prices, or the per-token prices
            given); None when unknown, never 0 for an unknown price.
        reused_calls: Calls saved by the source cache (source-side work already done).
        cached_calls: Replies read from the persistent reply cache instead of the judge.
    """

    model_config = ConfigDict(validate_assignment=False)

    judge_calls: int = 0
    retries: int = 0
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost: float | None = None
    reused_calls: int = 0
    cached_calls: int = 0

    def add(self, other: Usage) -> None:
        """Accumulate ``other`` into this object in place."""
        # Every judge call adds twice (to its result and to the scorer): the fields are written
        # as pydantic's assignment writes them when it validates none (into __dict__ and the set
        # fields), in one update instead of one __setattr__ call per field.
        mine, theirs = self.__dict__, other.__dict__
        mine.update(
            judge_calls=mine["judge_calls"] + theirs["judge_calls"],
            retries=mine["retries"] + theirs["retries"],
            reused_calls=mine["reused_calls"] + theirs["reused_calls"],
            cached_calls=mine["cached_calls"] + theirs["cached_calls"],
            input_tokens=_plus(mine["input_tokens"], theirs["input_tokens"]),
            output_tokens=_plus(mine["output_tokens"], theirs["output_tokens"]),
            cost=_plus_cost(mine["cost"], theirs["cost"]),
        )
        self.__pydantic_fields_set__.update(_ADDED_FIELDS)


# The fields Usage.add sets, in the order it used to assign them.
_ADDED_FIELDS = (
    "judge_calls",
    "retries",
    "reused_calls",
    "cached_calls",
    "input_tokens",
    "output_tokens",
    "cost",
)


# Costs are summed to whole picodollars: float addition depends on its order, and a result's
# calls finish in whatever order the judge answers them, so an unrounded sum could differ in its
# last digit between two runs of the same rows (a local run and a Ray run, say).
_COST_DIGITS = 12


def _plus_cost(a: float | None, b: float | None) -> float | None:
    if a is None or b is None:
        one = _plus(a, b)
        return None if one is None else round(one, _COST_DIGITS)
    return round(round(a, _COST_DIGITS) + round(b, _COST_DIGITS), _COST_DIGITS)


def _plus(a: Any, b: Any) -> Any:
    if a is None:
        return b
    if b is None:
        return a
    return a + b


def format_cost(cost: float | None) -> str:
    """ "$0.0123" or "cost unknown" (never "$0" for a price nobody knows)."""
    if cost is None or not math.isfinite(cost):
        return "cost unknown"
    if cost == 0:
        return "$0"
    if cost < 0.01:
        return f"${cost:.6f}".rstrip("0")
    return f"${cost:,.4f}"
