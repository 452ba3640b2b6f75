"""Drop-in, side by side: what a migrating deepeval user writes, run with deepeval's
SummarizationMetric and with summscore's on the same compat judge server.

Written as users write it: model *names* (resolved by deepeval from ``OPENAI_API_KEY`` /
``OPENAI_BASE_URL``, which the ``openai_env`` fixture points at the server), deepeval's own
``evaluate()`` and ``assert_test``. Each test expects the same value or the same exception type.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest

pytest.importorskip("deepeval")

from deepeval import assert_test, evaluate
from deepeval.evaluate.configs import DisplayConfig
from deepeval.metrics import SummarizationMetric as Upstream
from deepeval.metrics.summarization import SummarizationTemplate as UpstreamTemplate
from deepeval.metrics.utils import copy_metrics
from deepeval.test_case import LLMTestCase, MLLMImage

from compat.corpus import case
from compat.judge_server import JudgeServer
from compat.pytest_plugin import RecordingJudgeServer
from summscore.deepeval import SummarizationMetric, SummarizationTemplate

pytestmark = pytest.mark.upstream

MODEL = "gpt-4o-mini"
# What the installed deepeval's constructor takes (3.x has no eval_mode, flaky or
# evaluation_template; summscore's metric takes them on every release).
UPSTREAM_PARAMS = frozenset(inspect.signature(Upstream.__init__).parameters)


def _case(name: str) -> LLMTestCase:
    c = case(name)
    return LLMTestCase(input=c.source, actual_output=c.summary)


def _outcome(make: Any) -> tuple[str, Any]:
    """("ok", value) or (exception type name, message)."""
    try:
        return "ok", make()
    except Exception as exc:
        return type(exc).__name__, str(exc)


def test_a_model_name_runs_in_evaluate_and_assert_test_as_upstream(openai_env: JudgeServer) -> None:
    cases = [_case("news-rates"), _case("news-tesla-misattributed")]
    result = evaluate(
        test_cases=cases[1:],
        metrics=[
            Upstream(threshold=0.5, model=MODEL),
            SummarizationMetric(threshold=0.5, model=MODEL),
        ],
        display_config=DisplayConfig(print_results=False, show_indicator=False),
    )  # async, deepeval's default: every metric is copied per test case
    assert len(result.test_results) == 1
    for row in result.test_results:
        theirs, ours = row.metrics_data
        assert theirs.error is None and ours.error is None, (theirs.error, ours.error)
        assert (ours.score, ours.success, ours.evaluation_model) == (
            theirs.score,
            theirs.success,
            theirs.evaluation_model,
        )
    for metric_class in (Upstream, SummarizationMetric):
        assert_test(cases[0], [metric_class(threshold=0.2, model=MODEL)])
        with pytest.raises(AssertionError):
            assert_test(cases[1], [metric_class(threshold=1.0, model=MODEL)])


async def test_model_attributes_and_cost_are_upstreams(openai_env: JudgeServer) -> None:
    from deepeval.models import GPTModel

    for model in (MODEL, None, GPTModel(model=MODEL)):
        theirs, ours = Upstream(model=model), SummarizationMetric(model=model)
        assert type(ours.model) is type(theirs.model)
        assert ours.evaluation_model == theirs.evaluation_model
        assert ours.using_native_model is theirs.using_native_model
        assert ours.evaluation_cost == theirs.evaluation_cost  # None before measuring
    test_case = _case("news-rates")
    await theirs.a_measure(test_case, _show_indicator=False)
    await ours.a_measure(test_case, _show_indicator=False)
    assert ours.score == theirs.score
    assert ours.evaluation_cost == pytest.approx(theirs.evaluation_cost)
    assert ours.evaluation_cost is not None and ours.evaluation_cost > 0


def test_a_multimodal_case_with_a_text_only_model_raises_deepevals_error(
    openai_env: JudgeServer,
) -> None:
    image = MLLMImage(url="https://example.com/chart.png")
    test_case = LLMTestCase(input=f"The chart {image} shows sales rose 5%.", actual_output="Up 5%.")
    outcomes = [
        _outcome(
            lambda cls=cls: cls(model="gpt-3.5-turbo").measure(test_case, _show_indicator=False)
        )
        for cls in (Upstream, SummarizationMetric)
    ]
    assert outcomes[0][0] == "ValueError"
    assert outcomes[1] == outcomes[0]
    assert openai_env.stats.requests == 0


async def test_threshold_none_scores_without_a_verdict_as_upstream(openai_env: JudgeServer) -> None:
    test_case = _case("news-fitness")
    theirs, ours = (
        Upstream(threshold=None, model=MODEL),
        SummarizationMetric(threshold=None, model=MODEL),
    )
    assert ours.threshold is theirs.threshold is None
    await ours.a_measure(test_case, _show_indicator=False)
    try:
        await theirs.a_measure(test_case, _show_indicator=False)
    except TypeError:  # deepeval 3.x compares the score with None: ours works there too
        assert ours.score is not None and ours.success is None
        return
    assert ours.score == theirs.score and ours.score is not None
    assert ours.success is theirs.success is None
    assert ours.is_successful() is theirs.is_successful()
    (copy,) = copy_metrics([ours])
    assert copy.threshold is None


@pytest.mark.parametrize(
    "kwargs",
    [
        {"eval_mode": "llm", "system_one_model": "ignored-in-llm-mode"},
        {"assessment_questions": [], "truths_extraction_limit": -3},
        {"async_mode": False, "flaky": True, "verbose_mode": False, "include_reason": False},
        {"strict_mode": True, "threshold": None, "n": 2},
    ],
    ids=lambda k: ",".join(k),
)
def test_every_constructor_argument_upstream_takes(openai_env: JudgeServer, kwargs: dict) -> None:
    kwargs = {name: value for name, value in kwargs.items() if name in UPSTREAM_PARAMS}
    if not kwargs:
        pytest.skip("this deepeval release takes none of these arguments")
    theirs = Upstream(model=MODEL, **kwargs)
    ours = SummarizationMetric(model=MODEL, **kwargs)
    for name in (
        "threshold",
        "n",
        "assessment_questions",
        "include_reason",
        "async_mode",
        "strict_mode",
        "verbose_mode",
        "truths_extraction_limit",
        "flaky",
        "eval_mode",
        "system_one_model",
        "evaluation_template",
    ):
        if hasattr(theirs, name):
            assert getattr(ours, name) == getattr(theirs, name), name
    (copy,) = copy_metrics([ours])  # what evaluate() does: the copy names the same judge
    assert copy.scorer is ours.scorer and copy.model is ours.model


def test_positional_arguments_and_bad_values_as_upstream(openai_env: JudgeServer) -> None:
    assert SummarizationMetric(0.7, 3, MODEL).n == Upstream(0.7, 3, MODEL).n == 3
    bad: list[dict[str, Any]] = [{"threshold": 0.5, "n": 3, "model": 42}]
    if "eval_mode" in UPSTREAM_PARAMS:
        bad.append({"eval_mode": "bogus"})
    for kwargs in bad:
        theirs = _outcome(lambda kwargs=kwargs: Upstream(**kwargs))
        ours = _outcome(lambda kwargs=kwargs: SummarizationMetric(**kwargs))
        assert theirs[0] != "ok" and ours[0] == theirs[0], (theirs, ours)


class FrenchQuestions(SummarizationTemplate):  # type: ignore[misc, valid-type]
    """A user's template: deepeval's questions prompt with a line of their own."""

    @staticmethod
    def generate_questions(text: str, n: int) -> str:
        return UpstreamTemplate.generate_questions(text=text, n=n) + "\nAsk in plain words."

    @staticmethod
    def generate_reason(score: str, **kwargs: Any) -> str:
        return UpstreamTemplate.generate_reason(score=score, **kwargs) + "\nBe brief.\n"


async def test_a_custom_evaluation_template_writes_the_prompts_as_upstream(
    recording_judge_server: RecordingJudgeServer,
) -> None:
    assert SummarizationTemplate is UpstreamTemplate
    if "evaluation_template" not in UPSTREAM_PARAMS:
        pytest.skip("deepeval 3.x has no evaluation_template")
    server = recording_judge_server
    test_case = _case("news-tesla-misattributed")
    sent = []
    metrics = []
    for cls in (Upstream, SummarizationMetric):
        server.prompts.clear()
        metric = cls(model=MODEL, evaluation_template=FrenchQuestions)
        await metric.a_measure(test_case, _show_indicator=False)
        sent.append(sorted(server.prompts))
        metrics.append(metric)
    theirs, ours = metrics
    assert sent[1] == sent[0]
    assert sum("Ask in plain words." in p for p in sent[1]) == 1
    assert sum("Be brief." in p for p in sent[1]) == 1
    assert (ours.score, ours.reason) == (theirs.score, theirs.reason)
    assert ours.scorer.prompt_set.endswith("+FrenchQuestions")
    (copy,) = copy_metrics([ours])  # evaluate()'s copies keep the template and the scorer
    assert copy.evaluation_template is FrenchQuestions and copy.scorer is ours.scorer


def test_timeout_and_max_concurrency_survive_evaluate_copies(openai_env: JudgeServer) -> None:
    metric = SummarizationMetric(model=MODEL, timeout=300, max_concurrency=1)
    for copy in copy_metrics([metric, metric]):
        assert (copy.timeout, copy.max_concurrency) == (300, 1)
        assert copy.scorer is metric.scorer and copy.model is metric.model
    assert metric.scorer.timeout == 300 and metric.scorer.max_concurrency == 1
    # That the limit holds across copies: tests/test_deepeval_face.py, with a judge that counts.
