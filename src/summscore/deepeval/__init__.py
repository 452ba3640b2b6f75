"""DeepEval face: ``SummarizationMetric`` and its ``SummarizationTemplate``, for
``measure()``, ``evaluate()`` and ``assert_test`` (extra ``summscore[deepeval]``).

Laid out as deepeval's own metric packages are (``deepeval.metrics.summarization``): the metric
in ``summarization``, what differs between deepeval releases in ``compat``, the judge and
template options in ``config``. A face: it translates deepeval's types to a call of
``summscore.SummarizationScorer`` and back, and decides no number.
"""

from __future__ import annotations

from .summarization import SummarizationMetric, SummarizationTemplate

__all__ = ["SummarizationMetric", "SummarizationTemplate"]
