"""score_many's results: a list that knows its ids, summarises itself and shows as a table."""

from __future__ import annotations

import math
import sys
import types
from typing import Any

import pytest

from summscore import Case, SummarizationScorer, SummaryResult, SummaryResults
from summscore.calls.many import progress_bar
from summscore.judges import LexicalJudge
from summscore.results.stats import failure_causes

from .fakes import FITNESS_SOURCE, FITNESS_SUMMARY

GOOD = (FITNESS_SOURCE, FITNESS_SUMMARY)
BAD_SUMMARY = (FITNESS_SOURCE, "The app was launched in 1999 by a bank in Oslo.")


def _results(preset: str = "deepeval") -> SummaryResults:
    s = SummarizationScorer(llm=LexicalJudge(), preset=preset)
    cases: list[Any] = [
        Case(*GOOD, id="good"),
        {"id": "bad", "source": BAD_SUMMARY[0], "summary": BAD_SUMMARY[1]},
        (FITNESS_SOURCE, ""),  # empty summary: a row error
        {"source": "x"},  # no summary field: a row error
        GOOD,
    ]
    return s.score_many(cases, progress=False)


def test_score_many_returns_a_list_of_results_with_case_ids() -> None:
    results = _results()
    assert isinstance(results, list) and isinstance(results, SummaryResults)
    assert all(isinstance(r, SummaryResult) for r in results)
    assert [r.id for r in results] == ["good", "bad", 2, 3, 4]
    assert results[0].score == results[4].score  # plain list behaviour
    assert [r.score for r in results[:2]] == results.scores[:2]
    assert results[0].to_dict()["id"] == "good"


def test_the_summary_counts_pass_rate_failures_by_cause_and_spend() -> None:
    results = _results()
    s = results.summary()
    assert (s.scores.count, s.scores.failed, s.scores.scored) == (5, 2, 3)
    ok = [r for r in results if r.ok]
    assert s.threshold == 0.5
    assert s.passed == sum(r.score >= 0.5 for r in ok)
    assert s.pass_rate == pytest.approx(s.passed / 5)
    assert set(s.components) == {"alignment_score", "coverage_score"}
    assert sum(n for _, n in s.causes) == 2
    assert s.usage.judge_calls == sum(r.usage.judge_calls for r in results) > 0
    assert s.cost_text == "none (offline judge)"
    rows = dict(s.rows())
    assert rows["failed"] == "2" and rows["cost"] == "none (offline judge)"
    assert "mean alignment" in rows and any(k.startswith("pass rate") for k in rows)


def test_failures_are_grouped_by_cause_with_numbers_blanked() -> None:
    missing = "ValueError: cases[{}] has no summary field"
    errors = [missing.format(3), missing.format(9), "JudgeError: HTTP 500 from 'http://x'", None]
    causes = failure_causes(errors)
    assert causes == [
        ("ValueError: cases[N] has no summary field", 2),
        ("JudgeError: HTTP N from '…'", 1),
    ]


async def test_ascore_many_returns_the_same_results_object() -> None:
    s = SummarizationScorer(llm=LexicalJudge())
    results = await s.ascore_many([GOOD, GOOD], progress=False)
    assert isinstance(results, SummaryResults) and [r.id for r in results] == [0, 1]


def test_to_pandas_has_one_row_per_case_and_components_as_columns() -> None:
    pytest.importorskip("pandas")
    frame = _results().to_pandas()
    assert len(frame) == 5
    assert list(frame["id"]) == ["good", "bad", 2, 3, 4]
    assert {"score", "alignment_score", "coverage_score", "success", "error", "cost"} <= set(
        frame.columns
    )
    assert "qa_score" not in frame.columns  # the deepeval rule computes no QA score
    assert math.isnan(frame["score"][2]) and frame["error"][2]


def test_the_notebook_table_escapes_untrusted_text() -> None:
    s = SummarizationScorer(llm=LexicalJudge())
    results = s.score_many(
        [Case(FITNESS_SOURCE, "<script>alert(1)</script>", id="<b>x</b>")], progress=False
    )
    page = results._repr_html_()
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    one = results[0]._repr_html_()
    assert "<script>" not in one and "&lt;b&gt;x&lt;/b&gt;" in one


def test_a_results_table_shows_the_summary_and_the_rows() -> None:
    page = _results()._repr_html_()
    assert "5 cases" in page and "pass rate" in page and "Failures by cause" in page
    assert page.count("<tr><td>") >= 5


def test_a_single_result_has_a_short_repr() -> None:
    results = _results()
    text = repr(results[0])
    assert text.startswith("SummaryResult(id='good', score=") and "alignment=" in text
    assert "claims" not in text and len(text) < 200
    assert "error=" in repr(results[3])
    assert repr(results).startswith("SummaryResults(5 cases, mean ")
    assert repr(SummaryResults()) == "SummaryResults([])"


def test_a_notebook_kernel_gets_a_progress_bar_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    class ZMQInteractiveShell:  # the class name Jupyter's kernel shell has
        pass

    fake = types.ModuleType("IPython")
    fake.get_ipython = ZMQInteractiveShell  # type: ignore[attr-defined]
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    assert progress_bar(3, None) is None  # a pipe, no kernel: no bar
    monkeypatch.setitem(sys.modules, "IPython", fake)
    bar = progress_bar(3, None)
    assert bar is not None
    bar.close()
    assert progress_bar(3, False) is None  # asked for none
