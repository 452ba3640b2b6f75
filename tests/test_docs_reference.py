"""The API reference of the documentation site reads well: no Sphinx role in a docstring (nor
in the other watched files), every field of every result model in its attributes table, the
results and service pages name what the code returns, the site checker (.ci/check_docs_site.py)
fails on what it looks for; and the pictures are drawn from the current code, each one shown
exists and is used."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from tests.test_docs_site import DOCS, ROOT

# ------------------------------------------------------------------ the reference

_ROLE = re.compile(r":(?:py:)?(?:class|meth|func|attr|mod|exc|data|obj):`")


def _watched() -> set[Path]:
    from compat.real_model import WATCHED

    files: set[Path] = set()
    for entry in WATCHED:
        path = ROOT / entry
        files |= set(path.rglob("*.py")) if path.is_dir() else {path}
    return files


def test_no_sphinx_role_in_a_docstring() -> None:
    """Docstrings are Markdown (Google style): `[Name][summscore.x.Name]` or backticks."""
    found = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in sorted((ROOT / "src").rglob("*.py"))
        if p not in _watched()
        for n, line in enumerate(p.read_text("utf-8").splitlines(), 1)
        if _ROLE.search(line)
    ]
    assert not found, found


def test_no_sphinx_role_in_the_watched_files_either() -> None:
    source = ROOT / "src"
    found = [
        p
        for p in sorted(_watched())
        if p.suffix == ".py" and p.is_relative_to(source) and _ROLE.search(p.read_text())
    ]
    assert not found, found


def test_no_docstring_formula_reads_as_markdown() -> None:
    """A docstring line opening with ``#`` (``#"yes" / #verdicts``, a count) is a heading to
    Markdown, and ``qa*(1-coeff) + conciseness*coeff`` is italics: the reference would show the
    sentence as a heading in the page's table of contents, or a formula without its products.
    Formulas are written in backticks."""
    import ast

    found = []
    for path in sorted((ROOT / "src").rglob("*.py")):
        if path in _watched():
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
            if not isinstance(node, kinds):
                continue
            fenced = False
            for line in (ast.get_docstring(node) or "").splitlines():
                prose = re.sub(r"``.*?``|`[^`]*`", "", line)
                if line.strip().startswith("```"):
                    fenced = not fenced
                elif not fenced and (re.match(r" {0,3}#", line) or re.search(r"\w\*[\w(]", prose)):
                    found.append(f"{path.relative_to(ROOT)} {getattr(node, 'name', '')}: {line}")
    assert not found, found


RESULT_MODELS = [
    "summscore.results.SummaryResult",
    "summscore.results.ClaimVerdict",
    "summscore.results.QuestionAnswer",
    "summscore.results.AssessmentAnswer",
    "summscore.results.Usage",
    "summscore.results.BatchSummary",
    "summscore.serve.ServeConfig",
    "summscore.mastra.MastraResult",
    "summscore.mastra.MastraScorerResult",
    "summscore.comparison.Comparison",
    "summscore.comparison.CaseChange",
    "summscore.comparison.MetricChange",
    "summscore.comparison.PassRateChange",
    "summscore.comparison.Interval",
    "summscore.comparison.Verdict",
    "summscore.comparison.Gate",
    "summscore.comparison.Run",
    "summscore.comparison.RunCase",
    "summscore.results.stats.Summary",
    "summscore.Case",
    "summscore.report.ReportCase",
]


@pytest.mark.parametrize("path", RESULT_MODELS)
def test_every_field_of_a_result_model_is_in_its_attributes_table(path: str) -> None:
    """The reference shows a model's fields from its docstring's Attributes section: a field
    added without a line there would be missing from the page."""
    import dataclasses
    import importlib
    import inspect

    module, name = path.rsplit(".", 1)
    cls = getattr(importlib.import_module(module), name)
    fields = (
        list(cls.model_fields)
        if hasattr(cls, "model_fields")
        else [f.name for f in dataclasses.fields(cls)]
    )
    doc = inspect.cleandoc(cls.__doc__ or "")
    assert "\nAttributes:\n" in doc, f"{path}: no Attributes section"
    section = doc.split("\nAttributes:\n", 1)[1]
    listed = re.findall(r"^    (\w+):", section, re.M)
    assert listed == fields, f"{path}: Attributes {listed} vs fields {fields}"
    # A property or method without a docstring is left off the page (mkdocstrings).
    undocumented = [
        name
        for klass in cls.__mro__
        if klass.__module__.startswith("summscore")
        for name, value in vars(klass).items()
        if not name.startswith("_")
        and (isinstance(value, property) or inspect.isfunction(value))
        and not inspect.getdoc(value)
    ]
    assert undocumented == [], f"{path}: no docstring on {undocumented}"


def test_the_results_page_names_every_field_of_a_result() -> None:
    """docs/results.md's table of a result's fields: every field and property of SummaryResult,
    of its evidence and of its Usage, in backticks."""
    from summscore.results import (
        AssessmentAnswer,
        ClaimVerdict,
        QuestionAnswer,
        SummaryResult,
        Usage,
    )

    page = (DOCS / "results.md").read_text("utf-8")
    table = page.split("| field | what it holds |", 1)[1].split("\n\n", 1)[0]
    named = set(re.findall(r"`(\w+)`", table))
    wanted = {
        name
        for model in (SummaryResult, ClaimVerdict, QuestionAnswer, AssessmentAnswer, Usage)
        for name in [
            *model.model_fields,
            *(n for n, v in vars(model).items() if isinstance(v, property)),
        ]
    }
    assert sorted(wanted - named) == []


def test_the_service_page_lists_the_health_body_exactly() -> None:
    """docs/service.md's row for GET /healthz names every field of the body, and no other."""
    from summscore.serve.models import HealthResponse

    page = (DOCS / "service.md").read_text("utf-8")
    row = next(line for line in page.splitlines() if line.startswith("| `GET /healthz`"))
    answer = row.split("|")[3]
    named = set(re.findall(r"`(\w+)`", answer.split("; needs no token", 1)[0]))
    assert named == set(HealthResponse.model_fields)


@pytest.mark.parametrize("page", ["scorer.md", "cases.md"])
def test_every_member_a_reference_page_lists_has_a_docstring(page: str) -> None:
    """A member listed under ``members:`` without a docstring is shown as a bare signature
    (``SummarizationScorer.threshold`` was)."""
    import importlib
    import inspect

    text = (DOCS / "reference" / page).read_text("utf-8")
    bare = []
    for block in re.split(r"^::: ", text, flags=re.M)[1:]:
        path = block.split()[0]
        module, _, name = path.rpartition(".")
        try:
            owner = getattr(importlib.import_module(module), name)
        except ModuleNotFoundError:
            owner = importlib.import_module(path)
        for member in re.findall(r"^ {8}- (\w+)$", block, re.M):
            value = inspect.getattr_static(owner, member)
            if not inspect.getdoc(getattr(value, "__func__", value)):
                bare.append(f"{path}.{member}")
    assert bare == []


def test_the_site_checker_knows_a_page_for_every_public_module() -> None:
    """Every module tests/test_layout.py pins as public API has a reference page the site check
    reads (its __all__, name by name): the package itself re-exports names documented where they
    live, and the command line (``summscore.cli.main``) has its own page, docs/cli.md."""
    from tests.test_layout import PUBLIC_API

    spec = importlib.util.spec_from_file_location(
        "check_docs_site", ROOT / ".ci" / "check_docs_site.py"
    )
    assert spec and spec.loader
    checker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checker)
    elsewhere = {"summscore", "summscore.scorer", "summscore.cli"}
    modules = {
        "summscore" + "".join(f".{part}" for part in Path(file).with_suffix("").parts)
        for file in PUBLIC_API
    }
    modules = {m.removesuffix(".__init__") for m in modules}
    assert sorted(modules - elsewhere - set(checker.MODULE_PAGES)) == []
    assert "summscore.SummarizationScorer" in (DOCS / "reference" / "scorer.md").read_text()
    assert (DOCS / "cli.md").is_file()


def test_the_service_page_says_what_the_promptfoo_route_reads() -> None:
    """docs/service.md's row for POST /v1/promptfoo: promptfoo's webhook posts the output and the
    context (prompt and vars), never the assertion's ``config:``; the route takes the source
    variable and the pass mark from its URL's query, and the page says so."""
    pytest.importorskip("fastapi")
    from summscore.serve.promptfoo import _QUERY, PromptfooRequest

    page = (DOCS / "service.md").read_text("utf-8")
    row = next(line for line in page.splitlines() if line.startswith("| `POST /v1/promptfoo`"))
    asked = row.split("|")[2]
    sent = asked.split(";", 1)[0]  # what the row lists as sent, before what it says of the rest
    assert set(PromptfooRequest.model_fields) == {"output", "context"}
    assert "config" not in sent and "never the assertion's `config:`" in asked, asked
    assert all(f"`{name}`" in asked for name in _QUERY), asked


def test_the_packages_docstring_names_every_face() -> None:
    """``help(summscore)`` opens with the package docstring: it lists the faces there are."""
    import summscore

    spec = importlib.util.spec_from_file_location(
        "check_docs_site", ROOT / ".ci" / "check_docs_site.py"
    )
    assert spec and spec.loader
    checker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checker)
    faces = [m for m, page in checker.MODULE_PAGES.items() if page.startswith("reference/faces/")]
    doc = " ".join((summscore.__doc__ or "").split())
    assert len(faces) == 12 and [f for f in faces if f"``{f}``" not in doc] == []


def test_the_site_checker_fails_on_what_it_looks_for(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        "check_docs_site", ROOT / ".ci" / "check_docs_site.py"
    )
    assert spec and spec.loader
    checker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checker)
    page = tmp_path / "reference" / "results"
    page.mkdir(parents=True)
    (tmp_path / "index.html").write_text("<p>home</p>")
    (page / "index.html").write_text(
        '<h2 id="summscore.results.SummaryResult">SummaryResult</h2>'
        "<p>Args: llm: the judge</p><p>See :class:<code>Judge</code>.</p>"
        '<h4 id="summscore.formulas.f--answers-answers">answers / #answers</h4>'
        '<table><tr class="doc-section-item"><td><code>score</code></td>'
        "<td><code>float</code></td><td><p>The score.</p></td></tr></table>"
        '<h3 id="summscore.results.SummaryResult.ok" class="doc doc-heading">ok</h3>'
        '<div class="doc-signature highlight"><pre><code>ok: bool</code></pre></div>'
        '<div class="doc doc-contents ">\n\n</div>'
    )
    (tmp_path / "index.html").write_text(
        '<h1 id="home">Home</h1><h2 id="backends">Backends</h2>'
        '<h2 id="summscore.judges.LexicalJudge" class="doc doc-heading">LexicalJudge</h2>'
        '<div class="doc doc-contents "><p>The offline judge.</p></div>'
        '<h2 id="framework-models">Framework models</h2><p>Each wraps a model.</p>'
    )
    # A result model no list names, shown without a field table and without a property.
    compare = tmp_path / "reference" / "compare"
    compare.mkdir()
    (compare / "index.html").write_text(
        '<h2 id="summscore.comparison.Interval" class="doc doc-heading">\n'
        '<code class="doc-symbol doc-symbol-heading doc-symbol-class"></code> Interval</h2>'
        '<table><tr class="doc-section-item"><td><code>value</code></td>'
        "<td><code>float</code></td><td><p>The mean difference.</p></td></tr></table>"
        '<h2 id="summscore.Case" class="doc doc-heading">\n'
        '<code class="doc-symbol doc-symbol-heading doc-symbol-class"></code> Case</h2>'
    )
    problems = "\n".join(checker.check(tmp_path))
    assert "unparsed 'Args:' section" in problems
    assert "raw Sphinx role" in problems
    assert "a line of summscore.formulas.f's docstring shown as a heading" in problems
    assert "summscore.results.SummaryResult.ok is shown with no description" in problems
    assert "index.html: the section #backends is empty" in problems
    assert "#framework-models" not in problems and "#home" not in problems
    assert "SummaryResult has no row for its field 'reason'" in problems
    assert "summscore.ragas: no reference page" in problems
    assert "SummaryResult has no row for its field 'score'" not in problems
    assert "Interval has no row for its field 'low'" in problems
    assert "Interval has no row for its field 'value'" not in problems
    assert "summscore.comparison.Interval.excludes_zero is not on the page" in problems
    assert "summscore.comparison.load_run is not on the page" in problems
    assert "reference/compare: summscore.Case has no row for its field 'source'" in problems


# ------------------------------------------------------------------ pictures


def test_the_diagrams_are_drawn_from_the_current_code() -> None:
    spec = importlib.util.spec_from_file_location("diagrams", DOCS / "diagrams.py")
    assert spec and spec.loader
    diagrams = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(diagrams)
    for name, draw in diagrams.DIAGRAMS.items():
        on_disk = (DOCS / "images" / name).read_text("utf-8")
        assert on_disk == draw(), f"docs/images/{name} is stale: python docs/diagrams.py"
        assert "<script" not in on_disk and "http" not in on_disk.replace(
            "http://www.w3.org/2000/svg", ""
        ), f"{name} must be self-contained"
    layers = (DOCS / "images" / "layers.svg").read_text("utf-8")
    for layer in diagrams.contract_layers():
        for module in layer:
            assert f">{module}</text>" in layers, module


def test_every_picture_a_page_shows_exists_and_is_used() -> None:
    shown = set()
    for page in [*DOCS.rglob("*.md")]:
        for target in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page.read_text("utf-8")):
            path = (page.parent / target).resolve()
            assert path.is_file(), f"{page.relative_to(ROOT)}: {target}"
            shown.add(path.name)
    on_disk = {p.name for p in (DOCS / "images").iterdir()}
    assert on_disk - shown == set(), f"pictures no page shows: {on_disk - shown}"
    for svg in (DOCS / "images").glob("*.svg"):
        assert "<script" not in svg.read_text("utf-8"), svg.name


def test_the_presets_plot_reads_the_presets_table() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import plots
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    sets, margins, mean = plots.read_presets_table((DOCS / "figures" / "presets.md").read_text())
    assert len(sets) >= 10 and set(margins) == {"ragas", "deepeval", "mastra"}
    assert all(len(v) == len(sets) for v in margins.values())
    assert all(lo <= m <= hi for v in margins.values() for m, lo, hi in v)
    assert all(len(v) == 3 for v in mean.values())
