"""summscore.mastra: Mastra's SummarizationMetric shape and rule, in Python."""

from __future__ import annotations

import asyncio
import json
import math

import pytest
from compat.corpus import case

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.mastra import MastraResult, SummarizationMetric

from .fakes import ScriptedJudge

TESLA = case("news-tesla-misattributed")


def _mastra_docs_judge() -> ScriptedJudge:
    """The judge answers of the example in Mastra's docs: alignment 1/2, coverage 3/4."""
    return ScriptedJudge(
        {
            "claims": {"claims": ["Tesla was founded in 2003.", "Tesla was founded by Elon Musk."]},
            "verdicts": {
                "verdicts": [
                    {"verdict": "yes"},
                    {"verdict": "no", "reason": "Founded by Eberhard and Tarpenning."},
                ]
            },
            "questions": {"questions": ["Q1?", "Q2?", "Q3?", "Q4?"]},
            "answers": {"answers": ["yes", "yes", "yes", "no"]},
            "reason": {"reason": "The score is 0.5 because the founder is misattributed."},
        }
    )


def test_the_docs_example_gives_mastras_numbers_and_key_names() -> None:
    metric = SummarizationMetric(_mastra_docs_judge())
    result = metric.measure(TESLA.source, TESLA.summary)
    assert isinstance(result, MastraResult)
    assert result.score == 0.5
    assert result.info == {
        "reason": "The score is 0.5 because the founder is misattributed.",
        "alignmentScore": 0.5,
        "coverageScore": 0.75,
    }
    assert json.loads(json.dumps(result.to_dict())) == {"score": 0.5, "info": result.info}


@pytest.mark.parametrize(("scale", "expected"), [(1, 0.5), (10, 5.0), (3, 1.5)])
def test_scale_multiplies_each_component_before_rounding(scale: float, expected: float) -> None:
    result = SummarizationMetric(_mastra_docs_judge(), scale=scale).measure("a b c", "a b")
    assert result.score == expected
    assert result.info["coverageScore"] == round(0.75 * scale, 2)


def test_thirds_are_rounded_to_two_decimals() -> None:
    judge = _mastra_docs_judge()
    judge.script["questions"] = {"questions": ["Q1?", "Q2?", "Q3?"]}
    judge.script["answers"] = {"answers": ["yes", "no", "no"]}
    result = SummarizationMetric(judge).measure("a b c", "a b")
    assert result.info["coverageScore"] == 0.33
    assert result.score == 0.33


def test_ameasure_and_measure_inside_a_running_loop_agree() -> None:
    metric = SummarizationMetric(LexicalJudge())

    async def both() -> tuple[MastraResult, MastraResult]:
        return await metric.ameasure(TESLA.source, TESLA.summary), metric.measure(
            TESLA.source, TESLA.summary
        )

    first, second = asyncio.run(both())
    assert first.to_dict() == second.to_dict()
    assert first.details is not None and first.details.preset == "mastra"


def test_the_offline_judge_catches_the_misattributed_founder() -> None:
    result = SummarizationMetric(LexicalJudge()).measure(TESLA.source, TESLA.summary)
    assert result.info["alignmentScore"] < 1
    faithful = case("news-tesla-faithful")
    better = SummarizationMetric(LexicalJudge()).measure(faithful.source, faithful.summary)
    assert better.score > result.score


def test_bad_input_names_mastras_fields() -> None:
    metric = SummarizationMetric(LexicalJudge())
    with pytest.raises(ValueError, match="output cannot be empty"):
        metric.measure("source", "  ")
    with pytest.raises(TypeError, match="input is required"):
        metric.measure(None, "summary")  # type: ignore[arg-type]


def test_a_failed_ragas_preset_score_keeps_the_shape_with_a_null_score() -> None:
    judge = ScriptedJudge({"keyphrases": {"keyphrases": []}, "questions": {"questions": []}})
    scorer = SummarizationScorer(llm=judge, preset="ragas", prompts="own")
    result = SummarizationMetric(scorer=scorer).measure("Some source text.", "Summary.")
    assert math.isnan(result.score)
    assert result.to_dict()["score"] is None
    assert "no questions" in result.info["reason"]


def test_a_shared_scorer_must_agree_with_scale() -> None:
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="mastra", scale=10)
    assert SummarizationMetric(scorer=scorer, scale=10).scorer is scorer
    with pytest.raises(ValueError, match="scale=1 contradicts the scorer"):
        SummarizationMetric(scorer=scorer)
    with pytest.raises(TypeError, match="needs a model"):
        SummarizationMetric()
