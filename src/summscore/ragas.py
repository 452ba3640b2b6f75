"""Ragas faces: the collections ``SummaryScore`` and the legacy ``SummarizationScore``.

Drop-in replacements for ``ragas.metrics.collections.SummaryScore`` and
``ragas.metrics.SummarizationScore``: same names, same arguments, same numbers with the same judge
(see the parity tests), plus ``scorer=`` to share one ``summscore.SummarizationScorer`` (and
its source cache) with other frameworks. Both translate ragas types into a core call and the core's
result back; they compute nothing themselves.

Differences from upstream, on purpose:

* ``score()``, ``batch_score()`` and ``single_turn_score()`` work inside a running event loop.
* ``SummaryScore(llm=...)`` also accepts summscore's own judges (``LexicalJudge()``,
  ``OpenAIJudge(client, model)``, any ``summscore.judges.Judge``); everything else ragas
  rejects (a model name, a LangChain model, a legacy wrapper) raises ragas's ValueError.
* Empty judge output gives NaN with a reason instead of ZeroDivisionError, and one failed input of
  ``abatch_score`` is a NaN result with the error as its reason instead of an exception that loses
  the whole batch.
* ``MetricResult.reason`` states the components (QA, conciseness, the questions the summary
  missed); the result is a ``SummaryMetricResult`` whose ``details`` is the full
  ``summscore.SummaryResult``.
* The legacy class with ``length_penalty=False`` returns the QA score, as the collections class
  does; upstream's legacy class returns QA x (1 - coeff), so a perfect summary scores 0.5 there.
"""

from __future__ import annotations

import asyncio
import typing as t
import warnings
from dataclasses import dataclass, field
from typing import Any

from .adapters.options import check_scorer
from .calls.sync import run_sync
from .cases import FieldNames
from .errors import MissingExtraError, SummscoreError, install_hint
from .judges.base import Judge
from .presets.ragas import RagasOptions
from .prompts.ragas_upstream import UpstreamRagasPrompts, default_prompts
from .results import SummaryResult
from .scorer import SummarizationScorer

try:
    import ragas as _ragas
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("ragas", "ragas", "summscore.ragas", exc) from exc

try:
    from ragas.dataset_schema import SingleTurnSample
    from ragas.metrics._summarization import (
        ExtractKeyphrasePrompt,
        GenerateAnswersPrompt,
        GenerateQuestionsPrompt,
    )
    from ragas.metrics.base import MetricType, MetricWithLLM, SingleTurnMetric
    from ragas.prompt import PydanticPrompt
except ImportError as exc:  # pragma: no cover - ragas without the single-turn API
    raise ImportError(
        f"summscore.ragas needs ragas with single-turn metrics (0.2.15 or later); ragas "
        f"{getattr(_ragas, '__version__', '?')} is installed. "
        f"Install a supported version with summscore's 'ragas' extra: {install_hint('ragas')}"
    ) from exc

try:
    from ragas.metrics.base import MetricOutputType
except ImportError:  # pragma: no cover - ragas < 0.2.7 has no output types
    MetricOutputType = None  # type: ignore[assignment,misc]

try:
    from ragas.metrics.collections.base import BaseMetric as _CollectionsBaseMetric
    from ragas.metrics.result import MetricResult
except ImportError:  # pragma: no cover - ragas without the collections API
    _CollectionsBaseMetric = None  # type: ignore[misc,assignment]
    MetricResult = object  # type: ignore[misc,assignment]

__all__ = ["SummarizationScore", "SummaryMetricResult", "SummaryScore"]

_COLLECTIONS_FIELDS = FieldNames(source="reference_contexts", summary="response")
_RETRIEVED_FIELDS = FieldNames(source="retrieved_contexts", summary="response")
_UPSTREAM_DEFAULTS = {"coeff": 0.5, "length_penalty": True}


_NO_LLM: Any = object()


def _ragas_scorer(
    owner: str,
    llm: Any,
    scorer: Any,
    *,
    coeff: float,
    length_penalty: bool,
    prompts: UpstreamRagasPrompts | None = None,
) -> SummarizationScorer | None:
    """The scorer a ragas face uses: ``scorer=`` checked against the other arguments, or one built
    from ``llm`` with the face's prompts (None when neither is given yet, as for a legacy metric
    awaiting evaluate())."""
    RagasOptions(coeff=coeff, length_penalty=length_penalty)  # upstream's errors, raised early
    if scorer is None:
        if llm is None:
            return None
        return SummarizationScorer(
            llm=llm,
            preset="ragas",
            coeff=coeff,
            length_penalty=length_penalty,
            prompts="auto" if prompts is None else prompts,
        )
    given = {"coeff": coeff, "length_penalty": length_penalty}
    return check_scorer(
        owner,
        scorer,
        llm=("llm", llm),
        options={k: (v, _UPSTREAM_DEFAULTS[k]) for k, v in given.items()},
    )


class _FacePrompts:
    """The prompts a ragas face holds, as ragas's metric holds them, and the scorer they feed.

    A scorer the face built renders from the face's prompt attributes at every call (and forgets
    its cached source-side work when they change); a shared ``scorer=`` keeps its own prompt set,
    so customised prompts on such a face are an error rather than silently ignored.
    """

    def __init__(self, owner: Any, *, legacy: bool) -> None:
        self.set = UpstreamRagasPrompts(owner, legacy=legacy)
        self._seen: tuple[Any, ...] | None = None

    def check(self, owner_name: str, scorer: SummarizationScorer, shared: bool) -> None:
        if shared:
            if self.set.customised:
                raise ValueError(
                    f"{owner_name}: its prompts were changed, but it scores with a shared scorer= "
                    f"whose own prompt set ({scorer.prompt_set}) decides what the judge is sent; "
                    "build the metric with llm= to use custom prompts"
                )
            return
        signature = self.set.signature()
        if self._seen is not None and signature != self._seen:
            scorer.clear_cache()  # keyphrases and questions were made with the old prompts
        self._seen = signature


def _accepts_llm(llm: Any) -> bool:
    """What the collections SummaryScore takes: ragas's instructor LLM, as upstream, or a
    summscore judge (a type ragas knows nothing of)."""
    from ragas.llms.base import InstructorBaseRagasLLM

    return isinstance(llm, (InstructorBaseRagasLLM, Judge))


class SummaryMetricResult(MetricResult):
    """A ragas ``MetricResult`` that also carries the full ``summscore.SummaryResult``."""

    def __init__(self, details: SummaryResult) -> None:
        reason = details.reason if details.error is None else details.error
        super().__init__(value=float(details.score), reason=reason)
        self.details = details


# The stand-in first and the metric last: the API reference (read statically) documents the
# last definition.
if _CollectionsBaseMetric is None:  # pragma: no cover - ragas without the collections API

    class SummaryScore:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise ImportError(
                "summscore.ragas.SummaryScore needs ragas's collections API (ragas 0.3.9 or "
                f"later); ragas {getattr(_ragas, '__version__', '?')} is installed. Upgrade with "
                f"summscore's 'ragas' extra ({install_hint('ragas', options='--upgrade')}), or use the "
                "legacy summscore.ragas.SummarizationScore with ragas.evaluate()"
            )

else:

    class SummaryScore(_CollectionsBaseMetric):  # type: ignore[no-redef]
        """Ragas collections metric: ``await SummaryScore(llm=...).ascore(reference_contexts, response)``.

        ``llm`` is a ragas ``llm_factory(...)`` LLM, as upstream, or a summscore judge
        (``summscore.judges.Judge``, e.g. ``LexicalJudge()``); anything else raises ragas's
        ValueError. ``scorer=`` shares an existing scorer instead. The prompts are ragas's, on
        the attributes ragas uses (``extract_keyphrases_prompt``, ``generate_questions_prompt``,
        ``generate_answers_prompt``): assign a modified one to change what the judge is sent.
        """

        def __init__(
            self,
            llm: Any = _NO_LLM,
            name: str = "summary_score",
            length_penalty: bool = True,
            coeff: float = 0.5,
            scorer: SummarizationScorer | None = None,
            **kwargs: Any,
        ) -> None:
            if llm is _NO_LLM and scorer is None:
                raise TypeError("SummaryScore.__init__() missing 1 required argument: 'llm'")
            llm = None if llm is _NO_LLM else llm
            self._shared = scorer is not None
            self.llm = llm if llm is not None or scorer is None else scorer.llm
            self.length_penalty = length_penalty
            self.coeff = coeff
            kp, q, a = default_prompts(legacy=False)
            self.extract_keyphrases_prompt = kp
            self.generate_questions_prompt = q
            self.generate_answers_prompt = a
            self._prompts = _FacePrompts(self, legacy=False)
            RagasOptions(coeff=coeff, length_penalty=length_penalty)  # upstream's order of checks
            super().__init__(name=name, **kwargs)  # ragas's llm validation (_validate_llm)
            built = _ragas_scorer(
                "SummaryScore",
                llm,
                scorer,
                coeff=coeff,
                length_penalty=length_penalty,
                prompts=self._prompts.set,
            )
            assert built is not None
            self.scorer = built

        def _validate_llm(self) -> None:
            """ragas's check (same ValueError), letting summscore judges and scorer= through."""
            if self._shared or _accepts_llm(self.llm):
                return
            super()._validate_llm()

        async def ascore(  # type: ignore[override]
            self, reference_contexts: list[str], response: str
        ) -> SummaryMetricResult:
            """Score ``response`` against ``reference_contexts`` (joined with "\\n")."""
            self._prompts.check("SummaryScore", self.scorer, self._shared)
            result = await self.scorer.ascore_named(
                reference_contexts,
                response,
                source_name=_COLLECTIONS_FIELDS.source,
                summary_name=_COLLECTIONS_FIELDS.summary,
            )
            return SummaryMetricResult(result)

        def score(  # type: ignore[override]
            self, reference_contexts: list[str], response: str
        ) -> SummaryMetricResult:
            """Synchronous ``ascore``; unlike upstream it also works inside a running loop."""
            return run_sync(self.ascore(reference_contexts=reference_contexts, response=response))

        async def abatch_score(  # type: ignore[override]
            self, inputs: list[dict[str, Any]]
        ) -> list[SummaryMetricResult]:
            """Score many inputs, at most the scorer's ``max_concurrency`` at a time, in order.

            An input that fails (bad input, judge error) gives a NaN result whose reason is the
            error; the rest of the batch is still scored.
            """
            semaphore = asyncio.Semaphore(self.scorer.max_concurrency)

            async def one(kwargs: dict[str, Any]) -> SummaryMetricResult:
                async with semaphore:
                    try:
                        return await self.ascore(**kwargs)
                    except Exception as exc:
                        return SummaryMetricResult(self.scorer.failed_result(exc))

            return list(await asyncio.gather(*(one(dict(i)) for i in inputs)))

        def batch_score(  # type: ignore[override]
            self, inputs: list[dict[str, Any]]
        ) -> list[SummaryMetricResult]:
            """Synchronous ``abatch_score``; works inside a running loop too."""
            return run_sync(self.abatch_score(inputs))

        def __repr__(self) -> str:
            return (
                f"SummaryScore(name={self.name!r}, length_penalty={self.length_penalty}, "
                f"coeff={self.coeff}, scorer={self.scorer!r})"
            )


@dataclass
class SummarizationScore(MetricWithLLM, SingleTurnMetric):
    """Ragas legacy single-turn metric, for ``ragas.evaluate()``.

    Takes its judge from ``llm=``, from ``scorer=``, or from ``evaluate(llm=...)`` when neither is
    given. Samples need ``reference_contexts`` and ``response``; a sample with only
    ``retrieved_contexts`` (the name an older ragas doc used) is scored on those, with one warning.
    A failed row raises, which ``evaluate(raise_exceptions=False)`` records as NaN.

    The prompts are ragas's legacy ``PydanticPrompt`` objects under ragas's attribute names, sent
    as ragas renders them, so ``get_prompts()``, ``set_prompts()``, ``adapt_prompts()`` and
    ``save_prompts()`` / ``load_prompts()`` work as on ragas's metric (with ``scorer=``, the
    shared scorer's prompts apply and edited ones raise ValueError at scoring).
    """

    name: str = "summary_score"
    max_retries: int = 1
    length_penalty: bool = True
    coeff: float = 0.5
    scorer: SummarizationScorer | None = None
    question_generation_prompt: PydanticPrompt = field(default_factory=GenerateQuestionsPrompt)
    answer_generation_prompt: PydanticPrompt = field(default_factory=GenerateAnswersPrompt)
    extract_keyphrases_prompt: PydanticPrompt = field(default_factory=ExtractKeyphrasePrompt)
    _required_columns: dict[MetricType, set[str]] = field(
        default_factory=lambda: {
            MetricType.SINGLE_TURN: {
                "reference_contexts",
                "response",
                "retrieved_contexts:optional",
            }
        }
    )
    output_type: Any = MetricOutputType.CONTINUOUS if MetricOutputType is not None else None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._prompts = _FacePrompts(self, legacy=True)
        built = _ragas_scorer(
            "SummarizationScore",
            self.llm,
            self.scorer,
            coeff=self.coeff,
            length_penalty=self.length_penalty,
            prompts=self._prompts.set,
        )
        # A scorer built here belongs to the llm it was built for; evaluate() may swap the llm.
        self._own: tuple[Any, SummarizationScorer] | None = (
            (self.llm, built) if built is not None and self.scorer is None else None
        )
        self._warned_retrieved = False
        if self.scorer is not None and self.llm is None:
            # The scorer has its judge: keep evaluate() from installing another one.
            self.llm = self.scorer.llm

    def init(self, run_config: Any) -> None:
        if self.scorer is not None:
            return
        if self.llm is None or hasattr(self.llm, "set_run_config"):
            super().init(run_config)  # ragas's own error when there is no llm
        # else: an LLM without run configuration (ragas 0.3's instructor LLMs); the scorer's own
        # retries and timeouts apply.

    def _active_scorer(self) -> SummarizationScorer:
        if self.scorer is not None:
            return self.scorer
        if self.llm is None:
            raise ValueError(
                f"Metric '{self.name}' has no judge: pass llm= or scorer=, or run it in "
                "ragas.evaluate(..., llm=...)"
            )
        if self._own is None or self._own[0] is not self.llm:
            built = SummarizationScorer(
                llm=self.llm,
                preset="ragas",
                coeff=self.coeff,
                length_penalty=self.length_penalty,
                prompts=self._prompts.set,
            )
            self._own = (self.llm, built)
        return self._own[1]

    async def _single_turn_ascore(self, sample: SingleTurnSample, callbacks: Any) -> float:
        result = await self.ascore_sample(sample)
        if not result.ok:
            raise SummscoreError(result.error or "the score could not be computed")
        return float(result.score)

    async def ascore_sample(self, sample: SingleTurnSample) -> SummaryResult:
        """Score one sample and return the full ``summscore.SummaryResult``."""
        contexts: t.Any = sample.reference_contexts
        fields = _COLLECTIONS_FIELDS
        retrieved = getattr(sample, "retrieved_contexts", None)
        if contexts is None and retrieved:
            if not self._warned_retrieved:
                self._warned_retrieved = True
                warnings.warn(
                    f"{self.name}: the sample has no reference_contexts; scoring its "
                    "retrieved_contexts instead (name the column reference_contexts to silence "
                    "this warning)",
                    UserWarning,
                    stacklevel=2,
                )
            contexts = retrieved
            fields = _RETRIEVED_FIELDS
        scorer = self._active_scorer()
        self._prompts.check(self.name, scorer, self.scorer is not None)
        return await scorer.ascore_named(
            contexts, sample.response, source_name=fields.source, summary_name=fields.summary
        )
