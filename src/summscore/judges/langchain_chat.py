"""Judge backend for a langchain-core ``BaseChatModel`` (ChatOpenAI, ChatAnthropic, ChatOllama, ...)."""

from __future__ import annotations

from typing import Any

from ..errors import MissingExtraError
from ._errors import classify_exception
from ._secrets import register_secrets_in
from .base import JudgeReply, JudgeRequest
from .guard import check_model_request

try:
    from langchain_core.messages import HumanMessage, SystemMessage
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("langchain-core", "langchain", "A LangChain judge", exc) from exc

__all__ = ["LangChainJudge"]


class LangChainJudge:
    """Ask a LangChain chat model with the rendered prompt as one human message.

    The reply's text is parsed by the core, which works with every chat model; token counts come
    from ``AIMessage.usage_metadata`` when the provider fills it.
    """

    reads_prompts = True

    def __init__(self, model: Any, *, system_prompt: str | None = None) -> None:
        register_secrets_in(model)
        self._model = model
        self.system_prompt = system_prompt
        self.name = f"langchain:{_model_name(model)}"

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        check_model_request(self.name)
        messages: list[Any] = []
        if self.system_prompt:
            messages.append(SystemMessage(content=self.system_prompt))
        messages.append(HumanMessage(content=request.prompt))
        failure: Exception | None = None
        try:
            message = await self._model.ainvoke(messages)
        except Exception as exc:
            failure = classify_exception(exc)
        if failure is not None:  # raised outside the handler: the provider's error is not chained
            raise failure
        usage = getattr(message, "usage_metadata", None) or {}
        return JudgeReply(
            output=_text_of(getattr(message, "content", message)),
            input_tokens=usage.get("input_tokens"),
            output_tokens=usage.get("output_tokens"),
        )

    def __repr__(self) -> str:
        return f"LangChainJudge(name={self.name!r})"


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content blocks
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict) and block.get("type") in (None, "text"):
                parts.append(str(block.get("text", "")))
        return "".join(parts)
    return str(content)


def _model_name(model: Any) -> str:
    for attr in ("model_name", "model", "model_id", "deployment_name"):
        value = getattr(model, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(model).__name__
