"""The small HTML tables notebooks show for a result and for a batch (``_repr_html_``)."""

from __future__ import annotations

import html
import math
from typing import Any

__all__ = ["CSS", "cell", "number"]

CSS = (
    "<style>.summscore-r td,.summscore-r th{padding:2px 8px;text-align:left;vertical-align:top}"
    ".summscore-r .bad{color:#b3261e}.summscore-r .ok{color:#1b7f3b}"
    ".summscore-r caption{text-align:left;font-weight:600;padding-top:6px}</style>"
)


def cell(value: Any) -> str:
    return html.escape(str(value), quote=True)


def number(value: float | None) -> str:
    if value is None or math.isnan(value):
        return "–"
    return f"{value:.3f}"
