"""summscore.ray on a local Ray instance against the compat judge server.

Every row is scored once, with the numbers score_many gives, and the judge never sees more
requests at once than judge_concurrency, however many actors share it. score_dataset is lazy,
takes Ray Data's own options, groups by source on request; keys stay out of Ray's session files.
The CLI's Ray engine (writes, resumes and summarises as the local engine does):
tests/test_ray_cli.py.
"""

from __future__ import annotations

import functools
import math
import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ray.data")
import ray
from compat.clients import MODEL, PARITY, async_client
from compat.judge_server import JudgeServer

from summscore import SummarizationScorer
from summscore.ray import RESULT_COLUMNS, score_dataset
from tests.ray_support import (
    _rows,
    _same,
    make_scorer,
)


def test_every_row_is_scored_once_with_score_manys_numbers_within_the_request_limit(
    local_ray: None, judge_server: JudgeServer
) -> None:
    rows = _rows(3 * len(PARITY))
    dataset = ray.data.from_items(rows, override_num_blocks=4)
    factory = functools.partial(make_scorer, judge_server.url, "mastra")
    scored = score_dataset(
        dataset, factory, judge_concurrency=3, concurrency=2, batch_size=8, num_cpus=0.5
    )
    out = scored.take_all()
    peak = judge_server.stats.peak_concurrency
    direct = SummarizationScorer(async_client(judge_server), model=MODEL, preset="mastra")
    expected = direct.score_many([(r["contexts"], r["summary"]) for r in rows])
    assert [r["id"] for r in out] == [r["id"] for r in rows]  # each row once, in order
    assert set(RESULT_COLUMNS) <= set(out[0]) and "contexts" in out[0]
    for row, result in zip(out, expected):
        assert row["error"] is None
        assert row["model"] == MODEL and row["judge"] == result.judge
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
    out = score_dataset(
        dataset, factory, judge_concurrency=2, concurrency=1, num_cpus=0.5
    ).take_all()
    assert [r["id"] for r in out] == ["row-0", "row-1", "row-2"]
    assert out[1]["score"] is None or math.isnan(out[1]["score"])
    assert "summary cannot be empty" in out[1]["error"]
    assert out[0]["error"] is None and out[2]["error"] is None
    clashing = ray.data.from_items([{**rows[0], "score": 1.0}])
    with pytest.raises(ValueError, match="prefix="):
        score_dataset(clashing, factory)
    kept = score_dataset(clashing, factory, prefix="summscore_", num_cpus=0.5).take_all()
    assert kept[0]["score"] == 1.0 and kept[0]["summscore_score"] is not None


# ------------------------------------------------------------------ what a Ray Data user expects


def lexical_scorer(preset: str = "deepeval") -> SummarizationScorer:
    from summscore.judges import LexicalJudge

    return SummarizationScorer(LexicalJudge(), preset=preset)


def _council_rows(count: int, sources: int = 1) -> list[dict[str, Any]]:
    return [
        {
            "id": f"r{i}",
            "source": f"The council of ward {i % sources} approved {450 + i % sources} homes in "
            "March after a long debate about roads, schools and the river.",
            "summary": f"Ward {i % sources} approved {450 + i % sources} homes.",
        }
        for i in range(count)
    ]


def test_a_rows_error_names_its_id_not_its_place_in_a_batch(local_ray: None) -> None:
    rows = _council_rows(40)
    rows[37]["summary"] = " "
    single = ray.data.from_items(rows, override_num_blocks=1)
    out = score_dataset(single, lexical_scorer, batch_size=16, concurrency=1).take_all()
    # (it said "row 6 (id 'r37')": the 38th row is the 6th of the third batch of 16)
    assert out[37]["error"] == "ValueError: id 'r37': summary cannot be empty or whitespace only"
    assert [r["error"] for r in out].count(None) == 39
    without_ids = [{k: v for k, v in row.items() if k != "id"} for row in rows]
    single = ray.data.from_items(without_ids, override_num_blocks=1)
    out = score_dataset(single, lexical_scorer, batch_size=16, concurrency=1).take_all()
    assert out[37]["error"] == "ValueError: summary cannot be empty or whitespace only"


def _mark(batch: Any, folder: str) -> Any:
    import uuid

    (Path(folder) / uuid.uuid4().hex).touch()
    return batch


def test_score_dataset_runs_nothing_until_its_result_is_consumed(
    local_ray: None, tmp_path: Path
) -> None:
    calls = tmp_path / "upstream"
    calls.mkdir()
    upstream = ray.data.from_items(_council_rows(20), override_num_blocks=4).map_batches(
        _mark, fn_kwargs={"folder": str(calls)}, batch_size=None
    )
    scored = score_dataset(upstream, lexical_scorer, concurrency=1)
    assert list(calls.iterdir()) == []  # nothing ran at call time (schema() ran a block)
    assert len(scored.take_all()) == 20
    assert len(list(calls.iterdir())) == 4  # each upstream batch once, not once more
    # A clash the schema could not show before running is found by the actor, as clearly.
    clashing = ray.data.from_items([{**_council_rows(1)[0], "score": 1.0}]).map_batches(
        _mark, fn_kwargs={"folder": str(calls)}, batch_size=None
    )
    pending = score_dataset(clashing, lexical_scorer, concurrency=1)
    with pytest.raises(Exception, match=r"prefix="):
        pending.take_all()


def _recording_scorer(folder: str) -> SummarizationScorer:
    import json

    reserved = ray.get_runtime_context().get_assigned_resources()
    (Path(folder) / f"{os.getpid()}.json").write_text(json.dumps(reserved))
    return lexical_scorer()


def test_ray_datas_own_options_reach_the_actors(local_ray: None, tmp_path: Path) -> None:
    import json

    factory = functools.partial(_recording_scorer, str(tmp_path))
    memory = 200 * 2**20
    dataset = ray.data.from_items(_council_rows(24), override_num_blocks=6)
    scored = score_dataset(
        dataset,
        factory,
        concurrency=(1, 2),
        batch_size=4,
        num_cpus=0.5,
        memory=memory,
        resources={"judge": 1},
        scheduling_strategy="SPREAD",
        ray_remote_args={"max_task_retries": 0},
    )
    assert len(scored.take_all()) == 24
    reserved = [json.loads(p.read_text()) for p in tmp_path.iterdir()]
    assert 1 <= len(reserved) <= 2  # an autoscaling pool of one or two actors
    assert all(r == {"CPU": 0.5, "judge": 1.0, "memory": float(memory)} for r in reserved)
    with pytest.warns(DeprecationWarning, match="judge_concurrency"):
        score_dataset(dataset, factory, max_concurrency=4)
    with pytest.warns(DeprecationWarning, match="concurrency"):
        score_dataset(dataset, factory, actors=1)
    with pytest.raises(ValueError, match=r"min <= max"):
        score_dataset(dataset, factory, concurrency=(3, 1))
    with pytest.raises(TypeError, match="workers"):
        score_dataset(dataset, factory, workers=2)


def test_grouping_by_source_does_each_sources_work_once_across_the_actors(
    local_ray: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = _council_rows(48, sources=8)  # every block holds every source
    local = lexical_scorer()
    local.score_many([(r["source"], r["summary"]) for r in rows], progress=False)
    # Both actors up before the first block (else one quick actor may score them all); a
    # dataset keeps the context it was made in.
    monkeypatch.setattr(ray.data.DataContext.get_current(), "wait_for_min_actors_s", 300)
    dataset = ray.data.from_items(rows, override_num_blocks=6)

    def calls(group: bool) -> tuple[int, list[str]]:
        out = score_dataset(
            dataset,
            lexical_scorer,
            concurrency=2,
            num_cpus=0.5,  # (the shuffle that groups the rows needs a CPU of its own)
            batch_size=8,
            group_by_source=group,
        ).take_all()
        assert all(r["error"] is None for r in out)
        return sum(r["judge_calls"] for r in out), sorted(r["id"] for r in out)

    grouped, ids = calls(True)
    spread, _ = calls(False)
    assert ids == sorted(r["id"] for r in rows)  # every row once (grouped: not in input order)
    assert grouped == local.usage.judge_calls < spread
    with pytest.raises(ValueError, match="all 2 CPUs"):  # a shuffle that could never run
        score_dataset(dataset, lexical_scorer, concurrency=2, group_by_source=True)


def test_the_offline_judge_in_an_actor_uses_the_cpus_ray_reserved_for_it(
    local_ray: None,
) -> None:
    from summscore.cli.parser import build_parser
    from summscore.cli.scorer_options import make_scorer as cli_scorer
    from summscore.ray._cli import _actor_scorer

    args = build_parser().parse_args(["score", "runs.jsonl", "--judge", "lexical"])
    factory = functools.partial(_actor_scorer, cli_scorer, args)

    @ray.remote
    def processes(build: Any) -> int:
        llm = build().llm
        return int(getattr(llm, "workers", 1))  # a ProcessPoolJudge's, else the judge itself

    # (it started one process per core of the machine in every actor)
    assert ray.get(processes.options(num_cpus=1).remote(factory)) == 1
    assert ray.get(processes.options(num_cpus=2).remote(factory)) == 2


_KEY_SCRIPT = """
import functools, sys
import ray
from summscore import SummarizationScorer
from summscore.ray import score_dataset

def make_scorer(url):
    from openai import AsyncOpenAI  # the key: OPENAI_API_KEY in the node's environment
    client = AsyncOpenAI(base_url=url, max_retries=0)
    return SummarizationScorer(client, model="gpt-4o-mini", preset="mastra")

def same(batch):
    return batch

url, temp, control = sys.argv[1:]
ray.init(num_cpus=2, include_dashboard=False, _temp_dir=temp)
rows = [{"id": i, "source": "The council approved 450 homes.", "summary": "450 homes."}
        for i in range(6)]
out = score_dataset(ray.data.from_items(rows), functools.partial(make_scorer, url),
                    concurrency=1, num_cpus=0.5).take_all()
assert all(r["error"] is None for r in out), out
# The former advice, runtime_env, for the test's own check that the search finds a value.
env = {"env_vars": {"SUMMSCORE_CONTROL": control}}
ray.data.range(1).map_batches(same, runtime_env=env).take_all()
print("scored", len(out))
ray.shutdown()
"""


def test_the_documented_way_leaves_the_key_in_no_file_of_the_ray_session(
    judge_server: JudgeServer, tmp_path: Path
) -> None:
    import shutil
    import subprocess
    import sys
    import tempfile
    import uuid

    key, control = f"sk-summscore-{uuid.uuid4().hex}", f"control-{uuid.uuid4().hex}"
    script = tmp_path / "run.py"
    script.write_text(_KEY_SCRIPT, encoding="utf-8")
    session = Path(tempfile.mkdtemp(prefix="rk", dir="/tmp"))  # (Ray's socket paths are short)
    try:
        done = subprocess.run(
            [sys.executable, str(script), judge_server.url, str(session), control],
            env={**os.environ, "OPENAI_API_KEY": key},  # the environment Ray starts in
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        assert "scored 6" in done.stdout
        files = [p for p in session.rglob("*") if p.is_file() and not p.is_symlink()]
        assert len(files) > 20  # the session's logs and the rest
        assert [str(p) for p in files if key.encode() in p.read_bytes()] == []
        assert any(control.encode() in p.read_bytes() for p in files)
        assert "constructor arguments in the object store" not in done.stderr
    finally:
        shutil.rmtree(session, ignore_errors=True)
