"""The HTML report of a scoring run: one self-contained page (``page``), its fragments
(``html``) and its inline style and script (``assets``).

May import ``summscore.results`` and ``summscore.masking`` (a report is shared, so keys in
its texts are masked); never the scorer, a judge or a face.
"""

from __future__ import annotations

from .html import ReportCase
from .page import PAGE_SIZE, ReportWriter, render_report, write_report

__all__ = ["PAGE_SIZE", "ReportCase", "ReportWriter", "render_report", "write_report"]
