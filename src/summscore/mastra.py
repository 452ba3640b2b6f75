"""Mastra face: ``SummarizationMetric(model, scale=1)`` with Mastra's ``{score, info}`` result.

Mastra's TypeScript ``new SummarizationMetric(model, { scale })`` and ``await metric.measure(input,
output)``, in Python: ``measure`` is synchronous (and works inside a running event loop),
``ameasure`` is the coroutine. ``info`` uses Mastra's key names: ``reason``, ``alignmentScore``,
``coverageScore``. Needs no framework.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ._adapters import check_scorer
from ._inputs import FieldNames
from ._runner import run_sync
from .result import SummaryResult
from .scorer import SummarizationScorer

__all__ = ["MastraResult", "SummarizationMetric"]

_FIELDS = FieldNames(source="input", summary="output")
_INFO_NAMES = {
    "alignment_score": "alignmentScore",
    "coverage_score": "coverageScore",
    "qa_score": "qaScore",
    "conciseness_score": "concisenessScore",
}


@dataclass
class MastraResult:
    """Mastra's metric result: ``score`` and ``info``; ``details`` keeps the full SummaryResult."""

    score: float
    info: dict[str, Any]
    details: SummaryResult | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """``{"score": ..., "info": {...}}``, JSON-serialisable (NaN becomes None)."""
        score = None if math.isnan(self.score) else self.score
        return {"score": score, "info": dict(self.info)}


class SummarizationMetric:
    """Mastra's SummarizationMetric: min(alignment, coverage), each round2(fraction * scale).

    ``model`` is any judge the core accepts. For an OpenAI-compatible endpoint pass
    ``summscore.judges.OpenAIJudge(client, "gpt-4o-mini")``, the counterpart of Mastra's
    ``openai("gpt-4o-mini")``; ``scorer=`` shares an existing scorer instead.
    """

    def __init__(
        self, model: Any = None, scale: float = 1, scorer: SummarizationScorer | None = None
    ) -> None:
        if scorer is None:
            if model is None:
                raise TypeError(
                    "SummarizationMetric needs a model (any judge summscore accepts) or scorer="
                )
            scorer = SummarizationScorer(llm=model, preset="mastra", scale=scale)
        else:
            check_scorer(
                "SummarizationMetric", scorer, llm=("model", model), options={"scale": (scale, 1)}
            )
        self.model = model
        self.scale = scale
        self.scorer = scorer

    async def ameasure(self, input: str, output: str) -> MastraResult:
        """Score ``output`` (the summary) against ``input`` (the original text)."""
        result = await self.scorer._ascore(input, output, None, _FIELDS)
        info: dict[str, Any] = {
            "reason": result.reason if result.error is None else result.error,
            "alignmentScore": result.alignment_score,
            "coverageScore": result.coverage_score,
        }
        for name, value in result.components().items():
            info.setdefault(_INFO_NAMES[name], value)
        return MastraResult(score=result.score, info=info, details=result)

    def measure(self, input: str, output: str) -> MastraResult:
        """Synchronous :meth:`ameasure`; works inside a running event loop too."""
        return run_sync(self.ameasure(input, output))
