"""SummarizationScorer: presets end to end through a scripted judge, and what it rejects when
built or called. The source cache, many cases and results: tests/test_scorer_many.py."""

from __future__ import annotations

import math

import pytest

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge

from .fakes import (
    FITNESS_SOURCE,
    FITNESS_SUMMARY,
    Seq,
    answers_for,
    ragas_script,
    scorer,
)

# ------------------------------------------------------------------------------------- ragas


def test_ragas_preset_reproduces_the_docs_example_exactly() -> None:
    s, judge = scorer(ragas_script(8, 7))
    result = s.score([FITNESS_SOURCE], FITNESS_SUMMARY)
    assert result.score == 0.6423387096775146
    assert result.qa_score == 7 / 8
    assert result.conciseness_score == pytest.approx(0.4096774193550291)
    assert result.alignment_score is None and result.coverage_score is None
    assert [c.task for c in judge.requests] == ["keyphrases", "questions", "answers"]
    assert result.usage.judge_calls == 3
    assert result.missed_questions == ["Question 7?"]
    assert "7 of 8" in (result.reason or "")


def test_a_list_of_contexts_is_joined_with_newlines() -> None:
    s, judge = scorer(ragas_script())
    s.score(["first context", "second context"], "a summary")
    assert judge.calls("keyphrases")[0].inputs["text"] == "first context\nsecond context"


def test_without_length_penalty_the_score_is_qa_and_conciseness_is_not_computed() -> None:
    s, _ = scorer(ragas_script(4, 3), length_penalty=False, coeff=0.9)
    result = s.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.score == 0.75
    assert result.conciseness_score is None


@pytest.mark.parametrize("coeff", [-0.1, 1.5])
def test_coeff_outside_zero_one_is_rejected_with_ragas_message(coeff: float) -> None:
    with pytest.raises(ValueError, match=r"Coefficient must be between 0\.0 and 1\.0"):
        SummarizationScorer(llm=LexicalJudge(), preset="ragas", coeff=coeff)


def test_no_keyphrases_is_a_warning_and_scoring_continues() -> None:
    script = ragas_script(2, 2) | {"keyphrases": {"keyphrases": []}}
    s, judge = scorer(script)
    result = s.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.ok
    assert judge.calls("questions")[0].inputs["keyphrases"] == []
    assert any("no keyphrases" in w for w in result.warnings)


def test_no_questions_gives_nan_with_an_error_and_spends_no_answer_call() -> None:
    s, judge = scorer(ragas_script() | {"questions": {"questions": []}})
    result = s.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert math.isnan(result.score)
    assert "no questions" in (result.error or "")
    assert judge.calls("answers") == []
    assert not result.ok


def test_no_answers_is_asked_again_then_gives_nan_not_zero_division() -> None:
    s, judge = scorer(ragas_script() | {"answers": {"answers": []}})
    result = s.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert math.isnan(result.score)
    assert "no answers" in (result.error or "")
    assert len(judge.calls("answers")) == 2


def test_too_few_answers_are_asked_again_with_feedback() -> None:
    script = ragas_script(4) | {
        "answers": Seq([{"answers": ["1", "1"]}, {"answers": ["1", "1", "0", "0"]}])
    }
    s, judge = scorer(script)
    result = s.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.qa_score == 0.5
    assert result.warnings == []
    second = judge.calls("answers")[1].prompt
    assert "had 2 entries but there are 4 questions" in second


def test_still_too_few_answers_scores_what_was_judged_and_warns() -> None:
    s, judge = scorer(ragas_script(4) | {"answers": {"answers": ["1", "0", "1"]}})
    result = s.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.qa_score == pytest.approx(2 / 3)
    assert len(result.questions) == 3
    assert any("3 answers for 4 questions" in w for w in result.warnings)
    assert len(judge.calls("answers")) == 2


def test_given_questions_replace_keyphrase_generation() -> None:
    s, judge = scorer(ragas_script(2, 1))
    result = s.score(FITNESS_SOURCE, FITNESS_SUMMARY, assessment_questions=["Q1?", "Q2?"])
    assert [r.task for r in judge.requests] == ["answers"]
    assert [q.question for q in result.questions] == ["Q1?", "Q2?"]


# ---------------------------------------------------------------------------------- deepeval


def deepeval_script(**overrides) -> dict:
    script = {
        "truths": {"truths": ["The app tracks fitness.", "It logs meals."]},
        "claims": {"claims": ["The app tracks fitness.", "The app costs $5.", "It is blue."]},
        "questions": {"questions": ["Does it track fitness?", "Does it log meals?", "Is it free?"]},
        "answers": lambda r: answers_for(
            r, lambda i, q: i == 0 or r.inputs["text"] == FITNESS_SOURCE
        ),
        "verdicts": {
            "verdicts": [
                {"verdict": "yes"},
                {"verdict": "no", "reason": "price"},
                {"verdict": "idk", "reason": "colour"},
            ]
        },
        "reason": {"reason": "The score is 0.33 because ..."},
    }
    script.update(overrides)
    return script


def test_deepeval_preset_is_min_of_alignment_and_coverage_with_seven_calls() -> None:
    s, judge = scorer(deepeval_script(), "deepeval")
    result = s.score(FITNESS_SOURCE, "The app tracks fitness and costs $5.")
    assert result.alignment_score == pytest.approx(1 / 3)
    assert result.coverage_score == pytest.approx(1 / 3)
    assert result.score == pytest.approx(1 / 3)
    assert result.qa_score is None and result.conciseness_score is None
    assert sorted(r.task for r in judge.requests) == sorted(
        ["truths", "claims", "questions", "answers", "answers", "verdicts", "reason"]
    )
    assert result.reason == "The score is 0.33 because ..."
    assert [c.verdict for c in result.claims] == ["yes", "no", "borderline"]
    reason_inputs = judge.calls("reason")[0].inputs
    assert reason_inputs["contradictions"] == ["price"]
    assert reason_inputs["redundancies"] == ["colour"]
    assert reason_inputs["questions"] == ["Does it log meals?", "Is it free?"]
    assert result.threshold == 0.5 and result.success is False


def test_deepeval_given_questions_are_used_as_they_are() -> None:
    s, judge = scorer(deepeval_script(), "deepeval")
    result = s.score(FITNESS_SOURCE, "summary", assessment_questions=["Q1?", "Q2?"])
    assert judge.calls("questions") == []
    assert [a.question for a in result.assessment] == ["Q1?", "Q2?"]
    assert result.coverage_score == 0.5


def test_deepeval_without_reason_spends_no_reason_call() -> None:
    s, judge = scorer(deepeval_script(), "deepeval", include_reason=False)
    result = s.score(FITNESS_SOURCE, "summary")
    assert judge.calls("reason") == []
    assert result.reason and "min(alignment" in result.reason


def test_deepeval_strict_mode_sets_threshold_one_and_zeroes_components() -> None:
    s, _ = scorer(deepeval_script(), "deepeval", strict_mode=True, threshold=0.2)
    result = s.score(FITNESS_SOURCE, "summary")
    assert result.threshold == 1
    assert result.alignment_score == 0 and result.coverage_score == 0 and result.score == 0


def test_deepeval_no_claims_gives_zero_alignment_without_a_verdict_call() -> None:
    s, judge = scorer(deepeval_script(claims={"claims": []}), "deepeval")
    result = s.score(FITNESS_SOURCE, "summary")
    assert result.alignment_score == 0 and result.score == 0
    assert judge.calls("verdicts") == []


def test_deepeval_truths_limit_reaches_the_judge_and_negative_is_clamped() -> None:
    s, judge = scorer(deepeval_script(), "deepeval", truths_extraction_limit=-3)
    s.score(FITNESS_SOURCE, "summary")
    assert judge.calls("truths")[0].inputs["limit"] == 0
    assert s.options["truths_extraction_limit"] == 0


def test_deepeval_mismatched_answer_lengths_are_scored_not_raised() -> None:
    answers = lambda r: {"answers": ["yes"] * (3 if r.inputs["text"] == FITNESS_SOURCE else 2)}  # noqa: E731
    s, _ = scorer(deepeval_script(answers=answers), "deepeval")
    result = s.score(FITNESS_SOURCE, "summary")
    assert result.coverage_score == 1.0
    assert any("2 of 3 assessment questions" in w for w in result.warnings)


# ------------------------------------------------------------------------------------ mastra


def mastra_script(**overrides) -> dict:
    script = {
        "claims": {"claims": ["a", "b", "c"]},
        "verdicts": {"verdicts": [{"verdict": "yes"}, {"verdict": "unsure"}, {"verdict": " YES "}]},
        "questions": {"questions": ["q1", "q2", "q3", "q4", "q5"]},
        "answers": {"answers": ["yes", "yes", "no", "yes", "no"]},
        "reason": {"reason": "The score is 0.6 because ..."},
    }
    script.update(overrides)
    return script


def test_mastra_preset_rounds_each_component_and_takes_the_min() -> None:
    s, judge = scorer(mastra_script(), "mastra")
    result = s.score(FITNESS_SOURCE, "summary")
    assert result.alignment_score == 0.67
    assert result.coverage_score == 0.6
    assert result.score == 0.6
    assert sorted(r.task for r in judge.requests) == sorted(
        ["questions", "claims", "verdicts", "answers", "reason"]
    )
    assert judge.calls("questions")[0].inputs["n"] == 10
    assert all(a.source_answer is None for a in result.assessment)


def test_mastra_scale_multiplies_before_rounding() -> None:
    s, _ = scorer(mastra_script(), "mastra", scale=10)
    result = s.score(FITNESS_SOURCE, "summary")
    assert result.alignment_score == 6.67 and result.coverage_score == 6.0 and result.score == 6.0


def test_mastra_no_verdicts_gives_zero() -> None:
    s, _ = scorer(mastra_script(claims={"claims": []}), "mastra", include_reason=False)
    assert s.score(FITNESS_SOURCE, "summary").score == 0


# ------------------------------------------------------------------------------ construction


def test_unknown_options_and_presets_are_named() -> None:
    with pytest.raises(TypeError, match=r"unknown option\(s\) for the ragas preset: threshold"):
        SummarizationScorer(llm=LexicalJudge(), preset="ragas", threshold=0.5)
    with pytest.raises(ValueError, match="preset must be one of ragas, deepeval, mastra"):
        SummarizationScorer(llm=LexicalJudge(), preset="bleu")
    with pytest.raises(TypeError, match="llm is required"):
        SummarizationScorer(llm=None)
    with pytest.raises(ValueError, match="max_concurrency"):
        SummarizationScorer(llm=LexicalJudge(), max_concurrency=0)
    with pytest.raises(ValueError, match="no Python upstream"):
        SummarizationScorer(llm=LexicalJudge(), preset="mastra", prompts="upstream")
    with pytest.raises(TypeError, match="only used with an OpenAI client"):
        SummarizationScorer(llm=LexicalJudge(), temperature=0.2)


@pytest.mark.parametrize(
    ("source", "summary", "error", "field"),
    [
        (None, "s", TypeError, "source is required"),
        ("", "s", ValueError, "source cannot be empty"),
        ("   \n", "s", ValueError, "source cannot be empty"),
        ([], "s", ValueError, "source cannot be empty"),
        (["  ", ""], "s", ValueError, "source cannot be empty"),
        (["ok", 3], "s", TypeError, r"source\[1\] must be a string"),
        (42, "s", TypeError, "source must be a string or a list"),
        (b"bytes", "s", TypeError, "source must be text"),
        ("text", None, TypeError, "summary is required"),
        ("text", "", ValueError, "summary cannot be empty"),
        ("text", " \t", ValueError, "summary cannot be empty"),
        ("text", ["a"], TypeError, "summary must be a string"),
    ],
)
def test_bad_input_raises_naming_the_field(source, summary, error, field) -> None:
    s, judge = scorer(ragas_script())
    with pytest.raises(error, match=field):
        s.score(source, summary)
    assert judge.requests == []


def test_bad_assessment_questions_are_named() -> None:
    s, _ = scorer(ragas_script())
    with pytest.raises(TypeError, match="assessment_questions must be a list"):
        s.score("text", "summary", assessment_questions="Q?")
    with pytest.raises(ValueError, match=r"assessment_questions\[1\] cannot be empty"):
        s.score("text", "summary", assessment_questions=["Q?", " "])
