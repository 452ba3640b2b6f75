"""The deepeval face's configuration: the judge its ``model=`` names, the prompt set of a custom
``evaluation_template``, the checks that ``scorer=`` and the other arguments agree, and the
test-case slots ``max_concurrency`` shares between a metric and its copies."""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from typing import Any

from ..scorer import SummarizationScorer

__all__ = [
    "case_slot",
    "check_extensions",
    "check_max_concurrency",
    "check_template",
    "deepeval_judge",
    "is_deepeval_judge",
    "template_prompts",
]

# Test cases measured at once per shared scorer and event loop, when max_concurrency is given.
_SLOTS: weakref.WeakKeyDictionary[Any, weakref.WeakKeyDictionary[Any, dict[int, asyncio.Semaphore]]]
_SLOTS = weakref.WeakKeyDictionary()


def check_max_concurrency(value: Any) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ValueError(f"max_concurrency must be a positive integer or None, got {value!r}")
    return value


def check_extensions(
    scorer: SummarizationScorer, *, timeout: float | None, max_concurrency: int | None
) -> None:
    """timeout= and max_concurrency= beside scorer= must agree with the scorer's."""
    current = {"timeout": scorer.timeout, "max_concurrency": scorer.max_concurrency}
    for name, value in (("timeout", timeout), ("max_concurrency", max_concurrency)):
        if value is not None and value != current[name]:
            raise ValueError(
                f"SummarizationMetric: {name}={value!r} contradicts the scorer, which uses "
                f"{name}={current[name]!r}; drop {name}= or build the scorer with it"
            )


def template_prompts(template: Any) -> Any:
    from ..prompts.deepeval_upstream import UpstreamDeepEvalPrompts

    return UpstreamDeepEvalPrompts(template=template)


def check_template(scorer: SummarizationScorer, template: Any, custom: bool) -> None:
    """A custom evaluation_template beside scorer= must be the one the scorer's prompts use."""
    used = getattr(scorer.prompts, "template", None)
    if used is None and not custom:
        return
    if used is not template:
        raise ValueError(
            f"SummarizationMetric: evaluation_template={getattr(template, '__name__', template)!r} "
            f"is not the scorer's prompt set ({scorer.prompt_set}); drop evaluation_template= or "
            "build the scorer with prompts=UpstreamDeepEvalPrompts(template=...)"
        )


def case_slot(scorer: SummarizationScorer, limit: int | None) -> Any:
    """A slot among ``limit`` test cases judged at once with ``scorer`` (metric copies share it)."""
    if limit is None:
        return contextlib.nullcontext()
    loop = asyncio.get_running_loop()
    per_loop = _SLOTS.setdefault(scorer, weakref.WeakKeyDictionary())
    semaphores = per_loop.setdefault(loop, {})
    if limit not in semaphores:
        semaphores[limit] = asyncio.Semaphore(limit)
    return semaphores[limit]


def is_deepeval_judge(judge: Any) -> bool:
    from ..judges.deepeval_model import DeepEvalJudge

    return isinstance(judge, DeepEvalJudge)


def deepeval_judge(model: Any, async_mode: bool) -> Any:
    """A deepeval model (object, name or None: deepeval's default) as a judge; any other judge
    the core accepts is passed through."""
    from ..judges.deepeval_model import DeepEvalJudge, is_deepeval_model

    if model is None or isinstance(model, str) or is_deepeval_model(model):
        judge = DeepEvalJudge(model, async_mode=async_mode)
        from ._clients import PooledClientJudge, pools_clients

        if async_mode and pools_clients(judge.model):  # speed only: one client per loop
            return PooledClientJudge(judge.model, async_mode=async_mode)
        return judge
    return model
