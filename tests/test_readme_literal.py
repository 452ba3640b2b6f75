"""The README's Python blocks, run literally against the compat judge server.

The blocks run top to bottom in one namespace, as a reader pastes them into a notebook (top-level
``await`` included), with model names as strings and ``AsyncOpenAI()`` without arguments: the
``openai_env`` fixture points ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY`` at the server. The only
names the test supplies are the reader's own data and judge, which the blocks leave to the reader.
A block that only shows a signature (``llm=...``) is named below and checked to stay one.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import re
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ragas")
pytest.importorskip("deepeval")

from compat.corpus import case
from compat.judge_server import JudgeServer

pytestmark = pytest.mark.upstream

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
# Blocks that show a call's shape with ``...`` for the reader's judge: not programs.
SIGNATURE_ONLY = re.compile(r"\(llm=\.\.\.,")


def _python_blocks() -> list[tuple[str, str]]:
    """(heading, code) for every ```python block, in order."""
    blocks: list[tuple[str, str]] = []
    heading = ""
    for match in re.finditer(r"^(#{2,4} [^\n]+)$|^```python\n(.*?)^```$", README, re.M | re.S):
        if match.group(1):
            heading = match.group(1).lstrip("# ").strip()
        else:
            blocks.append((heading, match.group(2)))
    return blocks


def _missing_framework(code: str) -> str | None:
    """The first top-level module a block imports that is not installed here (the Ray and the
    evaluation platforms' blocks need their extras, which CI installs in steps of their own)."""
    import importlib.util

    tree = ast.parse(code)
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            if importlib.util.find_spec(top) is None:
                return top
            if top == "summscore" and name != "summscore":
                try:
                    importlib.import_module(name)
                except ImportError:
                    return name
    return None


def _readers_names() -> dict[str, Any]:
    """What the README leaves to the reader: their texts and their judge."""
    from openai import AsyncOpenAI

    import summscore
    from summscore.judges import OpenAIJudge

    tesla = case("news-tesla-misattributed")
    return {
        "original_text": tesla.source,
        "text": tesla.source,
        "summary": tesla.summary,
        "judge": OpenAIJudge(AsyncOpenAI(), "gpt-4o-mini"),
        "summscore": summscore,
    }


def _run(code: str, namespace: dict[str, Any], name: str) -> None:
    compiled = compile(code, name, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    if compiled.co_flags & inspect.CO_COROUTINE:
        asyncio.run(eval(compiled, namespace))
    else:
        exec(compiled, namespace)


def test_every_python_block_of_the_readme_runs_as_written(openai_env: JudgeServer) -> None:
    blocks = _python_blocks()
    programs = [(h, code) for h, code in blocks if not SIGNATURE_ONLY.search(code)]
    assert len(blocks) - len(programs) <= 1, [h for h, c in blocks if SIGNATURE_ONLY.search(c)]
    assert len(programs) >= 8
    namespace = _readers_names()
    for index, (heading, code) in enumerate(programs):
        if _missing_framework(code) is not None:
            continue
        try:
            _run(code, namespace, f"README block {index} ({heading})")
        except Exception as exc:
            raise AssertionError(f"README block under {heading!r} failed: {exc!r}\n{code}") from exc
        if heading == "DeepEval" and "measure(" in code:
            assert namespace["metric"].score is not None
            assert namespace["metric"].model.get_model_name() == "gpt-4o-mini"
        if heading == "Ragas: change one import":
            assert 0 <= namespace["result"].value <= 1
    if "ray" in sys.modules:  # the Ray block started a local instance: leave none behind
        sys.modules["ray"].shutdown()
    assert openai_env.stats.requests > 0
    assert openai_env.stats.tasks["?"] == 0  # every prompt the README sends is a known judge task


def test_the_examples_table_lists_every_example() -> None:
    examples = Path(__file__).resolve().parent.parent / "examples"
    section = README.split("## Examples", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"`examples/(\w+\.py)`", section))
    assert listed == {p.name for p in examples.glob("*.py")}
