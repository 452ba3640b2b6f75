"""summscore.deepeval: drop-in parity with deepeval's SummarizationMetric, and what is better."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import pytest

pytest.importorskip("deepeval")

from compat.corpus import CASES, case
from deepeval import assert_test, evaluate
from deepeval.evaluate.configs import AsyncConfig, DisplayConfig
from deepeval.metrics import SummarizationMetric as UpstreamMetric
from deepeval.metrics.utils import copy_metrics
from deepeval.test_case import LLMTestCase

from summscore import SummarizationScorer
from summscore.deepeval import SummarizationMetric
from summscore.judges import LexicalJudge

from .framework_fakes import Oracle, deepeval_llm

pytestmark = pytest.mark.upstream

PARITY_CASES = [c for c in CASES if c.kind != "injection"]
CONFIGS = [
    {},
    {"n": 3},
    {"strict_mode": True},
    {"truths_extraction_limit": 2},
    {"include_reason": False},
    {"threshold": 0.7, "truths_extraction_limit": 1, "n": 2},
]


def _test_case(c) -> LLMTestCase:  # type: ignore[no-untyped-def]
    return LLMTestCase(input=c.source, actual_output=c.summary)


async def _both(config: dict, c, *, structured: bool = True, questions: bool = False):  # type: ignore[no-untyped-def]
    extra = {"assessment_questions": list(c.assessment_questions)} if questions else {}
    theirs, ours = Oracle(), Oracle()
    upstream = UpstreamMetric(model=deepeval_llm(theirs, structured=structured), **config, **extra)
    mine = SummarizationMetric(model=deepeval_llm(ours, structured=structured), **config, **extra)
    await upstream.a_measure(_test_case(c), _show_indicator=False)
    await mine.a_measure(_test_case(c), _show_indicator=False)
    return (upstream, theirs), (mine, ours)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: ",".join(c) or "defaults")
async def test_same_prompts_score_and_breakdown_as_upstream_on_the_corpus(config: dict) -> None:
    for c in PARITY_CASES:
        (upstream, theirs), (mine, ours) = await _both(config, c)
        assert sorted(ours.prompts) == sorted(theirs.prompts), c.id
        assert mine.score == upstream.score, c.id
        assert mine.score_breakdown == upstream.score_breakdown, c.id
        assert mine.reason == upstream.reason, c.id
        assert mine.success == upstream.success, c.id


async def test_parity_with_given_assessment_questions_and_a_text_only_model() -> None:
    c = case("deepeval-doc-given-questions")
    for structured in (True, False):
        (upstream, theirs), (mine, ours) = await _both({}, c, structured=structured, questions=True)
        assert sorted(ours.prompts) == sorted(theirs.prompts)
        assert (mine.score, mine.score_breakdown) == (upstream.score, upstream.score_breakdown)
        assert not any("closed-ended questions" in p for p in ours.prompts)  # none generated


async def test_seven_judge_calls_per_case_with_the_defaults_like_upstream() -> None:
    (_, theirs), (mine, ours) = await _both({}, case("news-rates"))
    assert len(ours.prompts) == len(theirs.prompts) == 7
    assert mine.last_result is not None and mine.last_result.usage.judge_calls == 7


async def test_generated_questions_belong_to_each_test_case() -> None:
    first, second = case("news-rates"), case("science-crispr")
    theirs, ours = Oracle(), Oracle()
    upstream = UpstreamMetric(model=deepeval_llm(theirs))
    mine = SummarizationMetric(model=deepeval_llm(ours))
    for metric in (upstream, mine):
        await metric.a_measure(_test_case(first), _show_indicator=False)
        await metric.a_measure(_test_case(second), _show_indicator=False)
    asked = [p for p in ours.prompts if "closed-ended questions" in p]
    assert len(asked) == 2 and "CRISPR" in asked[1]  # questions made from the second source
    assert len([p for p in theirs.prompts if "closed-ended questions" in p]) == 1  # upstream bug
    assert mine.assessment_questions is None
    questions = [a.question for a in mine.last_result.assessment]  # type: ignore[union-attr]
    assert any("patients" in q or "Oslo" in q for q in questions)


def test_measure_works_inside_a_running_event_loop() -> None:
    c = case("news-fitness")

    async def inside() -> float:
        return SummarizationMetric(model=deepeval_llm(Oracle())).measure(
            _test_case(c), _show_indicator=False
        )

    score = asyncio.run(inside())
    assert 0 <= score <= 1


def test_measure_sets_every_deepeval_attribute() -> None:
    c = case("news-tesla-misattributed")
    metric = SummarizationMetric(model=deepeval_llm(Oracle()), threshold=0.6, verbose_mode=False)
    score = metric.measure(_test_case(c), _show_indicator=False)
    assert score == metric.score == min(metric.score_breakdown.values())
    assert set(metric.score_breakdown) == {"Alignment", "Coverage"}
    assert metric.success is (score >= 0.6) and metric.is_successful() is metric.success
    assert metric.reason and metric.reason.startswith("The score is")
    assert "Truths (limit=None)" in metric.verbose_logs
    assert metric.evaluation_model == "oracle"
    assert metric.__name__ == "Summarization"
    assert metric.error is None


def test_cost_reported_by_the_model_lands_in_evaluation_cost() -> None:
    from deepeval.models import DeepEvalBaseLLM

    inner = deepeval_llm(Oracle())

    class Priced(DeepEvalBaseLLM):
        def __init__(self) -> None:
            super().__init__("priced")

        def load_model(self) -> object:
            return self

        def get_model_name(self) -> str:
            return "priced"

        def generate(self, prompt: str, schema: type | None = None) -> object:
            return inner.generate(prompt, schema), 0.001

        async def a_generate(self, prompt: str, schema: type | None = None) -> object:
            return self.generate(prompt, schema)

    metric = SummarizationMetric(model=Priced())
    metric.measure(_test_case(case("news-rates")), _show_indicator=False)
    assert metric.evaluation_cost == pytest.approx(0.007)


def test_evaluate_and_assert_test_copy_the_whole_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # deepeval writes its run cache to the working directory
    (tmp_path / ".deepeval").mkdir()  # deepeval 3.3 does not create it
    oracle = Oracle()
    metric = SummarizationMetric(
        model=deepeval_llm(oracle), threshold=0.1, n=3, truths_extraction_limit=2
    )
    (copy,) = copy_metrics([metric])
    for name in ("threshold", "n", "truths_extraction_limit", "include_reason", "strict_mode"):
        assert getattr(copy, name) == getattr(metric, name), name
    assert copy.scorer is metric.scorer  # the source cache is shared by the copies

    # Two summaries of one source (the Tesla cases) share its source-side judge calls.
    cases = [_test_case(c) for c in PARITY_CASES[:4]]
    assert len({tc.input for tc in cases}) == 3
    result = evaluate(
        test_cases=cases,
        metrics=[metric],
        async_config=AsyncConfig(run_async=True),
        display_config=DisplayConfig(print_results=False, show_indicator=False),
    )
    rows = result.test_results
    assert len(rows) == 4
    for row in rows:
        (data,) = row.metrics_data
        assert data.name == "Summarization" and data.score is not None and data.error is None
    generated = [p for p in oracle.prompts if "closed-ended questions" in p]
    assert len(generated) == 3 and all("3 closed-ended" in p for p in generated)

    assert_test(cases[0], [SummarizationMetric(model=deepeval_llm(Oracle()), threshold=0.0)])
    with pytest.raises(AssertionError):
        assert_test(cases[0], [SummarizationMetric(model=deepeval_llm(Oracle()), threshold=1.0)])


def test_a_judge_failure_sets_error_and_raises() -> None:
    def broken(task: str, inputs: dict) -> dict | None:
        raise RuntimeError("judge exploded")

    metric = SummarizationMetric(model=deepeval_llm(Oracle(broken)))
    with pytest.raises(Exception, match="judge exploded"):
        metric.measure(_test_case(case("news-rates")), _show_indicator=False)
    assert metric.error and "judge exploded" in metric.error
    assert metric.is_successful() is False


def test_a_shared_scorer_gives_the_same_score_as_the_other_faces() -> None:
    pytest.importorskip("ragas")
    from summscore.ragas import SummaryScore

    c = case("vaccine-faithful")
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="ragas")
    metric = SummarizationMetric(scorer=scorer)
    metric.measure(_test_case(c), _show_indicator=False)
    ragas_value = SummaryScore(scorer=scorer).score(list(c.contexts), c.summary).value
    assert metric.score == ragas_value
    assert set(metric.score_breakdown) == {"QA", "Conciseness"}
    assert metric.threshold == 0.5 and metric.success == (metric.score >= 0.5)


def test_a_shared_scorer_must_agree_with_the_options_given_beside_it() -> None:
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="deepeval", n=3)
    assert SummarizationMetric(scorer=scorer, n=3).scorer is scorer
    with pytest.raises(ValueError, match="n=5 contradicts the scorer, which uses n=3"):
        SummarizationMetric(scorer=scorer)
    with pytest.raises(ValueError, match=r"threshold=0\.8 contradicts"):
        SummarizationMetric(scorer=scorer, n=3, threshold=0.8)
    with pytest.raises(ValueError, match="different judges"):
        SummarizationMetric(model=LexicalJudge(), scorer=scorer, n=3)


def test_bad_test_cases_are_rejected_naming_the_field() -> None:
    from deepeval.errors import MissingTestCaseParamsError

    metric = SummarizationMetric(model=LexicalJudge())
    # deepeval itself rejects an empty actual_output (since 4.x); summscore rejects it otherwise.
    with pytest.raises((MissingTestCaseParamsError, ValueError), match="actual_output"):
        metric.measure(LLMTestCase(input="source text", actual_output=""), _show_indicator=False)
    with pytest.raises(ValueError, match="actual_output cannot be empty"):
        metric.measure(LLMTestCase(input="source text", actual_output="   "), _show_indicator=False)
    with pytest.raises(ValueError, match="input cannot be empty"):
        metric.measure(LLMTestCase(input=" ", actual_output="a summary"), _show_indicator=False)
    assert not math.isnan(
        metric.measure(
            LLMTestCase(input="Rain fell.", actual_output="It rained."), _show_indicator=False
        )
    )


class _Slow:
    """A summscore judge that answers like LexicalJudge after a pause, counting calls in flight."""

    reads_prompts = False
    name = "slow-lexical"

    def __init__(self) -> None:
        self.inner = LexicalJudge()
        self.in_flight = self.peak = 0

    async def complete(self, request):  # type: ignore[no-untyped-def]
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(0.01)
            return await self.inner.complete(request)
        finally:
            self.in_flight -= 1


@pytest.mark.parametrize("limit", [1, None])
async def test_max_concurrency_bounds_the_test_cases_judged_by_all_copies(
    limit: int | None,
) -> None:
    judge = _Slow()
    metric = SummarizationMetric(model=judge, max_concurrency=limit)
    copies = copy_metrics([metric] * 4)
    assert all(c.scorer is metric.scorer and c.max_concurrency == limit for c in copies)
    cases = [_test_case(c) for c in PARITY_CASES[:4]]
    await asyncio.gather(*(m.a_measure(tc, _show_indicator=False) for m, tc in zip(copies, cases)))
    if limit == 1:  # one case at a time: at most its three parallel calls
        assert judge.peak <= 3
    else:  # all four cases start together, two calls each
        assert judge.peak >= 8


def test_timeout_and_max_concurrency_beside_a_shared_scorer_must_agree() -> None:
    scorer = SummarizationScorer(
        llm=LexicalJudge(), preset="deepeval", timeout=30, max_concurrency=8
    )
    assert SummarizationMetric(scorer=scorer, timeout=30, max_concurrency=8).scorer is scorer
    with pytest.raises(ValueError, match="timeout=60 contradicts the scorer"):
        SummarizationMetric(scorer=scorer, timeout=60)
    with pytest.raises(ValueError, match="max_concurrency must be a positive integer"):
        SummarizationMetric(model=LexicalJudge(), max_concurrency=0)


def test_copies_of_a_metric_with_its_own_template_and_judge_keep_both() -> None:
    from summscore.deepeval import SummarizationTemplate

    class Terse(SummarizationTemplate):  # type: ignore[misc, valid-type]
        pass

    metric = SummarizationMetric(model=LexicalJudge(), evaluation_template=Terse)
    (copy,) = copy_metrics([metric])
    assert copy.evaluation_template is Terse and copy.scorer is metric.scorer
    other = SummarizationScorer(llm=LexicalJudge(), preset="deepeval")
    with pytest.raises(ValueError, match="evaluation_template='Terse' is not the scorer's"):
        SummarizationMetric(scorer=other, evaluation_template=Terse)


def test_deepevals_system_one_judge_is_refused_or_replaced_by_the_llm(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ValueError, match=r"eval_mode='hybrid'.*not supported"):
        SummarizationMetric(model=LexicalJudge(), eval_mode="hybrid")
    monkeypatch.setenv("DEEPEVAL_EVAL_MODE", "system_one")
    with pytest.warns(UserWarning, match="DEEPEVAL_EVAL_MODE=system_one"):
        metric = SummarizationMetric(model=LexicalJudge())
    assert str(metric.eval_mode) == "llm"


def test_a_multimodal_case_with_a_summscore_judge_names_the_judge() -> None:
    from deepeval.test_case import MLLMImage

    image = MLLMImage(url="https://example.com/chart.png")
    test_case = LLMTestCase(input=f"The chart {image} shows sales up 5%.", actual_output="Up 5%.")
    with pytest.raises(ValueError, match=r"multimodal .*\(lexical\) reads text only"):
        SummarizationMetric(model=LexicalJudge()).measure(test_case, _show_indicator=False)
