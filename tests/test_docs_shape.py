"""The documentation site's shape: the navigation is tutorial, how-to, reference and
explanation (every module page of the reference in it), the glossary defines the words the site
uses, troubleshooting quotes the messages the code raises, and no page (nor an included figure)
carries a measurement diary."""

from __future__ import annotations

import re

from tests.test_docs_site import DOCS, README, ROOT

# ------------------------------------------------------------------ the shape of the site


def test_the_navigation_is_tutorial_how_to_reference_explanation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text("utf-8").split("\nnav:\n", 1)[1]
    groups = re.findall(r"^  - ([^:]+):\s*$", nav, re.M)
    assert groups == ["Tutorial", "How-to guides", "Reference", "Explanation"]
    for page in ("troubleshooting.md", "glossary.md", "offline.md", "architecture.md"):
        assert f" {page}\n" in nav, page


def test_every_module_page_of_the_reference_is_in_the_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text("utf-8")
    pages = sorted(p.relative_to(DOCS).as_posix() for p in (DOCS / "reference").rglob("*.md"))
    assert len(pages) >= 20
    assert [p for p in pages if f" {p}\n" not in nav] == []


GLOSSARY_TERMS = [
    "face",
    "upstream",
    "compat judge server",
    "parity",
    "validation and test cuts",
    "margin",
    "paired bootstrap",
    "round2",
    "fingerprint",
    "graded support",
    "preset",
    "judge",
    "offline judge",
    "source cache",
    "cascade",
    "extra",
    "A/B run",
    "gate",
    "regression",
    "scale",
    "threshold",
    "unmatched",
]


def test_the_glossary_defines_the_words_the_site_uses() -> None:
    headings = re.findall(r"^## (.+)$", (DOCS / "glossary.md").read_text("utf-8"), re.M)
    assert [t for t in GLOSSARY_TERMS if t not in headings] == []
    assert headings == sorted(headings, key=str.lower), "alphabetical"


def test_troubleshooting_quotes_the_messages_the_code_raises() -> None:
    page = (DOCS / "troubleshooting.md").read_text("utf-8")
    sources = {
        "src/summscore/calls/setup.py": None,
        "src/summscore/judges/_errors.py": "the judge rejected the credentials; check the API key",
        "src/summscore/judges/guard.py": "model requests are forbidden here",
        "src/summscore/cases.py": "cannot be empty or whitespace only",
        "src/summscore/judges/__init__.py": "model is required with an OpenAI client",
    }
    for path, message in sources.items():
        if message is None:
            continue
        assert message in (ROOT / path).read_text("utf-8"), f"{path} no longer says {message!r}"
        assert message in page, f"troubleshooting.md does not quote {message!r}"
    for error in ("'await' outside function", "cannot be called from a running event loop"):
        assert error in page


# ------------------------------------------------------------------ no measurement diary

# What the machine was doing while a benchmark ran is the run's history (benchmarks/README.md),
# not a figure a user reads: the figures the pages include name the machine, never its load.
_DIARY = re.compile(r"load average (?:of |rising |from )?\d|other work on the machine", re.I)


def test_no_page_nor_included_figure_carries_a_measurement_diary() -> None:
    pages = [README, *sorted(DOCS.rglob("*.md"))]
    found = [
        f"{page.relative_to(ROOT)}:{number}: {line.strip()[:100]}"
        for page in pages
        for number, line in enumerate(page.read_text("utf-8").splitlines(), 1)
        if _DIARY.search(line)
    ]
    assert not found, found
