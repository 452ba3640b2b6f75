"""The comparison as one self-contained HTML page: the verdict in words, the figures with their
intervals, the scatter of per-case scores and the histogram of differences (inline SVG), and the
regressions and improvements, each with its evidence side by side, in tables to search, sort
and page.

No external asset and no request: the style, the script and the data are in the page. Every
text from the data (ids, claims, questions, reasons, errors, run names) is HTML-escaped, with the
keys it may hold masked as the run report masks them; the rows' data is embedded as JSON with
``<``, ``>`` and ``&`` escaped, so no text can close the script block.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..masking.replies import keys_in, redact_value
from .assets import CSS, SCRIPT
from .changes import CaseChange
from .result import Comparison
from .runs import RunCase
from .svg import MAX_POINTS, difference_histogram, scatter
from .values import json_id

__all__ = ["PAGE_SIZE", "render_comparison", "write_comparison_report"]

PAGE_SIZE = 50
"""Rows per page of each table, and the rows shown without JavaScript."""
_LISTED = 500  # failed and unmatched cases listed in the page (the JSON output has them all)


def _e(value: Any, keys: frozenset[str] = frozenset()) -> str:
    text = value if isinstance(value, str) else str(value)
    return html.escape(_well_formed(redact_value(text, keys)), quote=True)


def _well_formed(text: str) -> str:
    """Lone surrogates (from JSON "\\ud800" escapes) become U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _json_for_script(value: Any) -> str:
    """JSON that is safe inside ``<script type="application/json">``."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(char, escape)
    return _well_formed(text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _num(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:.3f}"


def _signed(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:+.3f}"


def _tone(value: float) -> str:
    return "neg" if value < 0 else "pos" if value > 0 else ""


def _case_keys(case: CaseChange) -> frozenset[str]:
    texts: list[str] = [str(case.id)]
    for side in (case.base, case.candidate):
        texts += [side.reason or "", side.error or "", *side.unsupported_claims]
        texts += list(side.missed_questions)
    return keys_in(*texts)


def _items(title: str, values: Iterable[str], keys: frozenset[str], marked: set[str]) -> str:
    shown = list(values)
    if not shown:
        return ""
    lines = "".join(
        f'<li class="new">{_e(v, keys)}</li>' if v in marked else f"<li>{_e(v, keys)}</li>"
        for v in shown
    )
    return f"<h4>{_e(title)} ({len(shown)})</h4><ul>{lines}</ul>"


def _side(label: str, side: RunCase, keys: frozenset[str], new: set[str]) -> str:
    parts = [f"<div><h4>{_e(label)}: {_num(side.score)}</h4>"]
    if side.error:
        parts.append(f'<p class="error">Error: {_e(side.error, keys)}</p>')
    parts.append(_items("unsupported claims", side.unsupported_claims, keys, new))
    parts.append(_items("missed key points", side.missed_questions, keys, new))
    if side.reason:
        parts.append(f"<h4>reason</h4><p>{_e(side.reason, keys)}</p>")
    parts.append("</div>")
    return "".join(parts)


def _row(case: CaseChange) -> str:
    """One table row: id, both scores, the difference, the verdict change and the evidence of
    both runs side by side (new unsupported claims and newly missed key points marked)."""
    keys = _case_keys(case)
    new = set(case.new_unsupported_claims) | set(case.newly_missed_questions)
    flags = []
    if case.new_unsupported_claims:
        flags.append(f"{len(case.new_unsupported_claims)} new unsupported")
    if case.newly_missed_questions:
        flags.append(f"{len(case.newly_missed_questions)} newly missed")
    if case.resolved_claims:
        flags.append(f"{len(case.resolved_claims)} claims fixed")
    if case.now_covered_questions:
        flags.append(f"{len(case.now_covered_questions)} now covered")
    summary = ", ".join(flags) or "evidence"
    evidence = (
        f'<details><summary>{_e(summary)}</summary><div class="side">'
        f"{_side('base', case.base, keys, set())}{_side('candidate', case.candidate, keys, new)}"
        "</div></details>"
    )
    d = case.difference
    return (
        f'<tr><td class="id">{_e(case.id, keys)}</td><td>{_num(case.base.score)}</td>'
        f"<td>{_num(case.candidate.score)}</td>"
        f'<td class="{_tone(d)}">{_signed(d)}</td><td>{_e((case.pass_change or "").replace("->", "→"))}</td>'
        f'<td class="evidence">{evidence}</td></tr>'
    )


def _table(name: str, title: str, rows: Sequence[CaseChange], descending: bool) -> str:
    heads = "".join(
        f'<th data-key="{key}" class="{key}"><button type="button">{label}</button></th>'
        for key, label in (("id", "id"), ("b", "base"), ("c", "candidate"), ("d", "difference"))
    )
    static = "".join(_row(c) for c in rows[:PAGE_SIZE])
    note = (
        f'<p class="nojs">The first {PAGE_SIZE} of {len(rows):,}; open this file in a browser '
        "with JavaScript to search, sort and page through all.</p>"
        if len(rows) > PAGE_SIZE
        else ""
    )
    return (
        f'<section id="{name}" data-sort="d" data-dir="{"desc" if descending else "asc"}">'
        f"<h2>{_e(title)} ({len(rows):,})</h2>"
        '<div class="controls" hidden><input type="search" placeholder="id, claim, reason…" '
        f'aria-label="search the {name}"><span class="count"></span>'
        '<button type="button" class="prev">‹ previous</button>'
        '<button type="button" class="next">next ›</button></div>'
        f'{note}<div class="scroll"><table><thead><tr>{heads}<th>verdict</th>'
        f'<th class="evidence">evidence</th></tr></thead><tbody>{static}</tbody></table></div>'
        "</section>"
    )


def _data(rows: Sequence[CaseChange]) -> list[dict[str, Any]]:
    def number(value: float) -> float | None:
        return None if math.isnan(value) else value

    return [
        {
            "id": json_id(c.id),
            "b": number(c.base.score),
            "c": number(c.candidate.score),
            "d": number(c.difference),
            "h": _row(c),
        }
        for c in rows
    ]


def _figures(comparison: Comparison) -> str:
    d, p = comparison.score.difference, comparison.pass_rate
    figures = [
        ("matched cases", f"{comparison.matched:,}"),
        ("scored in both", f"{comparison.paired:,}"),
        ("mean, base", _num(comparison.score.base_mean)),
        ("mean, candidate", _num(comparison.score.candidate_mean)),
        ("difference", _signed(d.value)),
        (f"{d.confidence:.0%} interval", f"{_signed(d.low)} to {_signed(d.high)}"),
        ("pass rate", f"{_pct(p.base)} → {_pct(p.candidate)}"),
        ("McNemar p", "–" if math.isnan(p.p_value) else f"{p.p_value:.3g}"),
        ("regressed", f"{len(comparison.regressed):,}"),
        ("improved", f"{len(comparison.improved):,}"),
        ("unchanged", f"{len(comparison.unchanged):,}"),
        (
            "failed (base / candidate)",
            f"{len(comparison.failed_base)} / {len(comparison.failed_candidate)}",
        ),
        (
            "unmatched (base / candidate)",
            f"{len(comparison.unmatched_base)} / {len(comparison.unmatched_candidate)}",
        ),
    ]
    cells = "".join(
        f'<div class="figure" data-figure="{_e(label)}"><strong>{_e(value)}</strong>'
        f"<span>{_e(label)}</span></div>"
        for label, value in figures
    )
    return f'<div class="figures">{cells}</div>'


def _pct(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:.1%}"


def _metrics(comparison: Comparison) -> str:
    rows = [comparison.score, *comparison.components.values()]
    body = "".join(
        f'<tr><td class="name">{_e(m.name.removesuffix("_score"))}</td><td>{_num(m.base_mean)}</td>'
        f"<td>{_num(m.candidate_mean)}</td>"
        f'<td class="{_tone(m.difference.value)}">{_signed(m.difference.value)}</td>'
        f"<td>{_signed(m.difference.low)} to {_signed(m.difference.high)}</td></tr>"
        for m in rows
    )
    p = comparison.pass_rate
    body += (
        f'<tr><td class="name">pass rate</td><td>{_pct(p.base)}</td><td>{_pct(p.candidate)}</td>'
        f'<td class="{_tone(p.difference.value)}">{_signed(p.difference.value)}</td>'
        f"<td>{_signed(p.difference.low)} to {_signed(p.difference.high)}</td></tr>"
    )
    level = f"{comparison.score.difference.confidence:.0%} interval"
    return (
        '<div class="scroll"><table id="metrics"><thead><tr><th class="id">measure</th>'
        f"<th>base</th><th>candidate</th><th>difference</th><th>{level}</th></tr></thead>"
        f"<tbody>{body}</tbody></table></div>"
        f'<p class="meta">Pass rate: {p.newly_failing} cases went from pass to fail, '
        f"{p.newly_passing} from fail to pass (McNemar's exact test: p = {p.p_value:.3g}).</p>"
    )


def _listing(title: str, cases: Sequence[RunCase | CaseChange], element: str) -> str:
    """A folded list of cases left out of the figures, each with its error(s)."""
    if not cases:
        return ""
    items = []
    for case in cases[:_LISTED]:
        if isinstance(case, CaseChange):
            errors = [(f"base: {case.base.error}" if case.base.error else "")]
            errors.append(f"candidate: {case.candidate.error}" if case.candidate.error else "")
        else:
            errors = [case.error or ""]
        errors = [e for e in errors if e]
        keys = keys_in(str(case.id), *errors)
        shown = "".join(f' — <span class="error">{_e(e, keys)}</span>' for e in errors)
        items.append(f"<li>{_e(case.id, keys)}{shown}</li>")
    more = f"<li>… and {len(cases) - _LISTED:,} more</li>" if len(cases) > _LISTED else ""
    return (
        f'<details id="{element}"><summary>{_e(title)} ({len(cases):,})</summary>'
        f"<ul>{''.join(items)}{more}</ul></details>"
    )


def render_comparison(
    comparison: Comparison, *, title: str | None = None, min_effect: float = 0.0
) -> str:
    """The comparison report as one HTML string."""
    title = title or "summscore comparison"
    verdict = comparison.verdict(min_effect)
    d = comparison.score.difference
    meta = {
        "base": comparison.base_name,
        "candidate": comparison.candidate_name,
        "matched by": comparison.matched_by,
        "bootstrap": f"{comparison.resamples:,} resamples, seed {comparison.seed}",
        "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }
    meta_line = " · ".join(f"{_e(k)}: {_e(v)}" for k, v in meta.items())
    notes = [*(f"allowed difference in settings: {x}" for x in comparison.differences)]
    notes += comparison.notes
    notes_html = (
        '<ul class="notes">' + "".join(f"<li>{_e(n)}</li>" for n in notes) + "</ul>"
        if notes
        else ""
    )
    kind = verdict.kind if verdict.kind in ("worse", "better") else "same"
    both = [c for c in comparison.cases if c.status != "failed"]
    many = " (a grid of counts: too many cases for one dot each)" if len(both) > MAX_POINTS else ""
    failed = [c for c in comparison.cases if c.status == "failed"]
    left_out = (
        _listing("not scored in the base, the candidate or both", failed, "failed")
        + _listing("only in the base", comparison.unmatched_base, "unmatched-base")
        + _listing("only in the candidate", comparison.unmatched_candidate, "unmatched-candidate")
    ) or "<p>Every case was matched and scored in both runs.</p>"
    regressions, improvements = comparison.regressions(), comparison.improvements()
    data = {
        "pageSize": PAGE_SIZE,
        "regressions": _data(regressions),
        "improvements": _data(improvements),
    }
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body>\n"
        f'<h1>{_e(title)}</h1><p class="meta">{meta_line}</p>\n'
        f'<p class="headline {kind}" id="headline" data-verdict="{_e(verdict.kind)}">'
        f"{_e(verdict.text)}</p>\n{notes_html}{_figures(comparison)}\n"
        f"<h2>Figures</h2>{_metrics(comparison)}\n"
        '<div class="charts"><figure class="square">'
        f"{scatter(comparison.cases, comparison.top, _e)}<figcaption>Each case's score, base "
        f"against candidate{many}: below the dashed line it got worse, above it better."
        f"</figcaption></figure><figure>{difference_histogram(comparison)}<figcaption>How much "
        "each case moved (candidate minus base); the blue line is the mean difference, the "
        f"shaded band its {d.confidence:.0%} interval.</figcaption></figure></div>\n"
        f"{_table('regressions', 'Regressions, worst first', regressions, descending=False)}\n"
        f"{_table('improvements', 'Improvements, best first', improvements, descending=True)}\n"
        f"<h2>Not compared</h2>{left_out}\n"
        '<script type="application/json" id="summscore-compare-data">'
        f"{_json_for_script(data)}</script>\n"
        f'<script id="summscore-compare-app">{SCRIPT}</script>\n</body></html>\n'
    )


def write_comparison_report(path: str | Path, comparison: Comparison, **kwargs: Any) -> Path:
    """Render the comparison report and write it to ``path``; returns the path."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render_comparison(comparison, **kwargs), encoding="utf-8")
    return target
