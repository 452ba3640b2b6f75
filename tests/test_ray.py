"""summscore.ray on a local Ray instance against the compat judge server.

Every row is scored once, with the numbers score_many gives, and the judge never sees more
requests at once than the total max_concurrency, however many actors share it.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ray.data")
import ray
from compat.clients import KEY, MODEL, PARITY, async_client
from compat.judge_server import JudgeServer

from summscore import SummarizationScorer
from summscore.ray import RESULT_COLUMNS, score_dataset

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    # Workers import this module (the scorer factory lives here) and compat/ from the repo root.
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    ray.shutdown()  # an instance another test started (the README's Ray block) has other settings
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": path}},
    )
    ctx = ray.data.DataContext.get_current()
    ctx.execution_options.preserve_order = True
    ctx.enable_progress_bars = False
    yield
    ray.shutdown()


def make_scorer(url: str, preset: str) -> SummarizationScorer:
    import openai

    client = openai.AsyncOpenAI(base_url=url, api_key=KEY, max_retries=0)
    return SummarizationScorer(client, model=MODEL, preset=preset)


def _rows(count: int) -> list[dict[str, Any]]:
    rows = []
    for i in range(count):
        case = PARITY[i % len(PARITY)]
        rows.append({"id": f"row-{i}", "contexts": list(case.contexts), "summary": case.summary})
    return rows


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def test_every_row_is_scored_once_with_score_manys_numbers_within_the_request_limit(
    local_ray: None, judge_server: JudgeServer
) -> None:
    rows = _rows(3 * len(PARITY))
    dataset = ray.data.from_items(rows, override_num_blocks=4)
    factory = functools.partial(make_scorer, judge_server.url, "mastra")
    scored = score_dataset(
        dataset, factory, max_concurrency=3, actors=2, batch_size=8, num_cpus=0.5
    )
    out = scored.take_all()
    peak = judge_server.stats.peak_concurrency
    direct = SummarizationScorer(async_client(judge_server), model=MODEL, preset="mastra")
    expected = direct.score_many([(r["contexts"], r["summary"]) for r in rows])
    assert [r["id"] for r in out] == [r["id"] for r in rows]  # each row once, in order
    assert set(RESULT_COLUMNS) <= set(out[0]) and "contexts" in out[0]
    for row, result in zip(out, expected):
        assert row["error"] is None
        assert _same(row["score"], result.score), row["id"]
        assert _same(row["alignment_score"], result.alignment_score)
        assert _same(row["coverage_score"], result.coverage_score)
    assert 1 <= peak <= 2  # 3 requests over 2 actors: one slot each, never more


def test_a_bad_row_keeps_its_place_and_result_columns_never_replace_input_columns(
    local_ray: None, judge_server: JudgeServer
) -> None:
    rows = _rows(3)
    rows[1]["summary"] = "   "
    factory = functools.partial(make_scorer, judge_server.url, "deepeval")
    dataset = ray.data.from_items(rows)
    out = score_dataset(dataset, factory, max_concurrency=2, actors=1, num_cpus=0.5).take_all()
    assert [r["id"] for r in out] == ["row-0", "row-1", "row-2"]
    assert out[1]["score"] is None or math.isnan(out[1]["score"])
    assert "summary cannot be empty" in out[1]["error"]
    assert out[0]["error"] is None and out[2]["error"] is None
    clashing = ray.data.from_items([{**rows[0], "score": 1.0}])
    with pytest.raises(ValueError, match="prefix="):
        score_dataset(clashing, factory)
    kept = score_dataset(clashing, factory, prefix="summscore_", num_cpus=0.5).take_all()
    assert kept[0]["score"] == 1.0 and kept[0]["summscore_score"] is not None


def test_the_cli_on_ray_writes_what_the_local_engine_writes(
    local_ray: None,
    judge_server: JudgeServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    from summscore.cli import main

    data = tmp_path / "runs.jsonl"
    lines = [
        json.dumps({"id": r["id"], "contexts": r["contexts"], "summary": r["summary"]})
        for r in _rows(6)
    ]
    lines.insert(2, "{broken")
    lines.append(json.dumps({"id": "blank", "source": "Rain fell.", "summary": " "}))
    data.write_text("\n".join(lines), encoding="utf-8")
    common = ["score", str(data), "--judge", "openai", "--base-url", judge_server.url]
    common += ["--model", MODEL, "--preset", "mastra", "--max-concurrency", "2", "--no-progress"]
    local, on_ray = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    assert main([*common, "--out", str(local)]) == 1  # two rows fail, and say why
    assert main([*common, "--out", str(on_ray), "--engine", "ray"]) == 1
    expected = [json.loads(line) for line in local.read_text().splitlines()]
    got = [json.loads(line) for line in on_ray.read_text().splitlines()]
    assert [r["id"] for r in got] == [r["id"] for r in expected]
    assert got == expected  # fingerprints too: the local engine resumes a file Ray wrote
    assert main([*common, "--out", str(on_ray), "--resume"]) == 1
    assert "6 rows kept from the earlier run" in capsys.readouterr().err
    assert [json.loads(line) for line in on_ray.read_text().splitlines()] == expected


def test_the_cli_on_ray_writes_a_report_of_every_row_from_its_results_file(
    local_ray: None, judge_server: JudgeServer, tmp_path: Path
) -> None:
    import json
    import re

    from summscore.cli import main

    data = tmp_path / "runs.jsonl"
    rows = _rows(5)
    rows[3]["summary"] = " "
    data.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    out, report = tmp_path / "ray.jsonl", tmp_path / "pages" / "ray.html"
    args = ["score", str(data), "--judge", "openai", "--base-url", judge_server.url]
    args += ["--model", MODEL, "--preset", "mastra", "--scale", "10", "--max-concurrency", "2"]
    args += ["--no-progress", "--engine", "ray", "--out", str(out), "--report", str(report)]
    assert main(args) == 1  # the blank summary fails, and the report says why
    results = [json.loads(line) for line in out.read_text().splitlines()]
    page = report.read_text(encoding="utf-8")
    block = re.search(r'id="summscore-data">(.*?)</script>', page, re.S)
    assert block is not None
    shown = json.loads(block.group(1))["cases"]
    assert [c["id"] for c in shown] == [r["id"] for r in rows] == [r["id"] for r in results]
    assert [c["s"] for c in shown] == [r["score"] for r in results]
    assert [c["e"] for c in shown] == [False, False, False, True, False]
    assert "summary cannot be empty" in page and "engine: ray" in page
    assert 'data-figure="cases"><strong>5</strong>' in page
    # Nothing the user has is overwritten: a file that is not a report stays.
    other = tmp_path / "notes.html"
    other.write_text("<p>my notes</p>", encoding="utf-8")
    assert main([*args[:-1], str(other)]) == 2
    assert other.read_text(encoding="utf-8") == "<p>my notes</p>"


def test_the_cli_that_starts_ray_itself_shuts_it_down_without_a_traceback(
    tmp_path: Path,
) -> None:
    # Its own process: the CLI starts Ray only when none is running (the module's local Ray
    # would be kept), and shuts it down at the end.
    import json
    import subprocess
    import sys

    data = tmp_path / "runs.jsonl"
    rows = [
        {"id": "a", "source": "The council approved 450 homes in March.", "summary": "450 homes."},
        {"id": "b", "source": "The council approved 450 homes in March.", "summary": "540 homes."},
    ]
    data.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "summscore.cli", "score", str(data), "--engine", "ray"]
    done = subprocess.run(
        # "local": a Ray of its own, never the module's (another xdist worker may run it)
        [*command, "--address", "local", "--judge", "lexical", "--out", str(out), "--no-progress"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["a", "b"]
    assert "Traceback" not in done.stderr and "results:" in done.stderr
