"""The service's one error shape, ``{"error": {"type", "message", "field"}}``, and the guard that
answers bodies a scoring endpoint cannot read before the app parses them.

A curl user sees what to fix: a body sent without ``Content-Type: application/json`` is a 415 that
says to send that header (curl's ``-d`` sends ``application/x-www-form-urlencoded``), an empty
body a 400, a body over the limit a 413, and malformed JSON a 400 naming the line and column.
"""

from __future__ import annotations

import email.message
from collections.abc import Collection, Mapping
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..masking.secrets import redact

__all__ = ["ApiError", "BodyGuard", "error_response", "json_error_message"]


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
) -> JSONResponse:
    body = {"error": {"type": type, "message": redact(message), "field": field}}
    return JSONResponse(body, status_code=status, headers=headers)


def json_error_message(document: Any, position: Any, reason: str) -> str:
    """ "the body is not valid JSON: Expecting ',' delimiter at line 3, column 12" (the place
    counted as an editor does, from the text FastAPI failed to parse)."""
    if isinstance(document, (bytes, bytearray)):
        document = bytes(document).decode("utf-8", "replace")
    if not isinstance(document, str) or not isinstance(position, int):
        return f"the body is not valid JSON: {reason}"
    line = document.count("\n", 0, position) + 1
    column = position - document.rfind("\n", 0, position)
    return f"the body is not valid JSON: {reason} at line {line}, column {column}"


def _is_json(content_type: str) -> bool:
    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )


class BodyGuard:
    """For POSTs to ``paths``: 415 unless the body is declared JSON, 400 for an empty body, 413
    over ``limit`` bytes (read in chunks, never whole); the body is then handed to the app."""

    def __init__(self, app: ASGIApp, limit: int, paths: Collection[str]) -> None:
        self.app, self.limit, self.paths = app, limit, frozenset(paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] not in self.paths:
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        content_type = headers.get(b"content-type", b"").decode("latin-1")
        if not _is_json(content_type):
            sent = f"'Content-Type: {content_type}'" if content_type else "no Content-Type"
            response = error_response(
                415,
                "unsupported_media_type",
                f"the body must be JSON sent with the header 'Content-Type: application/json' "
                f"(this request has {sent}); with curl: -H 'Content-Type: application/json'",
                field="Content-Type",
            )
            await response(scope, receive, send)
            return
        declared = headers.get(b"content-length")
        too_large = declared is not None and declared.isdigit() and int(declared) > self.limit
        chunks: list[bytes] = []
        size = 0
        while not too_large:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            too_large = size > self.limit
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        if too_large:
            response = error_response(
                413, "too_large", f"the request body is larger than {self.limit} bytes"
            )
            await response(scope, receive, send)
            return
        body = b"".join(chunks)
        if not body.strip():
            response = error_response(
                400,
                "empty_body",
                "the request has no body: send a JSON object (its schema: GET /openapi.json)",
            )
            await response(scope, receive, send)
            return
        sent_body = False

        async def replay() -> Message:
            nonlocal sent_body
            if not sent_body:
                sent_body = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
