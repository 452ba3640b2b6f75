"""Cases without ids compared by place: a results file numbers its rows from 1, a batch of
results in memory (``score_many``) numbers its cases from 0, and the same cases in the same order
must pair with themselves whichever way each run came."""

from __future__ import annotations

import json
from pathlib import Path

from summscore import Case, SummarizationScorer
from summscore.cli import main
from summscore.comparison import compare
from summscore.judges import LexicalJudge

SOURCE = "The {0} bridge reopened on Monday after {1} days of repairs. It cost {2} thousand pounds."
GOOD = "The {0} bridge reopened after {1} days of repairs costing {2} thousand pounds."
BAD = "The {0} bridge closed for {3} days after a fire."


def _rows() -> list[dict[str, str]]:
    towns = ["Alder", "Brill", "Corran", "Dunmore", "Elsby", "Fenwick", "Garth", "Hollin"]
    rows = []
    for i, town in enumerate(towns * 2):  # 16 cases, every third summary made worse
        values = (town, 10 + i, 200 + 7 * i, 40 + i)
        summary = (BAD if i % 3 == 0 else GOOD).format(*values)
        rows.append({"source": SOURCE.format(*values), "summary": summary})
    return rows


def test_a_results_file_without_ids_pairs_each_row_with_the_same_case_in_memory(
    tmp_path: Path,
) -> None:
    rows = _rows()
    data = tmp_path / "cases.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "results.jsonl"
    assert main(["score", str(data), "--out", str(out), "--no-progress"]) == 0
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="deepeval")
    in_memory = scorer.score_many([Case(r["source"], r["summary"]) for r in rows])
    assert len({r.score for r in in_memory}) > 1  # (pairing the wrong cases would show)

    for base, candidate in ((str(out), in_memory), (in_memory, str(out))):
        comparison = compare(base, candidate)
        assert comparison.matched_by == "row number"
        assert comparison.matched == 16 and comparison.paired == 16
        assert not comparison.unmatched_base and not comparison.unmatched_candidate
        assert comparison.regressed == [] and comparison.improved == []
        assert comparison.verdict().kind == "no clear difference"


def test_ids_that_happen_to_equal_places_still_match_a_file_with_those_ids(
    tmp_path: Path,
) -> None:
    # Cases numbered 0, 1, 2, ... by their owner, in the input's id column and in memory: those
    # are ids on both sides (the file names its id column), matched as they are.
    rows = [{"id": i, **r} for i, r in enumerate(_rows())]
    data = tmp_path / "cases.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "results.csv"
    assert main(["score", str(data), "--out", str(out), "--no-progress"]) == 0
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="deepeval")
    in_memory = scorer.score_many([Case(r["source"], r["summary"], id=r["id"]) for r in rows])
    for base, candidate in ((str(out), in_memory), (in_memory, str(out))):
        comparison = compare(base, candidate)
        assert comparison.matched == 16 and not comparison.unmatched_base
        assert comparison.regressed == [] and comparison.improved == []
