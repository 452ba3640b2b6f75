"""The Braintrust face: an autoevals Scorer on its own and inside braintrust.Eval(), against the
compat judge. Eval runs in its local mode (no_send_logs=True): no Braintrust account, no upload."""

from __future__ import annotations

from typing import Any

import pytest

autoevals = pytest.importorskip("autoevals")
braintrust = pytest.importorskip("braintrust")

from compat.clients import MODEL, async_client  # noqa: E402
from compat.corpus import case  # noqa: E402

from summscore import SummarizationScorer  # noqa: E402
from summscore.braintrust import Summarization  # noqa: E402
from summscore.judges import LexicalJudge  # noqa: E402

CASES = [  # three sources, so that a case is known by its source
    case("news-tesla-misattributed"),
    case("news-rates-wrong-number"),
    case("science-crispr-omits"),
]


def test_every_case_is_scored_inside_braintrust_eval(judge_server: Any) -> None:
    shared = SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset="mastra")
    summaries = {c.source: c.summary for c in CASES}
    result = braintrust.Eval(
        "summscore-faces",
        data=[braintrust.EvalCase(input=c.source, expected=c.summary) for c in CASES],
        task=lambda input: summaries[input],
        scores=[Summarization(scorer=shared)],
        no_send_logs=True,
    )
    assert [r.error for r in result.results] == [None] * len(CASES)
    got = {r.input: r.scores["Summarization"] for r in result.results}
    expected = {c.source: shared.score(c.source, c.summary).score for c in CASES}
    assert got == pytest.approx(expected)
    assert result.summary.scores["Summarization"].score == pytest.approx(
        sum(expected.values()) / len(expected)
    )


def test_the_class_in_scores_uses_the_openai_judge_of_the_environment(openai_env: Any) -> None:
    """Eval(..., scores=[Summarization]) instantiates it bare, as autoevals' Factuality: the
    judge is an OpenAI client from OPENAI_API_KEY / OPENAI_BASE_URL with autoevals' model."""
    c = case("news-tesla-faithful")
    result = braintrust.Eval(
        "summscore-faces",
        data=[braintrust.EvalCase(input=c.source)],
        task=lambda input: c.summary,
        scores=[Summarization],
        no_send_logs=True,
    )
    [row] = result.results
    reference = SummarizationScorer(
        llm=async_client(openai_env), model=Summarization().scorer.judge.model
    )
    assert row.scores["Summarization"] == pytest.approx(reference.score(c.source, c.summary).score)


def test_a_call_returns_autoevals_score_with_the_reason() -> None:
    metric = Summarization(llm=LexicalJudge(), preset="deepeval")
    c = case("science-crispr-omits")
    score = metric(output=c.summary, expected="a reference summary", input=c.source)
    assert isinstance(score, autoevals.Score)
    assert score.name == "Summarization"
    assert score.score == pytest.approx(metric.scorer.score(c.source, c.summary).score)
    assert score.metadata["rationale"] and "alignment_score" in score.metadata


async def test_eval_async_awaits_the_scorer() -> None:
    metric = Summarization(llm=LexicalJudge())
    c = case("news-tesla-faithful")
    score = await metric.eval_async(c.summary, input=c.source)
    assert score.score == pytest.approx(metric.scorer.score(c.source, c.summary).score)


def test_a_bad_case_raises_naming_the_field_as_autoevals_scorers_do() -> None:
    metric = Summarization(llm=LexicalJudge())
    with pytest.raises(Exception, match="input"):
        metric(output="a summary", input=None)


def test_a_scale_other_than_one_is_refused_as_braintrust_scores_lie_in_0_1() -> None:
    shared = SummarizationScorer(llm=LexicalJudge(), preset="mastra", scale=10)
    with pytest.raises(ValueError, match="scale=10"):
        Summarization(scorer=shared)


def test_model_and_client_do_not_go_beside_llm() -> None:
    with pytest.raises(TypeError, match="model= and client="):
        Summarization(llm=LexicalJudge(), model="gpt-4o-mini")
