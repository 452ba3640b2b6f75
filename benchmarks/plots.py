"""The benchmarks' figures as pictures for the documentation (matplotlib; the ``benchmarks``
extra), written to ``docs/images/`` as SVG with text as text, no date and a fixed id salt, so that
the same data draws the same file.

    python benchmarks/plots.py          # the plots drawn from committed tables (below)

Drawn from a table a benchmark already wrote (no benchmark is re-run):

- ``presets-agreement.svg``: each preset's margin over the better trivial baseline per public
  data set, with its 95% paired bootstrap interval, and the mean margins (docs/figures/presets.md,
  written by ``benchmarks/lexical_presets.py --figures``).

Drawn by a benchmark's own ``--plots`` option, from the run it measures:

- ``offline-judge-time.svg``: seconds per text size for each adversarial family
  (``benchmarks/lexical_adversarial.py --plots``);
- ``throughput-bound.svg``: wall time of each system against the physical bound
  (``benchmarks/throughput.py --plots``).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "docs" / "figures"
IMAGES = ROOT / "docs" / "images"

COLOURS = {"ragas": "#d97706", "deepeval": "#4f46e5", "mastra": "#059669"}


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        sys.exit('plots need matplotlib: pip install -e ".[benchmarks]"')
    matplotlib.use("Agg")
    matplotlib.rcParams.update(
        {
            "svg.fonttype": "none",  # text stays text: small files, the page's own font
            "svg.hashsalt": "summscore",  # the same ids on every run
            "font.size": 10,
            "axes.spines.top": False,
            "axes.spines.right": False,
        }
    )
    import matplotlib.pyplot as plt

    return plt


def save(figure: Any, name: str, *, note: str = "") -> Path:
    """Write ``docs/images/<name>.svg`` (no date in it) and close the figure."""
    if note:
        figure.text(0.01, -0.02, note, fontsize=8, color="#6b7280", ha="left", va="top")
    IMAGES.mkdir(parents=True, exist_ok=True)
    path = IMAGES / f"{name}.svg"
    figure.savefig(path, format="svg", bbox_inches="tight", metadata={"Date": None})
    _pyplot().close(figure)
    return path


# ------------------------------------------------------------------ the presets' agreement

_CELL = re.compile(r"([-+]?\d*\.\d+), ([-+]\d*\.\d+)\*? \[([-+]\d*\.\d+), ([-+]\d*\.\d+)\]")
_MEAN = re.compile(r"([-+]\d*\.\d+)\*? \[([-+]\d*\.\d+), ([-+]\d*\.\d+)\]")


def read_presets_table(
    text: str,
) -> tuple[
    list[str],
    dict[str, list[tuple[float, float, float]]],
    dict[str, list[tuple[float, float, float]]],
]:
    """From docs/figures/presets.md: the sets, per rule the (margin, low, high) of each set, and
    per rule the mean margins (all pairs, validation cuts, test cuts)."""
    tables = [t for t in text.split("\n\n") if t.lstrip().startswith("|")]
    per_set, means = tables[0], tables[1]
    header = [h.strip() for h in per_set.splitlines()[0].strip("|").split("|")]
    rules = [h.split(":")[0] for h in header[2:]]
    sets: list[str] = []
    margins: dict[str, list[tuple[float, float, float]]] = {rule: [] for rule in rules}
    for line in per_set.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        sets.append(cells[0])
        for rule, cell in zip(rules, cells[2:]):
            match = _CELL.search(cell)
            if match is None:
                raise ValueError(f"presets table: cannot read {cell!r}")
            _, margin, low, high = (float(x) for x in match.groups())
            margins[rule].append((margin, low, high))
    mean: dict[str, list[tuple[float, float, float]]] = {}
    for line in means.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        mean[cells[0]] = [
            tuple(float(x) for x in m.groups())  # type: ignore[misc]
            for m in (_MEAN.search(c) for c in cells[1:])
            if m is not None
        ]
    return sets, margins, mean


def presets_agreement(text: str) -> Path:
    plt = _pyplot()
    sets, margins, mean = read_presets_table(text)
    rules = list(margins)
    figure, (left, right) = plt.subplots(
        1, 2, figsize=(9.5, 6.2), gridspec_kw={"width_ratios": [3, 1.3]}
    )
    offsets = {rule: (i - (len(rules) - 1) / 2) * 0.25 for i, rule in enumerate(rules)}
    for rule in rules:
        ys = [len(sets) - 1 - i + offsets[rule] for i in range(len(sets))]
        xs = [m for m, _, _ in margins[rule]]
        errors = [[m - lo for m, lo, _ in margins[rule]], [hi - m for m, _, hi in margins[rule]]]
        left.errorbar(
            xs,
            ys,
            xerr=errors,
            fmt="o",
            ms=4,
            capsize=2,
            lw=1,
            color=COLOURS.get(rule, "#374151"),
            label=rule,
        )
    left.axvline(0, color="#9ca3af", lw=1, ls="--")
    left.set_yticks(range(len(sets)), list(reversed(sets)))
    left.set_xlabel("margin over the better word-overlap baseline (ROC-AUC, or ρ)")
    left.set_title("Per public data set, with 95% paired bootstrap intervals", fontsize=10)
    figure.legend(
        *left.get_legend_handles_labels(),
        loc="upper center",
        ncol=len(rules),
        bbox_to_anchor=(0.5, 0.955),
        frameon=False,
        title=None,
    )
    cuts = ["all pairs", "validation", "test"]
    for rule in rules:
        for j, (m, lo, hi) in enumerate(mean.get(rule, [])):
            y = len(cuts) - 1 - j + offsets[rule]
            right.errorbar(
                [m],
                [y],
                xerr=[[m - lo], [hi - m]],
                fmt="o",
                ms=4,
                capsize=2,
                lw=1,
                color=COLOURS.get(rule, "#374151"),
            )
    right.axvline(0, color="#9ca3af", lw=1, ls="--")
    right.set_yticks(range(len(cuts)), list(reversed(cuts)))
    right.set_xlabel("mean margin")
    right.set_title("Mean over the sets", fontsize=10)
    figure.suptitle("Agreement with human labels, offline judge: the three presets", fontsize=11)
    figure.tight_layout(rect=(0, 0, 1, 0.93))
    return save(
        figure,
        "presets-agreement",
        note="From docs/figures/presets.md (python benchmarks/lexical_presets.py --figures); "
        "drawn by python benchmarks/plots.py.",
    )


# ------------------------------------------------------------------ the offline judge's time


def offline_judge_time(
    seconds: Mapping[tuple[str, str], Sequence[tuple[int, float]]], *, note: str = ""
) -> Path:
    """Seconds against text size, one panel per shape, one line per family (log-log), with the
    line of linear growth through the slowest family's first point for reference."""
    plt = _pyplot()
    shapes = sorted(
        {shape for _, shape in seconds}, key=["source grows", "summary grows", "both grow"].index
    )
    families = sorted({family for family, _ in seconds})
    colours = plt.get_cmap("tab20")
    figure, axes = plt.subplots(1, len(shapes), figsize=(11, 4.6), sharey=True, squeeze=False)
    for ax, shape in zip(axes[0], shapes):
        for k, family in enumerate(families):
            points = sorted(seconds.get((family, shape), []))
            if points:
                ax.plot(
                    [p[0] for p in points],
                    [p[1] for p in points],
                    marker="o",
                    ms=2.5,
                    lw=1.2,
                    color=colours(k % 20),
                    label=family,
                )
        every = [p for (f, s), pts in seconds.items() if s == shape for p in pts]
        if every:
            small = min(p[0] for p in every)
            top = max((p for p in every if p[0] == small), key=lambda p: p[1])
            large = max(p[0] for p in every)
            ax.plot(
                [small, large],
                [top[1], top[1] * large / small],
                color="#9ca3af",
                lw=1,
                ls="--",
                label="linear growth",
            )
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(
            plt.FuncFormatter(lambda x, _: f"{x / 1024:g}k" if x >= 1024 else f"{x:g}")
        )
        ax.set_title(shape, fontsize=10)
        ax.set_xlabel("characters per text")
    axes[0][0].set_ylabel("seconds for one row (deepeval rule)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    figure.legend(
        handles, labels, loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False, fontsize=8
    )
    figure.suptitle("The offline judge's time against text size, adversarial families", fontsize=11)
    figure.tight_layout()
    return save(figure, "offline-judge-time", note=note)


# ------------------------------------------------------------------ throughput and the bound


def throughput_bound(
    shapes: Sequence[tuple[str, Sequence[tuple[str, str, float]], Mapping[str, float]]],
    *,
    note: str = "",
) -> Path:
    """Per shape ("40 sources x 5 summaries"): each system's wall seconds (system, rule,
    seconds) as a multiple of its rule's bound (what no client can beat), on a log scale."""
    plt = _pyplot()
    figure, axes = plt.subplots(
        len(shapes), 1, figsize=(8.5, 1.2 + 1.9 * len(shapes)), squeeze=False, sharex=True
    )
    for ax, (title, rows, bounds) in zip(axes[:, 0], shapes):
        ys = list(range(len(rows)))[::-1]
        for y, (_, rule, wall) in zip(ys, rows):
            ratio = wall / bounds[rule]
            ax.barh(y, ratio, color=COLOURS.get(rule, "#6b7280"), height=0.6, left=0)
            ax.text(ratio, y, f"  {ratio:.1f}x ({wall:.1f} s)", va="center", fontsize=8)
        ax.axvline(1, color="#111827", lw=1, ls="--")
        ax.set_yticks(ys, [name for name, _, _ in rows])
        bound_text = ", ".join(f"{rule} {bound:.2f} s" for rule, bound in bounds.items())
        ax.set_title(f"{title}; the bound: {bound_text}", fontsize=10)
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda x, _: f"{x:g}x"))
        ax.set_xlim(0.8, max(w / bounds[r] for _, r, w in rows) * 4)
    axes[-1, 0].set_xlabel("wall time as a multiple of the rule's bound (1 = the bound, dashed)")
    figure.suptitle("Judge requests against the physical bound, compat judge server", fontsize=11)
    figure.tight_layout()
    return save(figure, "throughput-bound", note=note)


def machine() -> str:
    """The machine a plot's figures were measured on, as the tables name it."""
    import platform

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{platform.machine()}, {cores} cores, Python {sys.version.split()[0]}"


def main() -> int:
    path = presets_agreement((FIGURES / "presets.md").read_text("utf-8"))
    print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
