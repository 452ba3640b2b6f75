"""What ``score_many`` returns: a list of results that also summarises itself.

:class:`SummaryResults` is a ``list`` subclass, so code that indexes, iterates or compares the
results as a list keeps working; on top it has :meth:`~SummaryResults.summary` (mean, quantiles,
pass rate, failures by cause, spend), :meth:`~SummaryResults.to_pandas` (one row per case) and a
table for notebooks (``_repr_html_``).
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable
from typing import Any

from .result import SummaryResult, Usage
from .stats import BatchSummary, summarize

__all__ = ["SummaryResults", "result_html"]

_COMPONENTS = ("qa_score", "conciseness_score", "alignment_score", "coverage_score")
_HTML_ROWS = 20  # rows of the notebook table; to_pandas() has them all

_CSS = (
    "<style>.summscore-r td,.summscore-r th{padding:2px 8px;text-align:left;vertical-align:top}"
    ".summscore-r .bad{color:#b3261e}.summscore-r .ok{color:#1b7f3b}"
    ".summscore-r caption{text-align:left;font-weight:600;padding-top:6px}</style>"
)


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _num(value: float | None) -> str:
    if value is None or math.isnan(value):
        return "–"
    return f"{value:.3f}"


class SummaryResults(list[SummaryResult]):
    """The results of ``score_many`` / ``ascore_many``, in input order, each with its case ``id``."""

    def __init__(self, results: Iterable[SummaryResult] = ()) -> None:
        super().__init__(results)

    # ------------------------------------------------------------------ numbers

    def summary(self, *, threshold: float | None = None, top: float = 1.0) -> BatchSummary:
        """Mean, quantiles, pass rate, mean components, failures by cause and spend.

        ``threshold`` is the pass mark (default: the deepeval preset's threshold, else half of
        ``top``; pass ``top=10`` for Mastra's ``scale=10``).
        """
        return summarize(self, threshold=threshold, top=top)

    @property
    def usage(self) -> Usage:
        """Judge calls, tokens and cost of all results together (cost None when unknown)."""
        total = Usage()
        for result in self:
            total.add(result.usage)
        return total

    @property
    def scores(self) -> list[float]:
        return [r.score for r in self]

    @property
    def failures(self) -> SummaryResults:
        """The results that could not be scored (an ``error`` says why)."""
        return SummaryResults(r for r in self if not r.ok)

    def to_records(self) -> list[dict[str, Any]]:
        """One flat dict per case: id, score, components, verdict, evidence counts, spend."""
        present = [n for n in _COMPONENTS if any(getattr(r, n) is not None for r in self)]
        records = []
        for r in self:
            records.append(
                {
                    "id": r.id,
                    "score": r.score,
                    **{name: getattr(r, name) for name in present},
                    "success": r.success,
                    "error": r.error,
                    "unsupported_claims": len(r.unsupported_claims),
                    "missed_questions": len(r.missed_questions),
                    "reason": r.reason,
                    "judge_calls": r.usage.judge_calls,
                    "input_tokens": r.usage.input_tokens,
                    "output_tokens": r.usage.output_tokens,
                    "cost": r.usage.cost,
                }
            )
        return records

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame``, one row per case, components as columns (needs pandas)."""
        try:
            import pandas as pd
        except ImportError as exc:
            raise ImportError("to_pandas() needs pandas: pip install pandas") from exc
        return pd.DataFrame.from_records(self.to_records())

    # ------------------------------------------------------------------ display

    def __repr__(self) -> str:
        if not self:
            return "SummaryResults([])"
        s = self.summary()
        mean = "nan" if s.scores.mean is None else f"{s.scores.mean:.3f}"
        head = f"SummaryResults({len(self)} cases, mean {mean}, {s.scores.failed} failed, {s.cost_text})"
        lines = [f"  {r!r}" for r in self[:5]]
        if len(self) > 5:
            lines.append(f"  ... {len(self) - 5} more")
        return "\n".join([head, *lines])

    __str__ = __repr__

    def _repr_html_(self) -> str:
        s = self.summary()
        rows = s.rows()
        stats = (
            "<tr>"
            + "".join(f"<th>{_e(k)}</th>" for k, _ in rows)
            + "</tr><tr>"
            + "".join(f"<td>{_e(v)}</td>" for _, v in rows)
            + "</tr>"
        )
        causes = "".join(f"<tr><td>{n}</td><td>{_e(cause)}</td></tr>" for cause, n in s.causes)
        present = [n for n in _COMPONENTS if any(getattr(r, n) is not None for r in self)]
        head = "".join(
            f"<th>{_e(n.removesuffix('_score'))}</th>"
            for n in ("id", "score", *present, "pass", "error")
        )
        body = []
        for r in self[:_HTML_ROWS]:
            verdict = "✓" if r.ok and r.score >= s.threshold else "✗"
            cells = [_e(r.id), _num(r.score), *(_num(getattr(r, n)) for n in present)]
            cells += [verdict, _e(r.error or "")]
            body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        more = (
            f"<p>{len(self) - _HTML_ROWS} more rows: <code>results.to_pandas()</code></p>"
            if len(self) > _HTML_ROWS
            else ""
        )
        failures = (
            f"<table class='summscore-r'><caption>Failures by cause</caption>{causes}</table>"
            if causes
            else ""
        )
        return (
            f"{_CSS}<div class='summscore-r'><table class='summscore-r'><caption>summscore: "
            f"{len(self)} cases</caption>{stats}</table>{failures}"
            f"<table class='summscore-r'><tr>{head}</tr>{''.join(body)}</table>{more}</div>"
        )


def result_html(result: SummaryResult) -> str:
    """One result as a small HTML table (``SummaryResult._repr_html_``)."""
    from ._pricing import format_cost

    rows: list[tuple[str, str]] = []
    if result.id is not None:
        rows.append(("id", _e(result.id)))
    rows.append(("score", f"<b>{_num(result.score)}</b>"))
    rows += [(n.removesuffix("_score"), _num(v)) for n, v in result.components().items()]
    if result.success is not None:
        verdict = "pass" if result.success else "fail"
        tone = "ok" if result.success else "bad"
        rows.append(("verdict", f"<span class='{tone}'>{verdict} (≥ {result.threshold:g})</span>"))
    rows.append(("preset / judge", _e(f"{result.preset} / {result.judge}")))
    if result.error:
        rows.append(("error", f"<span class='bad'>{_e(result.error)}</span>"))
    unsupported = result.unsupported_claims
    if unsupported:
        items = "".join(f"<li>{_e(c.verdict)}: {_e(c.claim)}</li>" for c in unsupported)
        rows.append((f"unsupported claims ({len(unsupported)})", f"<ul>{items}</ul>"))
    missed = result.missed_questions
    if missed:
        items = "".join(f"<li>{_e(q)}</li>" for q in missed)
        rows.append((f"missed questions ({len(missed)})", f"<ul>{items}</ul>"))
    if result.reason:
        rows.append(("reason", _e(result.reason)))
    for warning in result.warnings:
        rows.append(("warning", _e(warning)))
    usage = result.usage
    spend = f"{usage.judge_calls} judge calls"
    if usage.input_tokens is not None:
        spend += f", {usage.input_tokens:,} / {usage.output_tokens or 0:,} tokens"
    cost = "none (offline judge)" if result.judge == "lexical" else format_cost(usage.cost)
    rows.append(("spend", _e(f"{spend}, {cost}")))
    body = "".join(f"<tr><th>{_e(k)}</th><td>{v}</td></tr>" for k, v in rows)
    return f"{_CSS}<table class='summscore-r'>{body}</table>"
