"""Comparing two runs: did the candidate's summaries get worse than the base's?

``compare`` loads two runs (results files or results in memory, ``runs``), refuses runs
scored under different settings unless told (``settings``), matches their cases by id or by
fingerprint (``matching``) and works out the paired figures (``build``, with the
statistics of ``stats``: a seeded paired bootstrap, McNemar's exact test) into a
``Comparison`` (``result``); ``report`` writes it as a self-contained HTML page.
``summscore compare`` (the CLI) and ``summscore.compare`` are this.

May import ``summscore.files`` (to read results files), ``summscore.results`` and
``summscore.masking``; never a face, the CLI or the service.
"""

from __future__ import annotations

from .build import compare
from .changes import CaseChange, MetricChange, PassRateChange, Verdict
from .gate import Gate
from .result import Comparison
from .runs import Run, RunCase, load_run
from .settings import ComparisonRefused
from .stats import MIN_CASES, Interval

__all__ = [
    "MIN_CASES",
    "CaseChange",
    "Comparison",
    "ComparisonRefused",
    "Gate",
    "Interval",
    "MetricChange",
    "PassRateChange",
    "Run",
    "RunCase",
    "Verdict",
    "compare",
    "load_run",
]
