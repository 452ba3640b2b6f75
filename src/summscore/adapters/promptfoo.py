"""promptfoo's assertion protocol, shared by the Python assertion (``summscore.promptfoo``) and
the service's webhook route (``summscore.serve.promptfoo``).

promptfoo hands an assertion the provider's ``output`` (the summary) and a ``context`` whose
``vars`` are the test's variables (the source is one of them, ``source`` by default) and whose
``config`` is the assertion's ``config:`` block. It expects a grading result back: ``pass``,
``score`` and ``reason``. A case summscore could not score is a failed assertion whose reason
says why (promptfoo has no third state for an assertion).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ..results import SummaryResult
from ..scorer import SummarizationScorer
from .platforms import result_metadata

__all__ = ["JUDGE_SETTINGS", "grading_result", "scorer_from_settings", "source_var"]

# The settings that choose the judge; every other key of ``config:`` is a scorer option.
JUDGE_SETTINGS = ("preset", "judge", "model", "base_url", "api_key_env", "source_var")


def source_var(context: Any, name: str) -> Any:
    """The value of test variable ``name`` (the source); ValueError naming it when absent."""
    variables = context.get("vars") if isinstance(context, Mapping) else None
    if not isinstance(variables, Mapping) or variables.get(name) is None:
        given = ", ".join(map(str, variables)) if isinstance(variables, Mapping) else "none"
        raise ValueError(
            f"vars.{name}: the test has no variable {name!r} holding the source "
            f"(its vars: {given}); name it with config.source_var"
        )
    return variables[name]


def grading_result(result: SummaryResult, threshold: float | None = None) -> dict[str, Any]:
    """promptfoo's GradingResult for ``result``.

    ``pass``: the score reaches ``threshold`` when one is given, else the preset's own pass mark
    (deepeval's ``threshold``), else any score above 0 (promptfoo's rule for a bare number).
    """
    if not result.ok:
        return {
            "pass": False,
            "score": 0,
            "reason": f"summscore could not score this output: {result.error or 'no score'}",
            "metadata": result_metadata(result),
        }
    if threshold is not None:
        passed = result.score >= threshold
    elif result.success is not None:
        passed = result.success
    else:
        passed = result.score > 0
    return {
        "pass": passed,
        "score": result.score,
        "reason": result.reason or f"summarization score {result.score:.3f}",
        "metadata": result_metadata(result),
    }


def scorer_from_settings(
    settings: Mapping[str, Any], env: Mapping[str, str] = os.environ
) -> SummarizationScorer:
    """The scorer an assertion's ``config:`` describes, in ``summscore score``'s terms.

    ``preset`` (default ragas); ``judge``: ``lexical`` (offline, the default) or ``openai``
    (an OpenAI-compatible server: ``model`` required, ``base_url`` else ``OPENAI_BASE_URL``, the
    key from the variable ``api_key_env`` names, default ``OPENAI_API_KEY``). Other keys are the
    scorer's options (``threshold``, ``coeff``, ``n``, ``scale``, ``reply_cache`` ...).
    """
    options = {k: v for k, v in settings.items() if k not in JUDGE_SETTINGS}
    judge = settings.get("judge") or ("openai" if settings.get("model") else "lexical")
    preset = settings.get("preset", "ragas")
    if judge == "lexical":
        if settings.get("model") or settings.get("base_url"):
            raise ValueError("config.model and config.base_url need config.judge: openai")
        from ..judges import LexicalJudge

        return SummarizationScorer(llm=LexicalJudge(), preset=preset, **options)
    if judge != "openai":
        raise ValueError(f"config.judge: 'lexical' or 'openai', got {judge!r}")
    model = settings.get("model")
    if not model:
        raise ValueError("config.judge openai needs config.model, e.g. model: gpt-4o-mini")
    import openai

    key_var = settings.get("api_key_env", "OPENAI_API_KEY")
    base_url = settings.get("base_url") or env.get("OPENAI_BASE_URL")
    key = env.get(key_var)
    if not key:
        if not base_url:
            raise ValueError(
                f"config.judge openai needs an API key in the environment variable {key_var} "
                "(or config.base_url for a local server that needs none)"
            )
        key = "not-needed"  # local servers ignore it; the client insists on one
    client = openai.AsyncOpenAI(api_key=key, base_url=base_url)
    return SummarizationScorer(llm=client, model=model, preset=preset, **options)
