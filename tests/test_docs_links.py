"""The README and the docs stay true to each other: every docs/ page they or a docstring name
exists, the tables the README repeats from the docs are the same, and no user page carries dates or
commit hashes (history goes to CHANGELOG.md and benchmarks/README.md)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text("utf-8")
_DOC = re.compile(r"\bdocs/[\w./-]+\.md\b")
USER_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_every_docs_page_named_in_the_readme_or_the_code_exists() -> None:
    texts = [ROOT / "README.md", *sorted((ROOT / "src").rglob("*.py"))]
    named = {(m, t.relative_to(ROOT)) for t in texts for m in _DOC.findall(t.read_text("utf-8"))}
    assert any(page == "docs/getting-started.md" for page, _ in named)
    missing = sorted(
        f"{page} (named in {where})" for page, where in named if not (ROOT / page).is_file()
    )
    assert not missing, missing


def test_the_readme_is_a_front_door() -> None:
    assert len(README.splitlines()) <= 250


def test_the_tables_the_readme_repeats_are_the_docs_own() -> None:
    for snippet in ("faces-table.md", "ci-steps.md", "layers.md"):
        table = (ROOT / "docs" / "snippets" / snippet).read_text("utf-8").strip()
        assert table in README, f"README's copy of docs/snippets/{snippet} differs"


def test_no_user_page_carries_a_date_or_a_commit_hash() -> None:
    date = re.compile(r"\b20\d\d-\d\d-\d\d\b")
    commit = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
    found = []
    for page in USER_PAGES:
        text = page.read_text("utf-8")
        found += [f"{page.relative_to(ROOT)}: {m}" for m in date.findall(text)]
        found += [f"{page.relative_to(ROOT)}: {m}" for m in commit.findall(text)]
    assert not found, found


def test_getting_started_lists_every_example() -> None:
    page = (ROOT / "docs" / "getting-started.md").read_text("utf-8")
    listed = set(re.findall(r"`examples/(\w+\.py)`", page))
    assert listed == {p.name for p in (ROOT / "examples").glob("*.py")}
