"""The offline judge over a pool of processes gives the numbers it gives in one."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest

from summscore import SummarizationScorer
from summscore._pool import ProcessPoolJudge, _worker_for
from summscore.cli import main
from summscore.judges import LexicalJudge

NEWS = Path(__file__).resolve().parent.parent / "examples" / "news.jsonl"


def _rows() -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in NEWS.read_text(encoding="utf-8").splitlines()]
    return [(r["source"], r["summary"]) for r in rows if "source" in r and "summary" in r]


@pytest.mark.parametrize("preset", ["ragas", "deepeval"])
def test_a_pool_of_workers_gives_the_numbers_of_one(preset: str) -> None:
    cases = _rows()
    assert cases
    one = SummarizationScorer(LexicalJudge(), preset=preset).score_many(cases, progress=False)
    judge = ProcessPoolJudge(LexicalJudge, 2)
    try:
        pooled = SummarizationScorer(judge, preset=preset, max_concurrency=4).score_many(
            cases, progress=False
        )
    finally:
        judge.close()
    assert [r.model_dump() for r in pooled] == [r.model_dump() for r in one]


def test_the_cli_writes_the_same_results_with_any_number_of_workers(tmp_path: Path) -> None:
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"out-{workers}.jsonl"
        code = main(["score", str(NEWS), "--out", str(out), "--workers", workers, "--no-progress"])
        assert code == 0
        outs.append(out.read_text(encoding="utf-8"))
    assert outs[0] == outs[1]


def test_workers_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(NEWS), "--out", "-", "--workers", "0", "--no-progress"]) == 2
    assert "--workers" in capsys.readouterr().err


def test_a_judge_without_run_cannot_be_pooled() -> None:
    with pytest.raises(TypeError, match="cannot be pooled"):
        ProcessPoolJudge(object, 2)


def test_every_request_about_one_text_goes_to_the_same_worker() -> None:
    # The judge memoises its analysis of a text: a source's truths, questions and answers must
    # meet the worker that has already read it, whatever the task and in every run.
    turns = itertools.count()
    source = "The council approved the budget on Tuesday. The mayor signed it."
    chosen = {
        _worker_for({"text": source, "n": 5}, 4, turns),
        _worker_for({"text": source, "questions": ["q?"]}, 4, turns),
        _worker_for({"text": source, "limit": None}, 4, turns),
    }
    assert len(chosen) == 1
    assert _worker_for({"claims": ["c"], "evidence": source}, 4, turns) == chosen.pop()


def test_distinct_texts_spread_over_every_worker_and_textless_requests_take_turns() -> None:
    turns = itertools.count()
    counts = Counter(_worker_for({"text": f"source number {i}"}, 3, turns) for i in range(300))
    assert set(counts) == {0, 1, 2}
    assert min(counts.values()) > 60  # a stable hash, not all on one worker
    assert [_worker_for({"inputs": {}}, 3, turns) for _ in range(4)] == [0, 1, 2, 0]
