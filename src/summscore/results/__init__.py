"""What scoring returns: one case's ``SummaryResult`` (its score, components, evidence and
``Usage``) and a batch's ``SummaryResults`` with its statistics.

The bottom layer, with ``summscore.errors``, ``summscore.formulas`` and
``summscore.cases``: it imports no other part of summscore, and every part may import it.
"""

from __future__ import annotations

from .batch import SummaryResults
from .result import AssessmentAnswer, ClaimVerdict, QuestionAnswer, SummaryResult
from .stats import BatchSummary
from .usage import Usage

__all__ = [
    "AssessmentAnswer",
    "BatchSummary",
    "ClaimVerdict",
    "QuestionAnswer",
    "SummaryResult",
    "SummaryResults",
    "Usage",
]
