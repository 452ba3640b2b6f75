"""Check the built documentation site (after `mkdocs build`): the API reference is readable.

    python .ci/check_docs_site.py [site]      # default: site/ (what .ci/steps/docs.sh builds)

Fails, naming each page and what is wrong, when
- a docstring section was not parsed: a paragraph that opens with "Args:", "Returns:", ... (the
  docstrings are Google style; mkdocs.yml must parse them so);
- a Sphinx role is left in the text (":class:`X`", ":meth:`y`", ...): the docstrings use
  Markdown cross-references or backticks;
- an object is shown with no description (a function, method or property without a docstring
  in a page's members list: its entry is a bare signature);
- a page's own heading has nothing under it before the next heading of its level (the objects
  a reference page shows under a heading must sit a level below it);
- a docstring line became a heading (a count written ``#answers / ...`` out of backticks):
  the object loses its description and the page's contents gain the sentence;
- a result model's page lacks a row, with a type and a description, for one of its fields, or
  one of its public properties and methods (a member without a docstring is left off the page);
  a result model is every dataclass and pydantic model a reference page shows (those of a face
  whose framework is not installed here: the ones in RESULT_MODELS);
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
_DOCSTRING_HEADING = re.compile(r'<h\d id="(summscore[\w.]*)--[^"]*"')
_OBJECT_HEADING = re.compile(r'<h(\d) id="(summscore[\w.]*)" class="doc doc-heading">')
_HEADING = re.compile(r'<h([1-6]) id="([^"]+)"([^>]*)>')
_ROW = re.compile(r'<tr class="doc-section-item">(.*?)</tr>', re.S)
_CELLS = re.compile(r"<td[^>]*>(.*?)</td>", re.S)
_TAG = re.compile(r"<[^>]+>")
_CLASS_HEADING = re.compile(
    r'<h\d id="([\w.]+)" class="doc doc-heading">\s*<code class="[^"]*doc-symbol-class"'
)

# Result models checked even where their module cannot be imported here (a face's framework
# missing): (import path, page). Each field needs a row with its type and a description.
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
    ("summscore.comparison.Comparison", "reference/compare"),
    ("summscore.comparison.CaseChange", "reference/compare"),
    ("summscore.comparison.MetricChange", "reference/compare"),
    ("summscore.comparison.PassRateChange", "reference/compare"),
    ("summscore.comparison.Interval", "reference/compare"),
    ("summscore.comparison.Verdict", "reference/compare"),
    ("summscore.comparison.Gate", "reference/compare"),
    ("summscore.comparison.Run", "reference/compare"),
    ("summscore.comparison.RunCase", "reference/compare"),
    ("summscore.results.stats.Summary", "reference/results"),
]
# Models a reference page shows whose fields are documented another way: the judge protocol's
# request and reply (summscore.judges.base) describe their fields in prose: that file is one the
# real-model CI step watches, changed only with a real-model run.
NOT_RESULT_MODELS = (
    "summscore.judges.JudgeRequest",
    "summscore.judges.JudgeReply",
)
# A face's class that subclasses its framework's (a ragas metric) has the framework's fields.
_OWN_BASES = ("summscore", "builtins", "pydantic", "typing", "abc")

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
    "summscore.comparison": "reference/compare",
    "summscore.cases": "reference/cases",
}
# Names re-exported from a framework (documented by the framework; the module's docstring says so).
UPSTREAM = {"summscore.deepeval.SummarizationTemplate"}
# Names a page shows under their home module rather than the re-exporting one.
SHOWN_AS = {
    "summscore.cases.Case": "summscore.Case",
    "summscore.judges.allow_model_requests": "summscore.judges.guard.allow_model_requests",
    "summscore.judges.check_model_request": "summscore.judges.guard.check_model_request",
    "summscore.judges.ModelRequestsForbidden": "summscore.judges.guard.ModelRequestsForbidden",
}

# Names shown on another page than their module's (the page links to it).
SHOWN_ON = {"summscore.Case": ["reference/scorer"]}


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


def model_class(path: str) -> type | None:
    """The class at ``path`` when it is a dataclass or a pydantic model; None for anything else,
    or where its module cannot be imported here (a face whose framework is not installed)."""
    module, name = path.rsplit(".", 1)
    try:
        cls = getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None
    if isinstance(cls, type) and (hasattr(cls, "model_fields") or dataclasses.is_dataclass(cls)):
        return cls
    return None


def field_names(path: str) -> list[str]:
    cls = model_class(path)
    if cls is None:
        raise ValueError(f"{path} is no dataclass or pydantic model importable here")
    return _fields_of(cls)


def _fields_of(cls: type) -> list[str]:
    if hasattr(cls, "model_fields"):
        return list(cls.model_fields)
    return [f.name for f in dataclasses.fields(cls)]


def public_members(cls: type) -> list[str]:
    """The public properties and methods summscore defines on ``cls`` (not pydantic's, not
    object's), fields aside."""
    found = []
    for klass in cls.__mro__:
        if not klass.__module__.startswith("summscore"):
            continue
        for name, value in vars(klass).items():
            if name.startswith("_") or name in found:
                continue
            if isinstance(value, (property, staticmethod, classmethod)) or callable(value):
                found.append(name)
    return found


def shown_models(site: Path) -> list[tuple[str, str]]:
    """(import path, page) of every dataclass and pydantic model a reference page shows."""
    found = []
    for html_path in sorted((site / "reference").rglob("index.html")):
        name = html_path.parent.relative_to(site).as_posix()
        for path in _CLASS_HEADING.findall(html_path.read_text("utf-8")):
            if path.startswith(NOT_RESULT_MODELS) or (cls := model_class(path)) is None:
                continue
            if all(k.__module__.split(".")[0] in _OWN_BASES for k in cls.__mro__):
                found.append((path, name))
    return found


def empty_sections(html: str) -> list[str]:
    """The ids of a page's own headings (not an object's) with no text, picture or code before
    the next heading of the same or a higher level."""
    found = []
    headings = list(_HEADING.finditer(html))
    for index, heading in enumerate(headings):
        if "doc-heading" in heading.group(3) or heading.group(1) == "1":
            continue
        after = headings[index + 1] if index + 1 < len(headings) else None
        if after is None or int(after.group(1)) > int(heading.group(1)):
            continue
        between = html[heading.end() : after.start()].split("</h", 1)[-1].split(">", 1)[-1]
        if not _TAG.sub(" ", between).split() and "<img" not in between:
            found.append(heading.group(2))
    return found


def undescribed(html: str) -> list[str]:
    """The objects of a page whose entry has no text of its own beside the signature."""
    found = []
    headings = list(_OBJECT_HEADING.finditer(html))
    for heading, after in zip(headings, [*headings[1:], None]):
        entry = html[heading.end() : after.start() if after else len(html)]
        start = entry.find('<div class="doc doc-contents')
        if start < 0:
            continue
        own = entry[start:].split('<div class="doc doc-children">', 1)[0]
        text = _TAG.sub(" ", re.sub(r"<pre.*?</pre>", "", own, flags=re.S))
        if not text.split():
            found.append(heading.group(2))
    return found


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
        problems += [
            f"{where}: a line of {m}'s docstring shown as a heading (put it in backticks)"
            for m in dict.fromkeys(_DOCSTRING_HEADING.findall(html))
        ]
        problems += [
            f"{where}: {name} is shown with no description (no docstring?)"
            for name in undescribed(html)
        ]
        problems += [f"{where}: the section #{h} is empty" for h in empty_sections(html)]
    models = dict.fromkeys([*RESULT_MODELS, *shown_models(site)])
    documented = [c for path, _ in models if (c := model_class(path)) is not None]
    for path, name in models:
        html = page(site, name)
        block = block_of(html, path)
        if block is None:
            problems.append(f"{name}: no section for {path}")
            continue
        rows = table_rows(block)
        cls = model_class(path)
        # What a class takes from another model documented on the site is documented there.
        bases = [b for b in documented if cls is not None and b is not cls and issubclass(cls, b)]
        inherited = {n for b in bases for n in (*_fields_of(b), *public_members(b))}
        fields = [f for f in field_names(path) if f not in inherited]
        for field in fields:
            kind, text = rows.get(field, ("", ""))
            if field not in rows:
                problems.append(f"{name}: {path} has no row for its field {field!r}")
            elif not kind or not text:
                problems.append(f"{name}: {path}.{field} has no type or no description")
        for member in public_members(cls) if cls else []:
            if member in inherited:
                continue
            if member not in fields and f'id="{path}.{member}"' not in html:
                problems.append(f"{name}: {path}.{member} is not on the page (no docstring?)")
    for module, name in MODULE_PAGES.items():
        html = page(site, name)
        if not html:
            problems.append(f"{module}: no reference page {name}/")
            continue
        for public in public_names(module):
            if f"{module}.{public}" in UPSTREAM:
                continue
            shown = SHOWN_AS.get(f"{module}.{public}", f"{module}.{public}")
            pages = [html, *(page(site, p) for p in SHOWN_ON.get(shown, []))]
            if not any(f'id="{shown}"' in text for text in pages):
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
