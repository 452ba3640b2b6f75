"""Braintrust face: an autoevals-style scorer for ``braintrust.Eval(...)`` and on its own.

    from summscore.braintrust import Summarization
    Summarization(model="gpt-4o-mini")(output=summary, input=article)   # -> autoevals.Score
    Eval("news", data=cases, task=summarize, scores=[Summarization(llm=judge)])

As autoevals' LLM scorers: ``input`` is the source, ``output`` the summary, and the judge is the
OpenAI-compatible client autoevals' own scorers would use, found by autoevals' own rule when a
case is scored: ``client=``, else the client set with ``autoevals.init(client=...)``, else one
built from the environment (``OPENAI_BASE_URL``, else Braintrust's AI proxy, with
``OPENAI_API_KEY`` or ``BRAINTRUST_API_KEY``); ``model=`` defaults to autoevals' default model
(``autoevals.init(default_model=...)``). So ``Eval(..., scores=[Summarization])`` works as it does
for ``Factuality``. ``llm=`` takes any judge summscore accepts (``LexicalJudge()`` offline),
``scorer=`` shares one ``summscore.SummarizationScorer`` (and number) with the other faces.
``expected`` (a reference summary) is not used: the metric is reference-free.

The ``Score`` carries the score (0..1: a scorer with ``scale`` other than 1 is refused), and the
reason, components and evidence as metadata. A case the judge could not score raises, as
autoevals' scorers do, so that ``Eval`` records it under the case's ``scorer_errors``.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any

from .adapters.platforms import face_scorer, result_metadata
from .adapters.rows import score_fields, unit_scale
from .calls.sync import run_sync
from .errors import MissingExtraError, SummscoreError
from .scorer import SummarizationScorer

try:
    from autoevals import Score, Scorer
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("autoevals", "braintrust", "summscore.braintrust", exc) from exc

__all__ = ["Summarization"]


class Summarization(Scorer):
    """Summarization score as an autoevals ``Scorer`` (see the module docstring)."""

    def __init__(
        self,
        llm: Any = None,
        *,
        scorer: SummarizationScorer | None = None,
        preset: str = "deepeval",
        model: str | None = None,
        client: Any = None,
        name: str | None = None,
        **options: Any,
    ) -> None:
        self.name = name or type(self).__name__
        self._fixed: SummarizationScorer | None = None
        self._client, self._model, self._preset, self._options = client, model, preset, options
        self._built: dict[Any, tuple[Any, SummarizationScorer]] = {}
        self._lock = threading.Lock()
        if scorer is not None or llm is not None:
            if model is not None or client is not None:
                raise TypeError(
                    "Summarization: model= and client= choose the OpenAI judge; "
                    "with llm= or scorer= the judge is already chosen"
                )
            built = face_scorer("Summarization", llm, scorer, preset, options)
            self._fixed = unit_scale("Summarization", built)
            return
        try:  # the options are checked now when a judge is already configured
            self._judged_by_autoevals()
        except Exception as exc:
            if not _no_key(exc):
                raise
            # No key yet: as autoevals' own scorers, each case fails until one is configured.

    @property
    def scorer(self) -> SummarizationScorer:
        """The scorer a case is judged by now: ``llm=`` / ``scorer=``, else one for the client
        autoevals' scorers would use in this context (``client=``, else the client set with
        ``autoevals.init``, else one from the environment) with ``model=`` or autoevals' default
        model."""
        return self._fixed or self._judged_by_autoevals()

    def _judged_by_autoevals(self) -> SummarizationScorer:
        key, client = judge_client(self._client)
        model = model_name(self._model)
        with self._lock:
            held = self._built.get((key, model))
            if held is None:
                built = face_scorer(
                    "Summarization", client, None, self._preset, {**self._options, "model": model}
                )
                held = self._built[(key, model)] = (client, unit_scale("Summarization", built))
        return held[1]

    def _name(self) -> str:
        return self.name

    def _run_eval_sync(self, output: Any, expected: Any = None, **kwargs: Any) -> Score:
        scorer = self.scorer  # resolved here: autoevals.init's client lives in this context
        return run_sync(self._score(scorer, output, kwargs.get("input")))

    async def _run_eval_async(self, output: Any, expected: Any = None, **kwargs: Any) -> Score:
        return await self._score(self.scorer, output, kwargs.get("input"))

    async def _score(self, scorer: SummarizationScorer, output: Any, source: Any) -> Score:
        result = await score_fields(
            scorer, source, output, source_field="input", summary_field="output"
        )
        if not result.ok:
            raise SummscoreError(f"{self.name}: {result.error or 'no score'}")
        metadata = {"rationale": result.reason, **result_metadata(result)}
        return Score(name=self.name, score=result.score, metadata=metadata)


def model_name(model: str | None) -> str:
    """``model``, or autoevals' default completion model (settable with ``autoevals.init``)."""
    if model is not None:
        return model
    try:
        from autoevals.oai import get_default_model
    except ImportError:  # autoevals before get_default_model (0.0.x): its DEFAULT_MODEL
        from autoevals.llm import DEFAULT_MODEL

        return str(DEFAULT_MODEL)
    return str(get_default_model())


def judge_client(client: Any = None) -> tuple[Any, Any]:
    """The OpenAI client autoevals' LLM scorers would use now, by autoevals' own rule
    (``autoevals.oai.prepare_openai``): ``client``, else the one set with ``autoevals.init``,
    else one from the environment (``OPENAI_BASE_URL``, else Braintrust's AI proxy, with
    ``OPENAI_API_KEY`` or ``BRAINTRUST_API_KEY``). Returns (a key naming that client, the
    client, unwrapped from autoevals' ``LLMClient`` and Braintrust's tracing wrapper)."""
    from autoevals.oai import prepare_openai

    configured = prepare_openai(client=client, is_async=True)
    raw = _unwrap(getattr(configured, "openai", configured))
    if configured is client or configured is _init_client():
        # The same client object for every case; the face holds it, so its id stays its own.
        return ("client", id(raw)), raw
    # Built anew from the environment at each call: one scorer per endpoint and key.
    secret = hashlib.sha256(str(getattr(raw, "api_key", "")).encode()).hexdigest()
    return ("environment", str(getattr(raw, "base_url", "")), secret), raw


def _init_client() -> Any:
    """The client set with ``autoevals.init`` in this context, if any."""
    from autoevals import oai

    holder = getattr(oai, "_client_var", None)
    return holder.get(None) if holder is not None else None


def _unwrap(client: Any) -> Any:
    """The openai client inside Braintrust's tracing wrapper (``wrap_openai``), if wrapped: its
    ``_wrapped`` property, or the private attribute braintrust before 0.4 kept it in."""
    for _ in range(8):
        if getattr(type(client), "_wrapped", None) is not None:
            client = client._wrapped
            continue
        inner = getattr(client, "__dict__", {}).get("_NamedWrapper__wrapped")
        if inner is None:
            break
        client = inner
    return client


def _no_key(exc: BaseException) -> bool:
    """Is ``exc`` the openai SDK refusing to build a client (no API key in the environment)?"""
    try:
        import openai
    except ImportError:  # pragma: no cover - openai is a dependency
        return False
    return isinstance(exc, openai.OpenAIError)
