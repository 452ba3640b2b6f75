"""summscore: one summarization metric, the same number in every evaluation framework.

The core is ``SummarizationScorer``. The faces, one per framework, load their framework only
when imported: ``summscore.ragas``, ``summscore.deepeval``, ``summscore.mastra``,
``summscore.mlflow``, ``summscore.inspect``, ``summscore.opik``, ``summscore.langsmith``,
``summscore.promptfoo``, ``summscore.braintrust``, ``summscore.phoenix``, ``summscore.trulens``
and ``summscore.ray`` (Ray Data). ``compare`` (loaded on first use) compares two runs case by
case.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._version import __version__
from .cases import Case
from .errors import (
    JudgeError,
    JudgeOutputError,
    MissingExtraError,
    SummscoreError,
    TransientJudgeError,
)
from .results import (
    AssessmentAnswer,
    ClaimVerdict,
    QuestionAnswer,
    SummaryResult,
    SummaryResults,
    Usage,
)
from .scorer import SummarizationScorer

if TYPE_CHECKING:
    from .comparison import compare

__all__ = [
    "AssessmentAnswer",
    "Case",
    "ClaimVerdict",
    "JudgeError",
    "JudgeOutputError",
    "MissingExtraError",
    "QuestionAnswer",
    "SummarizationScorer",
    "SummaryResult",
    "SummaryResults",
    "SummscoreError",
    "TransientJudgeError",
    "Usage",
    "__version__",
    "compare",
]


def __getattr__(name: str) -> Any:
    """``summscore.compare``, imported on first use (``import summscore`` stays light)."""
    if name == "compare":
        from .comparison import compare

        return compare
    raise AttributeError(f"module 'summscore' has no attribute {name!r}")
