"""Judge backend for deepeval models: a ``DeepEvalBaseLLM`` or a model name string.

Called exactly as deepeval's metrics call their judge (``a_generate_with_schema(prompt,
schema=...)``), so native models keep their structured outputs and cost reporting: a native model
returns ``(result, cost)`` and the cost lands in ``Usage.cost``. A name string is resolved by
deepeval's own ``initialize_model``, honouring the provider chosen with ``deepeval set-...``.

Each request is one attempt. deepeval's own models retry a failed call themselves (tenacity: one
more attempt after a 1 to 3 s sleep that ignores Retry-After, then ``RetryError``); summscore's
sender retries too, so that retry would only hide the 429s from the scorer's adaptive request
limit, hold a request slot through its sleep, and turn two 429s in a row into a failed case. The
judge calls the model's ``a_generate`` / ``generate`` with deepeval's retry stopped after the
first attempt (its per-attempt timeout still applies), and the sender's retry policy decides.
A model whose methods are the user's own is called as it is.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
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


__all__ = ["DeepEvalJudge", "is_deepeval_model", "resolve_deepeval_model", "single_attempt"]


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
            raise classify_exception(_last_error(exc)) from None
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
    # The base class's generate_with_schema() does that fallback itself; it is done here instead
    # (the same calls), so that deepeval's retry around generate() can be stopped.

    async def _agenerate(self, request: JudgeRequest) -> Any:
        return await self._agenerate_on(self.model, request)

    def _generate(self, request: JudgeRequest) -> Any:
        return self._generate_on(self.model, request)

    @staticmethod
    async def _agenerate_on(model: Any, request: JudgeRequest) -> Any:
        method = getattr(model, "a_generate_with_schema", None)
        if method is not None and _own_method(model, "a_generate_with_schema"):
            return await method(request.prompt, schema=request.schema)
        generate = single_attempt(model.a_generate)
        if request.schema is not None or method is None:
            try:
                return await generate(request.prompt, schema=request.schema)
            except TypeError:
                pass
        return await generate(request.prompt)

    @staticmethod
    def _generate_on(model: Any, request: JudgeRequest) -> Any:
        method = getattr(model, "generate_with_schema", None)
        if method is not None and _own_method(model, "generate_with_schema"):
            return method(request.prompt, schema=request.schema)
        generate = single_attempt(model.generate)
        if request.schema is not None or method is None:
            try:
                return generate(request.prompt, schema=request.schema)
            except TypeError:
                pass
        return generate(request.prompt)

    def __repr__(self) -> str:
        return f"DeepEvalJudge(name={self.name!r})"


def _own_method(model: Any, name: str) -> bool:
    """True when ``model``'s class overrides deepeval's base ``name`` (it is then called as is)."""
    return getattr(type(model), name, None) is not getattr(DeepEvalBaseLLM, name, None)


@functools.lru_cache(maxsize=64)
def _first_attempt_only(func: Callable[..., Any]) -> Callable[..., Any]:
    from tenacity import stop_after_attempt

    return func.retry_with(stop=stop_after_attempt(1), reraise=True)  # type: ignore[attr-defined]


def single_attempt(method: Any) -> Any:
    """A deepeval model's bound ``method`` with deepeval's own tenacity retry stopped after the
    first attempt (the first error raised as it is); any other method as it is."""
    func = getattr(method, "__func__", None)
    if not callable(getattr(func, "retry_with", None)) or not getattr(
        func, "__module__", ""
    ).startswith("deepeval."):
        return method
    return functools.partial(_first_attempt_only(func), method.__self__)


def _last_error(exc: BaseException) -> BaseException:
    """The error behind tenacity's ``RetryError`` (a model whose own retries gave up), so that a
    429 is still a 429."""
    attempt = getattr(exc, "last_attempt", None)
    if type(exc).__name__ == "RetryError" and attempt is not None:
        try:
            inner = attempt.exception()
        except Exception:
            return exc
        if isinstance(inner, BaseException):
            return inner
    return exc
