"""DeepEval face: ``SummarizationMetric`` for ``measure``, ``evaluate()`` and ``assert_test``.

A drop-in replacement for ``deepeval.metrics.SummarizationMetric``: same constructor arguments, and
with the same judge the same prompts and numbers. It also takes ``scorer=`` to share one
:class:`summscore.SummarizationScorer` with other frameworks. The test case's ``input`` is the
source and ``actual_output`` the summary.

Differences from upstream, on purpose:

* ``measure()`` works inside a running event loop.
* Generated assessment questions belong to the test case they were generated for (upstream stores
  the first case's questions on the metric and reuses them for every later case).
* Every constructor argument is kept under its own name and the scorer is shared, so the copies
  ``deepeval.evaluate()`` makes keep the whole configuration and the source cache.
* Judge replies of the wrong shape are asked again instead of failing the test case.
* deepeval's experimental ``eval_mode`` / ``system_one_model`` and custom
  ``evaluation_template`` are not supported.
"""

from __future__ import annotations

import contextlib
from typing import Any, ClassVar

from ._adapters import check_scorer
from ._inputs import FieldNames
from ._runner import run_sync
from .errors import MissingExtraError, SummscoreError
from .presets.deepeval import DeepEvalOptions
from .result import SummaryResult
from .scorer import SummarizationScorer

try:
    from deepeval.metrics import BaseMetric
    from deepeval.metrics.utils import construct_verbose_logs
    from deepeval.test_case import LLMTestCase
    from deepeval.utils import prettify_list
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("deepeval", "deepeval", "summscore.deepeval", exc) from exc

try:
    from deepeval.metrics.utils import prepare_measure
except ImportError:  # pragma: no cover - deepeval < 4
    prepare_measure = None  # type: ignore[assignment]

try:
    from deepeval.test_case import SingleTurnParams as _Params
except ImportError:  # pragma: no cover - deepeval < 4
    from deepeval.test_case import LLMTestCaseParams as _Params  # type: ignore[no-redef]

try:
    from deepeval.metrics.indicator import metric_progress_indicator
except ImportError:  # pragma: no cover
    metric_progress_indicator = None  # type: ignore[assignment]

__all__ = ["SummarizationMetric"]

_FIELDS = FieldNames(source="input", summary="actual_output", questions="assessment_questions")
_BREAKDOWN_NAMES = {
    "alignment_score": "Alignment",
    "coverage_score": "Coverage",
    "qa_score": "QA",
    "conciseness_score": "Conciseness",
}
_UPSTREAM_DEFAULTS: dict[str, Any] = {
    "n": 5,
    "strict_mode": False,
    "truths_extraction_limit": None,
    "include_reason": True,
}


class SummarizationMetric(BaseMetric):
    """deepeval's Summarization metric: ``score = min(alignment, coverage)`` by default.

    ``model`` is a deepeval model object or name, as upstream, or any judge
    :class:`summscore.SummarizationScorer` accepts; ``scorer=`` shares an existing scorer (whose
    preset then decides the number, and whose components fill ``score_breakdown``).
    """

    _required_params: ClassVar[list[Any]] = [_Params.INPUT, _Params.ACTUAL_OUTPUT]  # type: ignore[assignment]

    def __init__(
        self,
        threshold: float = 0.5,
        n: int = 5,
        model: Any = None,
        assessment_questions: list[str] | None = None,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        truths_extraction_limit: int | None = None,
        flaky: bool = False,
        scorer: SummarizationScorer | None = None,
    ) -> None:
        # deepeval's own validation and normalisation (negative limits become 0).
        options = DeepEvalOptions(
            threshold=threshold,
            strict_mode=strict_mode,
            truths_extraction_limit=truths_extraction_limit,
            include_reason=include_reason,
            n=n,
        )
        self.threshold = options.effective_threshold
        self.n = n
        self.include_reason = include_reason
        self.async_mode = async_mode
        self.strict_mode = strict_mode
        self.verbose_mode = verbose_mode
        self.truths_extraction_limit = options.truths_extraction_limit
        self.flaky = flaky
        self.assessment_questions = assessment_questions or None
        if scorer is None:
            scorer = SummarizationScorer(
                llm=_deepeval_judge(model, async_mode),
                preset="deepeval",
                **options.as_dict(),
            )
        else:
            given = {
                "n": n,
                "strict_mode": strict_mode,
                "truths_extraction_limit": self.truths_extraction_limit,
                "include_reason": include_reason,
            }
            checked: dict[str, tuple[Any, Any]] = {
                k: (v, _UPSTREAM_DEFAULTS[k]) for k, v in given.items()
            }
            if scorer.threshold is not None:
                checked["threshold"] = (self.threshold, scorer.threshold)
            check_scorer("SummarizationMetric", scorer, llm=("model", model), options=checked)
        self.scorer = scorer
        judge = scorer.judge
        # deepeval reads these: the model (for its checks), whether it reports cost, and its name.
        self.model = getattr(judge, "model", None) if model is None else model
        self.using_native_model = bool(getattr(judge, "native", False))
        self.evaluation_model = judge.name.split(":", 1)[-1]
        self.last_result: SummaryResult | None = None

    # ------------------------------------------------------------------ measuring

    def measure(
        self,
        test_case: LLMTestCase,
        _show_indicator: bool = True,
        _in_component: bool = False,
        **_: Any,
    ) -> float:
        """Score ``test_case`` (``input`` = source, ``actual_output`` = summary); sets ``score``,
        ``reason``, ``score_breakdown``, ``success``. Works inside a running event loop."""
        _prepare(self, test_case)
        with self._indicator(_show_indicator, _in_component, async_mode=False):
            self._apply(run_sync(self._score(test_case)))
        return self._final_score()

    async def a_measure(
        self,
        test_case: LLMTestCase,
        _show_indicator: bool = True,
        _in_component: bool = False,
        **_: Any,
    ) -> float:
        """Async :meth:`measure`."""
        _prepare(self, test_case)
        with self._indicator(_show_indicator, _in_component, async_mode=True):
            self._apply(await self._score(test_case))
        return self._final_score()

    async def _score(self, test_case: LLMTestCase) -> SummaryResult:
        try:
            return await self.scorer._ascore(
                test_case.input, test_case.actual_output, self.assessment_questions, _FIELDS
            )
        except Exception as exc:
            self.error = str(exc)
            self.success = False
            raise

    def _indicator(self, show: bool, in_component: bool, *, async_mode: bool) -> Any:
        if metric_progress_indicator is None:  # pragma: no cover
            return contextlib.nullcontext()
        return metric_progress_indicator(
            self, async_mode=async_mode, _show_indicator=show, _in_component=in_component
        )

    def _apply(self, result: SummaryResult) -> None:
        """Translate a SummaryResult into deepeval's metric attributes."""
        self.last_result = result
        self.score = result.score
        self.score_breakdown = {
            _BREAKDOWN_NAMES[name]: value for name, value in result.components().items()
        }
        self.reason = result.reason if self.include_reason else None
        usage = result.usage
        if usage.cost is not None:
            self.evaluation_cost = usage.cost
        if usage.input_tokens is not None:
            self.input_tokens = usage.input_tokens
        if usage.output_tokens is not None:
            self.output_tokens = usage.output_tokens
        # The evidence under the names deepeval's metric uses. Never assessment_questions:
        # generated questions belong to this test case only.
        self.truths = result.truths
        self.claims = [c.claim for c in result.claims]
        self.alignment_verdicts = result.claims
        self.coverage_verdicts = result.assessment
        if result.error is not None:
            self.error = result.error
            self.success = False
            raise SummscoreError(result.error)
        self.success = self.is_successful()
        self.verbose_logs = construct_verbose_logs(
            self,
            steps=[
                f"Truths (limit={self.truths_extraction_limit}):\n{prettify_list(result.truths)}",
                f"Claims:\n{prettify_list(self.claims)}",
                f"Assessment Questions:\n{prettify_list([a.question for a in result.assessment])}",
                f"Coverage Verdicts:\n{prettify_list([a.model_dump() for a in result.assessment])}",
                f"Alignment Verdicts:\n{prettify_list([c.model_dump() for c in result.claims])}",
                f"Score: {self.score}\nReason: {self.reason}",
            ],
        )

    def _final_score(self) -> float:
        return float(self.score) if self.score is not None else float("nan")

    def is_successful(self) -> bool:
        if self.error is not None or self.score is None or self.threshold is None:
            self.success = False
        else:
            self.success = bool(self.score >= self.threshold)
        return self.success

    @property
    def __name__(self) -> str:
        return "Summarization"


def _prepare(metric: SummarizationMetric, test_case: LLMTestCase) -> None:
    """What deepeval does before measuring: check the test case, zero the cost counters."""
    if prepare_measure is not None:
        prepare_measure(metric, test_case)
        return
    # Older deepeval (covered by compat/matrix.py): the check's signature changed over releases.
    import inspect  # pragma: no cover

    from deepeval.metrics.utils import check_llm_test_case_params  # pragma: no cover

    params = inspect.signature(check_llm_test_case_params).parameters  # pragma: no cover
    if "input_image_count" in params:  # 3.7 to 4.2  # pragma: no cover
        check_llm_test_case_params(
            test_case,
            metric._required_params,
            None,
            None,
            metric,
            metric.model,
            getattr(test_case, "multimodal", False),
        )
    else:  # 3.0 to 3.6  # pragma: no cover
        check_llm_test_case_params(test_case, metric._required_params, metric)
    native = metric.using_native_model  # pragma: no cover
    for counter in ("evaluation_cost", "input_tokens", "output_tokens"):  # pragma: no cover
        setattr(metric, counter, 0 if native else None)


def _deepeval_judge(model: Any, async_mode: bool) -> Any:
    """A deepeval model (object, name or None: deepeval's default) as a judge; any other judge
    the core accepts is passed through."""
    from .judges.deepeval_model import DeepEvalJudge, is_deepeval_model

    if model is None or isinstance(model, str) or is_deepeval_model(model):
        return DeepEvalJudge(model, async_mode=async_mode)
    return model
