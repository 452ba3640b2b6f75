"""``summscore.compare(base, candidate)``: runs from files in every results format and from
memory, cases matched by id or by fingerprint, failed and unmatched cases counted and listed,
runs scored differently refused, the evidence that changed, the JSON object and the DataFrame."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import summscore
from summscore import ClaimVerdict, SummaryResult, SummaryResults
from summscore.comparison import ComparisonRefused, compare, load_run
from summscore.files.writer import ResultWriter
from tests.result_rows import result_record


def _pair(n: int = 30, drop: float = 0.0, seed: int = 0) -> tuple[list[dict], list[dict]]:
    rng = random.Random(seed)
    base = [result_record(f"c{i}", round(rng.random(), 3)) for i in range(n)]
    candidate = [{**r, "score": round(max(0.0, r["score"] - drop), 3)} for r in base]
    return base, candidate


def test_summscore_compare_is_importable_from_the_top_and_loaded_on_first_use() -> None:
    code = (
        "import sys, summscore\n"
        "assert 'summscore.comparison' not in sys.modules\n"
        "from summscore import compare\n"
        "assert compare.__module__ == 'summscore.comparison.build'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    assert summscore.compare is compare


def test_cases_are_matched_by_id_in_any_order_with_ids_of_either_type() -> None:
    base, candidate = _pair(12, drop=0.1)
    result = compare(base, list(reversed(candidate)))
    assert result.matched == 12 and result.matched_by == "id"
    assert [c.id for c in result.cases] == [r["id"] for r in base]  # the base's order
    numeric = compare(
        [result_record(3, 0.5), result_record(4, 0.6)],
        [result_record("3", 0.4), result_record(4.0, 0.6)],
    )
    assert numeric.matched == 2  # a CSV file reads 3 as "3", pandas as 3.0


def test_unmatched_and_failed_cases_are_counted_and_listed_never_dropped_silently() -> None:
    base, candidate = _pair(14)
    base.append(result_record("only-base", 0.5))
    candidate.append(result_record("only-candidate", 0.5))
    candidate[2] = result_record(candidate[2]["id"], None)
    base[5] = result_record(base[5]["id"], None)
    result = compare(base, candidate)
    assert [c.id for c in result.unmatched_base] == ["only-base"]
    assert [c.id for c in result.unmatched_candidate] == ["only-candidate"]
    assert result.failed_candidate == ["c2"] and result.failed_base == ["c5"]
    assert result.matched == 14 and result.paired == 12  # the figures' cases, said
    data = result.to_dict()
    assert data["unmatched_base"] == ["only-base"] and data["failed_candidate"] == ["c2"]
    assert data["paired"] == 12 and data["matched"] == 14
    assert {c.status for c in result.cases if c.id in ("c2", "c5")} == {"failed"}


def test_an_id_named_twice_pairs_its_occurrences_in_order() -> None:
    base = [result_record("a", 0.1), result_record("a", 0.5), result_record("b", 0.9)]
    candidate = [result_record("a", 0.2), result_record("b", 0.9), result_record("a", 0.4)]
    result = compare(base, candidate)
    assert [(c.base.score, c.candidate.score) for c in result.cases] == [
        (0.1, 0.2),
        (0.5, 0.4),
        (0.9, 0.9),
    ]


def _printed(i: int, source: str, summary: str, score: float, **extra: Any) -> dict[str, Any]:
    return result_record(
        i,
        score,
        id_column=None,  # the input had no id column: ids are row numbers
        source_fingerprint=f"src-{source}",
        summary_fingerprint=f"sum-{summary}",
        **extra,
    )


def test_row_numbers_are_no_ids_so_cases_are_matched_by_what_they_were_scored_from() -> None:
    # The candidate's input lost its first row and reordered the rest: row numbers moved.
    base = [_printed(1, "s1", "x", 0.9), _printed(2, "s2", "y", 0.8), _printed(3, "s3", "z", 0.7)]
    candidate = [_printed(1, "s3", "z2", 0.1), _printed(2, "s2", "y", 0.8)]
    result = compare(base, candidate)
    assert result.matched_by == "fingerprint"
    pairs = {(c.base.id, c.candidate.id) for c in result.cases}
    assert pairs == {(2, 2), (3, 1)}  # same source and summary, then same source
    assert [c.id for c in result.unmatched_base] == [1]
    assert "matched by the source" in " ".join(result.notes)


def test_a_source_that_changed_under_the_same_id_is_not_compared_and_is_named() -> None:
    base = [
        result_record("a", 0.9, source_fingerprint="one"),
        result_record("b", 0.5, source_fingerprint="x"),
    ]
    candidate = [
        result_record("a", 0.1, source_fingerprint="two"),
        result_record("b", 0.5, source_fingerprint="x"),
    ]
    result = compare(base, candidate)
    assert result.source_changed == ["a"] and result.matched == 1
    assert [c.id for c in result.unmatched_base] == ["a"]
    assert [c.id for c in result.unmatched_candidate] == ["a"]
    assert any("another source text" in n for n in result.notes)


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("preset", "ragas", "preset: deepeval (base) vs ragas (candidate)"),
        ("judge", "openai:gpt-4o-mini", "judge: lexical (base) vs openai:gpt-4o-mini"),
        ("prompt_set", "deepeval-4.3.1", "prompt set"),
        ("threshold", 0.7, "threshold: 0.5 (base) vs 0.7 (candidate)"),
        ("options", {"n": 8}, "preset options: n 5 (base) vs 8 (candidate)"),
    ],
)
def test_runs_scored_differently_are_refused_unless_allowed(
    field: str, value: Any, said: str
) -> None:
    base, candidate = _pair(12)
    base = [{**r, "options": {"n": 5}} for r in base]
    candidate = [{**r, "options": {"n": 5}, field: value} for r in candidate]
    with pytest.raises(ComparisonRefused, match="scored differently") as caught:
        compare(base, candidate)
    assert said in str(caught.value)
    allowed = compare(base, candidate, allow_different=True)
    assert allowed.differences and allowed.matched == 12


def test_a_version_change_is_noted_not_refused() -> None:
    base, candidate = _pair(12)
    base = [{**r, "summscore_version": "0.3.0"} for r in base]
    candidate = [{**r, "summscore_version": "0.4.0"} for r in candidate]
    result = compare(base, candidate)
    assert any("different summscore versions" in n for n in result.notes)


def test_the_evidence_that_changed_is_kept_per_case() -> None:
    base = [
        result_record(
            "a",
            0.9,
            unsupported_claims=["old claim"],
            missed_questions=["Q1?"],
            reason="fine",
            success=True,
        )
    ]
    candidate = [
        result_record(
            "a",
            0.2,
            unsupported_claims=["old claim", "Founded in 1999."],
            missed_questions=["Q2?"],
            reason="worse",
            success=False,
        )
    ]
    case = compare(base, candidate).cases[0]
    assert case.status == "regressed" and case.pass_change == "pass -> fail"
    assert case.new_unsupported_claims == ("Founded in 1999.",)
    assert case.newly_missed_questions == ("Q2?",) and case.now_covered_questions == ("Q1?",)
    assert case.resolved_claims == ()  # the candidate still makes the old claim
    assert compare(candidate, base).cases[0].resolved_claims == ("Founded in 1999.",)
    assert case.to_dict()["base_reason"] == "fine" and case.to_dict()["candidate_reason"] == "worse"


def test_figures_for_every_component_and_the_pass_rate_with_mcnemar() -> None:
    base = [result_record(i, 0.8, alignment_score=0.8, coverage_score=0.9) for i in range(20)]
    candidate = [
        result_record(
            i, 0.3 if i < 6 else 0.8, alignment_score=0.3 if i < 6 else 0.8, coverage_score=0.9
        )
        for i in range(20)
    ]
    result = compare(base, candidate)
    assert set(result.components) == {"alignment_score", "coverage_score"}
    assert result.components["alignment_score"].difference.value == pytest.approx(-0.15)
    assert result.components["coverage_score"].difference.value == pytest.approx(0.0)
    p = result.pass_rate
    assert (p.base, p.candidate, p.newly_failing, p.newly_passing) == (1.0, 0.7, 6, 0)
    assert p.p_value == pytest.approx(2 / 64)
    assert result.to_dict()["pass_rate_difference"] == pytest.approx(-0.3)


def test_ties_and_unchanged_cases_with_a_tolerance() -> None:
    base = [result_record(i, 0.5) for i in range(12)]
    candidate = [result_record(i, 0.5 + (0.004 if i % 2 else 0.0)) for i in range(12)]
    exact = compare(base, candidate)
    assert len(exact.improved) == 6 and len(exact.unchanged) == 6
    loose = compare(base, candidate, tolerance=0.01)
    assert loose.improved == [] and len(loose.unchanged) == 12


def _write(path: Path, records: list[dict]) -> Path:
    with ResultWriter(path) as writer:
        for record in records:
            writer.write(record)
    return path


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".tsv", ".parquet"])
def test_every_results_format_compares_alike(tmp_path: Path, suffix: str) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    base, candidate = _pair(15, drop=0.05)
    base[0] = {**base[0], "unsupported_claims": ["A claim."], "success": True}
    candidate[0] = {**candidate[0], "unsupported_claims": ["A claim.", "New."], "success": False}
    expected = compare(base, candidate).to_dict()
    result = compare(
        _write(tmp_path / f"b{suffix}", base), _write(tmp_path / f"c{suffix}", candidate)
    )
    got = result.to_dict()
    for key in ("matched", "mean_difference", "ci_low", "ci_high", "regressed", "newly_failing"):
        assert (
            got[key] == pytest.approx(expected[key])
            if isinstance(got[key], float)
            else got[key] == expected[key]
        )
    assert result.cases[0].new_unsupported_claims == ("New.",)


def test_results_in_memory_and_a_dataframe(tmp_path: Path) -> None:
    def result(i: int, score: float) -> SummaryResult:
        claims = [ClaimVerdict(claim="X.", verdict="no", supported=False)] if score < 0.5 else []
        return SummaryResult(
            id=f"r{i}", score=score, preset="deepeval", prompt_set="none", judge="lexical",
            threshold=0.5, claims=claims,
        )  # fmt: skip

    base = SummaryResults(result(i, 0.8) for i in range(12))
    candidate = SummaryResults(result(i, 0.8 if i % 3 else 0.2) for i in range(12))
    from_memory = compare(base, candidate)
    assert set(from_memory.regressed) == {"r0", "r3", "r6", "r9"}
    assert from_memory.cases[0].new_unsupported_claims == ("X.",)
    pd = pytest.importorskip("pandas")
    frame = compare(pd.DataFrame(_pair(12)[0]), pd.DataFrame(_pair(12, drop=0.2)[1])).to_pandas()
    assert list(frame.columns[:6]) == [
        "id",
        "base_score",
        "candidate_score",
        "difference",
        "status",
        "pass_change",
    ]
    assert len(frame) == 12 and (frame["difference"] <= 0).all()


def test_a_table_of_no_matched_case_has_the_columns_of_one_that_matched() -> None:
    pd = pytest.importorskip("pandas")
    base, candidate = _pair(12, drop=0.2)
    matched = compare(pd.DataFrame(base), pd.DataFrame(candidate)).to_pandas()
    others = [{**r, "id": f"other-{r['id']}"} for r in candidate]
    none = compare(pd.DataFrame(base), pd.DataFrame(others)).to_pandas()
    assert none.shape == (0, len(matched.columns)) and list(none.columns) == list(matched.columns)
    assert none[none.status == "regressed"].empty  # (a frame with no columns raised here)


def test_an_ab_results_file_holds_two_runs(tmp_path: Path) -> None:
    base, candidate = _pair(12, drop=0.2)
    rows = []
    for a, b in zip(base, candidate):
        rows += [{**a, "summary_column": "a"}, {**b, "summary_column": "b"}]
    path = _write(tmp_path / "ab.jsonl", rows)
    assert load_run(path).columns == ["a", "b"]
    result = compare(path)
    assert result.matched == 12 and result.worse()
    assert result.base_name.endswith("[a]") and result.candidate_name.endswith("[b]")
    reverse = compare(path, base_column="b", candidate_column="a")
    assert reverse.score.difference.value == pytest.approx(-result.score.difference.value)
    with pytest.raises(ValueError, match="choose one with base_column"):
        compare(path, path)
    with pytest.raises(ValueError, match="one run only"):
        compare(_write(tmp_path / "one.jsonl", base))


def test_the_json_object_has_what_scripts_read_and_is_strict_json() -> None:
    base, candidate = _pair(20, drop=0.1)
    candidate[3] = result_record("c3", None)
    data = compare(base, candidate).to_dict()
    for key in (
        "matched",
        "unmatched_base",
        "unmatched_candidate",
        "mean_difference",
        "ci_low",
        "ci_high",
        "pass_rate_difference",
        "improved",
        "regressed",
    ):
        assert key in data
    assert isinstance(data["regressed"], list) and isinstance(data["improved"], list)
    json.dumps(data, allow_nan=False)
    assert data["worst_regressions"][0]["difference"] <= data["worst_regressions"][-1]["difference"]


def test_nothing_to_compare_is_a_verdict_not_a_crash() -> None:
    result = compare([result_record("a", None)], [result_record("a", 0.4)])
    assert result.paired == 0 and result.verdict().kind == "nothing to compare"
    assert math.isnan(result.score.difference.value) and not result.worse()
    json.dumps(result.to_dict(), allow_nan=False)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="compare\\(\\) takes"):
        compare(42, [])
    with pytest.raises(ValueError, match="resamples"):
        compare([], [], resamples=0)
    with pytest.raises(ValueError, match="cannot read results"):
        compare("/no/such/results.jsonl", [])


def test_two_runs_with_the_same_scores_say_so_in_words() -> None:
    # Every difference 0: the interval is 0 to 0, which reads "the same to the same" as a range.
    base = [result_record(f"c{i}", 0.2 + i / 50) for i in range(20)]
    result = compare(base, [result_record(f"c{i}", 0.2 + i / 50) for i in range(20)])
    verdict = result.verdict()
    assert verdict.kind == "no clear difference" and not result.worse()
    assert "same to the same" not in verdict.text and "same scores" in verdict.text


def test_a_table_of_no_matched_case_keeps_the_components_of_the_preset() -> None:
    pytest.importorskip("pandas")
    from summscore import SummarizationScorer
    from summscore.judges import LexicalJudge

    scorer = SummarizationScorer(LexicalJudge(), preset="deepeval")
    cases = [
        {"id": f"c{i}", "source": f"Leeds approved {40 + i} homes on Monday.", "summary": s}
        for i, s in enumerate(["Leeds approved homes.", "Leeds approved 9 homes.", "Homes."])
    ]
    runs = scorer.score_many(cases, progress=False)
    base = runs.to_pandas()
    others = base.assign(id=[f"other-{i}" for i in base["id"]])
    matched = compare(base, base).to_pandas()
    none = compare(base, others).to_pandas()
    assert {"base_alignment", "candidate_coverage"} <= set(matched.columns)
    assert none.shape == (0, len(matched.columns)) and list(none.columns) == list(matched.columns)
