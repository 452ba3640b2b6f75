"""Check the built documentation site (after `mkdocs build`): the API reference is readable.

    python .ci/check_docs_site.py [site]      # default: site/ (what .ci/steps/docs.sh builds)

Fails, naming each page and what is wrong, when
- a docstring section was not parsed: a paragraph that opens with "Args:", "Returns:", ... (the
  docstrings are Google style; mkdocs.yml must parse them so);
- a Sphinx role is left in the text (":class:`X`", ":meth:`y`", ...): the docstrings use
  Markdown cross-references or backticks;
- a result model's page lacks a row, with a type and a description, for one of its fields;
- a public module has no reference page, or its page lacks one of the module's public objects.

The frameworks are not needed: mkdocstrings reads the faces' source statically, and this script
reads their public names from their source too.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_UNPARSED = re.compile(
    r"<p>\s*(Args|Arguments|Parameters|Returns|Yields|Raises|Attributes|Examples?|Note|Warns):",
)
_ROLE = re.compile(r":(?:py:)?(?:class|meth|func|attr|mod|exc|data|obj|const):(?:`|<code>)")
_ROW = re.compile(r'<tr class="doc-section-item">(.*?)</tr>', re.S)
_CELLS = re.compile(r"<td[^>]*>(.*?)</td>", re.S)
_TAG = re.compile(r"<[^>]+>")

# Result models: (import path, page). Each field needs a row with its type and a description.
RESULT_MODELS = [
    ("summscore.results.SummaryResult", "reference/results"),
    ("summscore.results.ClaimVerdict", "reference/results"),
    ("summscore.results.QuestionAnswer", "reference/results"),
    ("summscore.results.AssessmentAnswer", "reference/results"),
    ("summscore.results.Usage", "reference/results"),
    ("summscore.results.BatchSummary", "reference/results"),
    ("summscore.serve.ServeConfig", "reference/serve"),
    ("summscore.mastra.MastraResult", "reference/faces/mastra"),
    ("summscore.mastra.MastraScorerResult", "reference/faces/mastra"),
]

# Public modules and their pages: every name in the module's __all__ must be on the page.
MODULE_PAGES = {
    "summscore.ragas": "reference/faces/ragas",
    "summscore.deepeval": "reference/faces/deepeval",
    "summscore.mastra": "reference/faces/mastra",
    "summscore.mlflow": "reference/faces/mlflow",
    "summscore.inspect": "reference/faces/inspect",
    "summscore.opik": "reference/faces/opik",
    "summscore.langsmith": "reference/faces/langsmith",
    "summscore.promptfoo": "reference/faces/promptfoo",
    "summscore.braintrust": "reference/faces/braintrust",
    "summscore.phoenix": "reference/faces/phoenix",
    "summscore.trulens": "reference/faces/trulens",
    "summscore.ray": "reference/faces/ray",
    "summscore.serve": "reference/serve",
    "summscore.masking": "reference/masking",
    "summscore.report": "reference/report",
    "summscore.judges": "reference/judges",
    "summscore.errors": "reference/errors",
    "summscore.formulas": "reference/formulas",
    "summscore.results": "reference/results",
}
# Names re-exported from a framework (documented by the framework; the module's docstring says so).
UPSTREAM = {"summscore.deepeval.SummarizationTemplate"}
# Names a page shows under their home module rather than the re-exporting one.
SHOWN_AS = {
    "summscore.judges.allow_model_requests": "summscore.judges.guard.allow_model_requests",
    "summscore.judges.check_model_request": "summscore.judges.guard.check_model_request",
    "summscore.judges.ModelRequestsForbidden": "summscore.judges.guard.ModelRequestsForbidden",
}


def public_names(module: str) -> list[str]:
    """The module's ``__all__``, read from its source (no import: faces need their frameworks)."""
    base = ROOT / "src" / Path(*module.split("."))
    path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return [ast.literal_eval(e) for e in node.value.elts]  # type: ignore[attr-defined]
    return []


def page(site: Path, name: str) -> str:
    path = site / name / "index.html"
    return path.read_text("utf-8") if path.is_file() else ""


def block_of(html: str, path: str) -> str | None:
    """The HTML of the object ``path``: from its heading to the next heading of its level."""
    start = re.search(rf'<h(\d) id="{re.escape(path)}"', html)
    if start is None:
        return None
    level = int(start.group(1))
    end = re.compile(rf'<h[1-{level}] id="').search(html, start.end())
    return html[start.start() : end.start() if end else len(html)]


def field_names(path: str) -> list[str]:
    module, name = path.rsplit(".", 1)
    cls = getattr(importlib.import_module(module), name)
    if hasattr(cls, "model_fields"):
        return list(cls.model_fields)
    return [f.name for f in dataclasses.fields(cls)]


def table_rows(block: str) -> dict[str, tuple[str, str]]:
    """Name -> (type, description) of each row of the block's own Attributes table."""
    own = block.split('<div class="doc doc-children">', 1)[0]
    rows = {}
    for row in _ROW.findall(own):
        cells = [_TAG.sub("", c).strip() for c in _CELLS.findall(row)]
        if len(cells) >= 3:
            rows[cells[0]] = (cells[1], " ".join(cells[2].split()))
    return rows


def check(site: Path) -> list[str]:
    problems = []
    for html_path in sorted(site.rglob("*.html")):
        html = html_path.read_text("utf-8")
        where = html_path.relative_to(site).as_posix()
        problems += [f"{where}: an unparsed '{m}:' section" for m in _UNPARSED.findall(html)]
        problems += [f"{where}: a raw Sphinx role '{m.group(0)}'" for m in _ROLE.finditer(html)]
    for path, name in RESULT_MODELS:
        block = block_of(page(site, name), path)
        if block is None:
            problems.append(f"{name}: no section for {path}")
            continue
        rows = table_rows(block)
        for field in field_names(path):
            kind, text = rows.get(field, ("", ""))
            if field not in rows:
                problems.append(f"{name}: {path} has no row for its field {field!r}")
            elif not kind or not text:
                problems.append(f"{name}: {path}.{field} has no type or no description")
    for module, name in MODULE_PAGES.items():
        html = page(site, name)
        if not html:
            problems.append(f"{module}: no reference page {name}/")
            continue
        for public in public_names(module):
            if f"{module}.{public}" in UPSTREAM:
                continue
            shown = SHOWN_AS.get(f"{module}.{public}", f"{module}.{public}")
            if f'id="{shown}"' not in html:
                problems.append(f"{name}: {module}.{public} is not on the page")
    return problems


def main(argv: list[str]) -> int:
    site = Path(argv[0]) if argv else ROOT / "site"
    if not (site / "index.html").is_file():
        print(f"{site}: no built site (run mkdocs build first)")
        return 2
    problems = check(site)
    for problem in problems:
        print(problem)
    pages = sum(1 for _ in site.rglob("*.html"))
    print(f"docs site: {pages} pages checked, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
