"""summscore.ragas.SummaryScore: drop-in parity with ragas's collections SummaryScore, and what
is better."""

from __future__ import annotations

import asyncio
import math
import re

import pytest

pytest.importorskip("ragas.metrics.collections")

from compat.corpus import CASES, case
from ragas.metrics.collections import SummaryScore as UpstreamSummaryScore
from ragas.metrics.result import MetricResult

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.ragas import SummaryMetricResult, SummaryScore

from .fakes import FITNESS_SOURCE, FITNESS_SUMMARY, ScriptedJudge, ragas_script
from .framework_fakes import Oracle, ragas_instructor_llm

pytestmark = pytest.mark.upstream

PARITY_CASES = [c for c in CASES if c.kind != "injection"]


def _as_read(prompts: list[str]) -> list[str]:
    """The prompts as a judge reads them. ragas 0.3.x's collections metric escapes non-ASCII text
    (``\\u30b5``) where its legacy metric and ragas 0.4 write it as is; summscore writes it as is."""
    import ragas

    if not ragas.__version__.startswith("0.3."):
        return prompts
    escape = re.compile(r"\\u([0-9a-fA-F]{4})")
    return [escape.sub(lambda m: chr(int(m.group(1), 16)), p) for p in prompts]


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
        assert ours.prompts == _as_read(theirs.prompts), c.id
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


async def test_an_edited_prompt_is_sent_even_for_a_source_already_scored() -> None:
    import copy

    oracle = Oracle()
    metric = SummaryScore(llm=ragas_instructor_llm(oracle))
    c = case("news-fitness")
    await metric.ascore(reference_contexts=list(c.contexts), response=c.summary)
    await metric.ascore(reference_contexts=list(c.contexts), response=c.summary + " Indeed.")
    assert len(oracle.prompts) == 4  # the second summary reuses the source's keyphrases/questions
    edited = copy.deepcopy(metric.extract_keyphrases_prompt)
    edited.instruction = "Extract the names and numbers only."
    metric.extract_keyphrases_prompt = edited
    await metric.ascore(reference_contexts=list(c.contexts), response=c.summary)
    assert len(oracle.prompts) == 7 and oracle.prompts[4].startswith("Extract the names")
    assert metric.scorer.prompt_set.endswith("+custom")
