"""Arize Phoenix face: an evaluator for ``phoenix.evals`` (``evaluate_dataframe`` and on its own).

    from summscore.phoenix import SummarizationEvaluator
    summarization = SummarizationEvaluator(llm=judge, preset="deepeval")
    evaluate_dataframe(dataframe=df, evaluators=[summarization])   # df has "input" and "output"
    summarization.evaluate({"input": article, "output": summary})  # -> [Score(...)]

As Phoenix's own metrics (``FaithfulnessEvaluator`` ...): the evaluator's fields are ``input``
(the source: a string, or a list of passages) and ``output`` (the summary); other column names
are mapped with
``bind_evaluator(evaluator=summarization, input_mapping={"input": "article", "output": "summary"})``.
Each row gets one ``Score`` named "summarization": the score, the reason as ``explanation``, the
components and evidence as ``metadata``, ``kind="llm"`` and ``direction="maximize"``. Phoenix
removed its own ``SummarizationEvaluator`` (the legacy evals API) in arize-phoenix-evals 3.0;
this one takes its place on the 2.x/3.x evaluator interface.

The judge (``llm=``) is what Phoenix's built-in evaluators take, Phoenix's own
``LLM(provider=..., model=...)`` (asked through its ``async_generate_object``, so its provider,
rate limiter and tracing apply), or any judge summscore accepts.

A row the judge could not score gets a Score with no score, the label "error" and the error as
explanation, rather than an exception: Phoenix's dataframe run would retry it and, by default,
stop every later row at the first failure. With ``scorer=`` it shares one
``summscore.SummarizationScorer`` (and number) with every other face.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from .adapters.platforms import face_scorer, result_metadata
from .adapters.rows import explanation, score_fields
from .calls.sync import run_sync
from .errors import MissingExtraError
from .judges.phoenix_llm import PhoenixJudge, is_phoenix_llm
from .results import SummaryResult
from .scorer import SummarizationScorer

try:
    from phoenix.evals import Evaluator, Score
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError(
        "arize-phoenix-evals", "phoenix", "summscore.phoenix", exc, module="phoenix"
    ) from exc

__all__ = ["SummarizationEvaluator"]


class SummarizationInput(BaseModel):
    input: str | list[str] = Field(description="The source text (or its passages).")
    output: str = Field(description="The summary of the source.")


class SummarizationEvaluator(Evaluator):
    """Summarization score as a ``phoenix.evals`` evaluator (see the module docstring)."""

    def __init__(
        self,
        llm: Any = None,
        *,
        scorer: SummarizationScorer | None = None,
        preset: str = "deepeval",
        name: str = "summarization",
        **options: Any,
    ) -> None:
        if is_phoenix_llm(llm):  # Phoenix's own judge object, as its built-in evaluators take
            llm = PhoenixJudge(llm) if scorer is None else llm
        self.scorer = face_scorer("SummarizationEvaluator", llm, scorer, preset, options)
        super().__init__(
            name=name, kind="llm", direction="maximize", input_schema=SummarizationInput
        )

    def _evaluate(self, eval_input: dict[str, Any]) -> list[Score]:
        return run_sync(self._async_evaluate(eval_input))

    async def _async_evaluate(self, eval_input: dict[str, Any]) -> list[Score]:
        result = await score_fields(
            self.scorer,
            eval_input.get("input"),
            eval_input.get("output"),
            source_field="input",
            summary_field="output",
        )
        return [self._score(result)]

    def _score(self, result: SummaryResult) -> Score:
        common: dict[str, Any] = {
            "name": self.name,
            "explanation": explanation(result),
            "metadata": result_metadata(result),
            "kind": self.kind,
            "direction": self.direction,
        }
        if not result.ok:
            return Score(label="error", **common)
        return Score(score=result.score, **common)
