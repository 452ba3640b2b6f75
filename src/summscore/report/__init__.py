"""The HTML report of a scoring run: one self-contained page (:mod:`.page`), its fragments
(:mod:`.html`) and its inline style and script (:mod:`.assets`).

May import :mod:`summscore.results` and :mod:`summscore.masking` (a report is shared, so keys in
its texts are masked); never the scorer, a judge or a face.
"""

from __future__ import annotations

from .html import ReportCase
from .page import PAGE_SIZE, ReportWriter, render_report, write_report

__all__ = ["PAGE_SIZE", "ReportCase", "ReportWriter", "render_report", "write_report"]
