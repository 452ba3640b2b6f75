"""End-to-end parity over real HTTP, against unmodified upstream code.

Every judge here is a real client (openai, instructor through ragas's llm_factory, deepeval's
OpenAIModel, langchain-openai) talking to the compat judge server, which answers each prompt
deterministically from its content. The same case must give the same number whatever the
framework, and the same number as the framework's own metric.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("ragas")
pytest.importorskip("deepeval")

import openai
from deepeval.models import GPTModel
from deepeval.test_case import LLMTestCase
from ragas import EvaluationDataset, evaluate
from ragas.dataset_schema import SingleTurnSample
from ragas.llms import llm_factory

from compat.corpus import CASES, Case, case
from compat.judge_server import JudgeServer
from summscore import SummarizationScorer, mastra, ragas
from summscore import deepeval as de

KEY = "sk-compat-not-a-real-key"
MODEL = "gpt-4o-mini"
PARITY = [c for c in CASES if c.kind != "injection"]
ALL = list(CASES)


@pytest.fixture
def server(judge_server: JudgeServer) -> Iterator[JudgeServer]:
    yield judge_server


def _async_client(server: JudgeServer) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=server.url, api_key=KEY, max_retries=0)


def _ragas_llm(server: JudgeServer) -> Any:
    return llm_factory(MODEL, client=_async_client(server))


def _deepeval_model(server: JudgeServer) -> Any:
    return GPTModel(model=MODEL, api_key=KEY, base_url=server.url)


def _test_case(c: Case) -> LLMTestCase:
    return LLMTestCase(input=c.source, actual_output=c.summary)


# ------------------------------------------------------------------------------- ragas


@pytest.mark.parametrize("options", [{}, {"coeff": 0.3}, {"length_penalty": False}], ids=str)
async def test_collections_summary_score_matches_upstream(
    server: JudgeServer, options: dict
) -> None:
    from ragas.metrics.collections import SummaryScore as Upstream

    llm = _ragas_llm(server)
    upstream, ours = Upstream(llm=llm, **options), ragas.SummaryScore(llm=llm, **options)
    for c in PARITY:
        theirs = await upstream.ascore(reference_contexts=list(c.contexts), response=c.summary)
        mine = await ours.ascore(reference_contexts=list(c.contexts), response=c.summary)
        assert mine.value == theirs.value, c.id


def test_legacy_metric_matches_upstream_in_one_evaluate_run(server: JudgeServer) -> None:
    from ragas.metrics._summarization import SummarizationScore as Upstream

    theirs = Upstream()
    theirs.name = "upstream_summary_score"
    dataset = EvaluationDataset(
        samples=[
            SingleTurnSample(reference_contexts=list(c.contexts), response=c.summary)
            for c in PARITY
        ]
    )
    frame = evaluate(
        dataset,
        metrics=[ragas.SummarizationScore(), theirs],
        llm=_ragas_llm(server),
        show_progress=False,
        raise_exceptions=True,
    ).to_pandas()
    assert list(frame["summary_score"]) == list(frame["upstream_summary_score"])
    assert frame["summary_score"].notna().all()


def test_ours_scores_every_row_inside_ragas_evaluate(server: JudgeServer) -> None:
    dataset = EvaluationDataset(
        samples=[
            SingleTurnSample(reference_contexts=list(c.contexts), response=c.summary) for c in ALL
        ]
    )
    frame = evaluate(
        dataset,
        metrics=[ragas.SummarizationScore()],
        llm=_ragas_llm(server),
        show_progress=False,
        raise_exceptions=False,
    ).to_pandas()
    assert len(frame) == len(ALL) and frame["summary_score"].notna().all()


# ---------------------------------------------------------------------------- deepeval

DEEPEVAL_CONFIGS = [
    {},
    {"n": 3},
    {"strict_mode": True},
    {"truths_extraction_limit": 2},
    {"threshold": 0.7, "include_reason": False},
]


@pytest.mark.parametrize("config", DEEPEVAL_CONFIGS, ids=str)
async def test_deepeval_metric_matches_upstream(server: JudgeServer, config: dict) -> None:
    from deepeval.metrics import SummarizationMetric as Upstream

    model = _deepeval_model(server)
    # deepeval's OpenAIModel builds a new client (and loads the CA bundle) for every call: the
    # defaults run on the whole corpus, each variant on a third of it.
    cases = PARITY if not config else PARITY[::3]
    for c in cases:
        upstream, ours = (
            Upstream(model=model, **config),
            de.SummarizationMetric(model=model, **config),
        )
        await upstream.a_measure(_test_case(c), _show_indicator=False)
        await ours.a_measure(_test_case(c), _show_indicator=False)
        assert ours.score == upstream.score, c.id
        assert ours.score_breakdown == upstream.score_breakdown, c.id
        assert ours.reason == upstream.reason, c.id
        assert ours.evaluation_cost == pytest.approx(upstream.evaluation_cost), c.id


async def test_deepeval_metric_matches_upstream_with_given_questions(server: JudgeServer) -> None:
    from deepeval.metrics import SummarizationMetric as Upstream

    c = case("deepeval-doc-given-questions")
    model = _deepeval_model(server)
    questions = list(c.assessment_questions)
    upstream = Upstream(model=model, assessment_questions=questions)
    ours = de.SummarizationMetric(model=model, assessment_questions=questions)
    await upstream.a_measure(_test_case(c), _show_indicator=False)
    await ours.a_measure(_test_case(c), _show_indicator=False)
    assert (ours.score, ours.score_breakdown) == (upstream.score, upstream.score_breakdown)
    assert server.stats.tasks["questions"] == 0  # given questions are used, none generated


def test_ours_scores_every_case_inside_deepeval_evaluate_and_assert_test(
    server: JudgeServer, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deepeval import assert_test
    from deepeval import evaluate as deepeval_evaluate
    from deepeval.evaluate.configs import AsyncConfig, DisplayConfig

    monkeypatch.chdir(tmp_path)  # deepeval keeps its run cache in the working directory
    metric = de.SummarizationMetric(model=_deepeval_model(server), threshold=0.0)
    result = deepeval_evaluate(
        test_cases=[_test_case(c) for c in ALL],
        metrics=[metric],
        async_config=AsyncConfig(run_async=True, max_concurrent=8),
        display_config=DisplayConfig(print_results=False, show_indicator=False),
    )
    assert len(result.test_results) == len(ALL)
    for row in result.test_results:
        (data,) = row.metrics_data
        assert data.error is None and data.score is not None and data.success
    assert_test(_test_case(case("news-fitness")), [metric])


# ------------------------------------------------------------------- one scorer, four faces


@pytest.mark.parametrize("preset", ["ragas", "deepeval", "mastra"])
async def test_one_shared_scorer_gives_one_number_behind_all_four_faces(
    server: JudgeServer, preset: str
) -> None:
    scorer = SummarizationScorer(llm=_async_client(server), model=MODEL, preset=preset)
    faces = (
        ragas.SummaryScore(scorer=scorer),
        ragas.SummarizationScore(scorer=scorer),
        de.SummarizationMetric(scorer=scorer),
        mastra.SummarizationMetric(scorer=scorer),
    )
    for c in ALL:
        collections, legacy, deepeval_metric, mastra_metric = faces
        scores = [
            (
                await collections.ascore(reference_contexts=list(c.contexts), response=c.summary)
            ).value,  # type: ignore[union-attr]
            await legacy.single_turn_ascore(  # type: ignore[union-attr]
                SingleTurnSample(reference_contexts=list(c.contexts), response=c.summary)
            ),
            await deepeval_metric.a_measure(_test_case(c), _show_indicator=False),  # type: ignore[union-attr]
            (await mastra_metric.ameasure(c.source, c.summary)).score,  # type: ignore[union-attr]
        ]
        assert all(s == scores[0] for s in scores), (c.id, scores)
        assert not math.isnan(scores[0]), c.id


# ------------------------------------------------------------------- every judge backend


def _backends(server: JudgeServer) -> dict[str, tuple[Any, str | None]]:
    from langchain_openai import ChatOpenAI

    return {
        "openai-async": (_async_client(server), MODEL),
        "openai-sync": (openai.OpenAI(base_url=server.url, api_key=KEY, max_retries=0), MODEL),
        "langchain-openai": (ChatOpenAI(model=MODEL, base_url=server.url, api_key=KEY), None),
        "ragas-llm_factory": (_ragas_llm(server), None),
        "deepeval-model": (_deepeval_model(server), None),
    }


@pytest.mark.parametrize("preset", ["ragas", "deepeval", "mastra"])
def test_every_judge_backend_gives_the_same_numbers(server: JudgeServer, preset: str) -> None:
    cases = [case("news-tesla-misattributed"), case("report-q3-multi-context"), case("ja-company")]
    seen: dict[str, list[float]] = {}
    for name, (llm, model) in _backends(server).items():
        scorer = SummarizationScorer(llm=llm, model=model, preset=preset)
        results = [scorer.score(list(c.contexts), c.summary) for c in cases]
        assert all(r.ok for r in results), (name, [r.error for r in results])
        seen[name] = [r.score for r in results]
    first = next(iter(seen.values()))
    assert all(scores == first for scores in seen.values()), seen
