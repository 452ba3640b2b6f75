"""DeepEval face: ``SummarizationMetric`` for ``measure``, ``evaluate()`` and ``assert_test``.

A drop-in replacement for ``deepeval.metrics.SummarizationMetric``: same constructor arguments, and
with the same judge the same prompts and numbers. It also takes ``scorer=`` to share one
``summscore.SummarizationScorer`` with other frameworks. The test case's ``input`` is the
source and ``actual_output`` the summary.

Differences from upstream, on purpose:

* ``measure()`` works inside a running event loop.
* Generated assessment questions belong to the test case they were generated for (upstream stores
  the first case's questions on the metric and reuses them for every later case).
* Every constructor argument is kept under its own name and the scorer is shared, so the copies
  ``deepeval.evaluate()`` makes keep the whole configuration and the source cache.
* Judge replies of the wrong shape are asked again instead of failing the test case.
* deepeval's experimental System One judge (``eval_mode="hybrid"`` / ``"system_one"``) is not
  supported: an explicit one raises ValueError, a global ``DEEPEVAL_EVAL_MODE`` one warns and
  the LLM judges.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..adapters.options import check_scorer
from ..calls.sync import run_sync
from ..cases import FieldNames
from ..errors import MissingExtraError, SummscoreError
from ..presets.deepeval import DeepEvalOptions
from ..results import SummaryResult
from ..scorer import SummarizationScorer

try:
    from deepeval.metrics import BaseMetric
    from deepeval.metrics.utils import construct_verbose_logs
    from deepeval.test_case import LLMTestCase
    from deepeval.utils import prettify_list
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("deepeval", "deepeval", "summscore.deepeval", exc) from exc

from .compat import Params, SummarizationTemplate, llm_eval_mode, prepare
from .compat import progress_indicator as _progress_indicator
from .config import (
    case_slot,
    check_extensions,
    check_max_concurrency,
    check_template,
    deepeval_judge,
    is_deepeval_judge,
    template_prompts,
)

__all__ = ["SummarizationMetric", "SummarizationTemplate"]

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

    Takes what deepeval's constructor takes. ``model`` is a deepeval model object or name (or
    None: deepeval's default model), as upstream, or any judge
    ``summscore.SummarizationScorer`` accepts; ``evaluation_template`` a subclass of
    deepeval's ``SummarizationTemplate`` (also importable from here) whose methods write the
    prompts. summscore's own arguments: ``scorer=`` shares an existing scorer (whose preset then
    decides the number, and whose components fill ``score_breakdown``); ``timeout`` (seconds per
    judge call, default 120) and ``max_concurrency`` (test cases judged at once by this metric and
    the copies ``deepeval.evaluate()`` makes of it; default: no limit beyond deepeval's own) are
    for slow servers, such as a local model that answers one request at a time.
    """

    _required_params: ClassVar[list[Any]] = [Params.INPUT, Params.ACTUAL_OUTPUT]  # type: ignore[assignment]

    def __init__(
        self,
        threshold: float | None = 0.5,
        n: int = 5,
        model: Any = None,
        system_one_model: Any = None,
        eval_mode: Any = None,
        assessment_questions: list[str] | None = None,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        truths_extraction_limit: int | None = None,
        flaky: bool = False,
        evaluation_template: Any = SummarizationTemplate,
        scorer: SummarizationScorer | None = None,
        timeout: float | None = None,
        max_concurrency: int | None = None,
    ) -> None:
        # deepeval's own validation and normalisation (negative limits become 0). threshold=None
        # (score only, never "successful") is deepeval's too; the scorer keeps its default then.
        options = DeepEvalOptions(
            threshold=0.5 if threshold is None else threshold,
            strict_mode=strict_mode,
            truths_extraction_limit=truths_extraction_limit,
            include_reason=include_reason,
            n=n,
        )
        self.threshold = 1 if strict_mode else threshold
        self.eval_mode = llm_eval_mode(eval_mode)
        self.system_one_model = None  # deepeval builds none in its "llm" eval mode
        self.n = n
        self.include_reason = include_reason
        self.async_mode = async_mode
        self.strict_mode = strict_mode
        self.verbose_mode = verbose_mode
        self.truths_extraction_limit = options.truths_extraction_limit
        self.flaky = flaky
        self.evaluation_template = evaluation_template
        self.timeout = timeout
        self.max_concurrency = check_max_concurrency(max_concurrency)
        self.assessment_questions = assessment_questions or None
        custom = evaluation_template is not SummarizationTemplate
        if scorer is None:
            extensions: dict[str, Any] = {}
            if timeout is not None:
                extensions["timeout"] = timeout
            if max_concurrency is not None:
                extensions["max_concurrency"] = max_concurrency
            if custom:
                extensions["prompts"] = template_prompts(evaluation_template)
            scorer = SummarizationScorer(
                llm=deepeval_judge(model, async_mode),
                preset="deepeval",
                **options.as_dict(),
                **extensions,
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
            if scorer.threshold is not None and threshold is not None:
                checked["threshold"] = (self.threshold, scorer.threshold)
            check_scorer("SummarizationMetric", scorer, llm=("model", model), options=checked)
            check_extensions(scorer, timeout=timeout, max_concurrency=max_concurrency)
            check_template(scorer, evaluation_template, custom)
        self.scorer = scorer
        judge = scorer.judge
        # What deepeval's metric holds: the resolved model object (for deepeval's own checks, and
        # so that evaluate()'s copies name the same judge), whether it reports cost, its name.
        deepeval_model = getattr(judge, "model", None) if is_deepeval_judge(judge) else None
        if deepeval_model is not None:
            self.model = deepeval_model
            self.using_native_model = bool(getattr(judge, "native", False))
            self.evaluation_model = str(deepeval_model.get_model_name())
        else:
            self.model = model if model is not None else scorer.llm
            self.using_native_model = False
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
        prepare(self, test_case)
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
        """Async ``measure``."""
        prepare(self, test_case)
        with self._indicator(_show_indicator, _in_component, async_mode=True):
            self._apply(await self._score(test_case))
        return self._final_score()

    async def _score(self, test_case: LLMTestCase) -> SummaryResult:
        try:
            async with case_slot(self.scorer, self.max_concurrency):
                return await self.scorer.ascore_named(
                    test_case.input,
                    test_case.actual_output,
                    self.assessment_questions,
                    source_name=_FIELDS.source,
                    summary_name=_FIELDS.summary,
                    questions_name=_FIELDS.questions,
                )
        except Exception as exc:
            self.error = str(exc)
            self.success = False
            raise

    def _indicator(self, show: bool, in_component: bool, *, async_mode: bool) -> Any:
        return _progress_indicator(self, show, in_component, async_mode=async_mode)

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
        # deepeval's rule: no threshold, no verdict (None); an error or no score fails.
        if self.threshold is None:
            self.success = None
        elif self.error is not None or self.score is None:
            self.success = False
        else:
            self.success = bool(self.score >= self.threshold)
        return self.success  # type: ignore[return-value]

    @property
    def __name__(self) -> str:
        return "Summarization"
