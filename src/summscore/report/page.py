"""A self-contained HTML report of a scoring run.

One file, no external assets, no server: the judge's spend (calls, tokens, cost), the pass rate,
the score distribution and statistics, the mean components, the failures by cause, and a card per
case (worst first) with its components, the summary with unsupported claims highlighted, the
questions it missed, the claims the judge did not find supported, and any error. An inline script
sorts, filters (score or component range, status, text search) and pages the cases, so a report of
thousands of rows stays quick; without JavaScript the worst page is still shown.

Every text from the data is HTML-escaped (summaries and sources are untrusted), the cases are
embedded as JSON with ``<`` escaped so no text can close the script block, and a lone surrogate in
any text becomes U+FFFD instead of failing the write.

``render_report`` makes the page from cases in memory; ``ReportWriter`` writes the same
page to a stream case by case, for runs too large to hold (``summscore score --report``).
"""

from __future__ import annotations

import heapq
import io
import json
import math
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from ..masking.replies import redact_value
from ..results import SummaryResult
from ..results.stats import BatchSummary, summarize
from .assets import SCRIPT
from .html import ReportCase, case_html, page_head

__all__ = ["PAGE_SIZE", "ReportCase", "ReportWriter", "render_report", "write_report"]

PAGE_SIZE = 50
"""Cases per page of the report, and the worst cases shown without JavaScript."""
_COMPONENT_NAMES = ("qa_score", "conciseness_score", "alignment_score", "coverage_score")


class ReportWriter:
    """Writes one report page to ``out``, case by case, holding no case in memory.

    The page's head shows figures over every case, so they are given first: ``summary`` (as
    ``summscore.results.stats.summarize`` or a one-pass equivalent makes it) and ``scores``, every
    case's score in input order (NaN where none). Then, in this order::

        writer = ReportWriter(out, summary, scores, title=..., meta=..., top=..., first=...)
        writer.head(writer.card(i, case) for i, case in worst)  # the cases of writer.worst()
        for i, case in enumerate(cases):
            writer.case(i, case)
        writer.end()

    ``first`` (the first case's result) fills in the preset, judge and prompt set that ``meta``
    does not give. The bytes are those ``render_report`` returns for the same cases.
    """

    def __init__(
        self,
        out: IO[str],
        summary: BatchSummary,
        scores: Sequence[float],
        *,
        title: str = "summscore report",
        meta: dict[str, Any] | None = None,
        top: float = 1.0,
        first: SummaryResult | None = None,
    ) -> None:
        self.out = out
        self.summary = summary
        self.scores = scores
        self.title = title
        self.top = top
        info = dict(meta or {})
        info.setdefault("generated", datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
        if first is not None:
            info.setdefault("preset", first.preset)
            info.setdefault("judge", first.judge)
            info.setdefault("prompt set", first.prompt_set)
        self.meta = info
        self._written = 0

    def worst(self) -> list[int]:
        """The indices of the cases shown without JavaScript: no score first, then the lowest,
        ties in input order; at most ``PAGE_SIZE``."""
        keys = (
            (not math.isnan(s), 0.0 if math.isnan(s) else s, i) for i, s in enumerate(self.scores)
        )
        return [key[2] for key in heapq.nsmallest(PAGE_SIZE, keys)]

    def card(self, index: int, case: ReportCase) -> str:
        """The HTML card of case ``index``."""
        return case_html(case, index, self.top, self.summary.threshold)

    def head(self, cards: Iterable[str]) -> None:
        """Write the page up to the cases' data: figures, tables, controls and ``cards``, the
        cards of ``worst`` in its order."""
        components = [n for n in _COMPONENT_NAMES if n in self.summary.components]
        static = "\n".join(cards)
        shown = min(len(self.scores), PAGE_SIZE)
        total = len(self.scores)
        self.out.write(
            _well_formed(
                page_head(
                    self.title,
                    self.meta,
                    self.summary,
                    self.scores,
                    self.top,
                    components,
                    shown=shown,
                    total=total,
                    page_size=PAGE_SIZE,
                )
                + f'<div id="cases">{static}</div>\n'
                '<script type="application/json" id="summscore-data">'
                f'{{"pageSize":{_json_for_script(PAGE_SIZE)},"cases":['
            )
        )

    def case(self, index: int, case: ReportCase, card: str | None = None) -> None:
        """Write case ``index``'s data (cases in input order); ``card`` if already rendered."""
        result = case.result
        item = {
            "id": _json_id(case.id),
            "s": _number(result.score),
            "c": {k: _number(v) for k, v in result.components().items()},
            "e": not result.ok,
            "p": result.ok and result.score >= self.summary.threshold,
            "u": len(result.unsupported_claims),
            "m": len(result.missed_questions),
            "h": self.card(index, case) if card is None else card,
        }
        self.out.write(("," if self._written else "") + _well_formed(_json_for_script(item)))
        self._written += 1

    def end(self) -> None:
        """Write the rest of the page: the end of the data and the page's script."""
        self.out.write(
            f']}}</script>\n<script id="summscore-app">{SCRIPT}</script>\n</body></html>\n'
        )


def _json_for_script(value: Any) -> str:
    """JSON that is safe inside ``<script type="application/json">``: no ``<`` can close it."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _number(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) or math.isinf(value) else value


def _well_formed(text: str) -> str:
    """Lone surrogates (from JSON "\\ud800" escapes) become U+FFFD; surrogate pairs are joined."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def render_report(
    cases: Sequence[ReportCase],
    *,
    title: str = "summscore report",
    meta: dict[str, Any] | None = None,
    top: float = 1.0,
    threshold: float | None = None,
) -> str:
    """The report as one HTML string. ``top`` is the highest possible score (Mastra's scale);
    ``threshold`` the pass mark (default: the deepeval preset's threshold, else half of ``top``)."""
    results = [c.result for c in cases]
    page = io.StringIO()
    writer = ReportWriter(
        page,
        summarize(results, threshold=threshold, top=top),
        [r.score for r in results],
        title=title,
        meta=meta,
        top=top,
        first=results[0] if results else None,
    )
    cards = [writer.card(i, c) for i, c in enumerate(cases)]
    writer.head(cards[i] for i in writer.worst())
    for index, (case, card) in enumerate(zip(cases, cards)):
        writer.case(index, case, card)
    writer.end()
    return page.getvalue()


def _json_id(value: Any) -> Any:
    if isinstance(value, str):
        return redact_value(value)  # a key in an id is masked, as in the case's card
    if value is None or isinstance(value, (int, bool)):
        return value
    if isinstance(value, float):
        return _number(value)
    return str(value)


def write_report(path: str | Path, cases: Sequence[ReportCase], **kwargs: Any) -> Path:
    """Render the report and write it to ``path``; returns the path."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render_report(cases, **kwargs), encoding="utf-8")
    return target
