"""summscore.ragas: drop-in parity with ragas's SummaryScore / SummarizationScore, and what is better."""

from __future__ import annotations

import asyncio
import math
import re
import warnings

import pytest

pytest.importorskip("ragas")

from compat.corpus import CASES, case
from ragas import EvaluationDataset, evaluate
from ragas.dataset_schema import SingleTurnSample
from ragas.metrics._summarization import SummarizationScore as UpstreamLegacy
from ragas.metrics.collections import SummaryScore as UpstreamSummaryScore
from ragas.metrics.result import MetricResult

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.ragas import SummarizationScore, SummaryMetricResult, SummaryScore

from .fakes import FITNESS_SOURCE, FITNESS_SUMMARY, ScriptedJudge, ragas_script
from .framework_fakes import Oracle, ragas_instructor_llm, ragas_legacy_llm

pytestmark = pytest.mark.upstream

PARITY_CASES = [c for c in CASES if c.kind != "injection"]


# ------------------------------------------------------------------ collections SummaryScore


@pytest.mark.parametrize("options", [{}, {"coeff": 0.2}, {"coeff": 1.0}, {"length_penalty": False}])
async def test_same_prompts_and_same_value_as_upstream_on_the_corpus(options: dict) -> None:
    for c in PARITY_CASES:
        theirs, ours = Oracle(), Oracle()
        upstream = await UpstreamSummaryScore(llm=ragas_instructor_llm(theirs), **options).ascore(
            reference_contexts=list(c.contexts), response=c.summary
        )
        mine = await SummaryScore(llm=ragas_instructor_llm(ours), **options).ascore(
            reference_contexts=list(c.contexts), response=c.summary
        )
        assert ours.prompts == theirs.prompts, c.id
        assert mine.value == upstream.value, c.id
        assert isinstance(mine, MetricResult)


async def test_docs_example_value_and_a_reason_naming_components_without_an_extra_call() -> None:
    judge = ScriptedJudge(ragas_script(8, 7))
    metric = SummaryScore(scorer=SummarizationScorer(llm=judge, preset="ragas"))
    result = await metric.ascore(reference_contexts=[FITNESS_SOURCE], response=FITNESS_SUMMARY)
    assert result.value == 0.6423387096775146
    assert "QA 0.88" in result.reason and "conciseness 0.41" in result.reason
    assert "Missed: Question 7?" in result.reason
    assert len(judge.requests) == 3  # keyphrases, questions, answers: the reason cost nothing
    assert isinstance(result, SummaryMetricResult)
    assert result.details.qa_score == 7 / 8


def test_score_works_inside_a_running_loop_where_upstream_raises() -> None:
    c = case("news-fitness")

    async def inside_a_loop() -> tuple[float, str]:
        ours = SummaryScore(llm=ragas_instructor_llm(Oracle()))
        theirs = UpstreamSummaryScore(llm=ragas_instructor_llm(Oracle()))
        value = ours.score(reference_contexts=list(c.contexts), response=c.summary).value
        with pytest.raises(RuntimeError) as raised:
            theirs.score(reference_contexts=list(c.contexts), response=c.summary)
        return value, str(raised.value)

    value, upstream_error = asyncio.run(inside_a_loop())
    assert 0 <= value <= 1
    assert "async context" in upstream_error


def test_batch_score_keeps_order_and_reports_a_failed_input_in_its_row() -> None:
    metric = SummaryScore(llm=LexicalJudge())
    inputs = [
        {"reference_contexts": list(c.contexts), "response": c.summary} for c in CASES[:4]
    ] + [{"reference_contexts": ["   "], "response": "x"}]
    results = metric.batch_score(inputs)
    assert len(results) == 5
    singles = [metric.score(**i).value for i in inputs[:4]]
    assert [r.value for r in results[:4]] == singles
    assert math.isnan(results[4].value)
    assert "reference_contexts cannot be empty" in results[4].reason


@pytest.mark.parametrize(
    ("kwargs", "call"),
    [
        ({"coeff": 1.5}, None),
        ({"coeff": -0.1}, None),
        ({}, {"reference_contexts": [], "response": "summary"}),
        ({}, {"reference_contexts": ["  ", "\n"], "response": "summary"}),
        ({}, {"reference_contexts": ["text"], "response": "   "}),
        ({}, {"reference_contexts": ["text"], "response": ""}),
    ],
)
async def test_validation_errors_are_upstreams(kwargs: dict, call: dict | None) -> None:
    def build(cls: type) -> object:
        return cls(llm=ragas_instructor_llm(Oracle()), **kwargs)

    if call is None:
        with pytest.raises(ValueError) as theirs:
            build(UpstreamSummaryScore)
        with pytest.raises(ValueError, match=re.escape(str(theirs.value))):
            build(SummaryScore)
        return
    with pytest.raises(ValueError) as theirs:
        await build(UpstreamSummaryScore).ascore(**call)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=re.escape(str(theirs.value))):
        await build(SummaryScore).ascore(**call)  # type: ignore[attr-defined]


async def test_empty_judge_output_is_nan_with_a_reason_where_upstream_divides_by_zero() -> None:
    def no_questions(task: str, inputs: dict) -> dict | None:
        return {"questions": []} if task == "questions" else None

    c = case("news-fitness")
    with pytest.raises(ZeroDivisionError):
        await UpstreamSummaryScore(llm=ragas_instructor_llm(Oracle(no_questions))).ascore(
            reference_contexts=list(c.contexts), response=c.summary
        )
    result = await SummaryScore(llm=ragas_instructor_llm(Oracle(no_questions))).ascore(
        reference_contexts=list(c.contexts), response=c.summary
    )
    assert math.isnan(result.value)
    assert "no questions" in result.reason


def test_llm_accepts_any_judge_the_core_accepts() -> None:
    c = case("news-fitness")
    result = SummaryScore(llm=LexicalJudge()).score(list(c.contexts), c.summary)
    assert result.details.judge == "lexical"


def test_a_shared_scorer_must_agree_with_the_options_given_beside_it() -> None:
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="ragas", coeff=0.3)
    assert SummaryScore(scorer=scorer, coeff=0.3).scorer is scorer
    with pytest.raises(
        ValueError, match=r"coeff=0\.5 contradicts the scorer, which uses coeff=0\.3"
    ):
        SummaryScore(scorer=scorer)
    with pytest.raises(ValueError, match="different judges"):
        SummaryScore(llm=LexicalJudge(), scorer=scorer, coeff=0.3)
    other = SummarizationScorer(llm=LexicalJudge(), preset="mastra")
    with pytest.raises(ValueError, match="has no effect with a mastra-preset scorer"):
        SummaryScore(scorer=other, coeff=0.7)


# ------------------------------------------------------------------ legacy SummarizationScore


def _dataset(cases: list, column: str = "reference_contexts") -> EvaluationDataset:
    return EvaluationDataset(
        samples=[SingleTurnSample(**{column: list(c.contexts)}, response=c.summary) for c in cases]
    )


def test_legacy_metric_matches_upstream_in_one_evaluate_run() -> None:
    ours = SummarizationScore()
    theirs = UpstreamLegacy()
    theirs.name = "upstream_summary_score"
    oracle = Oracle()
    result = evaluate(
        _dataset(PARITY_CASES),
        metrics=[ours, theirs],
        llm=ragas_instructor_llm(oracle),
        show_progress=False,
        raise_exceptions=True,
    )
    frame = result.to_pandas()
    assert list(frame["summary_score"]) == list(frame["upstream_summary_score"])
    assert frame["summary_score"].notna().all()
    assert ours.llm is None  # evaluate() gave its llm back


def test_legacy_metric_takes_a_legacy_wrapper_llm_from_evaluate() -> None:
    cases = PARITY_CASES[:3]
    frame = evaluate(
        _dataset(cases),
        metrics=[SummarizationScore()],
        llm=ragas_legacy_llm(Oracle()),
        show_progress=False,
        raise_exceptions=True,
    ).to_pandas()
    collections = [
        SummaryScore(llm=ragas_instructor_llm(Oracle())).score(list(c.contexts), c.summary).value
        for c in cases
    ]
    assert list(frame["summary_score"]) == collections


def test_legacy_failed_row_is_nan_when_exceptions_are_not_raised() -> None:
    def no_answers_for_rates(task: str, inputs: dict) -> dict | None:
        if task == "answers" and "4.5%" in inputs.get("text", ""):
            return {"answers": []}
        return None

    cases = [case("news-fitness"), case("news-rates"), case("news-tesla-faithful")]
    frame = evaluate(
        _dataset(cases),
        metrics=[SummarizationScore(llm=ragas_instructor_llm(Oracle(no_answers_for_rates)))],
        show_progress=False,
        raise_exceptions=False,
    ).to_pandas()
    scores = list(frame["summary_score"])
    assert math.isnan(scores[1])
    assert not math.isnan(scores[0]) and not math.isnan(scores[2])


async def test_retrieved_contexts_are_scored_with_one_warning() -> None:
    metric = SummarizationScore(llm=LexicalJudge())
    c = case("news-fitness")
    sample = SingleTurnSample(retrieved_contexts=list(c.contexts), response=c.summary)
    with pytest.warns(UserWarning, match="retrieved_contexts instead") as caught:
        first = await metric.single_turn_ascore(sample)
        second = await metric.single_turn_ascore(sample)
    assert len([w for w in caught if "retrieved_contexts" in str(w.message)]) == 1
    expected = SummaryScore(llm=LexicalJudge()).score(list(c.contexts), c.summary).value
    assert first == second == expected
    assert metric.required_columns["SINGLE_TURN"] == {"reference_contexts", "response"}


async def test_legacy_without_length_penalty_returns_qa_where_upstream_halves_it() -> None:
    c = case("vaccine-faithful")
    sample = SingleTurnSample(reference_contexts=list(c.contexts), response=c.summary)
    ours = await SummarizationScore(
        llm=ragas_instructor_llm(Oracle()), length_penalty=False
    ).single_turn_ascore(sample)
    theirs = await UpstreamLegacy(
        llm=ragas_instructor_llm(Oracle()), length_penalty=False
    ).single_turn_ascore(sample)
    assert theirs == pytest.approx(ours * 0.5)


def test_legacy_metric_without_any_judge_says_how_to_give_one() -> None:
    metric = SummarizationScore()
    sample = SingleTurnSample(reference_contexts=["text"], response="sum")
    with pytest.raises(ValueError, match="no judge"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        metric.single_turn_score(sample)


def test_legacy_metric_with_a_shared_scorer_keeps_evaluate_from_replacing_its_judge() -> None:
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="ragas")
    metric = SummarizationScore(scorer=scorer)
    frame = evaluate(
        _dataset([case("news-fitness")]),
        metrics=[metric],
        llm=ragas_instructor_llm(Oracle()),
        show_progress=False,
        raise_exceptions=True,
    ).to_pandas()
    c = case("news-fitness")
    assert frame["summary_score"][0] == scorer.score(list(c.contexts), c.summary).score
