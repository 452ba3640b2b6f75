"""A self-contained HTML report of a scoring run.

One file, no scripts, no external assets: the score distribution, summary statistics, and a card
per case (worst first) with its components, the summary with unsupported claims highlighted, the
questions the summary missed, the claims the judge did not find supported, and any error. Every
text from the data is HTML-escaped: summaries and sources are untrusted.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .result import SummaryResult
from .stats import describe, histogram

__all__ = ["ReportCase", "render_report", "write_report"]


@dataclass(frozen=True)
class ReportCase:
    """One case as the report shows it."""

    id: Any
    source: str | None
    summary: str | None
    result: SummaryResult


_CSS = """
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:70rem;
padding:0 1rem;color:#1d2330;background:#fafbfc}
h1{font-size:1.5rem;margin-bottom:.2rem}h2{font-size:1.15rem;margin-top:2rem}
.meta{color:#5b6475}table.stats{border-collapse:collapse}
table.stats td,table.stats th{padding:.2rem .8rem;border-bottom:1px solid #e3e6ec;text-align:right}
.case{background:#fff;border:1px solid #e3e6ec;border-radius:8px;padding:.8rem 1rem;margin:1rem 0}
.case h3{margin:0 0 .4rem;font-size:1rem;display:flex;gap:.8rem;align-items:baseline}
.score{font-weight:700;font-size:1.1rem}.low{color:#b3261e}.mid{color:#a15c00}.high{color:#1b7f3b}
.badge{font-size:.75rem;border-radius:4px;padding:.05rem .4rem;background:#eef1f6;color:#3a4252}
.badge.fail{background:#fde7e6;color:#b3261e}.badge.pass{background:#e3f5e8;color:#1b7f3b}
.components{color:#3a4252;font-size:.9rem}.text{white-space:pre-wrap;background:#f6f7f9;
border-radius:6px;padding:.5rem .7rem;margin:.3rem 0}
mark.bad{background:#fde7e6;color:#8c1d18;border-bottom:2px solid #b3261e;padding:0 .1rem}
ul.missed li,ul.claims li{margin:.15rem 0}ul.missed li::marker{content:"✗  ";color:#b3261e}
.verdict{font-size:.75rem;font-weight:700;text-transform:uppercase;color:#b3261e;margin-right:.3rem}
.error{color:#b3261e;font-weight:600}.warn{color:#a15c00}details summary{cursor:pointer;color:#3a4252}
svg text{font:11px system-ui,sans-serif;fill:#5b6475}
"""


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
    width, height, pad = 560, 180, 28
    peak = max(counts) or 1
    bar_w = (width - 2 * pad) / len(counts)
    parts = [f'<svg width="{width}" height="{height}" role="img" aria-label="score distribution">']
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


def _case_html(case: ReportCase, top: float) -> str:
    r = case.result
    components = " · ".join(
        f"{name.removesuffix('_score')} {_fmt(value)}" for name, value in r.components().items()
    )
    badge = ""
    if r.success is not None:
        badge = (
            '<span class="badge pass">pass</span>'
            if r.success
            else '<span class="badge fail">fail</span>'
        )
    unsupported = r.unsupported_claims
    parts = [
        '<section class="case">',
        f'<h3><span class="score {_tone(r.score, top)}">{_fmt(r.score)}</span>'
        f"<span>{_e(case.id)}</span>{badge}</h3>",
    ]
    if components:
        parts.append(f'<div class="components">{_e(components)}</div>')
    if r.error:
        parts.append(f'<p class="error">Error: {_e(r.error)}</p>')
    if case.summary is not None:
        marked = _highlight(case.summary, [c.claim for c in unsupported])
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
    if r.reason and not r.error:
        parts.append(f"<details><summary>Reason</summary><p>{_e(r.reason)}</p></details>")
    for warning in r.warnings:
        parts.append(f'<p class="warn">Warning: {_e(warning)}</p>')
    if case.source is not None:
        parts.append(
            f'<details><summary>Source</summary><div class="text">{_e(case.source)}</div></details>'
        )
    parts.append("</section>")
    return "\n".join(parts)


def render_report(
    cases: Sequence[ReportCase],
    *,
    title: str = "summscore report",
    meta: dict[str, Any] | None = None,
    top: float = 1.0,
) -> str:
    """The report as one HTML string. ``top`` is the highest possible score (Mastra's scale)."""
    scores = [c.result.score for c in cases]
    summary = describe(scores)
    info = dict(meta or {})
    info.setdefault("generated", datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
    first = cases[0].result if cases else None
    if first is not None:
        info.setdefault("preset", first.preset)
        info.setdefault("judge", first.judge)
        info.setdefault("prompt set", first.prompt_set)
    ordered = sorted(cases, key=lambda c: (not math.isnan(c.result.score), c.result.score))
    stats_rows = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in summary.rows())
    meta_line = " · ".join(f"{_e(k)}: {_e(v)}" for k, v in info.items())
    body = "\n".join(_case_html(c, top) for c in ordered)
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width,initial-scale=1"><title>{_e(title)}</title>'
        f"<style>{_CSS}</style></head><body>\n"
        f'<h1>{_e(title)}</h1><p class="meta">{meta_line}</p>\n'
        f"<h2>Score distribution</h2>{_histogram_svg(histogram(scores, top=top), top)}\n"
        f'<table class="stats">{stats_rows}</table>\n'
        f"<h2>Cases, worst first</h2>\n{body}\n</body></html>\n"
    )


def write_report(path: str | Path, cases: Sequence[ReportCase], **kwargs: Any) -> Path:
    """Render the report and write it to ``path``; returns the path."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render_report(cases, **kwargs), encoding="utf-8")
    return target
