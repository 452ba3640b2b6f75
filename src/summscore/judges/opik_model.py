"""Judge backend for an Opik model: an ``OpikBaseModel`` (``LiteLLMChatModel``, Opik's Anthropic
model, a subclass of your own), as Opik's LLM-judge metrics take it in ``model=``.

Each request is asked the way the installed Opik's own metrics ask: ``agenerate_chat_completion``
with one user message (Opik 2.1 and later), else ``agenerate_string`` (Opik 2.0), else the
synchronous ``generate_string`` in a thread, for a model that implements only what is abstract;
the reply model goes as ``response_format``. The reply's text is parsed by the core. Provider,
keys, retries and Opik's tracing of the calls stay the model's.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..errors import MissingExtraError
from ._errors import classify_exception
from ._secrets import register_secrets_in
from .base import JudgeReply, JudgeRequest
from .guard import check_model_request

try:
    from opik.evaluation.models import OpikBaseModel
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("opik", "opik", "An Opik model judge", exc) from exc

__all__ = ["OpikJudge", "is_opik_model"]


def is_opik_model(model: Any) -> bool:
    return isinstance(model, OpikBaseModel)


class OpikJudge:
    """Ask an Opik model (see the module docstring)."""

    reads_prompts = True

    def __init__(self, model: Any) -> None:
        if not is_opik_model(model):
            raise TypeError(f"model: expected an Opik OpikBaseModel, got {type(model).__name__}")
        register_secrets_in(model)
        self.model = model
        self.name = f"opik:{getattr(model, 'model_name', None) or type(model).__name__}"

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        check_model_request(self.name)
        failure: Exception | None = None
        try:
            text = await self._ask(request)
        except Exception as exc:
            failure = classify_exception(exc)
        if failure is not None:  # raised outside the handler: the provider's error is not chained
            raise failure
        return JudgeReply(output=text)

    async def _ask(self, request: JudgeRequest) -> str:
        model, schema = self.model, request.schema
        chat = getattr(model, "agenerate_chat_completion", None)
        if chat is not None:
            try:
                message = await chat(
                    messages=[{"role": "user", "content": request.prompt}], response_format=schema
                )
                return str(message.get("content") or "")
            except NotImplementedError:
                pass
        try:
            return str(await model.agenerate_string(input=request.prompt, response_format=schema))
        except NotImplementedError:
            pass
        reply = await asyncio.to_thread(
            model.generate_string, input=request.prompt, response_format=schema
        )
        return str(reply)

    def __repr__(self) -> str:
        return f"OpikJudge(name={self.name!r})"
