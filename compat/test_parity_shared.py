"""One scorer behind every face, and every judge backend, over real HTTP: one number per case."""

from __future__ import annotations

import math
from typing import Any

import openai
import pytest

pytest.importorskip("ragas")
pytest.importorskip("deepeval")

from ragas.dataset_schema import SingleTurnSample

from compat.clients import ALL, KEY, MODEL, async_client, deepeval_model, llm_test_case, ragas_llm
from compat.corpus import case
from compat.judge_server import JudgeServer
from summscore import SummarizationScorer, mastra, ragas
from summscore import deepeval as de


@pytest.fixture
def server(judge_server: JudgeServer) -> JudgeServer:
    return judge_server


# ------------------------------------------------------------------- one scorer, four faces


@pytest.mark.parametrize("preset", ["ragas", "deepeval", "mastra"])
async def test_one_shared_scorer_gives_one_number_behind_all_four_faces(
    server: JudgeServer, preset: str
) -> None:
    scorer = SummarizationScorer(llm=async_client(server), model=MODEL, preset=preset)
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
            await deepeval_metric.a_measure(llm_test_case(c), _show_indicator=False),  # type: ignore[union-attr]
            (await mastra_metric.ameasure(c.source, c.summary)).score,  # type: ignore[union-attr]
        ]
        assert all(s == scores[0] for s in scores), (c.id, scores)
        assert not math.isnan(scores[0]), c.id


# ------------------------------------------------------------------- every judge backend


def _backends(server: JudgeServer) -> dict[str, tuple[Any, str | None]]:
    from langchain_openai import ChatOpenAI

    return {
        "openai-async": (async_client(server), MODEL),
        "openai-sync": (openai.OpenAI(base_url=server.url, api_key=KEY, max_retries=0), MODEL),
        "langchain-openai": (ChatOpenAI(model=MODEL, base_url=server.url, api_key=KEY), None),
        "ragas-llm_factory": (ragas_llm(server), None),
        "deepeval-model": (deepeval_model(server), None),
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
