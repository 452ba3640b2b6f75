"""Braintrust face: an autoevals-style scorer for ``braintrust.Eval(...)`` and on its own.

    from summscore.braintrust import Summarization
    Summarization(model="gpt-4o-mini")(output=summary, input=article)   # -> autoevals.Score
    Eval("news", data=cases, task=summarize, scores=[Summarization(llm=judge)])

As autoevals' LLM scorers: ``input`` is the source, ``output`` the summary, and the judge is an
OpenAI-compatible ``client=`` (default: one from ``OPENAI_API_KEY`` / ``OPENAI_BASE_URL``) with
``model=`` (default: autoevals' default model), so ``Eval(..., scores=[Summarization])`` works as
it does for ``Factuality``. ``llm=`` takes any judge summscore accepts (``LexicalJudge()``
offline), ``scorer=`` shares one ``summscore.SummarizationScorer`` (and number) with the
other faces. ``expected`` (a reference summary) is not used: the metric is reference-free.

The ``Score`` carries the score (0..1: a scorer with ``scale`` other than 1 is refused), and the
reason, components and evidence as metadata. A case the judge could not score raises, as
autoevals' scorers do, so that ``Eval`` records it under the case's ``scorer_errors``.
"""

from __future__ import annotations

from typing import Any

from .adapters.platforms import face_scorer, result_metadata
from .adapters.rows import score_fields, unit_scale
from .calls.sync import run_sync
from .errors import MissingExtraError, SummscoreError
from .scorer import SummarizationScorer

try:
    from autoevals import Score, Scorer
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("autoevals", "braintrust", "summscore.braintrust", exc) from exc

__all__ = ["Summarization"]


class Summarization(Scorer):
    """Summarization score as an autoevals ``Scorer`` (see the module docstring)."""

    def __init__(
        self,
        llm: Any = None,
        *,
        scorer: SummarizationScorer | None = None,
        preset: str = "ragas",
        model: str | None = None,
        client: Any = None,
        name: str | None = None,
        **options: Any,
    ) -> None:
        if scorer is None and llm is None:
            llm, options = _default_judge(model, client), {**options, "model": model_name(model)}
        elif model is not None or client is not None:
            raise TypeError(
                "Summarization: model= and client= choose the OpenAI judge; "
                "with llm= or scorer= the judge is already chosen"
            )
        built = face_scorer("Summarization", llm, scorer, preset, options)
        self.scorer = unit_scale("Summarization", built)
        self.name = name or type(self).__name__

    def _name(self) -> str:
        return self.name

    def _run_eval_sync(self, output: Any, expected: Any = None, **kwargs: Any) -> Score:
        return run_sync(self._run_eval_async(output, expected, **kwargs))

    async def _run_eval_async(self, output: Any, expected: Any = None, **kwargs: Any) -> Score:
        result = await score_fields(
            self.scorer, kwargs.get("input"), output, source_field="input", summary_field="output"
        )
        if not result.ok:
            raise SummscoreError(f"{self.name}: {result.error or 'no score'}")
        metadata = {"rationale": result.reason, **result_metadata(result)}
        return Score(name=self.name, score=result.score, metadata=metadata)


def model_name(model: str | None) -> str:
    """``model``, or autoevals' default completion model (settable with ``autoevals.init``)."""
    if model is not None:
        return model
    try:
        from autoevals.oai import get_default_model
    except ImportError:  # autoevals before get_default_model (0.0.x): its DEFAULT_MODEL
        from autoevals.llm import DEFAULT_MODEL

        return str(DEFAULT_MODEL)
    return str(get_default_model())


def _default_judge(model: str | None, client: Any) -> Any:
    """The OpenAI client autoevals' LLM scorers would use: ``client=`` or one from the env."""
    if client is not None:
        return getattr(client, "openai", client)  # autoevals' LLMClient wraps the SDK client
    import openai

    return openai.AsyncOpenAI()
