"""The titles of the docs' code blocks say which blocks are no scripts: a block that awaits at top
level says "Notebook cell", and a block that uses a name an earlier block of its page defines says
"Continues ..." (checked on every Python block without running it; tests/test_docs_blocks.py
runs them); and every page of the site is reached and has runnable Python."""

from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path

import pytest

from tests.test_docs_blocks import ALL_BLOCKS, PAGES, ROOT, Block, _assigned, _used, blocks_of

# ------------------------------------------------------------------ what a block's title says

_BUILTINS = set(dir(builtins)) | {"__name__", "__file__"}
_NOTEBOOK_CELL = re.compile(r"^notebook cell", re.I)
_CONTINUES = re.compile(r"\bcontinues\b", re.I)


def _defined(code: str) -> set[str]:
    """Every name the block binds anywhere: assignments, imports, functions and classes, their
    parameters, ``except ... as``, ``match`` captures."""
    names = _assigned(code)
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.Global):
            names.update(node.names)
    return names


def _awaits_at_top_level(code: str) -> bool:
    try:
        compile(code, "<block>", "exec")
    except SyntaxError:
        compile(code, "<block>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)  # else: not Python
        return True
    return False


def title_problems(blocks: list[Block]) -> list[str]:
    """What the titles of a page's Python blocks leave unsaid: a top-level ``await`` outside a
    "Notebook cell", a name of an earlier block outside a "Continues ..." block, a name no
    block defines."""
    problems = []
    earlier: set[str] = set()
    for block in blocks:
        if block.language != "python":
            continue
        if _awaits_at_top_level(block.code) and not _NOTEBOOK_CELL.match(block.title):
            problems.append(
                f"{block.id}: awaits at top level, so it is no script: wrap it in "
                'asyncio.run(...), or title it ```python title="Notebook cell"```'
            )
        free = _used(block.code) - _defined(block.code) - _BUILTINS
        if free & earlier and not _CONTINUES.search(block.title):
            problems.append(
                f"{block.id}: uses {', '.join(sorted(free & earlier))} of an earlier block: "
                'define them in the block, or title it ```python title="Continues the block '
                'above"```'
            )
        if free - earlier:
            problems.append(f"{block.id}: uses {', '.join(sorted(free - earlier))}, never defined")
        earlier |= _defined(block.code)
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_titles_say_which_blocks_are_no_scripts(page: Path) -> None:
    assert title_problems(blocks_of(page)) == []


def test_the_title_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```python\nimport asyncio\nx = 1\n```\n\n"
        "```python\nprint(x)\n```\n\n"
        '```python title="Continues the block above"\nprint(x, y)\n```\n\n'
        "```python\nawait asyncio.sleep(0)\n```\n\n"
        '```python title="Notebook cell, continues the first block"\nawait asyncio.sleep(x)\n```\n\n'
        "```python\ndef f(a):\n    return [b for b in a]\n```\n",
        encoding="utf-8",
    )
    found = title_problems(blocks_of(page))
    assert [p.split(":", 1)[0].rsplit("#", 1)[1] for p in found] == ["1", "2", "3", "3"], found
    assert "uses x of an earlier block" in found[0] and "y, never defined" in found[1]
    assert "awaits at top level" in found[2]


def test_every_page_of_the_site_is_reached_and_has_runnable_python() -> None:
    """The blocks are found: a page whose fences this test misreads would silently run nothing."""
    pages_with_python = {b.page for b in ALL_BLOCKS if b.language == "python"}
    assert ROOT / "README.md" in pages_with_python
    assert ROOT / "docs" / "getting-started.md" in pages_with_python
    assert len(ALL_BLOCKS) >= 20
