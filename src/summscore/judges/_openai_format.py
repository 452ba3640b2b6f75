"""Structured-output negotiation for ``OpenAIJudge``.

The judge asks for a JSON-schema ``response_format`` first; if the server rejects it, JSON mode;
if that is rejected too, plain text (``_FORMAT_ORDER``). ``_rejects_format`` tells such
a refusal from other errors, ``_json_schema_format`` builds the schema format for a reply
model, and ``_negotiated`` remembers, by (base URL, model), what each server accepted.
"""

from __future__ import annotations

import functools
import threading
from typing import Any, Literal

from pydantic import BaseModel

ResponseFormat = Literal["auto", "json_schema", "json_object", "text"]
_FORMAT_ORDER: tuple[str, ...] = ("json_schema", "json_object", "text")
_FORMAT_HINTS = ("response_format", "json_schema", "json_object", "schema", "format", "guided")
# Statuses with which servers refuse a response_format they do not support. 500 is among them:
# llama-cpp-python's server answers an unknown format with "internal_server_error" (its message
# names the field); a 500 that does not name the format stays a transient error.
_FORMAT_REFUSAL_STATUS = (400, 404, 415, 422, 500, 501)


# What each server accepted, by (base URL, model): a second judge for the same server starts
# where the first one's negotiation ended instead of being refused again.
_negotiated: dict[tuple[str, str], str] = {}
_negotiated_lock = threading.Lock()


def _rejects_format(exc: BaseException) -> bool:
    status = getattr(exc, "status_code", None)
    if status not in _FORMAT_REFUSAL_STATUS:
        return False
    text = str(exc).lower()
    body = getattr(exc, "body", None)
    if body is not None:
        text += " " + str(body).lower()
    return any(hint in text for hint in _FORMAT_HINTS)


@functools.lru_cache(maxsize=128)
def _json_schema_format(schema: type[BaseModel]) -> dict[str, Any]:
    """The ``response_format`` for a reply model, built once per model (it never changes)."""
    return {
        "type": "json_schema",
        "json_schema": {
            "name": _schema_name(schema.__name__),
            "schema": schema.model_json_schema(),
            "strict": False,
        },
    }


def _schema_name(name: str) -> str:
    cleaned = "".join(ch if ch.isalnum() or ch in "_-" else "_" for ch in name)
    return cleaned[:64] or "reply"
