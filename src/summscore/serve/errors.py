"""The service's one error shape, ``{"error": {"type", "message", "field"}}``, and its JSON
answers, which never fail on text that UTF-8 cannot hold.

A lone surrogate (``"\\udfff"`` in a request's JSON) is a valid JSON string, and Python keeps it;
it has no UTF-8 encoding, so a plain JSON response of a result quoting it failed with a 500 (a
whole batch lost for one case). ``JSONAnswer`` writes it as the JSON escape ``\\udfff``,
the same string again for the client, as the CLI's JSONL output does.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from starlette.responses import JSONResponse

from ..masking.secrets import redact
from .jsonbody import place

__all__ = ["ApiError", "JSONAnswer", "error_response", "json_error_message"]


class JSONAnswer(JSONResponse):
    """A JSON response in which text UTF-8 cannot encode (a lone surrogate) is escaped."""

    def render(self, content: Any) -> bytes:
        return json.dumps(
            content, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
        ).encode("utf-8", "backslashreplace")


class ApiError(Exception):
    """An answer other than 200, in the service's error shape."""

    def __init__(
        self,
        status: int,
        type: str,
        message: str,
        field: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.type, self.field, self.headers = status, type, field, headers


def error_response(
    status: int,
    type: str,
    message: str,
    field: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONAnswer:
    body = {"error": {"type": type, "message": redact(message), "field": field}}
    return JSONAnswer(body, status_code=status, headers=headers)


def json_error_message(document: Any, position: Any, reason: str) -> str:
    """ "the body is not valid JSON: Expecting ',' delimiter at line 3, column 12" (the place
    counted as an editor does, from the text FastAPI failed to parse)."""
    if isinstance(document, (bytes, bytearray)):
        document = bytes(document).decode("utf-8", "replace")
    if not isinstance(document, str) or not isinstance(position, int):
        return f"the body is not valid JSON: {reason}"
    return f"the body is not valid JSON: {reason} at {place(document, position)}"
