"""What a judge call costs and how much text a judge model can read, from pydantic's genai-prices.

genai-prices (https://github.com/pydantic/genai-prices) is a maintained table of model prices and
context windows for OpenAI, Anthropic, Google, Groq, Mistral, OpenRouter and others, shipped as
data inside the package (no network at run time). A model is found by its name; when the client's
``base_url`` names a known provider (OpenRouter, Groq, Together, ...), that provider's price wins.
A model the table does not know has no price: its cost is None ("cost unknown"), never 0.

The library is imported on first use only, so ``import summscore`` stays light. It needs Python
3.11+; on 3.10 it is not installed and every cost is unknown unless per-token prices are given.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

__all__ = [
    "ModelFacts",
    "check_fits",
    "check_judge_fits",
    "estimate_tokens",
    "model_facts",
    "price",
]


@dataclass(frozen=True)
class ModelFacts:
    """What the price table says about one model."""

    model_id: str
    provider: str
    context_window: int | None


@functools.lru_cache(maxsize=256)
def _find(model: str, base_url: str | None) -> Any:
    """(provider, model info) from genai-prices, or None when the table does not know the model."""
    try:
        from genai_prices.data_snapshot import get_snapshot
    except ImportError:  # pragma: no cover - Python 3.10, where genai-prices is not installed
        return None
    snapshot = get_snapshot()
    attempts: list[str | None] = [base_url, None] if base_url else [None]
    for url in attempts:
        try:
            return snapshot.find_provider_model(model, None, None, url)
        except LookupError:
            continue
    return None


@functools.lru_cache(maxsize=256)
def model_facts(model: str, base_url: str | None = None) -> ModelFacts | None:
    """The model's id, provider and context window, or None when genai-prices does not know it."""
    found = _find(model, base_url)
    if found is None:
        return None
    provider, info = found
    return ModelFacts(info.id, provider.id, info.context_window)


# Per (model, base_url): when the price was last worked out in full, and the model's flat
# (input, output) dollars per million tokens, or None when its price is not flat (tiers, other
# units). genai-prices' full calculation costs about 0.3 ms per call; a flat price is two
# multiplications. Prices can change on a date (conditional prices), so the full calculation is
# redone every _RECHECK seconds.
_flat: dict[tuple[str, str | None], tuple[float, tuple[Decimal, Decimal] | None]] = {}
_RECHECK = 600.0
_MILLION = Decimal(1_000_000)


def price(
    model: str, input_tokens: int, output_tokens: int, *, base_url: str | None = None
) -> float | None:
    """The price in US dollars of one call, or None when the model is unknown."""
    key = (model, base_url)
    known = _flat.get(key)
    if known is not None and known[1] is not None and time.monotonic() - known[0] < _RECHECK:
        per_input, per_output = known[1]
        cost = float((input_tokens * per_input + output_tokens * per_output) / _MILLION)
        return cost if math.isfinite(cost) else None
    found = _find(model, base_url)
    if found is None:
        return None
    from genai_prices import Usage as PriceUsage

    provider, info = found
    try:
        calculation = info.calc_price(
            PriceUsage(input_tokens=input_tokens, output_tokens=output_tokens), provider
        )
    except Exception:  # a price is a nicety: a gap in the table never fails a judge call
        return None
    total = calculation.total_price
    _flat[key] = (time.monotonic(), _flat_rates(calculation, input_tokens, output_tokens, total))
    cost = float(total)
    return cost if math.isfinite(cost) else None


def _flat_rates(
    calculation: Any, input_tokens: int, output_tokens: int, total: Any
) -> tuple[Decimal, Decimal] | None:
    """The (input, output) per-million prices when both are flat (not tiered by volume) and
    they alone reproduce ``total`` for this call (no per-request charge); None otherwise (the
    full calculation is then done for every call). Prices of other units (cached input, audio,
    searches) do not apply: a judge call reports plain input and output tokens."""
    prices = getattr(getattr(calculation, "model_price", None), "__dict__", {})
    per_input, per_output = prices.get("input_mtok"), prices.get("output_mtok")
    if not isinstance(per_input, Decimal) or not isinstance(per_output, Decimal):
        return None
    if (input_tokens * per_input + output_tokens * per_output) / _MILLION != total:
        return None
    return per_input, per_output


def estimate_tokens(text: str) -> int:
    """A low estimate of the tokens in ``text``: one per five bytes of UTF-8.

    Current tokenisers give four to five characters per token in English and more tokens per
    byte in most other scripts (a CJK character is three bytes and about one token), so a text
    this estimate finds too long is too long, without loading a tokeniser.
    """
    return len(text.encode("utf-8", "surrogatepass")) // 5


def check_fits(
    text: str,
    model: str,
    *,
    base_url: str | None = None,
    field: str = "source",
    reserve: int = 1024,
) -> None:
    """Raise ValueError naming ``field`` when ``text`` cannot fit in the model's context window.

    ``reserve`` tokens are kept for the prompt's instructions and the reply. Models whose window is
    unknown are not checked.
    """
    facts = model_facts(model, base_url)
    if facts is None or not facts.context_window:
        return
    tokens = estimate_tokens(text)
    room = facts.context_window - reserve
    if tokens > room:
        raise ValueError(
            f"{field} is about {tokens:,} tokens, more than the context window of {model} "
            f"({facts.context_window:,} tokens, {reserve:,} kept for the prompt and the reply); "
            "shorten it, split it, or use a judge model with a longer context"
        )


def check_judge_fits(judge: Any, text: str, *, field: str = "source") -> None:
    """``check_fits`` for a judge that names its model (``OpenAIJudge.model``); others pass.

    The hook for the core: call it on the source before the first judge call, so a source longer
    than the model's context window is that row's clear error instead of an opaque API error.
    A judge with its own limit (``check_fits(text, field)``: the offline judge's cap per text)
    checks the text itself.
    """
    own = getattr(judge, "check_fits", None)
    if callable(own):
        own(text, field)
        return
    model = getattr(judge, "model", None)
    if getattr(judge, "reads_prompts", False) and isinstance(model, str) and model:
        check_fits(text, model, field=field)
