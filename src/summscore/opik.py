"""Opik face: a ``BaseMetric`` for ``opik.evaluation.evaluate()`` and on its own.

    from summscore.opik import Summarization
    metric = Summarization(model="gpt-4o-mini", preset="deepeval")
    metric.score(input=original_text, output=summary)   # -> ScoreResult(value, reason, metadata)

The judge is named as Opik's own LLM-judge metrics name theirs: ``model=`` takes a model name
(LiteLLM's, ``"gpt-4o-mini"``, ``"anthropic/claude-3-5-sonnet-latest"``) or an Opik model object
(an ``OpikBaseModel``: ``LiteLLMChatModel``, a subclass of your own), with ``temperature=`` and
``seed=`` for a named model and Opik's default model (``OPIK_DEFAULT_LLM``) when none is given; the
model is Opik's own (``opik.evaluation.models.models_factory``), tracked when ``track`` is. ``llm=``
takes any judge summscore accepts (a string there is an Opik model name too), ``scorer=`` shares
one ``summscore.SummarizationScorer`` (and number) with every other face.

``input`` is the source and ``output`` the summary, as in Opik's own LLM-judge metrics; a
``context`` (a string or a list of passages, Opik's name for retrieved text) is the source instead
when given. ``ascore`` is the coroutine. A case the judge could not score is a ``ScoreResult``
with ``scoring_failed=True`` and the error as reason.
"""

from __future__ import annotations

import math
from typing import Any

from .adapters.options import uses_llm
from .adapters.platforms import face_scorer, pick_text, result_metadata
from .calls.sync import run_sync
from .errors import MissingExtraError
from .results import SummaryResult
from .scorer import SummarizationScorer

try:
    from opik.evaluation.metrics import base_metric, score_result
    from opik.evaluation.models import OpikBaseModel, models_factory
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("opik", "opik", "summscore.opik", exc) from exc

__all__ = ["Summarization"]


class Summarization(base_metric.BaseMetric):
    """Summarization score as an Opik metric (see the module docstring)."""

    def __init__(
        self,
        llm: Any = None,
        *,
        model: str | OpikBaseModel | None = None,
        scorer: SummarizationScorer | None = None,
        preset: str = "deepeval",
        name: str = "summarization",
        track: bool = True,
        project_name: str | None = None,
        temperature: float | None = None,
        seed: int | None = None,
        **options: Any,
    ) -> None:
        if isinstance(llm, str):  # Opik has one meaning for a string judge: a model name
            if model is not None:
                raise TypeError("Summarization: pass the judge once, as model=")
            llm, model = None, llm
        if llm is not None and model is not None:
            raise TypeError("Summarization: pass the judge once: model= (Opik's) or llm=")
        if scorer is not None and model is not None:
            _same_model(scorer, model)
        elif scorer is None and llm is None:
            llm = _opik_model(model, track=track, temperature=temperature, seed=seed)
        self.scorer = face_scorer("Summarization", llm, scorer, preset, options)
        super().__init__(name=name, track=track, project_name=project_name)

    def score(
        self, input: Any = None, output: Any = None, context: Any = None, **ignored: Any
    ) -> score_result.ScoreResult:
        """Score ``output`` (the summary) against ``context`` or else ``input`` (the source)."""
        return run_sync(self._ascore(input, output, context))

    async def ascore(
        self, input: Any = None, output: Any = None, context: Any = None, **ignored: Any
    ) -> score_result.ScoreResult:
        return await self._ascore(input, output, context)

    async def _ascore(self, input: Any, output: Any, context: Any) -> score_result.ScoreResult:
        try:
            field = "context" if context is not None else "input"
            source = pick_text(context if context is not None else input, ("text",), field)
            summary = pick_text(output, ("output", "summary"), "output")
            if not isinstance(summary, str):
                summary = "\n".join(summary)
            result = await self.scorer.ascore(source, summary)
        except Exception as exc:
            return self._failed(f"{type(exc).__name__}: {exc}")
        if not result.ok:
            return self._failed(result.error or "no score", result)
        return score_result.ScoreResult(
            name=self.name,
            value=result.score,
            reason=result.reason,
            metadata=result_metadata(result),
        )

    def _failed(self, reason: str, result: SummaryResult | None = None) -> score_result.ScoreResult:
        return score_result.ScoreResult(
            name=self.name,
            value=math.nan,
            reason=reason,
            metadata=result_metadata(result) if result is not None else None,
            scoring_failed=True,
        )


def _opik_model(
    model: str | OpikBaseModel | None, *, track: bool, temperature: float | None, seed: int | None
) -> OpikBaseModel:
    """The model object Opik's own LLM-judge metrics make of ``model=`` (their ``_init_model``)."""
    if isinstance(model, OpikBaseModel):
        return model
    if model is not None and not isinstance(model, str):
        raise TypeError(
            f"Summarization: model= takes a model name or an Opik OpikBaseModel, got "
            f"{type(model).__name__}; pass other judges as llm="
        )
    model_kwargs: dict[str, Any] = {}
    if temperature is not None:
        model_kwargs["temperature"] = temperature
    if seed is not None:
        model_kwargs["seed"] = seed
    return models_factory.get(model_name=model, track=track, **model_kwargs)


def _same_model(scorer: SummarizationScorer, model: str | OpikBaseModel) -> None:
    named = isinstance(model, str) and scorer.judge.name == f"opik:{model}"
    if not (named or uses_llm(scorer, model)):
        raise ValueError(
            f"Summarization: model= and scorer= name different judges; pass only scorer= "
            f"(it judges with {scorer.judge.name})"
        )
