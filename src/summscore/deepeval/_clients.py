"""Speed only: deepeval's ``GPTModel`` builds a new ``AsyncOpenAI`` client for every call (about
50 ms of CPU each, most of it a new TLS context), which made the face as CPU-bound as upstream's
metric inside ``deepeval.evaluate()``. The face's judge asks a copy of the model that carries one
HTTP client per event loop instead (deepeval's own ``async_http_client`` setting): the same
requests, the same model, the same numbers, a fiftieth of the CPU. The user's model object is
never changed, and a model the user gave an ``async_http_client`` of their own is used as is."""

from __future__ import annotations

import asyncio
import copy
import weakref
from typing import Any

from ..judges.base import JudgeRequest
from ..judges.deepeval_model import DeepEvalJudge

__all__ = ["PooledClientJudge", "pools_clients"]


def pools_clients(model: Any) -> bool:
    """A deepeval OpenAI model that would build a client per call (and takes a shared one)."""
    return (
        type(model) is _openai_model_class()
        and hasattr(model, "async_http_client")
        and model.async_http_client is None
    )


def _openai_model_class() -> type | None:
    """deepeval's OpenAI model class: ``OpenAIModel`` from deepeval 4 on, where the name
    ``GPTModel`` is only a deprecated alias whose look-up warns (the warning would name this
    module in every user's test run), ``GPTModel`` before."""
    try:
        from deepeval.models import OpenAIModel

        return OpenAIModel
    except ImportError:  # deepeval 3
        pass
    try:
        from deepeval.models import GPTModel

        return GPTModel
    except ImportError:  # pragma: no cover - a deepeval without either
        return None


class PooledClientJudge(DeepEvalJudge):
    """``DeepEvalJudge`` asking, in each event loop, a copy of the model with one client."""

    def __init__(self, model: Any, *, async_mode: bool = True) -> None:
        super().__init__(model, async_mode=async_mode)
        self._copies: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = (
            weakref.WeakKeyDictionary()
        )

    def _for_this_loop(self) -> Any:
        loop = asyncio.get_running_loop()
        model = self._copies.get(loop)
        if model is None:
            import openai

            model = copy.copy(self.model)
            model.async_http_client = openai.DefaultAsyncHttpxClient()
            self._copies[loop] = model
        return model

    async def _agenerate(self, request: JudgeRequest) -> Any:
        return await self._agenerate_on(self._for_this_loop(), request)
