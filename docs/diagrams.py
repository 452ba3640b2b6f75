"""Draw the site's two diagrams as self-contained SVG files (no script, no font, no CDN):

- ``docs/images/layers.svg``: the package's layers, read from the import-linter contract in
  ``pyproject.toml`` (the one CI checks), so the picture cannot drift from the code;
- ``docs/images/case-flow.svg``: how one case goes through a face to the core and back.

    python docs/diagrams.py          # rewrites both; tests/test_docs_site.py checks they are current

Not a page: mkdocs.yml excludes it from the site.
"""

from __future__ import annotations

import sys
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"

FONT = "font-family=\"-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif\""
MONO = "font-family=\"'SFMono-Regular', Consolas, 'Liberation Mono', Menlo, monospace\""

# What each layer of the contract is, in a few words (the contract gives the modules).
LAYER_TEXT = {
    "cli": ("command line", "summscore score, summscore serve: options in, a job started"),
    "ragas": ("faces, service", "one framework each: its types in, its result type out; no rule"),
    "adapters": (
        "shared by faces, files",
        "scorer= beside upstream options; records, results, resume",
    ),
    "report": ("report", "the self-contained HTML report"),
    "scorer": (
        "the scorer",
        "SummarizationScorer: checks input, runs the preset, builds the result",
    ),
    "presets": ("rules", "the ragas, deepeval and Mastra rules: which questions, what number"),
    "calls": ("asking the judge", "limits, retries, source and reply caches, reading replies"),
    "judges": ("judges, prompts", "one module per backend (LexicalJudge: offline); prompt sets"),
    "results": ("bottom", "results, errors, formulas, input checks, key masking"),
}


def contract_layers() -> list[list[str]]:
    """The layers of the import-linter contract, top first, each a list of module names."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]
    layered = next(c for c in config["contracts"] if c["type"] == "layers")
    return [[name.strip() for name in layer.split("|")] for layer in layered["layers"]]


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: int = 12,
    anchor: str = "start",
    fill: str = "#1f2937",
    weight: str = "normal",
    mono: bool = False,
) -> str:
    family = MONO if mono else FONT
    return (
        f'<text x="{x:.0f}" y="{y:.0f}" {family} font-size="{size}" text-anchor="{anchor}" '
        f'font-weight="{weight}" fill="{fill}">{escape(text)}</text>'
    )


def _box(x: float, y: float, w: float, h: float, fill: str, stroke: str, rx: int = 6) -> str:
    return (
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{h:.0f}" rx="{rx}" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="1"/>'
    )


def _wrap(modules: list[str], room: float) -> list[list[tuple[str, float]]]:
    """Module boxes (name, width) in lines that fit ``room`` pixels."""
    lines: list[list[tuple[str, float]]] = [[]]
    used = 0.0
    for name in modules:
        w = max(70.0, 7.0 * len(name) + 18)
        if lines[-1] and used + w > room:
            lines.append([])
            used = 0.0
        lines[-1].append((name, w))
        used += w + 6
    return lines


def layers_svg() -> str:
    layers = contract_layers()
    width, label_w, margin, gap = 980, 190, 16, 8
    area_x = margin + label_w
    area_w = width - area_x - margin - 50
    rows = [(_wrap(modules, area_w), modules) for modules in layers]
    heights = [30 * len(lines) + 28 for lines, _ in rows]
    height = margin * 2 + 30 + sum(h + gap for h in heights)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="title">',
        '<title id="title">The layers of summscore, top to bottom: a layer may import the layers '
        "below it, never one above (checked by import-linter in CI)</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        _text(
            margin,
            margin + 14,
            "summscore, by layer (pyproject.toml, [tool.importlinter])",
            size=14,
            weight="bold",
        ),
    ]
    y = margin + 30
    for i, ((lines, modules), row_h) in enumerate(zip(rows, heights)):
        title, text = LAYER_TEXT.get(modules[0], (modules[0], ""))
        band = "#eef2ff" if i % 2 == 0 else "#f8fafc"
        parts.append(_box(margin, y, width - 2 * margin - 40, row_h, band, "#c7d2fe", rx=4))
        parts.append(_text(margin + 10, y + 22, title, size=13, weight="bold", fill="#312e81"))
        for k, line in enumerate(lines):
            bx = area_x
            for name, w in line:
                by = y + 6 + 30 * k
                parts.append(_box(bx, by, w, 24, "#ffffff", "#6366f1", rx=4))
                parts.append(_text(bx + w / 2, by + 16, name, size=11, anchor="middle", mono=True))
                bx += w + 6
        parts.append(_text(area_x, y + row_h - 8, text, size=11, fill="#4b5563"))
        y += row_h + gap
    # The direction of imports, along the right edge.
    ax = width - margin - 20
    top, bottom = margin + 40, height - margin - 10
    parts += [
        f'<line x1="{ax}" y1="{top}" x2="{ax}" y2="{bottom - 10}" stroke="#4338ca" '
        'stroke-width="2"/>',
        f'<path d="M {ax - 6} {bottom - 12} L {ax} {bottom} L {ax + 6} {bottom - 12} Z" '
        'fill="#4338ca"/>',
        f'<text x="{ax + 14}" y="{(top + bottom) / 2:.0f}" {FONT} font-size="12" fill="#4338ca" '
        f'transform="rotate(90 {ax + 14} {(top + bottom) / 2:.0f})" text-anchor="middle">'
        "imports go down, never up</text>",
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


# One case through the deepeval face, step by step: (lane, title, detail).
FLOW = [
    (
        "you",
        "your test: metric.measure(LLMTestCase(input=..., actual_output=...))",
        "deepeval's own types, as you wrote them for deepeval",
    ),
    (
        "face",
        "summscore.deepeval.SummarizationMetric",
        "input -> source, actual_output -> summary; threshold, model -> the scorer's options and judge",
    ),
    (
        "core",
        "SummarizationScorer.ascore(source, summary)",
        "checks the input (errors name deepeval's fields), then runs the preset",
    ),
    (
        "core",
        "preset 'deepeval': the source's work, then the summary's",
        "truths, questions, the source's answers (once per source: the source cache); claims, verdicts",
    ),
    (
        "core",
        "calls: each task asked of the judge",
        "prompt rendered (deepeval's own), request limits, retries, reply cache, reply read and repaired",
    ),
    (
        "judge",
        "the judge: OpenAIJudge, LexicalJudge (offline), a framework's model, ...",
        "judge.complete(JudgeRequest) -> JudgeReply: answers only, no number",
    ),
    (
        "core",
        "formulas: the rule turns answers into the number",
        "alignment = yes / verdicts; coverage = covered / questions; score = min(alignment, coverage)",
    ),
    (
        "core",
        "SummaryResult",
        "score, components, claims with verdicts and reasons, questions, reason, usage, error",
    ),
    (
        "face",
        "back to deepeval's shape",
        "metric.score, metric.reason, metric.success, metric.score_breakdown",
    ),
]
LANES = {
    "you": ("#f3f4f6", "#9ca3af", "your code"),
    "face": ("#eef2ff", "#6366f1", "the face"),
    "core": ("#ecfdf5", "#10b981", "the core"),
    "judge": ("#fffbeb", "#f59e0b", "the judge"),
}


def flow_svg() -> str:
    width, margin, box_h, gap, lane_w = 800, 16, 52, 18, 96
    height = margin * 2 + 34 + len(FLOW) * (box_h + gap) - gap + 24
    box_x = margin + lane_w
    box_w = width - box_x - margin
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="title">',
        '<title id="title">How one case goes through the deepeval face to the core and back: the '
        "face translates types, the core asks the judge and computes the number</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        _text(
            margin,
            margin + 14,
            "One case through a face (here deepeval's) to the core and back",
            size=14,
            weight="bold",
        ),
    ]
    y = margin + 34
    for i, (lane, title, detail) in enumerate(FLOW):
        fill, stroke, label = LANES[lane]
        parts.append(_text(margin, y + 31, label, size=11, fill=stroke, weight="bold"))
        parts.append(_box(box_x, y, box_w, box_h, fill, stroke))
        parts.append(_text(box_x + 12, y + 21, title, size=12, weight="bold", mono=lane != "you"))
        parts.append(_text(box_x + 12, y + 40, detail, size=11, fill="#4b5563"))
        if i < len(FLOW) - 1:
            cx, y0, y1 = box_x + 40, y + box_h, y + box_h + gap
            parts.append(
                f'<line x1="{cx}" y1="{y0}" x2="{cx}" y2="{y1 - 6}" stroke="#6b7280" '
                'stroke-width="1.5"/>'
            )
            parts.append(
                f'<path d="M {cx - 5} {y1 - 7} L {cx} {y1} L {cx + 5} {y1 - 7} Z" fill="#6b7280"/>'
            )
        y += box_h + gap
    parts.append(
        _text(
            margin,
            height - margin - 4,
            "Every face runs the same core: given one shared scorer (scorer=), every framework "
            "gets the same number for a case.",
            size=11,
            fill="#4b5563",
        )
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


DIAGRAMS = {"layers.svg": layers_svg, "case-flow.svg": flow_svg}


def main() -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    for name, draw in DIAGRAMS.items():
        (IMAGES / name).write_text(draw(), encoding="utf-8")
        print(f"wrote docs/images/{name}")


if __name__ == "__main__":
    main()
