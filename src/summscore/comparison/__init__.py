"""Comparing two runs: did the candidate's summaries get worse than the base's?

:func:`compare` loads two runs (results files or results in memory, :mod:`.runs`), refuses runs
scored under different settings unless told (:mod:`.settings`), matches their cases by id or by
fingerprint (:mod:`.matching`) and works out the paired figures (:mod:`.build`, with the
statistics of :mod:`.stats`: a seeded paired bootstrap, McNemar's exact test) into a
:class:`Comparison` (:mod:`.result`); :mod:`.report` writes it as a self-contained HTML page.
``summscore compare`` (the CLI) and ``summscore.compare`` are this.

May import :mod:`summscore.files` (to read results files), :mod:`summscore.results` and
:mod:`summscore.masking`; never a face, the CLI or the service.
"""

from __future__ import annotations

from .build import compare
from .result import CaseChange, Comparison, MetricChange, PassRateChange, Verdict
from .runs import Run, RunCase, load_run
from .settings import ComparisonRefused
from .stats import MIN_CASES, Interval

__all__ = [
    "MIN_CASES",
    "CaseChange",
    "Comparison",
    "ComparisonRefused",
    "Interval",
    "MetricChange",
    "PassRateChange",
    "Run",
    "RunCase",
    "Verdict",
    "compare",
    "load_run",
]
