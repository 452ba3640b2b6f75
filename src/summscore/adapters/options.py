"""Helpers shared by the framework faces: reconciling upstream-style options with ``scorer=``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..scorer import SummarizationScorer

__all__ = ["check_scorer", "uses_llm"]


def uses_llm(scorer: SummarizationScorer, llm: Any) -> bool:
    """True when ``llm`` is what ``scorer`` judges with (the object given, or the judge's model)."""
    if llm is None or llm is scorer.llm or llm is scorer.judge:
        return True
    return any(getattr(scorer.judge, attr, None) is llm for attr in ("model", "llm"))


def check_scorer(
    owner: str,
    scorer: Any,
    *,
    llm: tuple[str, Any] | None = None,
    options: Mapping[str, tuple[Any, Any]] = {},
) -> SummarizationScorer:
    """Validate ``scorer=`` against the upstream-style arguments given beside it.

    ``options`` maps each upstream option to (value given, upstream default). A value must agree
    with the scorer's own setting when its preset has that option; when it does not, only the
    default is accepted. Disagreement raises ValueError naming both sides.
    """
    if not isinstance(scorer, SummarizationScorer):
        raise TypeError(
            f"{owner}: scorer must be a summscore.SummarizationScorer, got {type(scorer).__name__}"
        )
    if llm is not None:
        name, value = llm
        if not uses_llm(scorer, value):
            raise ValueError(
                f"{owner}: {name}= and scorer= name different judges; pass only scorer= "
                f"(it judges with {scorer.judge.name})"
            )
    scorer_options = scorer.options
    for name, (value, default) in options.items():
        if name == "threshold" and scorer.threshold is not None:
            current: Any = scorer.threshold
        elif name in scorer_options:
            current = scorer_options[name]
        else:
            if value != default:
                raise ValueError(
                    f"{owner}: {name}={value!r} has no effect with a {scorer.preset}-preset scorer; "
                    f"drop {name}= or build the scorer with the preset that uses it"
                )
            continue
        if value != current:
            raise ValueError(
                f"{owner}: {name}={value!r} contradicts the scorer, which uses {name}={current!r}; "
                f"drop {name}= or build the scorer with it"
            )
    return scorer
