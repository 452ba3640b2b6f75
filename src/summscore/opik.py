"""Opik face: a ``BaseMetric`` for ``opik.evaluation.evaluate()`` and on its own.

    from summscore.opik import Summarization
    metric = Summarization(llm=judge, preset="deepeval")
    metric.score(input=original_text, output=summary)   # -> ScoreResult(value, reason, metadata)

``input`` is the source and ``output`` the summary, as in Opik's own LLM-judge metrics; a
``context`` (a string or a list of passages, Opik's name for retrieved text) is the source instead
when given. ``ascore`` is the coroutine. With ``scorer=`` it shares one
:class:`summscore.SummarizationScorer` (and number) with every other face. A case the judge could
not score is a ``ScoreResult`` with ``scoring_failed=True`` and the error as reason.
"""

from __future__ import annotations

import math
from typing import Any

from .adapters.platforms import face_scorer, pick_text, result_metadata
from .calls.sync import run_sync
from .errors import MissingExtraError
from .results import SummaryResult
from .scorer import SummarizationScorer

try:
    from opik.evaluation.metrics import base_metric, score_result
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("opik", "opik", "summscore.opik", exc) from exc

__all__ = ["Summarization"]


class Summarization(base_metric.BaseMetric):
    """Summarization score as an Opik metric (see the module docstring)."""

    def __init__(
        self,
        llm: Any = None,
        *,
        scorer: SummarizationScorer | None = None,
        preset: str = "ragas",
        name: str = "summarization",
        track: bool = True,
        project_name: str | None = None,
        **options: Any,
    ) -> None:
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
