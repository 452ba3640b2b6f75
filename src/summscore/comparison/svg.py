"""The comparison report's two charts as inline SVG (no library, no script): each case's score in
the base against the candidate, and the histogram of the per-case differences with the mean and
its interval. Numbers only go into attributes; the one text from the data, a point's id in its
tooltip, is escaped by the caller's ``escape``."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from .changes import CaseChange
from .result import Comparison

__all__ = ["MAX_POINTS", "difference_histogram", "scatter"]

MAX_POINTS = 2000
"""Above this many cases the scatter shows a grid of counts instead of one dot per case."""
_COLORS = {"regressed": "#b3261e", "improved": "#1b7f3b", "unchanged": "#6b7385"}


def scatter(cases: Sequence[CaseChange], top: float, escape: Callable[[object], str]) -> str:
    """Base score (x) against candidate score (y) of every case scored in both runs, with the
    diagonal of "no change": regressions fall below it, improvements above."""
    size, pad = 320, 34
    span = size - 2 * pad
    top = top if top > 0 else 1.0

    def x(v: float) -> float:
        return pad + span * min(max(v / top, 0.0), 1.0)

    def y(v: float) -> float:
        return size - pad - span * min(max(v / top, 0.0), 1.0)

    both = [c for c in cases if c.status != "failed"]
    parts = [
        f'<svg class="chart" id="scatter" viewBox="0 0 {size} {size}" role="img" '
        f'aria-label="score in the base run against score in the candidate run, '
        f'{len(both)} cases">',
        f'<rect x="{pad}" y="{pad}" width="{span}" height="{span}" fill="#fff" stroke="#d5dae3"/>',
        f'<line x1="{x(0):.1f}" y1="{y(0):.1f}" x2="{x(top):.1f}" y2="{y(top):.1f}" '
        'stroke="#9aa3b2" stroke-dasharray="4 3"/>',
    ]
    for i in range(5):
        value = top * i / 4
        parts.append(
            f'<text x="{x(value):.1f}" y="{size - pad + 14}" text-anchor="middle">{value:g}</text>'
            f'<text x="{pad - 5}" y="{y(value) + 4:.1f}" text-anchor="end">{value:g}</text>'
        )
    parts.append(
        f'<text x="{size / 2:.0f}" y="{size - 4}" text-anchor="middle">base score</text>'
        f'<text x="11" y="{size / 2:.0f}" text-anchor="middle" '
        f'transform="rotate(-90 11 {size / 2:.0f})">candidate score</text>'
    )
    if len(both) <= MAX_POINTS:
        for c in both:
            parts.append(
                f'<circle class="dot {c.status}" cx="{x(c.base.score):.1f}" '
                f'cy="{y(c.candidate.score):.1f}" r="3" fill="{_COLORS[c.status]}" '
                f'fill-opacity="0.6"><title>{escape(c.id)}: {c.base.score:.3f} → '
                f"{c.candidate.score:.3f}</title></circle>"
            )
    else:
        parts.append(_grid(both, top, pad, span, size))
    parts.append("</svg>")
    return "".join(parts)


def _grid(cases: Sequence[CaseChange], top: float, pad: int, span: int, size: int) -> str:
    """Counts of cases in a 40 x 40 grid of (base, candidate) cells, darker for more."""
    cells = 40
    counts: dict[tuple[int, int], int] = {}
    for c in cases:
        i = min(int(max(c.base.score / top, 0.0) * cells), cells - 1)
        j = min(int(max(c.candidate.score / top, 0.0) * cells), cells - 1)
        counts[(i, j)] = counts.get((i, j), 0) + 1
    peak = max(counts.values())
    side = span / cells
    parts = []
    for (i, j), n in sorted(counts.items()):
        color = _COLORS["improved"] if j > i else _COLORS["regressed"] if j < i else "#6b7385"
        opacity = 0.15 + 0.85 * math.log1p(n) / math.log1p(peak)
        parts.append(
            f'<rect class="cell" x="{pad + i * side:.1f}" y="{size - pad - (j + 1) * side:.1f}" '
            f'width="{side:.1f}" height="{side:.1f}" fill="{color}" '
            f'fill-opacity="{opacity:.2f}"><title>{n} case(s)</title></rect>'
        )
    return "".join(parts)


def _bins(differences: Sequence[float], top: float) -> tuple[float, list[int]]:
    """21 equal bins over [-reach, reach] (an odd number: one bin is centred on 0), reach the
    largest difference rounded up (at most the top score)."""
    largest = max((abs(d) for d in differences), default=0.0)
    reach = top
    for step in (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0):
        if largest <= step * top:
            reach = step * top
            break
    bins = 21
    counts = [0] * bins
    for d in differences:
        index = math.floor((d + reach) / (2 * reach) * bins)
        counts[min(max(index, 0), bins - 1)] += 1
    return reach, counts


def difference_histogram(comparison: Comparison) -> str:
    """How many cases moved by how much (candidate minus base), red below 0 and green above,
    with the mean difference and its interval drawn over it."""
    differences = [c.difference for c in comparison.cases if c.status != "failed"]
    reach, counts = _bins(differences, comparison.top)
    width, height, pad = 520, 190, 28
    peak = max(counts) or 1
    bar = (width - 2 * pad) / len(counts)

    def x(v: float) -> float:
        return pad + (width - 2 * pad) * (v + reach) / (2 * reach)

    d = comparison.score.difference
    parts = [
        f'<svg class="chart" id="differences" viewBox="0 0 {width} {height}" role="img" '
        'aria-label="histogram of the per-case score differences">'
    ]
    if not math.isnan(d.low):
        low, high = max(d.low, -reach), min(d.high, reach)
        parts.append(
            f'<rect class="interval" x="{x(low):.1f}" y="{pad - 12}" '
            f'width="{max(x(high) - x(low), 1.0):.1f}" height="{height - 2 * pad + 12}" '
            'fill="#e8ecf5"><title>interval of the mean difference</title></rect>'
        )
    for i, n in enumerate(counts):
        h = (height - 2 * pad) * n / peak
        middle = -reach + (i + 0.5) * 2 * reach / len(counts)
        color = _COLORS["regressed"] if middle < 0 else _COLORS["improved"]  # (0 below)
        if i == len(counts) // 2:  # the bin around 0
            color = _COLORS["unchanged"]
        parts.append(
            f'<rect class="bar" x="{pad + i * bar + 1:.1f}" y="{height - pad - h:.1f}" '
            f'width="{bar - 2:.1f}" height="{h:.1f}" fill="{color}" fill-opacity="0.75">'
            f"<title>{n} case(s)</title></rect>"
        )
    parts.append(
        f'<line x1="{x(0):.1f}" y1="{pad - 12}" x2="{x(0):.1f}" y2="{height - pad}" '
        'stroke="#3a4252"/>'
    )
    if not math.isnan(d.value):
        parts.append(
            f'<line class="mean" x1="{x(max(min(d.value, reach), -reach)):.1f}" y1="{pad - 12}" '
            f'x2="{x(max(min(d.value, reach), -reach)):.1f}" y2="{height - pad}" '
            'stroke="#2b4aa0" stroke-width="2"><title>mean difference</title></line>'
        )
    for i in range(5):
        value = -reach + i * reach / 2
        parts.append(
            f'<text x="{x(value):.1f}" y="{height - pad + 14}" text-anchor="middle">'
            f"{value:+g}</text>"
        )
    parts.append(
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" '
        'stroke="#9aa3b2"/>'
        f'<text x="{width / 2:.0f}" y="{height - 2}" text-anchor="middle">candidate minus base'
        "</text></svg>"
    )
    return "".join(parts)
