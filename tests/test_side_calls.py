"""A side call that fails (the reason) costs no score; every repair of a judge's list is recorded."""

from __future__ import annotations

import math

import pytest

from summscore import JudgeError, SummarizationScorer, TransientJudgeError

from .fakes import FITNESS_SOURCE, FITNESS_SUMMARY, ScriptedJudge, Seq, answers_for, ragas_script
from .test_scorer import deepeval_script, mastra_script


def scorer(script: dict, preset: str, **options) -> tuple[SummarizationScorer, ScriptedJudge]:
    judge = ScriptedJudge(script)
    options.setdefault("prompts", "own")
    return (
        SummarizationScorer(
            llm=judge, preset=preset, max_retries=2, backoff=0, max_backoff=0, **options
        ),
        judge,
    )


@pytest.mark.parametrize(
    "failure",
    [TransientJudgeError("HTTP 503: overloaded"), JudgeError("HTTP 400: bad request")],
    ids=["transient", "permanent"],
)
def test_deepeval_reason_failure_keeps_score_and_components_and_warns(failure) -> None:
    good, _ = scorer(deepeval_script(), "deepeval", include_reason=True)
    expected = good.score(FITNESS_SOURCE, "The app tracks fitness and costs $5.")
    s, judge = scorer(deepeval_script(reason=failure), "deepeval", include_reason=True)
    result = s.score(FITNESS_SOURCE, "The app tracks fitness and costs $5.")
    assert result.ok and result.error is None
    assert result.score == expected.score
    assert result.components() == expected.components()
    assert result.claims == expected.claims and result.assessment == expected.assessment
    assert result.reason is None
    assert [w for w in result.warnings if w.startswith("reason: the judge failed")]
    assert "score kept" in result.warnings[-1]
    retried = isinstance(failure, TransientJudgeError)
    assert len(judge.calls("reason")) == (3 if retried else 1)


def test_deepeval_reason_with_an_unusable_reply_is_a_warning_too() -> None:
    s, _ = scorer(deepeval_script(reason="not json at all"), "deepeval")
    result = s.score(FITNESS_SOURCE, "The app tracks fitness.")
    assert result.ok and result.reason is None
    assert any(w.startswith("reason: the judge failed") for w in result.warnings)


def test_mastra_reason_failure_keeps_the_score() -> None:
    s, _ = scorer(mastra_script(reason=JudgeError("HTTP 400")), "mastra")
    result = s.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.ok and result.score == pytest.approx(0.6) and result.reason is None
    assert any(w.startswith("reason: the judge failed") for w in result.warnings)


def test_a_failure_on_a_scoring_call_still_fails_the_row() -> None:
    s, _ = scorer(deepeval_script(claims=JudgeError("HTTP 400")), "deepeval")
    with pytest.raises(JudgeError, match="HTTP 400"):
        s.score(FITNESS_SOURCE, "The app tracks fitness.")
    [row] = s.score_many([{"source": FITNESS_SOURCE, "summary": "The app tracks fitness."}])
    assert not row.ok and math.isnan(row.score) and "HTTP 400" in (row.error or "")


def test_deepeval_face_reports_the_score_when_only_the_reason_failed() -> None:
    deepeval = pytest.importorskip("summscore.deepeval")
    from deepeval.test_case import LLMTestCase

    s, _ = scorer(deepeval_script(reason=JudgeError("HTTP 400")), "deepeval")
    metric = deepeval.SummarizationMetric(scorer=s)
    score = metric.measure(
        LLMTestCase(input=FITNESS_SOURCE, actual_output="The app tracks fitness and costs $5."),
        _show_indicator=False,
    )
    assert not math.isnan(score) and metric.score == score
    assert metric.error is None and metric.reason is None
    assert set(metric.score_breakdown) == {"Alignment", "Coverage"}
    assert any(w.startswith("reason:") for w in metric.last_result.warnings)


# ------------------------------------------------------------------- ragas-rule list repairs


@pytest.mark.parametrize(("given", "questions"), [(6, 4), (3, 4), (1, 4)])
def test_every_ragas_answer_count_repair_is_recorded_on_the_result(given, questions) -> None:
    script = ragas_script(questions) | {"answers": {"answers": ["1"] * given}}
    s, judge = scorer(script, "ragas")
    result = s.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.ok
    assert len(result.questions) == min(given, questions)
    assert any(
        f"{given} answers for {questions} questions" in w and "scored the" in w
        for w in result.warnings
    ), result.warnings
    assert len(judge.calls("answers")) == 2  # asked again once before repairing


def test_a_ragas_answer_count_fixed_on_the_second_ask_needs_no_repair() -> None:
    script = ragas_script(4) | {
        "answers": Seq([{"answers": ["1"] * 6}, {"answers": ["1", "0", "1", "0"]}])
    }
    s, judge = scorer(script, "ragas")
    result = s.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.qa_score == 0.5 and result.warnings == []
    assert len(judge.calls("answers")) == 2


def test_deepeval_answer_repairs_are_recorded_too() -> None:
    def answers(request):
        reply = answers_for(request, lambda i, q: True)
        if request.inputs["text"] != FITNESS_SOURCE:
            reply["answers"] = reply["answers"] + ["yes", "no"]  # more answers than questions
        return reply

    s, _ = scorer(deepeval_script(answers=answers), "deepeval")
    result = s.score(FITNESS_SOURCE, "The app tracks fitness.")
    assert result.ok
    assert any("5 answers for 3 questions" in w for w in result.warnings), result.warnings
