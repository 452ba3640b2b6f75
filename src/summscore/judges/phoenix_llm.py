"""Judge backend for Arize Phoenix's ``LLM`` (``phoenix.evals.LLM(provider=..., model=...)``), the
object Phoenix's built-in evaluators take as their judge.

Each request is asked as Phoenix's own evaluators ask for a structured answer:
``LLM.async_generate_object(prompt, schema)`` with the reply model's JSON schema, which the LLM's
provider adapter sends as structured output or a forced tool call. Provider, keys, Phoenix's
rate limiter and its tracing of the calls stay the LLM's. The reply (a dict) is validated by the
core.
"""

from __future__ import annotations

from typing import Any

from ..errors import MissingExtraError
from ._errors import classify_exception
from ._openai_sdk import _host_suffix
from ._secrets import register_secrets_in
from .base import JudgeReply, JudgeRequest

try:
    from phoenix.evals.llm import LLM
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError(
        "arize-phoenix-evals", "phoenix", "A Phoenix LLM judge", exc, module="phoenix"
    ) from exc

__all__ = ["PhoenixJudge", "is_phoenix_llm"]


def is_phoenix_llm(llm: Any) -> bool:
    return isinstance(llm, LLM)


class PhoenixJudge:
    """Ask a Phoenix ``LLM`` (see the module docstring)."""

    reads_prompts = True

    def __init__(self, llm: Any) -> None:
        if not is_phoenix_llm(llm):
            raise TypeError(f"llm: expected a phoenix.evals LLM, got {type(llm).__name__}")
        register_secrets_in(llm)
        self.llm = llm
        name = f"phoenix:{getattr(llm, 'provider', None) or 'llm'}:{getattr(llm, 'model', '')}"
        # @host:port when the LLM's client names an endpoint, as OpenAI judges' names do.
        self.name = name + _host_suffix(getattr(llm, "_async_client", None))

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        failure: Exception | None = None
        try:
            answer = await self.llm.async_generate_object(
                request.prompt, request.schema.model_json_schema()
            )
        except Exception as exc:
            failure = classify_exception(exc)
        if failure is not None:  # raised outside the handler: the provider's error is not chained
            raise failure
        return JudgeReply(output=answer)

    def __repr__(self) -> str:
        return f"PhoenixJudge(name={self.name!r})"
