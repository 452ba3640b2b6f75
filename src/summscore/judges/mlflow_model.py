"""Judge backend for an MLflow judge model URI: ``"openai:/gpt-4o-mini"``, ``"anthropic:/..."``,
``"gateway:/<endpoint>"``, ``"endpoints:/<endpoint>"``, ``"databricks"``, as MLflow's built-in
judges take them in ``model=``.

The request goes where MLflow sends its own judges' requests, with MLflow's configuration
(``OPENAI_API_KEY`` / ``OPENAI_BASE_URL`` and the like, gateway endpoints of the tracking store,
Databricks credentials): MLflow 3.8+'s ``get_chat_completions_with_structured_output`` (its
built-in judges' adapters: Databricks' managed judge, MLflow's gateway providers, LiteLLM for the
rest) with the reply model as the output schema; on older MLflow ``score_model_on_payload`` (the
gateway providers and endpoints), whose text reply the core parses. MLflow retries transient
failures itself, as for its built-in judges. Token counts are not reported.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..errors import MissingExtraError
from ._errors import classify_exception
from .base import JudgeReply, JudgeRequest
from .guard import check_model_request

try:
    import mlflow  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("mlflow", "mlflow", "An MLflow model judge", exc) from exc

__all__ = ["MLflowJudge", "default_model", "is_model_uri"]

DATABRICKS = "databricks"


def is_model_uri(value: Any) -> bool:
    """Is ``value`` a judge model URI in MLflow's form (``"<provider>:/<model>"`` or
    ``"databricks"``)?"""
    if not isinstance(value, str):
        return False
    if value == DATABRICKS:
        return True
    provider, sep, model = value.partition(":/")
    return bool(sep and provider and model.lstrip("/"))


def default_model() -> str:
    """MLflow's default judge: ``$MLFLOW_GENAI_JUDGE_DEFAULT_MODEL``, "databricks" on a Databricks
    tracking URI, else MLflow's own default (``openai:/gpt-4.1-mini`` in MLflow 3)."""
    from mlflow.genai.judges.utils import get_default_model

    return str(get_default_model())


class MLflowJudge:
    """Ask the judge model an MLflow model URI names (see the module docstring)."""

    reads_prompts = True

    def __init__(self, model_uri: str, *, inference_params: dict[str, Any] | None = None) -> None:
        if not is_model_uri(model_uri):
            raise ValueError(
                f"model: {model_uri!r} is not an MLflow judge model URI; MLflow names judge "
                "models '<provider>:/<model>' (e.g. 'openai:/gpt-4o-mini', "
                "'anthropic:/claude-3-5-sonnet-latest', 'gateway:/<endpoint>') or 'databricks'"
            )
        self.model_uri = model_uri
        self.inference_params = dict(inference_params or {})
        self.name = f"mlflow:{model_uri}"

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        check_model_request(self.name)
        try:
            output = await asyncio.to_thread(self._ask, request)
        except Exception as exc:
            raise classify_exception(exc) from None
        return JudgeReply(output=output)

    def _ask(self, request: JudgeRequest) -> Any:
        try:
            from mlflow.genai.judges.utils import get_chat_completions_with_structured_output
        except ImportError:  # MLflow < 3.8
            return self._ask_as_text(request)
        from mlflow.types.llm import ChatMessage

        return get_chat_completions_with_structured_output(
            model_uri=self.model_uri,
            messages=[ChatMessage(role="user", content=request.prompt)],
            output_schema=request.schema,
            inference_params=self.inference_params or None,
        )

    def _ask_as_text(self, request: JudgeRequest) -> str:
        if self.model_uri == DATABRICKS:
            raise ValueError(
                "model='databricks' (Databricks' managed judge) needs MLflow >= 3.8; "
                "name an endpoint instead: model='databricks:/<endpoint>'"
            )
        from mlflow.metrics.genai.model_utils import score_model_on_payload

        return str(score_model_on_payload(self.model_uri, request.prompt, self.inference_params))

    def __repr__(self) -> str:
        return f"MLflowJudge(model_uri={self.model_uri!r})"
