"""What ``summscore.mlflow.Summarization`` does: the row's source and summary read as MLflow's own
summarization scorers read them, the core's result as an MLflow ``Feedback``, and the registered
form (an ``@scorer`` function that rebuilds the scorer from its configuration).

The public class, in ``summscore/mlflow/__init__.py``, only names this one: MLflow hashes a
custom scorer's definition for every row it scores, reading the class's source when the scorer
cannot be serialized, and a small class is cheap to read (see ``SummarizationFace.model_dump``).
"""

from __future__ import annotations

import functools
import inspect
import json
import types
from collections.abc import Callable
from typing import Any, ClassVar, Literal, TypeVar, cast

from pydantic import PrivateAttr

from ..adapters.platforms import SOURCE_KEYS, SUMMARY_KEYS, face_scorer, pick_text, result_metadata
from ..calls.sync import run_sync
from ..errors import MissingExtraError
from ..scorer import SummarizationScorer

try:
    from mlflow.entities import Feedback
    from mlflow.entities.assessment_source import AssessmentSource, AssessmentSourceType
    from mlflow.exceptions import MlflowException
    from mlflow.genai.scorers import Scorer

    from ..judges.mlflow_model import MLflowJudge, default_model, is_model_uri
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("mlflow", "mlflow", "summscore.mlflow", exc) from exc

__all__ = ["SummarizationFace"]

SourceFrom = Literal["inputs", "expectations"]
_Face = TypeVar("_Face", bound="SummarizationFace")


class SummarizationFace(Scorer):
    """What ``summscore.mlflow.Summarization`` is made of (it adds only its name)."""

    model: str | None = None
    description: str | None = (
        "How faithfully the summary in outputs states its source, and how much of the source "
        "it covers, scored by summscore with the named preset's rule"
    )
    _scorer: SummarizationScorer = PrivateAttr()
    _source_from: str = PrivateAttr()
    _source_key: str | None = PrivateAttr(default=None)
    _summary_key: str | None = PrivateAttr(default=None)
    _config: dict[str, Any] | None = PrivateAttr(default=None)
    # The registered form's body: a function of inputs, outputs, expectations, trace and the
    # configuration (JSON) that rebuilds the scorer where it runs (set by the public class).
    registered_body: ClassVar[Callable[..., Any]]

    def __init__(
        self,
        llm: Any = None,
        *,
        model: str | None = None,
        scorer: SummarizationScorer | None = None,
        preset: str = "deepeval",
        name: str = "summarization",
        source_from: SourceFrom = "inputs",
        source_key: str | None = None,
        summary_key: str | None = None,
        inference_params: dict[str, Any] | None = None,
        **options: Any,
    ) -> None:
        if source_from not in ("inputs", "expectations"):
            raise ValueError(f"source_from must be 'inputs' or 'expectations', got {source_from!r}")
        model = _model_of(llm, model)
        if isinstance(llm, str):
            llm = None
        super().__init__(name=name)
        self.model = model
        if llm is None and scorer is None:
            judge = MLflowJudge(model or default_model(), inference_params=inference_params)
            self._scorer = face_scorer("Summarization", judge, None, preset, options)
            self._config = {
                "model": model,
                "inference_params": inference_params,
                "preset": preset,
                "name": name,
                "source_from": source_from,
                "source_key": source_key,
                "summary_key": summary_key,
                "options": options,
            }
        else:
            if inference_params is not None:
                raise TypeError(
                    "Summarization: inference_params= goes to a model named by model=; "
                    "set it on the judge object (or its scorer) instead"
                )
            if model is not None:
                _same_model("Summarization", model, llm, scorer)
            self._scorer = face_scorer("Summarization", llm, scorer, preset, options)
        self._source_from = source_from
        self._source_key = source_key
        self._summary_key = summary_key

    @property
    def scorer(self) -> SummarizationScorer:
        return self._scorer

    @classmethod
    def from_config(cls: type[_Face], config: str) -> _Face:
        """The scorer a registered configuration (``model_dump``'s JSON) describes, built once
        per configuration and process (so rows share its judge and caches)."""
        # A class is hashable; mypy reads the model's __eq__ without __hash__ as a class's.
        return cast(_Face, _from_config(cls, config))  # type: ignore[arg-type]

    def _source(self, inputs: Any, expectations: Any, trace: Any) -> str | list[str]:
        field = self._source_from
        value = inputs if field == "inputs" else expectations
        keys = (self._source_key,) if self._source_key else SOURCE_KEYS
        if value is None and trace is not None:
            from mlflow.genai.utils.trace_utils import extract_retrieval_context_from_trace

            contexts = extract_retrieval_context_from_trace(trace)
            found = [str(c) for chunk in contexts.values() for c in chunk]
            if found:
                return found
        if isinstance(value, dict) and not self._source_key and "messages" in value:
            messages = value["messages"]
            return str(messages[-1].get("content", "")) if messages else ""
        return pick_text(value, keys, field)

    def __call__(
        self,
        *,
        inputs: Any = None,
        outputs: Any = None,
        expectations: dict[str, Any] | None = None,
        trace: Any = None,
        session: Any = None,
    ) -> Feedback:
        judge = self._scorer.judge
        source_id = judge.model_uri if isinstance(judge, MLflowJudge) else judge.name
        source_kind = AssessmentSource(
            source_type=AssessmentSourceType.LLM_JUDGE, source_id=source_id
        )
        try:
            source = self._source(inputs, expectations, trace)
            keys = (self._summary_key,) if self._summary_key else SUMMARY_KEYS
            summary = pick_text(outputs, keys, "outputs")
            if not isinstance(summary, str):
                summary = "\n".join(summary)
            result = run_sync(self._scorer.ascore(source, summary))
        except Exception as exc:
            return Feedback(name=self.name, error=exc, source=source_kind)
        metadata = {k: _flat(v) for k, v in result_metadata(result).items()}
        if not result.ok:
            return Feedback(
                name=self.name,
                error=result.error or "no score",
                source=source_kind,
                metadata=metadata,
            )
        return Feedback(
            name=self.name,
            value=result.score,
            rationale=result.reason,
            source=source_kind,
            metadata=metadata,
        )

    # ------------------------------------------------------------- registration, MLflow's way

    def as_decorator_scorer(self) -> Scorer:
        """This scorer as MLflow stores custom scorers: an ``@scorer`` function (MLflow's own
        decorator) whose body rebuilds it from its configuration, kept as a parameter default.
        What ``register`` registers and ``model_dump`` serializes."""
        return self.decorator_scorer(self._config_json(), self.name, self.description)

    @classmethod
    def decorator_scorer(cls, config: str, name: str, description: str | None) -> Scorer:
        """The ``@scorer`` function for a configuration (``model_dump``'s JSON)."""
        from mlflow.genai.scorers import scorer

        template = cls.registered_body
        function = types.FunctionType(
            template.__code__,
            template.__globals__,
            template.__name__,
            (None, None, None, None, config),
        )
        described = "description" in inspect.signature(scorer).parameters  # MLflow >= 3.5
        extra: dict[str, Any] = {"description": description} if described else {}
        return scorer(function, name=name, **extra)

    def _config_json(self) -> str:
        if self._config is None:
            raise MlflowException.invalid_parameter_value(
                f"Summarization {self.name!r} was built from a judge object (llm= or scorer=), "
                "which lives in this process only: MLflow stores a custom scorer as source code "
                "and literals. Build it with model='<provider>:/<model>' (or MLflow's default "
                "judge), the preset and its options to register or serialize it."
            )
        try:
            return json.dumps(self._config, sort_keys=True, ensure_ascii=False)
        except TypeError as exc:
            raise MlflowException.invalid_parameter_value(
                f"Summarization {self.name!r}: its options must be JSON literals to be "
                f"registered ({exc})"
            ) from None

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        """The registered form's serialization. ``mlflow.genai.evaluate()`` asks for it for every
        row it scores (to hash the scorer's definition into the row's feedback), and building
        it reads the registered function's source again: it is built once per configuration."""
        if kwargs:
            return self.as_decorator_scorer().model_dump(**kwargs)
        dumped: dict[str, Any] = json.loads(
            _dump_of(type(self), self._config_json(), self.name, self.description)  # type: ignore[arg-type]
        )
        return dumped

    def register(self, *, name: str | None = None, experiment_id: str | None = None) -> Scorer:
        return self.as_decorator_scorer().register(name=name, experiment_id=experiment_id)

    def start(self, *, name: str | None = None, experiment_id: str | None = None, **kw: Any) -> Any:
        return self.as_decorator_scorer().start(name=name, experiment_id=experiment_id, **kw)

    def update(
        self, *, name: str | None = None, experiment_id: str | None = None, **kw: Any
    ) -> Any:
        return self.as_decorator_scorer().update(name=name, experiment_id=experiment_id, **kw)

    def stop(self, *, name: str | None = None, experiment_id: str | None = None) -> Scorer:
        return self.as_decorator_scorer().stop(name=name, experiment_id=experiment_id)


@functools.lru_cache(maxsize=32)
def _from_config(cls: type[SummarizationFace], config: str) -> SummarizationFace:
    data = json.loads(config)
    options = data.pop("options", None) or {}
    return cls(**data, **options)


@functools.lru_cache(maxsize=64)
def _dump_of(cls: type[SummarizationFace], config: str, name: str, description: str | None) -> str:
    """The registered form's ``model_dump``, as JSON (a copy for every caller)."""
    return json.dumps(cls.decorator_scorer(config, name, description).model_dump())


def _model_of(llm: Any, model: str | None) -> str | None:
    """The judge model URI given: ``model=``, or a string ``llm=`` (MLflow has no other meaning
    for a string judge)."""
    if isinstance(llm, str):
        if model is not None:
            raise TypeError("Summarization: pass the judge once, as model= (a model URI)")
        model = llm
    if model is not None and not is_model_uri(model):
        raise ValueError(
            f"Summarization: {model!r} is not an MLflow judge model URI. Name the judge as "
            "MLflow's built-in judges do: model='openai:/gpt-4o-mini', 'anthropic:/<model>', "
            "'gateway:/<endpoint>' or 'databricks'; llm= takes a judge object"
        )
    return model


def _same_model(owner: str, model: str, llm: Any, scorer: SummarizationScorer | None) -> None:
    if llm is not None:
        raise TypeError(f"{owner}: pass the judge once: model= (a model URI) or llm= (an object)")
    judge = scorer.judge if scorer is not None else None
    if not (isinstance(judge, MLflowJudge) and judge.model_uri == model):
        raise ValueError(
            f"{owner}: model={model!r} and scorer= name different judges; pass only scorer= "
            f"(it judges with {judge.name if judge is not None else 'another judge'})"
        )


def _flat(value: Any) -> str:
    """MLflow keeps assessment metadata as strings."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
