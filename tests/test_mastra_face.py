"""summscore.mastra: Mastra's SummarizationMetric shape and rule, in Python."""

from __future__ import annotations

import asyncio
import json
import math

import pytest
from compat.corpus import case

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.mastra import (
    MastraResult,
    SummarizationMetric,
    assistant_message,
    create_summarization_scorer,
    user_message,
)

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


def test_an_empty_summary_scores_zero_without_a_judge_call_as_in_mastra() -> None:
    judge = _mastra_docs_judge()
    result = SummarizationMetric(judge).measure("The plant closed in 1987.", "  ")
    assert result.score == 0
    assert result.info["alignmentScore"] == 0 and result.info["coverageScore"] == 0
    assert "summary is empty" in result.info["reason"]
    assert judge.requests == []


def test_missing_input_names_mastras_field() -> None:
    metric = SummarizationMetric(LexicalJudge())
    with pytest.raises(TypeError, match="input is required"):
        metric.measure(None, "summary")  # type: ignore[arg-type]


def test_a_failed_ragas_preset_score_keeps_the_shape_with_a_null_score() -> None:
    judge = ScriptedJudge({"keyphrases": {"keyphrases": []}, "questions": {"questions": []}})
    scorer = SummarizationScorer(llm=judge, preset="ragas", prompts="own")
    result = SummarizationMetric(scorer=scorer).measure("Some source text.", "Summary.")
    assert math.isnan(result.score)
    assert result.to_dict()["score"] is None
    assert "no questions" in result.info["reason"]


def test_a_shared_scorer_must_agree_with_a_scale_given_beside_it() -> None:
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="mastra", scale=10)
    assert SummarizationMetric(scorer=scorer, scale=10).scorer is scorer
    with pytest.raises(ValueError, match="scale=1 contradicts the scorer"):
        SummarizationMetric(scorer=scorer, scale=1)
    with pytest.raises(TypeError, match="needs a model"):
        SummarizationMetric()


def test_a_shared_scorer_keeps_its_scale_when_the_caller_passes_none() -> None:
    scorer = SummarizationScorer(llm=_mastra_docs_judge(), preset="mastra", scale=10)
    metric = SummarizationMetric(scorer=scorer)
    current = create_summarization_scorer(scorer=scorer)
    assert metric.scale == 10 and current.scorer is scorer
    assert metric.measure("a b c", "a b").score == 5.0
    assert current.run({"input": "a b c", "output": "a b"}).score == 5.0
    with pytest.raises(ValueError, match="scale=1 contradicts the scorer"):
        create_summarization_scorer(scorer=scorer, scale=1)


def test_the_legacy_metric_asks_five_questions_and_the_1x_scorer_ten() -> None:
    legacy, current = _mastra_docs_judge(), _mastra_docs_judge()
    SummarizationMetric(legacy).measure("a b c", "a b")
    create_summarization_scorer(current).run({"input": "a b c", "output": "a b"})
    assert legacy.calls("questions")[0].inputs["n"] == 5
    assert current.calls("questions")[0].inputs["n"] == 10


# ------------------------------------------------------------------------------------------ 1.x


def _agent_run(source: str, summary: str) -> dict:
    """A run shaped like the ones Mastra 1.x hands an agent's scorers."""
    return {
        "runId": "run-1",
        "input": {
            "inputMessages": [
                {"id": "1", "role": "user", "content": source, "createdAt": "2026-01-01"}
            ],
            "rememberedMessages": [],
            "systemMessages": [{"role": "system", "content": "Summarise."}],
            "taggedSystemMessages": {},
        },
        "output": [
            {"id": "2", "role": "assistant", "content": {"format": 2, "parts": []}},
            {
                "id": "3",
                "role": "assistant",
                "content": {"format": 2, "parts": [{"type": "text", "text": summary}]},
                "createdAt": "2026-01-01",
            },
        ],
    }


def test_the_1x_scorer_returns_mastras_result_shape_with_the_evidence() -> None:
    scorer = create_summarization_scorer(_mastra_docs_judge())
    assert scorer.id == "summarization-scorer"
    result = scorer.run(_agent_run(TESLA.source, TESLA.summary)).to_dict()
    assert result["score"] == 0.5
    assert result["runId"] == "run-1"
    assert result["reason"] == "The score is 0.5 because the founder is misattributed."
    assert result["preprocessStepResult"] == {
        "alignment": [
            {"claim": "Tesla was founded in 2003.", "supported": True, "reason": ""},
            {
                "claim": "Tesla was founded by Elon Musk.",
                "supported": False,
                "reason": "Founded by Eberhard and Tarpenning.",
            },
        ],
        "questions": ["Q1?", "Q2?", "Q3?", "Q4?"],
    }
    coverage = result["analyzeStepResult"]["coverage"]
    assert [c["answered"] for c in coverage] == [True, True, True, False]
    assert [c["question"] for c in coverage] == ["Q1?", "Q2?", "Q3?", "Q4?"]


def test_the_1x_scorer_reads_source_and_summary_from_agent_runs() -> None:
    judge = _mastra_docs_judge()
    create_summarization_scorer(judge).run(_agent_run("The source text.", "The summary."))
    assert judge.calls("questions")[0].inputs["text"] == "The source text."
    assert judge.calls("claims")[0].inputs["text"] == "The summary."


def test_source_and_source_extractor_replace_the_user_message() -> None:
    judge = _mastra_docs_judge()
    run = _agent_run("Please summarise the fetched document.", "The summary.")
    create_summarization_scorer(
        judge, source_extractor=lambda run_input, run_output: "The fetched document."
    ).run(run)
    create_summarization_scorer(judge, source="A fixed source.").run(run)
    assert [r.inputs["text"] for r in judge.calls("questions")] == [
        "The fetched document.",
        "A fixed source.",
    ]


@pytest.mark.parametrize(
    ("run", "field"),
    [
        (  # messages not wrapped in inputMessages, as an agent run carries them
            {
                "input": [{"role": "user", "content": "The plant closed in 1987."}],
                "output": [{"role": "assistant", "content": "The plant closed."}],
            },
            r"run\['input'\] \(a list of 1 item\(s\), roles \['user'\]\) has no user message",
        ),
        ({"input": {"question": "q"}, "output": "s"}, r"run\['input'\] \(a mapping with keys"),
        ({"input": "Source.", "output": [{"role": "user", "content": "u"}]}, r"run\['output'\]"),
        ({"input": "Source.", "output": None}, r"run\['output'\] \(None\) has no assistant"),
    ],
)
def test_a_run_shape_mastra_cannot_read_raises_naming_the_field(run: dict, field: str) -> None:
    judge = _mastra_docs_judge()
    with pytest.raises(TypeError, match=field):
        create_summarization_scorer(judge).run(run)
    assert judge.requests == []


def test_an_agent_turn_without_text_or_a_blank_user_message_scores_zero() -> None:
    judge = _mastra_docs_judge()
    scorer = create_summarization_scorer(judge)
    tool_turn = [{"role": "assistant", "content": {"format": 2, "parts": []}}]
    assert scorer.run({"input": "The source.", "output": tool_turn}).score == 0
    blank = {"inputMessages": [{"role": "user", "content": ""}]}
    result = scorer.run({"input": blank, "output": "A summary."})
    assert result.score == 0 and "source is empty" in (result.reason or "")
    assert judge.requests == []


@pytest.mark.parametrize(
    ("run_input", "expected"),
    [
        ("plain text", "plain text"),
        ({"inputMessages": [{"role": "user", "content": [{"type": "text", "text": "x"}]}]}, "x"),
        ({"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]}, "u"),
        ({"prompt": "p"}, "p"),
        (None, None),
    ],
)
def test_the_source_is_the_first_user_message(run_input: object, expected: str | None) -> None:
    assert user_message(run_input) == expected


@pytest.mark.parametrize(
    ("run_output", "expected"),
    [
        ("plain", "plain"),
        ([{"role": "assistant", "content": "a"}, {"role": "assistant", "content": "b"}], "b"),
        ([{"role": "assistant", "content": "a"}, {"role": "assistant", "content": " "}], "a"),
        ([{"role": "user", "content": "u"}], None),
        ({"text": "t"}, "t"),
    ],
)
def test_the_summary_is_the_last_assistant_text(run_output: object, expected: str | None) -> None:
    assert assistant_message(run_output) == expected


def test_the_1x_rule_caps_questions_and_rounds_the_min_times_scale() -> None:
    judge = _mastra_docs_judge()
    judge.script["questions"] = {"questions": [f"Q{i}?" for i in range(12)]}
    judge.script["answers"] = lambda request: {
        "answers": ["yes", "no", "yes"] * 3 + ["yes"] * (len(request.inputs["questions"]) - 9)
    }
    judge.script["verdicts"] = {"verdicts": [{"verdict": "yes"}, {"verdict": "yes"}]}
    result = create_summarization_scorer(judge, max_questions=10, scale=3).run(
        {"input": "a b c", "output": "a b"}
    )
    # coverage 7/10, alignment 1: round2(0.7 * 3)
    assert len(result.analyze_step_result["coverage"]) == 10
    assert result.score == 2.1


@pytest.mark.parametrize("empty", ["claims", "questions"])
def test_no_claims_or_no_questions_score_zero(empty: str) -> None:
    judge = _mastra_docs_judge()
    judge.script[empty] = {empty: []}
    result = create_summarization_scorer(judge).run({"input": "a b c", "output": "a b"})
    assert result.score == 0


def test_an_empty_agent_summary_scores_zero() -> None:
    judge = _mastra_docs_judge()
    result = create_summarization_scorer(judge).run(_agent_run("The source.", ""))
    assert result.score == 0 and judge.requests == []
    assert result.preprocess_step_result == {"alignment": [], "questions": []}


def test_a_1x_scorer_shares_a_scorer_that_agrees_with_its_options() -> None:
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="mastra", max_questions=8)
    assert create_summarization_scorer(scorer=scorer, max_questions=8).scorer is scorer
    assert create_summarization_scorer(scorer=scorer).scorer is scorer
    with pytest.raises(ValueError, match="max_questions=10 contradicts the scorer"):
        create_summarization_scorer(scorer=scorer, max_questions=10)


def test_the_0x_and_1x_faces_give_the_same_number_on_one_shared_scorer() -> None:
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="mastra")
    legacy = SummarizationMetric(scorer=scorer)
    current = create_summarization_scorer(scorer=scorer)
    for c in (TESLA, case("news-tesla-faithful")):
        expected = scorer.score(c.source, c.summary).score
        assert legacy.measure(c.source, c.summary).score == expected
        assert current.run(_agent_run(c.source, c.summary)).score == expected


def test_the_preset_names_a_bad_version_or_question_count() -> None:
    with pytest.raises(ValueError, match=r"version must be '1\.x' or '0\.x'"):
        SummarizationScorer(llm=LexicalJudge(), preset="mastra", version="2")
    with pytest.raises(ValueError, match="max_questions must be >= 1"):
        SummarizationScorer(llm=LexicalJudge(), preset="mastra", max_questions=0)
