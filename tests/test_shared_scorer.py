"""One SummarizationScorer behind all four faces: one number per case, whatever the framework."""

from __future__ import annotations

import pytest

pytest.importorskip("ragas")
pytest.importorskip("deepeval")

from compat.corpus import CASES
from deepeval.test_case import LLMTestCase
from ragas.dataset_schema import SingleTurnSample

from summscore import SummarizationScorer, mastra, ragas
from summscore import deepeval as de
from summscore.judges import LexicalJudge

pytestmark = pytest.mark.upstream


@pytest.mark.parametrize("preset", ["ragas", "deepeval", "mastra"])
async def test_all_four_faces_agree_and_share_one_source_cache(preset: str) -> None:
    scorer = SummarizationScorer(llm=LexicalJudge(), preset=preset)
    collections = ragas.SummaryScore(scorer=scorer)
    legacy = ragas.SummarizationScore(scorer=scorer)
    deepeval_metric = de.SummarizationMetric(scorer=scorer, n=5)
    mastra_metric = mastra.SummarizationMetric(scorer=scorer)
    for c in CASES:
        expected = (await scorer.ascore(list(c.contexts), c.summary)).score
        calls_before = scorer.usage.judge_calls
        scores = [
            (
                await collections.ascore(reference_contexts=list(c.contexts), response=c.summary)
            ).value,
            await legacy.single_turn_ascore(
                SingleTurnSample(reference_contexts=list(c.contexts), response=c.summary)
            ),
            await deepeval_metric.a_measure(
                LLMTestCase(input=c.source, actual_output=c.summary), _show_indicator=False
            ),
            (await mastra_metric.ameasure(c.source, c.summary)).score,
        ]
        assert scores == [expected] * 4, c.id
        per_summary = {"ragas": 1, "deepeval": 4, "mastra": 4}[preset]
        assert scorer.usage.judge_calls - calls_before == 4 * per_summary, c.id
