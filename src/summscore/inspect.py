"""Inspect AI face: a ``@scorer`` for ``Task(dataset, solver, scorer=summarization())``.

    from summscore.inspect import summarization
    Task(dataset=docs, solver=generate(), scorer=summarization(preset="deepeval"))

The source is the sample's input (``source="input"``, the default) or a metadata field
(``source="metadata:article"``); the summary is the model's output (``state.output.completion``).
The judge is summscore's own (``llm=``, ``scorer=`` to share one scorer with other faces) or, by
default, an Inspect model: the model of the ``grader`` role when the eval sets one
(``--model-role grader=...``), else ``model=`` or the model under evaluation, called through
Inspect so the user's provider configuration holds. Each sample gets a ``Score`` with the value,
the reason as explanation and the components and evidence as metadata; ``mean`` and ``stderr``
are reported. A sample the judge could not score gets NaN and the error as its explanation.

``name=`` names the scorer (default ``summarization``): two instances in one Task, say one per
preset, report as ``summarization(name="summ_ragas")`` and ``summarization(name="summ_mastra")``
instead of Inspect's ``summarization`` and ``summarization1``. A named instance is registered in
Inspect's registry under its name when it is built (Inspect keys scores by registry name), so
``inspect score`` on a log re-creates it where the task's code has built it.
"""

from __future__ import annotations

import math
import threading
from typing import Any

from .adapters.platforms import face_scorer, pick_text, result_metadata
from .calls.sync import run_on_background
from .errors import MissingExtraError
from .scorer import SummarizationScorer

try:
    from inspect_ai.model import get_model
    from inspect_ai.scorer import Score, Scorer, Target, mean, stderr
    from inspect_ai.scorer import scorer as inspect_scorer
    from inspect_ai.solver import TaskState
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("inspect-ai", "inspect", "summscore.inspect", exc) from exc

__all__ = ["summarization"]


DEFAULT_NAME = "summarization"


def summarization(
    llm: Any = None,
    *,
    name: str = DEFAULT_NAME,
    scorer: SummarizationScorer | None = None,
    preset: str = "deepeval",
    model: str | None = None,
    model_role: str = "grader",
    source: str = "input",
    **options: Any,
) -> Scorer:
    """Score the model's summary of the sample's input (see the module docstring)."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"name must be a non-empty string, got {name!r}")
    factory = _registered if name == DEFAULT_NAME else _named(name)
    return factory(
        llm,
        scorer=scorer,
        preset=preset,
        model=model,
        model_role=model_role,
        source=source,
        **options,
    )


def _named(name: str) -> Any:
    """The factory registered under ``name`` (Inspect's public way to name a scorer)."""
    return inspect_scorer(metrics=[mean(), stderr()], name=name)(_summarization)


def _summarization(
    llm: Any = None,
    *,
    scorer: SummarizationScorer | None = None,
    preset: str = "deepeval",
    model: str | None = None,
    model_role: str = "grader",
    source: str = "input",
    **options: Any,
) -> Scorer:
    """The scorer itself, whichever name it is registered under."""
    if source != "input" and not source.startswith("metadata:"):
        raise ValueError(f"source must be 'input' or 'metadata:<key>', got {source!r}")
    fixed = face_scorer("summarization", llm, scorer, preset, options) if (llm or scorer) else None
    built: dict[str, SummarizationScorer] = {}
    lock = threading.Lock()

    def active() -> SummarizationScorer:
        if fixed is not None:
            return fixed
        judge_model = get_model(role=model_role, default=model)
        key = str(judge_model)
        with lock:
            if key not in built:
                built[key] = SummarizationScorer(llm=judge_model, preset=preset, **options)
            return built[key]

    async def score(state: TaskState, target: Target) -> Score:
        try:
            if source == "input":
                text: Any = state.input_text
            else:
                field = source.removeprefix("metadata:")
                text = pick_text(
                    (state.metadata or {}).get(field), (field,), f"metadata[{field!r}]"
                )
            summary = state.output.completion
            if fixed is not None:
                # summscore's own judge: its calls run on summscore's loop, not on Inspect's,
                # which spends the samples' logging work between the scorer's awaits (answers
                # read late there stretched the judge's rounds). An Inspect model stays on
                # Inspect's loop: it is called through Inspect's own context.
                result = await run_on_background(fixed.ascore(text, summary))
            else:
                result = await active().ascore(text, summary)
        except Exception as exc:
            return Score(value=math.nan, explanation=f"{type(exc).__name__}: {exc}")
        return Score(
            value=result.score,
            answer=summary,
            explanation=result.reason if result.ok else result.error,
            metadata=result_metadata(result),
        )

    return score


# The default name's factory, registered at import: ``inspect score`` re-creates
# ``summscore/summarization`` from a log with the options it recorded.
_registered = inspect_scorer(metrics=[mean(), stderr()], name=DEFAULT_NAME)(_summarization)
