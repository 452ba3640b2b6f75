"""MLflow face: a scorer for ``mlflow.genai.evaluate()`` (MLflow 3's GenAI scorer API).

    from summscore.mlflow import Summarization
    mlflow.genai.evaluate(data=rows, scorers=[Summarization(llm=judge, preset="deepeval")])

Each row's source and summary are read the way MLflow's own ragas and deepeval summarization
scorers read them: the summary from ``outputs``; the source from ``inputs`` (a string, or the
first of source/document/text/context/... in a dict), falling back to the trace's retrieved
contexts. ``source_from="expectations"`` reads it from ``expectations`` instead, and
``source_key=`` / ``summary_key=`` name the dict keys. The result is an MLflow ``Feedback``: the
score as value, the reason as rationale, and the components, missed questions and unsupported
claims as metadata. With ``scorer=`` it shares one :class:`summscore.SummarizationScorer` (and
number) with every other face.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import PrivateAttr

from .adapters.platforms import SOURCE_KEYS, SUMMARY_KEYS, face_scorer, pick_text, result_metadata
from .calls.sync import run_sync
from .errors import MissingExtraError
from .scorer import SummarizationScorer

try:
    from mlflow.entities import Feedback
    from mlflow.entities.assessment_source import AssessmentSource, AssessmentSourceType
    from mlflow.genai.scorers import Scorer
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("mlflow", "mlflow", "summscore.mlflow", exc) from exc

__all__ = ["Summarization"]

SourceFrom = Literal["inputs", "expectations"]


class Summarization(Scorer):
    """Summarization score for ``mlflow.genai.evaluate``: ``Summarization(llm=..., preset=...)``."""

    _scorer: SummarizationScorer = PrivateAttr()
    _source_from: str = PrivateAttr()
    _source_key: str | None = PrivateAttr(default=None)
    _summary_key: str | None = PrivateAttr(default=None)

    def __init__(
        self,
        llm: Any = None,
        *,
        scorer: SummarizationScorer | None = None,
        preset: str = "ragas",
        name: str = "summarization",
        source_from: SourceFrom = "inputs",
        source_key: str | None = None,
        summary_key: str | None = None,
        **options: Any,
    ) -> None:
        if source_from not in ("inputs", "expectations"):
            raise ValueError(f"source_from must be 'inputs' or 'expectations', got {source_from!r}")
        super().__init__(name=name)
        self._scorer = face_scorer("Summarization", llm, scorer, preset, options)
        self._source_from = source_from
        self._source_key = source_key
        self._summary_key = summary_key

    @property
    def scorer(self) -> SummarizationScorer:
        return self._scorer

    def _source(self, inputs: Any, expectations: Any, trace: Any) -> str | list[str]:
        field = self._source_from
        value = inputs if field == "inputs" else expectations
        keys = (self._source_key,) if self._source_key else SOURCE_KEYS
        if value is None and trace is not None:
            from mlflow.genai.utils.trace_utils import extract_retrieval_context_from_trace

            contexts = extract_retrieval_context_from_trace(trace)
            found = [str(c) for chunk in contexts.values() for c in chunk]
            if found:
                return found
        if isinstance(value, dict) and not self._source_key and "messages" in value:
            messages = value["messages"]
            return str(messages[-1].get("content", "")) if messages else ""
        return pick_text(value, keys, field)

    def __call__(
        self,
        *,
        inputs: Any = None,
        outputs: Any = None,
        expectations: dict[str, Any] | None = None,
        trace: Any = None,
        session: Any = None,
    ) -> Feedback:
        source_kind = AssessmentSource(
            source_type=AssessmentSourceType.LLM_JUDGE, source_id=self._scorer.judge.name
        )
        try:
            source = self._source(inputs, expectations, trace)
            keys = (self._summary_key,) if self._summary_key else SUMMARY_KEYS
            summary = pick_text(outputs, keys, "outputs")
            if not isinstance(summary, str):
                summary = "\n".join(summary)
            result = run_sync(self._scorer.ascore(source, summary))
        except Exception as exc:
            return Feedback(name=self.name, error=exc, source=source_kind)
        metadata = {k: _flat(v) for k, v in result_metadata(result).items()}
        if not result.ok:
            return Feedback(
                name=self.name,
                error=result.error or "no score",
                source=source_kind,
                metadata=metadata,
            )
        return Feedback(
            name=self.name,
            value=result.score,
            rationale=result.reason,
            source=source_kind,
            metadata=metadata,
        )


def _flat(value: Any) -> str:
    """MLflow keeps assessment metadata as strings."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
