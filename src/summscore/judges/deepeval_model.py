"""Judge backend for deepeval models: a ``DeepEvalBaseLLM`` or a model name string.

Called exactly as deepeval's metrics call their judge (``a_generate_with_schema(prompt,
schema=...)``), so native models keep their structured outputs and cost reporting: a native model
returns ``(result, cost)`` and the cost lands in ``Usage.cost``. A name string is resolved by
deepeval's own ``initialize_model``, honouring the provider chosen with ``deepeval set-...``.
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
    from deepeval.metrics.utils import initialize_model
    from deepeval.models import DeepEvalBaseLLM
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("deepeval", "deepeval", "A deepeval model judge", exc) from exc

try:
    from deepeval.metrics.utils import is_native_model
except ImportError:  # pragma: no cover - older deepeval: initialize_model says it instead

    def is_native_model(model: Any) -> bool:  # type: ignore[misc]
        return type(model).__module__.startswith("deepeval.models")


__all__ = ["DeepEvalJudge", "is_deepeval_model", "resolve_deepeval_model"]


def is_deepeval_model(model: Any) -> bool:
    return isinstance(model, DeepEvalBaseLLM)


def resolve_deepeval_model(model: str | Any | None) -> tuple[Any, bool]:
    """(model object, is native) the way deepeval's metrics resolve their ``model=`` argument."""
    resolved = initialize_model(model)
    if isinstance(resolved, tuple):
        return resolved[0], bool(resolved[1])
    return resolved, is_native_model(resolved)


class DeepEvalJudge:
    """Ask a deepeval model. ``async_mode=False`` calls its sync ``generate`` in a worker thread."""

    reads_prompts = True

    def __init__(self, model: Any = None, *, async_mode: bool = True) -> None:
        if model is None or isinstance(model, str):
            model, native = resolve_deepeval_model(model)
        elif isinstance(model, DeepEvalBaseLLM):
            native = is_native_model(model)
        else:
            raise TypeError(
                f"model: expected a deepeval DeepEvalBaseLLM or a model name, got {type(model).__name__}"
            )
        register_secrets_in(model)
        self.model = model
        self.native = native
        self.async_mode = async_mode
        self.name = f"deepeval:{model.get_model_name()}"

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        check_model_request(self.name)
        try:
            if self.async_mode:
                result = await self._agenerate(request)
            else:
                result = await asyncio.to_thread(self._generate, request)
        except Exception as exc:
            raise classify_exception(exc) from None
        cost = None
        if isinstance(result, tuple) and len(result) == 2:
            result, cost = result
        value = getattr(cost, "value", cost)
        return JudgeReply(
            output=result,
            input_tokens=getattr(cost, "input_tokens", None),
            output_tokens=getattr(cost, "output_tokens", None),
            cost=float(value) if isinstance(value, (int, float)) else None,
        )

    # deepeval >= 3.x gives every model generate_with_schema(); before, metrics called
    # generate(prompt, schema=...) and fell back to generate(prompt) for models without schemas.

    async def _agenerate(self, request: JudgeRequest) -> Any:
        method = getattr(self.model, "a_generate_with_schema", None)
        if method is not None:
            return await method(request.prompt, schema=request.schema)
        try:
            return await self.model.a_generate(request.prompt, schema=request.schema)
        except TypeError:
            return await self.model.a_generate(request.prompt)

    def _generate(self, request: JudgeRequest) -> Any:
        method = getattr(self.model, "generate_with_schema", None)
        if method is not None:
            return method(request.prompt, schema=request.schema)
        try:
            return self.model.generate(request.prompt, schema=request.schema)
        except TypeError:
            return self.model.generate(request.prompt)

    def __repr__(self) -> str:
        return f"DeepEvalJudge(name={self.name!r})"
