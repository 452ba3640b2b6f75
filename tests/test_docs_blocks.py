"""Every code block of the README and of the docs site, run as a reader runs it.

One test per block, in page order. The Python blocks of a page run in one namespace, as a reader
pastes them into a notebook (top-level ``await`` included), against a live local judge: the compat
judge server, reached through ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY`` (so ``AsyncOpenAI()`` and
model names need no change), or on the very port a block names (``base_url="http://localhost:8080/v1"``
for a local model server), or the offline judge. The working directory is a temporary copy of the
repository's ``examples/`` folder's parent, so ``examples/news.jsonl`` resolves and nothing is
written into the checkout.

A block in a tab (``=== "Offline"``) is indented under it; it runs as any other. On the pages of
``SCRIPT_PAGES`` a Python block must also run as a script when pasted into a ``.py`` file: it is
compiled without top-level ``await`` and run in a fresh namespace (its names then join the page's
for later blocks), unless its title says it is not one (```` ```python title="Notebook cell" ````
or ``title="Continues ..."``: the block uses names of an earlier block, or awaits at top level as
a notebook does). The titles are checked on every Python block, skipped ones included, without
running it (tests/test_docs_block_titles.py): a block that awaits at top level says "Notebook
cell", and a block that uses a name an earlier block of its page defines says "Continues ...".

After each block every scored result in the namespace is checked: a ``SummaryResult`` must be
scored (no NaN, no error), a ``SummaryResults`` must have no failed row, a face's metric must hold
a finite score; a block marked ``<!-- test: failures -->`` may show failures. A block is skipped,
with the reason reported, only when the line above it says ``<!-- test: skip: <reason> -->``, when
it imports a framework that is not installed here (the CI step that installs it runs it; see
tests/skips_elsewhere.txt), or when it uses names of such a block. ``bash`` blocks run only when
marked ``<!-- test: run -->``.
"""

from __future__ import annotations

import ast
import asyncio
import importlib.util
import inspect
import math
import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from compat.judge_server import JudgeServer

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    ROOT / "README.md",
    *sorted(
        p
        for p in (ROOT / "docs").rglob("*.md")
        if not {"figures", "snippets"} & set(p.relative_to(ROOT / "docs").parts)
    ),
]
_FENCE = re.compile(r"^([ \t]*)```(\w*)([^\n]*)\n(.*?)^\1```[ \t]*$", re.M | re.S)
_TITLE = re.compile(r'title="([^"]*)"')
# A title that says the block is no script: it continues an earlier block, or awaits at top level.
_NOT_A_SCRIPT = re.compile(r"^(notebook cell|continues)", re.I)
# Pages whose Python blocks run as scripts unless titled otherwise: every page (issue #45).
SCRIPT_PAGES = set(PAGES)
_MARKER = re.compile(r"<!--\s*test:\s*(.*?)\s*-->")
_LOCAL_PORT = re.compile(r"https?://(?:localhost|127\.0\.0\.1):(\d+)")


@dataclass
class Block:
    page: Path
    index: int
    language: str
    code: str
    heading: str
    marker: str = ""
    title: str = ""

    @property
    def id(self) -> str:
        where = self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page.name
        return f"{where}#{self.index}"

    @property
    def is_script(self) -> bool:
        """Must this block run on its own, pasted into a .py file?"""
        return (
            self.language == "python"
            and self.page in SCRIPT_PAGES
            and not _NOT_A_SCRIPT.match(self.title)
        )


def blocks_of(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    found: list[Block] = []
    for match in _FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        prose = _FENCE.sub("", text[: match.start()])
        headings = re.findall(r"^#{1,4} (.+)$", prose, re.M)
        marker = _MARKER.search(before)
        title = _TITLE.search(match.group(3))
        indent = match.group(1)
        code = "".join(
            line[len(indent) :] if line.startswith(indent) else line.lstrip(" \t")
            for line in match.group(4).splitlines(keepends=True)
        )
        found.append(
            Block(
                page=page,
                index=len(found),
                language=match.group(2),
                code=code,
                heading=headings[-1] if headings else "",
                marker=marker.group(1) if marker else "",
                title=title.group(1) if title else "",
            )
        )
    return found


ALL_BLOCKS = [b for page in PAGES for b in blocks_of(page) if b.language in ("python", "bash")]


@dataclass
class PageState:
    namespace: dict[str, Any] = field(default_factory=dict)
    skipped_names: dict[str, str] = field(default_factory=dict)  # name -> why its block skipped


_STATES: dict[Path, PageState] = {}


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.fixture(scope="module")
def docs_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, JudgeServer]]:
    """The compat judge server behind OPENAI_BASE_URL, one more on each local port a page names,
    and a working directory with a copy of examples/."""
    from compat.clients import KEY

    servers = {"default": JudgeServer().start()}
    ports = {int(p) for b in ALL_BLOCKS for p in _LOCAL_PORT.findall(b.code)}
    for port in sorted(ports):
        if _port_free(port):
            servers[str(port)] = JudgeServer(port=port).start()
    work = tmp_path_factory.mktemp("docs")
    shutil.copytree(ROOT / "examples", work / "examples")
    (work / ".deepeval").mkdir()
    saved = {k: os.environ.get(k) for k in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "PATH")}
    os.environ["OPENAI_BASE_URL"] = servers["default"].url
    os.environ["OPENAI_API_KEY"] = KEY
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    here = Path.cwd()
    os.chdir(work)
    try:
        yield servers
    finally:
        os.chdir(here)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        for server in servers.values():
            server.stop()
        if "ray" in sys.modules:  # a Ray block started a local instance: leave none behind
            sys.modules["ray"].shutdown()


def _missing_modules(code: str) -> list[str]:
    missing = []
    for node in ast.walk(ast.parse(code)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            if importlib.util.find_spec(top) is None and top not in missing:
                missing.append(top)
            elif top == "summscore" and name != "summscore" and name not in missing:
                try:  # a face whose framework is an extra raises ImportError naming it
                    importlib.import_module(name)
                except ImportError:
                    missing.append(name)
    return missing


def _assigned(code: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def _used(code: str) -> set[str]:
    return {
        n.id
        for n in ast.walk(ast.parse(code))
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }


def _run_python(code: str, namespace: dict[str, Any], name: str) -> None:
    # A reader's notebook or script has a module name; some frameworks read it (TruLens looks up
    # its caller's module to tell the user's code from its own).
    namespace.setdefault("__name__", "__main__")
    compiled = compile(code, name, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    if compiled.co_flags & inspect.CO_COROUTINE:
        asyncio.run(eval(compiled, namespace))
    else:
        exec(compiled, namespace)


def _run_script(code: str, page_namespace: dict[str, Any], name: str) -> None:
    """Run ``code`` as ``python file.py`` would: no top-level await, nothing defined before it.
    Its names then join the page's, for the blocks titled as continuing it."""
    try:
        compiled = compile(code, name, "exec")
    except SyntaxError as exc:
        raise AssertionError(
            f"{name} is not a script ({exc.msg}): wrap top-level awaits in asyncio.run(...), or "
            'title the block ```python title="Notebook cell"```'
        ) from exc
    namespace: dict[str, Any] = {"__name__": "__main__"}
    try:
        exec(compiled, namespace)
    except NameError as exc:
        raise AssertionError(
            f"{name} is not a script ({exc}): define or import it in the block, or title the "
            'block ```python title="Continues ..."```'
        ) from exc
    page_namespace.update(namespace)


def unscored(namespace: dict[str, Any]) -> list[str]:
    """What in the namespace holds a result that was not scored."""
    from summscore import SummaryResult, SummaryResults

    problems = []
    for name, value in namespace.items():
        if name.startswith("__"):
            continue
        if isinstance(value, SummaryResults):
            failed = [f"{r.id}: {r.error}" for r in value if not r.ok]
            if failed:
                problems.append(f"{name}: failed rows {failed}")
        elif isinstance(value, SummaryResult):
            if not value.ok:
                problems.append(f"{name}: not scored ({value.error or 'NaN score'})")
        elif type(value).__module__.startswith("summscore."):
            score = getattr(value, "score", None)
            if isinstance(score, float) and not math.isfinite(score):
                problems.append(f"{name}.score is {score}")
        elif type(value).__name__ == "MetricResult" or hasattr(value, "details"):
            score = getattr(value, "value", None)
            if isinstance(score, float) and not math.isfinite(score):
                problems.append(f"{name}.value is {score}")
    return problems


@pytest.mark.parametrize("block", ALL_BLOCKS, ids=lambda b: b.id)
def test_the_block_runs_as_written(block: Block, docs_env: dict[str, JudgeServer]) -> None:
    state = _STATES.setdefault(block.page, PageState())
    if block.marker.startswith("skip:"):
        state.skipped_names.update(dict.fromkeys(_assigned(block.code), block.marker))
        pytest.skip(f"{block.id} under {block.heading!r}: {block.marker}")
    if block.language == "bash":
        if block.marker != "run":
            pytest.skip(f"{block.id}: commands to type (bash blocks run when marked 'run')")
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", block.code],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, f"{block.id} failed:\n{done.stdout}\n{done.stderr}"
        return
    missing = _missing_modules(block.code)
    if missing:
        why = f"needs {', '.join(missing)} (installed in its own CI step)"
        state.skipped_names.update(dict.fromkeys(_assigned(block.code), why))
        pytest.skip(f"{block.id} under {block.heading!r}: {why}")
    # A name the block defines itself (a self-contained example beside a skipped one) is no
    # dependency on the skipped block.
    depends = sorted(
        _used(block.code) & set(state.skipped_names) - set(state.namespace) - _assigned(block.code)
    )
    if depends:
        why = f"uses {', '.join(depends)} of a skipped block ({state.skipped_names[depends[0]]})"
        state.skipped_names.update(dict.fromkeys(_assigned(block.code), why))
        pytest.skip(f"{block.id} under {block.heading!r}: {why}")
    try:
        if block.is_script:
            _run_script(block.code, state.namespace, block.id)
        else:
            _run_python(block.code, state.namespace, block.id)
    except Exception as exc:
        raise AssertionError(f"{block.id} under {block.heading!r} failed: {exc!r}") from exc
    if block.marker != "failures":
        assert unscored(state.namespace) == [], f"{block.id} under {block.heading!r}"
    for server in docs_env.values():
        assert server.stats.tasks["?"] == 0, "a prompt the compat judge does not recognise"
