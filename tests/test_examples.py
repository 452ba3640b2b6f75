"""Every example in examples/ runs, offline or against the compat judge server, never the network."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from compat.judge_server import JudgeServer

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
KEY = "sk-compat-not-a-real-key"


def _run(args: list[str], tmp_path: Path, env: dict[str, str] | None = None) -> str:
    environment = {
        **os.environ,
        "OPENAI_API_KEY": KEY,
        "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",  # nothing listens here: no real network
        "PYTHONPATH": str(ROOT),
        **(env or {}),
    }
    done = subprocess.run(
        [sys.executable, *args],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    return done.stdout


def test_offline_quickstart(tmp_path: Path) -> None:
    out = _run([str(EXAMPLES / "quickstart.py")], tmp_path)
    assert "news-tesla-misattributed" in out and "not supported [no]" in out
    assert "saved by the source cache" in out


def test_mastra_shaped_json(tmp_path: Path) -> None:
    out = _run([str(EXAMPLES / "mastra_json.py")], tmp_path)
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == len((EXAMPLES / "news.jsonl").read_text().splitlines())
    assert all(set(r) == {"id", "score", "info"} for r in rows)
    assert all(set(r["info"]) == {"reason", "alignmentScore", "coverageScore"} for r in rows)


def test_local_openai_compatible_server(tmp_path: Path, judge_server: JudgeServer) -> None:
    out = _run(
        [str(EXAMPLES / "local_server.py")],
        tmp_path,
        {"JUDGE_BASE_URL": judge_server.url, "JUDGE_MODEL": "llama3.1"},
    )
    assert out.startswith("score 0.0") and "judge: openai:llama3.1@127.0.0.1" in out
    assert judge_server.stats.requests > 0


@pytest.mark.upstream
def test_ragas_evaluate_with_the_legacy_metric(tmp_path: Path, judge_server: JudgeServer) -> None:
    pytest.importorskip("ragas")
    out = _run(
        [str(EXAMPLES / "ragas_evaluate.py")], tmp_path, {"OPENAI_BASE_URL": judge_server.url}
    )
    assert "summary_score" in out and "NaN" not in out
    assert judge_server.stats.tasks["keyphrases"] == 2


@pytest.mark.upstream
def test_the_one_line_ragas_migration(tmp_path: Path, judge_server: JudgeServer) -> None:
    pytest.importorskip("ragas")
    out = _run(
        [str(EXAMPLES / "ragas_migration.py")], tmp_path, {"OPENAI_BASE_URL": judge_server.url}
    )
    assert "same value" in out and "score():" in out


@pytest.mark.upstream
def test_the_deepeval_test_file_under_pytest(tmp_path: Path, judge_server: JudgeServer) -> None:
    pytest.importorskip("deepeval")
    out = _run(
        [
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            str(EXAMPLES / "test_deepeval_summaries.py"),
        ],
        tmp_path,
        {"OPENAI_BASE_URL": judge_server.url},
    )
    assert "2 passed" in out
