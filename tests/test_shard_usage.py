"""``summscore score --workers 2`` puts the same judge calls on the same rows as one process:
a source's shared calls are paid by the first of its rows in the file and the others record them
as reused, whichever worker scores them and whether one worker took rows from another's queue
(issue #44: the per-row ``judge_calls`` moved between rows with the worker)."""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from summscore.cli import main
from summscore.files.shards import source_key, steal

_TOPICS = ["harbour", "bridge", "measles", "battery", "rover", "grain", "scooter", "flood"]


def _sources_on_shard_zero(count: int) -> list[str]:
    """Sources that all hash to the first of two workers: the second starts with nothing and
    takes rows from the first one's queue at once."""
    found = []
    for i in range(500):
        topic = _TOPICS[i % len(_TOPICS)]
        text = (
            f"The {topic} report number {i} was published on {1 + i % 28} March. "
            f"It counted {100 + i} cases in {3 + i % 9} towns. Officials said nothing would close."
        )
        if zlib.crc32(text.encode()) % 2 == 0:
            found.append(text)
        if len(found) == count:
            return found
    raise AssertionError("not enough sources")


def _run(path: Path, out: Path, workers: int) -> dict[str, dict[str, Any]]:
    args = ["score", str(path), "--out", str(out), "--no-progress", "--force"]
    assert main([*args, "--workers", str(workers)]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return {str(row["id"]): row for row in rows}


def _one_and_two_workers(
    tmp_path: Path, rows: list[dict[str, str]]
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """``rows`` written to a file and scored by the CLI with one worker, then with two."""
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return _run(data, tmp_path / "one.jsonl", 1), _run(data, tmp_path / "two.jsonl", 2)


def test_two_workers_put_each_source_s_calls_on_the_row_one_process_puts_them(
    tmp_path: Path,
) -> None:
    rows = []
    for s, source in enumerate(_sources_on_shard_zero(10)):
        for k, summary in enumerate(
            [
                "The report counted cases in several towns.",
                "Officials said schools would close.",
                f"It was published in March and counted {200 + s} cases.",
                "Nothing would close, officials said.",
            ]
        ):
            rows.append({"id": f"s{s}-{k}", "source": source, "summary": summary})
    one, two = _one_and_two_workers(tmp_path, rows)
    moved = {i: (one[i]["judge_calls"], two[i]["judge_calls"]) for i in one if one[i] != two[i]}
    assert not moved  # row id: (judge calls in one process, in two workers)
    assert sum(r["judge_calls"] for r in one.values()) == sum(
        r["judge_calls"] for r in two.values()
    )


def test_a_source_met_again_in_a_later_window_stays_with_its_worker(tmp_path: Path) -> None:
    # The rows are scored a window (256 rows) at a time. Each window forgot which sources the
    # earlier ones had sent where: an idle worker took a source begun in an earlier window as
    # if new, and a source taken in one window went back to its hashed worker in the next, so
    # that worker did its work again (20 to 26 of 1,500 rows paid a second time). Here each
    # source has at most 3 rows in a window, so no source is ever split between workers.
    sources = _sources_on_shard_zero(100)
    summaries = [
        "The report counted cases in several towns.",
        "Officials said schools would close.",
    ]
    rows = [
        {"id": f"r{i}", "source": sources[i % len(sources)], "summary": summaries[i % 2]}
        for i in range(600)
    ]
    one, two = _one_and_two_workers(tmp_path, rows)
    moved = {i: (one[i]["judge_calls"], two[i]["judge_calls"]) for i in one if one[i] != two[i]}
    assert not moved  # row id: (judge calls in one process, in two workers)


def _item(index: int, source: str) -> tuple[int, str, str, None]:
    return (index, source, f"summary {index}", None)


def test_a_worker_out_of_rows_takes_whole_sources_not_yet_begun_in_file_order() -> None:
    queue = [_item(i, src) for i, src in enumerate("aabbbccccdd")]
    stolen, kept = steal(queue, begun={source_key("a")}, chunk=2)
    assert [i for i, *_ in stolen] == [5, 6, 7, 8, 9, 10]  # sources c and d, whole, in order
    assert [i for i, *_ in kept] == [0, 1, 2, 3, 4]


def test_a_queue_of_begun_sources_still_shares_its_last_rows_in_file_order() -> None:
    # One source only: the idle worker still takes half (it does that source's work again).
    queue = [_item(i, "a") for i in range(20)]
    stolen, kept = steal(queue, begun={source_key("a")}, chunk=8)
    assert [i for i, *_ in stolen] == list(range(10, 20))
    assert [i for i, *_ in kept] == list(range(10))


def test_a_short_queue_is_left_alone() -> None:
    queue = [_item(i, src) for i, src in enumerate("abcd")]
    assert steal(queue, begun=set(), chunk=8) == ([], queue)


def test_rows_of_begun_sources_each_few_stay_where_they_are() -> None:
    # Taking them would only do each source's work a second time.
    queue = [_item(i, src) for i, src in enumerate("abcdabcdabcd")]
    begun = {source_key(src) for src in "abcd"}
    assert steal(queue, begun=begun, chunk=8) == ([], queue)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from("abcdef"), max_size=40),
    st.sets(st.sampled_from("abcdef")),
    st.integers(min_value=1, max_value=8),
)
def test_what_is_taken_keeps_the_file_order_and_splits_a_source_only_when_none_goes_whole(
    sources: list[str], begun_sources: set[str], chunk: int
) -> None:
    queue = [_item(i, src) for i, src in enumerate(sources)]
    begun = {source_key(src) for src in begun_sources}
    stolen, kept = steal(queue, begun=begun, chunk=chunk)
    assert sorted(stolen + kept) == queue  # every row once
    assert stolen == sorted(stolen) and kept == sorted(kept)  # each in the file's order
    if len(queue) <= chunk:
        assert not stolen
    taken = {src for _, src, *_ in stolen}
    left = {src for _, src, *_ in kept}
    split = taken & left
    if split:  # no whole source could go: only the one with the most rows, past a chunk
        (source,) = split
        assert not taken - split and sources.count(source) > chunk
        assert sources.count(source) == max(map(sources.count, sources))
    assert not any(src in begun_sources for src in taken - split)  # whole: none begun
