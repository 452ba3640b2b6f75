"""Judge backend for ragas LLMs.

* ``InstructorBaseRagasLLM`` (what ``ragas.llms.llm_factory`` returns): called exactly as ragas's
  collections metrics call it, ``await llm.agenerate(prompt, OutputModel)`` (``generate`` in a
  worker thread for a sync client), so the same prompt reaches the model the same way.
* the legacy ``BaseRagasLLM`` (``LangchainLLMWrapper`` and friends): called as ragas's
  ``PydanticPrompt`` calls it, ``await llm.generate(StringPromptValue(text=prompt), n=1,
  temperature=None)``; the text of the first generation is parsed by the core.
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
    from langchain_core.prompt_values import StringPromptValue
    from ragas.llms.base import BaseRagasLLM
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("ragas", "ragas", "A ragas LLM judge", exc) from exc

try:
    from ragas.llms.base import InstructorBaseRagasLLM
except ImportError:  # pragma: no cover - ragas < 0.3 has only the legacy LLMs

    class InstructorBaseRagasLLM:  # type: ignore[no-redef]
        """Stands in for the instructor-based base class older ragas lacks (never matched)."""


__all__ = ["RagasJudge", "is_ragas_llm"]


def is_ragas_llm(llm: Any) -> bool:
    return isinstance(llm, (InstructorBaseRagasLLM, BaseRagasLLM))


class RagasJudge:
    """Ask a ragas LLM (modern instructor-based or legacy)."""

    reads_prompts = True

    def __init__(self, llm: Any) -> None:
        if not is_ragas_llm(llm):
            raise TypeError(
                f"llm: expected a ragas InstructorBaseRagasLLM or BaseRagasLLM, got {type(llm).__name__}"
            )
        register_secrets_in(llm)
        self.llm = llm
        self._instructor = isinstance(llm, InstructorBaseRagasLLM)
        self.name = f"ragas:{_model_name(llm)}"

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        check_model_request(self.name)
        try:
            if self._instructor:
                return await self._instructor_call(request)
            return await self._legacy_call(request)
        except Exception as exc:
            failure = classify_exception(exc)
        raise failure  # outside the handler: the provider's error is not chained

    async def _instructor_call(self, request: JudgeRequest) -> JudgeReply:
        if getattr(self.llm, "is_async", True):
            result = await self.llm.agenerate(request.prompt, request.schema)
        else:
            result = await asyncio.to_thread(self.llm.generate, request.prompt, request.schema)
        raw = getattr(result, "_raw_response", None)
        usage = getattr(raw, "usage", None)
        return JudgeReply(
            output=result,
            input_tokens=getattr(usage, "prompt_tokens", None),
            output_tokens=getattr(usage, "completion_tokens", None),
        )

    async def _legacy_call(self, request: JudgeRequest) -> JudgeReply:
        result = await self.llm.generate(
            StringPromptValue(text=request.prompt), n=1, temperature=None, stop=None, callbacks=None
        )
        generations = getattr(result, "generations", None) or [[]]
        text = generations[0][0].text if generations and generations[0] else ""
        token_usage = (getattr(result, "llm_output", None) or {}).get("token_usage") or {}
        return JudgeReply(
            output=text,
            input_tokens=token_usage.get("prompt_tokens"),
            output_tokens=token_usage.get("completion_tokens"),
        )

    def __repr__(self) -> str:
        return f"RagasJudge(name={self.name!r})"


def _model_name(llm: Any) -> str:
    model = getattr(llm, "model", None)
    if isinstance(model, str) and model:
        return model
    inner = getattr(llm, "langchain_llm", None)
    for attr in ("model_name", "model"):
        value = getattr(inner, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(llm).__name__
