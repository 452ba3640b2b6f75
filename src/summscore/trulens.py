"""TruLens face: a feedback function for TruLens's app recorders (``TruBasicApp``, ``TruApp``,
``TruChain`` ...), its results stored where the session stores them (local SQLite by default).

    from summscore.trulens import Summarization
    f_summarization = Summarization(llm=judge, preset="deepeval").metric()   # on input, output
    app = TruBasicApp(summarize, app_name="summarizer", feedbacks=[f_summarization])
    with app as recording:
        app.app(article)
    recording.retrieve_feedback_results()        # a "summarization" column

``Summarization(...)`` is the feedback function itself: called with ``(source, summary)`` it
returns TruLens's ``(score, metadata)`` pair, the reason under "reason" (TruLens shows it as the
explanation) beside the components and evidence. Wrap it as TruLens users wrap a provider's
method, ``Metric(Summarization(...), name="summarization").on_input_output()`` (``Feedback`` on
TruLens before 2.7), or take that ready-made from ``.metric()``; use ``.on(...)`` with TruLens
selectors to read the source from elsewhere (a retrieved context, say). A case the judge could
not score raises, so TruLens records that feedback as failed with the error, which starts with
the function's ``name`` (the metric's name given to ``.metric(name=...)``). With ``scorer=`` it
shares one ``summscore.SummarizationScorer`` (and number) with every other face.
"""

from __future__ import annotations

import copy
from typing import Any

from .adapters.platforms import face_scorer, result_metadata
from .adapters.rows import score_fields
from .calls.sync import run_sync
from .errors import MissingExtraError, SummscoreError
from .scorer import SummarizationScorer

try:
    import trulens.core as _trulens
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError(
        "trulens-core", "trulens", "summscore.trulens", exc, module="trulens"
    ) from exc

__all__ = ["Summarization"]

_Metric: Any = getattr(_trulens, "Metric", None) or _trulens.Feedback  # Feedback before 2.7


class Summarization:
    """The summarization feedback function (see the module docstring)."""

    def __init__(
        self,
        llm: Any = None,
        *,
        scorer: SummarizationScorer | None = None,
        preset: str = "deepeval",
        name: str = "summarization",
        **options: Any,
    ) -> None:
        self.scorer = face_scorer("Summarization", llm, scorer, preset, options)
        self.name = name
        self.__name__ = name  # TruLens names a feedback after its function

    def __repr__(self) -> str:
        return f"Summarization(name={self.name!r}, scorer={self.scorer!r})"

    def __call__(self, source: str | list[str], summary: str) -> tuple[float, dict[str, Any]]:
        """Score ``summary`` against ``source``: TruLens's ``(score, metadata)``."""
        result = run_sync(
            score_fields(
                self.scorer, source, summary, source_field="source", summary_field="summary"
            )
        )
        if not result.ok:
            raise SummscoreError(f"{self.name}: {result.error or 'no score'}")
        return result.score, {"reason": result.reason, **result_metadata(result)}

    def metric(self, name: str | None = None) -> Any:
        """This function as a TruLens ``Metric`` named ``name`` (default: this function's name) on
        the app's main input (the source) and output (the summary), ready for ``feedbacks=[...]``;
        its errors name the metric."""
        function = self
        if name is not None and name != self.name:
            function = copy.copy(self)  # the same scorer, under the metric's name
            function.name = function.__name__ = name
        return _Metric(function, name=function.name).on_input_output()
