"""summscore: one summarization metric, the same number in every evaluation framework.

The core is ``SummarizationScorer``; the framework faces live in ``summscore.ragas``,
``summscore.deepeval`` and ``summscore.mastra`` and load their framework only when imported.
"""

from __future__ import annotations

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
]
