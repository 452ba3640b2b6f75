"""Judge backend for a plain callable ``(prompt: str, schema: type[BaseModel]) -> BaseModel``.

The callable may be async or sync (sync ones run in a worker thread) and may return a model
instance, a dict, or JSON text; the core validates whatever comes back. Handy for tests and for
wiring in a provider SDK that summscore does not know.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

from ._errors import classify_exception
from ._secrets import register_secrets_in
from .base import JudgeReply, JudgeRequest

__all__ = ["FunctionJudge"]


class FunctionJudge:
    """Wrap ``fn(prompt, schema)`` as a judge. ``name`` defaults to the function's name."""

    reads_prompts = True

    def __init__(self, fn: Callable[..., Any], *, name: str | None = None) -> None:
        if not callable(fn):
            raise TypeError(f"llm: expected a callable, got {type(fn).__name__}")
        register_secrets_in(fn)
        self._fn = fn
        self._is_async = inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
            type(fn).__call__
        )
        self.name = f"function:{name or getattr(fn, '__name__', type(fn).__name__)}"

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        try:
            if self._is_async:
                output = await self._fn(request.prompt, request.schema)
            else:
                output = await asyncio.to_thread(self._fn, request.prompt, request.schema)
                if inspect.isawaitable(output):
                    output = await output
        except Exception as exc:
            failure = classify_exception(exc)
        else:
            return JudgeReply(output=output)
        raise failure  # outside the handler: the function's own error is not chained

    def __repr__(self) -> str:
        return f"FunctionJudge(name={self.name!r})"
