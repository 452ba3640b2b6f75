"""Judge backend for an Inspect AI ``Model`` (``get_model(...)`` or a model role), so Inspect users
keep their model configuration: provider, base URL, keys, retries and logging are Inspect's.

Each request is sent with ``model.generate(prompt, config=GenerateConfig(response_schema=...))``
carrying the output model's JSON schema (providers without structured output ignore it); the
reply's text is parsed by the core.
"""

from __future__ import annotations

from typing import Any

from ..errors import MissingExtraError
from ._errors import classify_exception
from .base import JudgeReply, JudgeRequest
from .guard import check_model_request

try:
    from inspect_ai.model import GenerateConfig, Model, ResponseSchema
    from inspect_ai.util import json_schema
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("inspect-ai", "inspect", "An Inspect AI model judge", exc) from exc

__all__ = ["InspectJudge", "is_inspect_model"]


def is_inspect_model(model: Any) -> bool:
    return isinstance(model, Model)


class InspectJudge:
    """Ask an Inspect AI model."""

    reads_prompts = True

    def __init__(self, model: Any, *, structured: bool = True) -> None:
        if not is_inspect_model(model):
            raise TypeError(f"model: expected an inspect_ai Model, got {type(model).__name__}")
        self.model = model
        self.structured = structured
        self.name = f"inspect:{model}"

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        check_model_request(self.name)
        config = GenerateConfig()
        if self.structured:
            config = GenerateConfig(
                response_schema=ResponseSchema(
                    name=request.schema.__name__[:64], json_schema=json_schema(request.schema)
                )
            )
        try:
            output = await self.model.generate(request.prompt, config=config)
        except Exception as exc:
            raise classify_exception(exc) from None
        usage = output.usage
        return JudgeReply(
            output=output.completion,
            input_tokens=getattr(usage, "input_tokens", None),
            output_tokens=getattr(usage, "output_tokens", None),
        )

    def __repr__(self) -> str:
        return f"InspectJudge(name={self.name!r})"
