"""LangSmith face: an evaluator for ``langsmith.evaluate()`` / ``aevaluate()`` and for tests
marked ``@pytest.mark.langsmith``.

    from summscore.langsmith import Summarization
    summarization = Summarization(llm=judge, preset="deepeval")
    evaluate(summarize, data=examples, evaluators=[summarization])       # or aevaluate(...)
    summarization(inputs={"article": text}, outputs={"summary": summary})  # -> EvaluationResult

The source is read from the example's ``inputs`` (a string, or the first of source / document /
text / context / ... in the dict; ``source_key=`` names it) and the summary from the run's
``outputs`` (summary / response / output / ...; ``summary_key=``), as LangSmith evaluators take
``inputs`` and ``outputs``; ``reference_outputs`` is not used (the metric is reference-free). The
result is LangSmith's ``EvaluationResult``: ``key`` (default "summarization"), the score, the
reason as ``comment``, the components and evidence as ``metadata``. A case the judge could not
score has no score, the error as comment and ``extra={"error": True}``, as LangSmith records an
evaluator that raised. Called directly inside a ``@pytest.mark.langsmith`` test, it also logs the
result as the test's feedback (traced with ``testing.trace_feedback``), as openevals' evaluators
do. With ``scorer=`` it shares one ``summscore.SummarizationScorer`` (and number) with every
other face.
"""

from __future__ import annotations

import uuid
from typing import Any

from .adapters.platforms import SOURCE_KEYS, SUMMARY_KEYS, face_scorer, result_metadata
from .adapters.rows import explanation, score_fields
from .calls.sync import run_sync
from .errors import MissingExtraError
from .results import SummaryResult
from .scorer import SummarizationScorer

try:
    from langsmith import run_helpers as ls_run_helpers
    from langsmith import testing as ls_testing
    from langsmith import utils as ls_utils
    from langsmith.evaluation import EvaluationResult, RunEvaluator
    from langsmith.schemas import Example, Run
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("langsmith", "langsmith", "summscore.langsmith", exc) from exc

__all__ = ["Summarization"]

# EvaluationResult.metadata is newer than the pytest integration; older releases get no metadata.
_HAS_METADATA = "metadata" in (
    getattr(EvaluationResult, "model_fields", None) or getattr(EvaluationResult, "__fields__", {})
)


class Summarization(RunEvaluator):
    """Summarization score as a LangSmith evaluator (see the module docstring)."""

    def __init__(
        self,
        llm: Any = None,
        *,
        scorer: SummarizationScorer | None = None,
        preset: str = "deepeval",
        key: str = "summarization",
        source_key: str | None = None,
        summary_key: str | None = None,
        **options: Any,
    ) -> None:
        self.scorer = face_scorer("Summarization", llm, scorer, preset, options)
        self.key = key
        self._source_keys = (source_key,) if source_key else SOURCE_KEYS
        self._summary_keys = (summary_key,) if summary_key else SUMMARY_KEYS

    @property
    def feedback_keys(self) -> list[str]:
        return [self.key]

    def __repr__(self) -> str:
        return f"Summarization(key={self.key!r}, scorer={self.scorer!r})"

    # ------------------------------------------------------------------ evaluate() / aevaluate()

    def evaluate_run(
        self,
        run: Run,
        example: Example | None = None,
        evaluator_run_id: uuid.UUID | None = None,
    ) -> EvaluationResult:
        # Traced here, in the caller's thread: evaluate()'s tracing context (its client, project
        # and whether uploads are on) lives in this thread's context.
        run_id = evaluator_run_id or uuid.uuid4()
        inputs = example.inputs if example is not None else run.inputs
        with self._evaluator_trace(run, run_id, inputs) as trace:
            result = self._result(run_sync(self._score(inputs, run.outputs)), run_id)
            trace.end(outputs=_trace_outputs(result))
        return result

    async def aevaluate_run(
        self,
        run: Run,
        example: Example | None = None,
        evaluator_run_id: uuid.UUID | None = None,
    ) -> EvaluationResult:
        run_id = evaluator_run_id or uuid.uuid4()
        inputs = example.inputs if example is not None else run.inputs
        async with self._evaluator_trace(run, run_id, inputs) as trace:
            result = self._result(await self._score(inputs, run.outputs), run_id)
            trace.end(outputs=_trace_outputs(result))
        return result

    def _evaluator_trace(self, run: Run, run_id: uuid.UUID, inputs: Any) -> Any:
        """The evaluator's own traced run, as LangSmith opens one for a function evaluator: its
        id is the ``evaluator_run_id`` evaluate() passes (the feedback's ``source_run_id``), its
        metadata names the run it judges."""
        metadata: dict[str, Any] = {"target_run_id": run.id}
        if getattr(run, "session_id", None):
            metadata["experiment"] = str(run.session_id)
        return ls_run_helpers.trace(
            self.key,
            "chain",
            inputs={"inputs": inputs, "outputs": run.outputs},
            metadata=metadata,
            run_id=run_id,
        )

    # ------------------------------------------------------------------ called directly

    def __call__(
        self,
        *,
        inputs: Any = None,
        outputs: Any = None,
        reference_outputs: Any = None,
        **ignored: Any,
    ) -> EvaluationResult:
        """Score one case: ``inputs`` hold the source, ``outputs`` the summary. Inside a
        ``@pytest.mark.langsmith`` test the result is logged as the test's feedback."""
        if not _in_langsmith_test():
            return self._result(run_sync(self._score(inputs, outputs)))
        with ls_testing.trace_feedback(name=self.key):
            evaluation = self._result(run_sync(self._score(inputs, outputs)))
            ls_testing.log_feedback(
                key=evaluation.key, score=evaluation.score, comment=evaluation.comment
            )
        return evaluation

    async def acall(
        self, *, inputs: Any = None, outputs: Any = None, **ignored: Any
    ) -> EvaluationResult:
        """The coroutine of a direct call (no test feedback is logged)."""
        return self._result(await self._score(inputs, outputs))

    # ------------------------------------------------------------------ translation

    async def _score(self, inputs: Any, outputs: Any) -> SummaryResult:
        return await score_fields(
            self.scorer,
            inputs,
            outputs,
            source_field="inputs",
            summary_field="outputs",
            source_keys=self._source_keys,
            summary_keys=self._summary_keys,
        )

    def _result(
        self, result: SummaryResult, source_run_id: uuid.UUID | None = None
    ) -> EvaluationResult:
        fields: dict[str, Any] = {"key": self.key, "comment": explanation(result)}
        if source_run_id is not None:
            fields["source_run_id"] = source_run_id
        if _HAS_METADATA:
            fields["metadata"] = result_metadata(result)
        if not result.ok:
            return EvaluationResult(**fields, extra={"error": True})
        return EvaluationResult(**fields, score=result.score)


def _trace_outputs(result: EvaluationResult) -> dict[str, Any]:
    """What the evaluator's trace shows as its outputs: the feedback it gives."""
    return {"key": result.key, "score": result.score, "comment": result.comment}


def _in_langsmith_test() -> bool:
    """Inside a ``@pytest.mark.langsmith`` test that records feedback."""
    if ls_utils.test_tracking_is_disabled():
        return False
    try:
        from langsmith.testing._internal import _TEST_CASE
    except ImportError:  # pragma: no cover - langsmith moved its test context
        return False
    return _TEST_CASE.get() is not None
