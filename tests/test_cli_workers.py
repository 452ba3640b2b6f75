"""``summscore score`` without ``--workers``: the number of processes chosen from a cheap probe of
the judge, the input's size and the CPUs this process may use (issue #48). The speed itself is
measured by benchmarks/lexical_workers.py, not asserted here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from summscore.cli import scorer_options
from summscore.cli.parser import build_parser
from summscore.cli.workers import (
    BYTES_PER_WORKER,
    available_cpus,
    busy_cpus,
    choose_workers,
    idle_cpus,
    input_bytes,
)


def test_an_llm_judge_gets_one_process_however_large_the_input() -> None:
    for judge in ("openai", "deepeval", "cascade"):
        assert choose_workers(judge, 50 * BYTES_PER_WORKER, 8).workers == 1


def test_the_offline_judge_gets_a_worker_per_megabyte_up_to_the_cpus() -> None:
    assert choose_workers("lexical", 630_890, 2).workers == 2  # 4,000 short rows: 1.32x
    assert choose_workers("lexical", 2_135_177, 2).workers == 2  # 4,000 news rows: 1.21x
    assert choose_workers("lexical", 200_000, 2).workers == 1
    assert choose_workers("lexical", 3 * BYTES_PER_WORKER, 8).workers == 3
    assert choose_workers("lexical", 50 * BYTES_PER_WORKER, 4).workers == 4
    assert choose_workers("lexical", 50 * BYTES_PER_WORKER, 1).workers == 1
    assert choose_workers("lexical", None, 8).workers == 1  # standard input
    choice = choose_workers("lexical", 2_135_177, 2)
    assert "2.1 MB" in choice.reason and "2 idle CPUs" in choice.reason


def test_the_cpus_are_the_affinity_mask_bounded_by_the_cgroup_quota(tmp_path: Path) -> None:
    four = {0, 1, 2, 3}
    assert available_cpus(tmp_path, four) == 4  # no cgroup files: the mask
    (tmp_path / "cpu.max").write_text("max 100000\n")
    assert available_cpus(tmp_path, four) == 4  # no quota
    (tmp_path / "cpu.max").write_text("150000 100000\n")  # docker --cpus 1.5
    assert available_cpus(tmp_path, four) == 1
    (tmp_path / "cpu.max").write_text("800000 100000\n")
    assert available_cpus(tmp_path, four) == 4  # a quota above the mask
    v1 = tmp_path / "v1"
    (v1 / "cpu").mkdir(parents=True)
    (v1 / "cpu" / "cpu.cfs_quota_us").write_text("200000\n")
    (v1 / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    assert available_cpus(v1, four) == 2
    (v1 / "cpu" / "cpu.cfs_quota_us").write_text("-1\n")  # unlimited
    assert available_cpus(v1, four) == 4
    assert available_cpus(tmp_path / "none", {5}) == 1


def test_only_the_cpus_other_work_leaves_idle_count() -> None:
    # Under a load average of 17 on 2 cores, --workers 2 ran 4,000 news rows at 1.00x one
    # worker and 1,000 at 0.60x: on a busy machine more processes only queue.
    assert idle_cpus(2, 0.3) == 2
    assert idle_cpus(2, 1.0) == 1
    assert idle_cpus(2, 17.0) == 1
    assert idle_cpus(8, 2.5) == 6
    assert idle_cpus(4, 0.0) == 4


def test_the_input_is_measured_in_bytes_and_cut_to_the_limit(tmp_path: Path) -> None:
    data = tmp_path / "rows.jsonl"
    data.write_text(
        "".join(json.dumps({"source": "s" * 90, "summary": "t"}) + "\n" for _ in range(1000))
    )
    size = data.stat().st_size
    assert input_bytes(str(data)) == size
    assert input_bytes(str(data), limit=100) == pytest.approx(size / 10, rel=0.01)
    assert input_bytes(str(data), limit=10**9) == size
    array = tmp_path / "rows.json"
    array.write_text(json.dumps([{"source": "s", "summary": "t"}] * 100))
    assert input_bytes(str(array), limit=1) == array.stat().st_size  # rows unknown: the file
    assert input_bytes("-") is None
    assert input_bytes(str(tmp_path / "missing.jsonl")) is None


def _args(path: Path, *extra: str) -> object:
    return build_parser().parse_args(["score", str(path), "--no-progress", *extra])


def _news(path: Path, rows: int) -> Path:
    examples = Path(__file__).resolve().parent.parent / "examples" / "news.jsonl"
    lines = [line for line in examples.read_text(encoding="utf-8").splitlines() if line.strip()]
    path.write_text("".join(lines[i % len(lines)] + "\n" for i in range(rows)), encoding="utf-8")
    return path


@pytest.mark.parametrize("cpus, expected", [(2, 2), (1, None)])
def test_score_without_workers_shards_a_large_file_where_cpus_allow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cpus: int, expected: int | None
) -> None:
    monkeypatch.setattr(scorer_options, "available_cpus", lambda: cpus)
    monkeypatch.setattr(scorer_options, "idle_cpus", lambda cpus: cpus)
    args = _args(_news(tmp_path / "news.jsonl", 4000))
    scorer = scorer_options.make_scorer(args)
    shards = scorer_options.make_shards(args, scorer)
    try:
        assert (shards.workers if shards else None) == expected
    finally:
        if shards is not None:
            shards.close()


def test_score_without_workers_keeps_one_process_for_a_short_file_or_an_explicit_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scorer_options, "available_cpus", lambda: 8)
    monkeypatch.setattr(scorer_options, "idle_cpus", lambda cpus: cpus)
    small = _args(_news(tmp_path / "small.jsonl", 200))
    assert scorer_options.make_shards(small, scorer_options.make_scorer(small)) is None
    limited = _args(_news(tmp_path / "news.jsonl", 4000), "--limit", "100")
    assert scorer_options.make_shards(limited, scorer_options.make_scorer(limited)) is None
    given = _args(tmp_path / "news.jsonl", "--workers", "1")
    assert scorer_options.make_shards(given, scorer_options.make_scorer(given)) is None


def test_under_the_ragas_rule_a_worker_needs_far_more_input() -> None:
    # 4,000 news rows (2.1 MB) on 2 idle cores: two workers 1.24x one under the deepeval rule,
    # 0.80x (slower) under the ragas rule, which checks no claim (benchmarks/lexical_workers.py).
    assert choose_workers("lexical", 2_135_177, 2, "deepeval").workers == 2
    assert choose_workers("lexical", 2_135_177, 2, "ragas").workers == 1
    assert choose_workers("lexical", 20_000_000, 2, "ragas").workers == 2


def test_the_busy_cpus_are_measured_from_proc_stat(tmp_path: Path) -> None:
    # Two reads of /proc/stat a window apart: the ticks spent not idle, times the CPU count.
    stat = tmp_path / "stat"
    reads = iter(
        [
            "cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 1\ncpu1 1\n",
            "cpu  250 0 150 800 100 0 0 0 0 0\ncpu0 1\ncpu1 1\n",
        ]
    )

    class Stat(type(stat)):  # type: ignore[misc]
        def read_text(self, *args: object, **kwargs: object) -> str:
            return next(reads)

    busy = busy_cpus(0.0, Stat(stat))
    assert busy == pytest.approx(2 * 200 / 300)  # 200 of 300 ticks busy, on 2 CPUs
    assert busy_cpus(0.0, tmp_path / "absent") is None


def test_a_run_that_just_ended_does_not_count_as_load(monkeypatch: pytest.MonkeyPatch) -> None:
    # The one-minute load average still counts the previous run for a minute; the probe of the
    # CPUs now does not: an idle machine is idle.
    monkeypatch.setattr("os.getloadavg", lambda: (1.9, 1.0, 0.5))
    monkeypatch.setattr("summscore.cli.workers.busy_cpus", lambda: 0.05)
    assert idle_cpus(2) == 2
