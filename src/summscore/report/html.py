"""The HTML fragments of the report page (see ``page``): its head (figures,
histogram, tables, controls) and one case's card. Every text from the data is escaped here, and
the keys a source or summary holds are masked (a report is shared; see ``summscore.masking.replies``)."""

from __future__ import annotations

import html
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..masking.replies import keys_in, redact_value
from ..results import SummaryResult
from ..results.stats import BatchSummary, histogram
from ..results.usage import format_cost
from .assets import CSS

__all__ = ["ReportCase", "case_html", "page_head"]


@dataclass(frozen=True)
class ReportCase:
    """One case as the report shows it.

    Attributes:
        id: The case's id.
        source: Its source text; None when the report shows no source (a results file holds
            none).
        summary: Its summary; None likewise.
        result: Its result.
    """

    id: Any
    source: str | None
    summary: str | None
    result: SummaryResult


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _fmt(value: float | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:.3f}"


def _tone(score: float, top: float) -> str:
    if math.isnan(score):
        return "low"
    ratio = score / top if top else 0.0
    return "high" if ratio >= 0.7 else "mid" if ratio >= 0.4 else "low"


def _histogram_svg(counts: Sequence[int], top: float) -> str:
    width, height, pad = 520, 170, 26
    peak = max(counts) or 1
    bar_w = (width - 2 * pad) / len(counts)
    parts = [
        f'<svg class="hist" viewBox="0 0 {width} {height}" role="img" '
        'aria-label="score distribution">'
    ]
    for i, count in enumerate(counts):
        h = (height - 2 * pad) * count / peak
        x = pad + i * bar_w
        y = height - pad - h
        parts.append(
            f'<rect x="{x + 2:.1f}" y="{y:.1f}" width="{bar_w - 4:.1f}" height="{h:.1f}" '
            f'fill="#6c8ebf"><title>{count} case(s)</title></rect>'
        )
        if count:
            parts.append(
                f'<text x="{x + bar_w / 2:.1f}" y="{y - 4:.1f}" text-anchor="middle">{count}</text>'
            )
    for i in range(len(counts) + 1):
        x = pad + i * bar_w
        if len(counts) > 5 and i % 2:  # every other label: they must stay legible on a phone
            continue
        label = f"{top * i / len(counts):g}"
        parts.append(
            f'<text x="{x:.1f}" y="{height - pad + 14}" text-anchor="middle">{label}</text>'
        )
    parts.append(
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#9aa3b2"/>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _highlight(text: str, spans: Sequence[str]) -> str:
    """Escape ``text`` and mark every verbatim occurrence of ``spans`` in it."""
    wanted = sorted(
        {s.strip() for s in spans if s and s.strip() and s.strip() in text}, key=len, reverse=True
    )
    if not wanted:
        return _e(text)
    pattern = re.compile("|".join(re.escape(s) for s in wanted))
    out: list[str] = []
    last = 0
    for m in pattern.finditer(text):
        out.append(_e(text[last : m.start()]))
        out.append(f'<mark class="bad" title="not supported by the source">{_e(m.group(0))}</mark>')
        last = m.end()
    out.append(_e(text[last:]))
    return "".join(out)


def _spend(r: SummaryResult) -> str:
    usage = r.usage
    text = f"{usage.judge_calls} judge call{'s' if usage.judge_calls != 1 else ''}"
    if usage.reused_calls or usage.cached_calls:
        text += f" (+{usage.reused_calls + usage.cached_calls} from caches)"
    if usage.input_tokens is not None:
        text += f" · {usage.input_tokens:,} / {usage.output_tokens or 0:,} tokens"
    if usage.cost is not None:
        text += f" · {format_cost(usage.cost)}"
    return text


def case_html(case: ReportCase, index: int, top: float, threshold: float) -> str:
    """One case's card: score, components, spend, error, the summary with its unsupported claims
    marked, the missed questions and claims, the reason, warnings and the source."""
    r = case.result
    components = " · ".join(
        f"{name.removesuffix('_score')} {_fmt(value)}" for name, value in r.components().items()
    )
    passed = r.ok and r.score >= threshold
    badge = (
        f'<span class="badge pass" title="score ≥ {threshold:g}">pass</span>'
        if passed
        else f'<span class="badge fail" title="score below {threshold:g} or no score">fail</span>'
    )
    unsupported = r.unsupported_claims
    # A key in either text is masked in both (a summary may repeat its source's key), and in
    # the id, which the page shows as it shows them.
    keys = keys_in(case.source or "", case.summary or "")
    parts = [
        f'<section class="case" data-index="{index}">',
        f'<h3><span class="score {_tone(r.score, top)}">{_fmt(r.score)}</span>'
        f"<span>{_e(redact_value(case.id, keys))}</span>{badge}</h3>",
    ]
    if components:
        parts.append(f'<div class="components">{_e(components)}</div>')
    if r.usage.judge_calls or r.usage.reused_calls or r.usage.cached_calls:
        parts.append(f'<div class="spend">{_e(_spend(r))}</div>')
    if r.error:
        parts.append(f'<p class="error">Error: {_e(r.error)}</p>')
    if case.summary is not None:
        marked = _highlight(redact_value(case.summary, keys), [c.claim for c in unsupported])
        parts.append(f'<div class="text" title="summary">{marked}</div>')
    missed = r.missed_questions
    if missed:
        parts.append(f'<div>Missed questions ({len(missed)}):</div><ul class="missed">')
        parts += [f"<li>{_e(q)}</li>" for q in missed]
        parts.append("</ul>")
    if unsupported:
        parts.append(f'<div>Claims not supported ({len(unsupported)}):</div><ul class="claims">')
        for c in unsupported:
            reason = f" — {_e(c.reason)}" if c.reason else ""
            parts.append(
                f'<li><span class="verdict">{_e(c.verdict)}</span>{_e(c.claim)}{reason}</li>'
            )
        parts.append("</ul>")
    graded = [c for c in r.claims if c.support is not None]
    if graded:  # the offline judge's graded support, which its alignment averages
        parts.append('<details><summary>Claim support</summary><ul class="claims">')
        parts += [f"<li>{c.support:.2f} — {_e(c.claim)}</li>" for c in graded]
        parts.append("</ul></details>")
    if r.reason and not r.error:
        parts.append(f"<details><summary>Reason</summary><p>{_e(r.reason)}</p></details>")
    for warning in r.warnings:
        parts.append(f'<p class="warn">Warning: {_e(warning)}</p>')
    if case.source is not None:
        source = _e(redact_value(case.source, keys))
        parts.append(
            f'<details><summary>Source</summary><div class="text">{source}</div></details>'
        )
    parts.append("</section>")
    return "\n".join(parts)


def _figures(summary: BatchSummary) -> str:
    scores, usage = summary.scores, summary.usage
    rate = summary.pass_rate
    figures = [
        ("cases", f"{scores.count:,}"),
        ("failed (error)", f"{scores.failed:,}"),
        (f"pass rate (≥ {summary.threshold:g})", "–" if rate is None else f"{rate:.1%}"),
        ("mean score", _fmt(scores.mean)),
        ("judge calls", f"{usage.judge_calls:,}"),
    ]
    if usage.input_tokens is not None:
        figures.append(
            ("tokens in / out", f"{usage.input_tokens:,} / {usage.output_tokens or 0:,}")
        )
    figures.append(("cost", summary.cost_text))
    if usage.reused_calls or usage.cached_calls:
        figures.append(("calls saved by caches", f"{usage.reused_calls + usage.cached_calls:,}"))
    cells = "".join(
        f'<div class="figure" data-figure="{_e(label)}"><strong>{_e(value)}</strong><span>{_e(label)}</span></div>'
        for label, value in figures
    )
    return f'<div class="figures">{cells}</div>'


def _tables(summary: BatchSummary) -> str:
    stats = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in summary.scores.rows())
    parts = [f'<div class="scroll"><table class="stats" id="stats">{stats}</table></div>']
    if summary.components:
        rows = "".join(
            f"<tr><th>{_e(name.removesuffix('_score'))}</th><td>{value:.3f}</td></tr>"
            for name, value in summary.components.items()
        )
        parts.append(
            f'<div class="scroll"><table class="stats" id="components"><tr><th>component</th>'
            f"<th>mean</th></tr>{rows}</table></div>"
        )
    if summary.causes:
        rows = "".join(
            f"<tr><td>{n:,}</td><td>{_e(cause)}</td></tr>" for cause, n in summary.causes
        )
        parts.append(
            f'<div class="scroll"><table class="stats causes" id="causes"><tr><th>failed</th>'
            f"<th>cause</th></tr>{rows}</table></div>"
        )
    return f'<div class="tables">{"".join(parts)}</div>'


def _controls(components: Sequence[str]) -> str:
    names = ["score", *components]
    sorts = [("score:asc", "score, worst first"), ("score:desc", "score, best first")]
    for name in components:
        short = name.removesuffix("_score")
        sorts += [
            (f"{name}:asc", f"{short}, lowest first"),
            (f"{name}:desc", f"{short}, highest first"),
        ]
    sorts += [("id:asc", "id"), ("order:asc", "input order")]
    sort_options = "".join(f'<option value="{v}">{_e(t)}</option>' for v, t in sorts)
    range_options = "".join(
        f'<option value="{n}">{_e(n.removesuffix("_score"))}</option>' for n in names
    )
    statuses = [
        ("all", "all cases"),
        ("fail", "failing (below pass mark or error)"),
        ("pass", "passing"),
        ("error", "errors only"),
        ("unsupported", "with unsupported claims"),
        ("missed", "with missed questions"),
    ]
    status_options = "".join(f'<option value="{v}">{_e(t)}</option>' for v, t in statuses)
    return (
        '<div class="controls" id="controls" hidden>'
        '<label>search<input type="search" id="q" placeholder="id, summary, error…"></label>'
        f'<label>show<select id="status">{status_options}</select></label>'
        f'<label>sort by<select id="sort">{sort_options}</select></label>'
        f'<label>range of<select id="range-of">{range_options}</select></label>'
        '<label>from<input type="number" id="range-min" step="any" inputmode="decimal"></label>'
        '<label>to<input type="number" id="range-max" step="any" inputmode="decimal"></label>'
        '<button type="button" id="reset">reset</button></div>'
        '<div class="pager" id="pager" hidden><span id="count"></span><span id="page"></span>'
        '<button type="button" id="prev">‹ previous</button>'
        '<button type="button" id="next">next ›</button></div>'
    )


def page_head(
    title: str,
    info: dict[str, Any],
    summary: BatchSummary,
    scores: Sequence[float],
    top: float,
    components: Any,
    *,
    shown: int,
    total: int,
    page_size: int,
) -> str:
    """The page up to the case cards: title, figures, histogram, tables and the controls."""
    note = (
        f'<p class="nojs" id="nojs">The {shown} worst of {total:,} cases; '
        "open this file in a browser with JavaScript to sort, filter and page through all.</p>"
        if total > page_size
        else ""
    )
    meta_line = " · ".join(f"{_e(k)}: {_e(v)}" for k, v in info.items())
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width,initial-scale=1"><title>{_e(title)}</title>'
        f"<style>{CSS}</style></head><body>\n"
        f'<h1>{_e(title)}</h1><p class="meta">{meta_line}</p>\n'
        f"{_figures(summary)}\n"
        f"<h2>Score distribution</h2>{_histogram_svg(histogram(scores, top=top), top)}\n"
        f"{_tables(summary)}\n"
        f"<h2>Cases</h2>\n{_controls(components)}\n{note}"
    )
