"""The Opik face on its own and inside opik.evaluate_on_dict_items(), against the compat judge.

opik.evaluation.evaluate() needs an Opik server (a Dataset lives there); evaluate_on_dict_items
is Opik's own evaluation loop without one, so that is what runs here, with tracking off.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

opik = pytest.importorskip("opik")

from compat.clients import MODEL, async_client  # noqa: E402
from compat.corpus import case  # noqa: E402

from summscore import SummarizationScorer  # noqa: E402
from summscore.judges import LexicalJudge  # noqa: E402
from summscore.opik import Summarization  # noqa: E402

CASES = [
    case("news-tesla-faithful"),
    case("news-tesla-misattributed"),
    case("science-crispr-omits"),
]


def test_every_item_is_scored_inside_opiks_evaluation_loop(judge_server: Any) -> None:
    shared = SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset="mastra")
    items = [{"input": c.source, "summary": c.summary} for c in CASES]
    result = opik.evaluate_on_dict_items(
        items=items,
        task=lambda item: {"output": item["summary"]},
        scoring_metrics=[Summarization(scorer=shared, track=False)],
    )
    values = [t.score_results[0].value for t in result.test_results]
    expected = [shared.score(c.source, c.summary).score for c in CASES]
    assert sorted(values) == pytest.approx(sorted(expected))


def test_score_and_ascore_return_the_reason_and_evidence() -> None:
    metric = Summarization(llm=LexicalJudge(), preset="deepeval", track=False)
    c = case("science-crispr-omits")
    result = metric.score(input=c.source, output=c.summary)
    assert result.value == pytest.approx(metric.scorer.score(c.source, c.summary).score)
    assert result.reason and {"alignment_score", "coverage_score"} <= set(result.metadata)


def test_context_is_the_source_when_given() -> None:
    metric = Summarization(llm=LexicalJudge(), track=False)
    c = case("report-q3-multi-context")
    result = metric.score(input="summarize the report", output=c.summary, context=list(c.contexts))
    assert result.value == pytest.approx(metric.scorer.score(list(c.contexts), c.summary).score)


def test_a_bad_item_is_a_failed_score_naming_the_field() -> None:
    metric = Summarization(llm=LexicalJudge(), track=False)
    result = metric.score(input="source text", output="")
    assert result.scoring_failed and math.isnan(result.value)
    assert "summary" in result.reason
