"""The gate in front of the scoring endpoints: who is asking, then what they send, in an order
that costs the server as little as possible before it knows.

For each POST to a scoring path, in this order:

1. the bearer token, when the server has one (401), from the headers alone: an unknown caller
   never gets its body read or parsed;
2. ``Content-Type: application/json`` (415: the message says which header to send; curl's ``-d``
   sends a form);
3. a declared ``Content-Length`` over the limit (413), before a byte of the body is read;
4. room for the body: the bodies held at once (being read, or parsed and scored) stay within
   ``memory`` bytes; a request that would pass it is refused with 503 and ``Retry-After`` (one
   request alone is always taken);
5. the body, read in chunks within ``body_timeout`` seconds (408 for a client that trickles it),
   never more than the limit (413);
6. an empty body (400 ``empty_body``) and a body that is not strict JSON (400 ``invalid_json``
   with its line and column, for every kind: bad syntax, bytes that are not UTF-8, nesting past
   64 levels, an integer of 5,000 digits, NaN; see ``jsonbody``).

The parsed body is left in the request's scope, so the app does not parse it again; while the app
answers, a piece of a server secret the body holds is left as sent (``masking.sent``).
"""

from __future__ import annotations

import asyncio
import email.message
import hmac
from collections.abc import Callable, Collection
from typing import Any

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..masking.sent import secrets_in, sent_by_caller
from .errors import error_response
from .jsonbody import InvalidBody, parse_json_body

__all__ = ["PARSED_BODY", "RequestGuard", "token_matches", "unauthorized"]

PARSED_BODY = "summscore.parsed_body"  # the scope key of the parsed body
_SENT = "summscore.sent_secrets"  # the server secrets a piece of which the body holds
_THREAD_PARSE = 256 * 1024  # bodies above this are parsed in a thread (the loop keeps serving)


def token_matches(headers: Any, token: str) -> bool:
    """Whether ``Authorization: Bearer <token>`` is among ``headers`` (compared in constant time)."""
    given = ""
    for name, value in headers:
        if name.lower() == b"authorization":
            scheme, _, credentials = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer":
                given = credentials.strip()
            break
    return hmac.compare_digest(given.encode(), token.encode())


def unauthorized() -> Any:
    return error_response(
        401,
        "unauthorized",
        "a valid 'Authorization: Bearer <token>' header is required",
        field="Authorization",
        headers={"WWW-Authenticate": "Bearer"},
    )


def _is_json(content_type: str) -> bool:
    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )


class _TimedOut(Exception):
    pass


class _Stopping(Exception):
    pass


class _NoRoom(Exception):
    pass


_TOO_LARGE = object()  # what _read gives back for a body past the limit


class RequestGuard:
    """ASGI middleware guarding POSTs to ``paths`` (see the module's docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        limit: int,
        paths: Collection[str],
        token: str | None = None,
        body_timeout: float = 60.0,
        memory: int | None = None,
        stopping: Callable[[], asyncio.Event] | None = None,
        on_body_timeout: Callable[[], None] | None = None,
    ) -> None:
        self.app, self.limit, self.paths = app, limit, frozenset(paths)
        self.token, self.body_timeout = token, body_timeout
        self.memory = memory  # bytes of bodies held at once (None: no bound)
        self.held = 0
        self.stopping = stopping  # set when the server stops: a body still coming gets a 503
        # Told of each body answered 408 (the metrics: the connection is closed with the answer,
        # so the protocol's own body deadline, which counts the others, never sees it).
        self.on_body_timeout = on_body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] not in self.paths:
            await self.app(scope, receive, send)
            return
        answer = self._check_headers(scope)
        held = [0]  # the bytes of the budget this request holds, until it is answered
        try:
            if answer is None:
                answer = await self._answer(scope, receive, send, held)
            if answer is not None:
                await answer(scope, receive, send)
        finally:
            self.held -= held[0]

    async def _answer(self, scope: Scope, receive: Receive, send: Send, held: list[int]) -> Any:
        """Read the body and hand the request to the app (None: the app has answered), or the
        answer to send instead."""

        def take(size: int) -> None:
            """Hold the budget for ``size`` bytes of this body in all, or _NoRoom."""
            more = size - held[0]
            if more <= 0:
                return
            others = self.held - held[0]  # one request alone is always taken
            if self.memory is not None and others > 0 and self.held + more > self.memory:
                raise _NoRoom
            self.held += more
            held[0] += more

        try:
            take(_declared(scope["headers"]))
            body = await self._read(receive, take)
        except _NoRoom:
            megabytes = (self.memory or 0) / 2**20
            return error_response(
                503,
                "overloaded",
                f"the server holds as many request bodies as it takes at once ({megabytes:g} MB "
                "in all); retry after the Retry-After seconds",
                headers={"Retry-After": "1", "Connection": "close"},
            )
        except _TimedOut:
            if self.on_body_timeout is not None:
                self.on_body_timeout()
            return error_response(
                408,
                "request_timeout",
                f"the request body did not arrive within {self.body_timeout:g} s; send it "
                "faster, or ask the operator for a longer --body-timeout",
                headers={"Connection": "close"},
            )
        except _Stopping:
            return error_response(
                503,
                "shutting_down",
                "the server is shutting down; send the request again (to another replica)",
                headers={"Connection": "close", "Retry-After": "1"},
            )
        if body is None:
            return None  # the client went away
        answer = await self._check_body(scope, body)
        if answer is None:
            # What the caller sent comes back as sent, a piece of a server key in it too: masked,
            # it would tell the caller that it guessed a piece of the key (``masking.sent``).
            with sent_by_caller(scope[_SENT]):
                await self.app(scope, _replay(body, receive), send)
        return answer

    def _check_headers(self, scope: Scope) -> Any:
        headers = scope["headers"]
        if self.token is not None and not token_matches(headers, self.token):
            return unauthorized()
        content_type = ""
        declared = None
        for name, value in headers:
            if name == b"content-type":
                content_type = value.decode("latin-1")
            elif name == b"content-length":
                declared = value
        if not _is_json(content_type):
            sent = f"'Content-Type: {content_type}'" if content_type else "no Content-Type"
            return error_response(
                415,
                "unsupported_media_type",
                f"the body must be JSON sent with the header 'Content-Type: application/json' "
                f"(this request has {sent}); with curl: -H 'Content-Type: application/json'",
                field="Content-Type",
            )
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            return self._too_large()
        return None

    def _too_large(self) -> Any:
        return error_response(
            413, "too_large", f"the request body is larger than {self.limit} bytes"
        )

    async def _read(self, receive: Receive, take: Callable[[int], None]) -> Any:
        """The body; None if the client left, _TOO_LARGE past the limit (reading stops there);
        _TimedOut past ``body_timeout``, _Stopping when the server stops meanwhile; ``take``
        holds the budget for the bytes so far (or raises _NoRoom)."""
        chunks: list[bytes] = []
        size = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_timeout
        stop = asyncio.ensure_future(self.stopping().wait()) if self.stopping else None
        try:
            while True:
                message = await self._next(receive, deadline - loop.time(), stop)
                if message["type"] == "http.disconnect":
                    return None
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > self.limit:
                    return _TOO_LARGE
                take(size)
                chunks.append(chunk)
                if not message.get("more_body", False):
                    return b"".join(chunks)
        finally:
            if stop is not None:
                stop.cancel()

    @staticmethod
    async def _next(receive: Receive, seconds: float, stop: asyncio.Future[Any] | None) -> Message:
        if seconds <= 0:
            raise _TimedOut
        if stop is None:
            try:
                return await asyncio.wait_for(receive(), seconds)
            except asyncio.TimeoutError:
                raise _TimedOut from None
        chunk = asyncio.ensure_future(receive())
        try:
            await asyncio.wait({chunk, stop}, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not chunk.done():
                chunk.cancel()
        if chunk.done() and not chunk.cancelled():
            return chunk.result()
        raise _Stopping if stop.done() else _TimedOut

    async def _check_body(self, scope: Scope, body: Any) -> Any:
        if body is _TOO_LARGE:
            return self._too_large()
        if not body.strip():
            return error_response(
                400,
                "empty_body",
                "the request has no body: send a JSON object (its schema: GET /openapi.json)",
            )
        try:
            if len(body) > _THREAD_PARSE:
                parsed, sent = await anyio.to_thread.run_sync(_parse, body)
            else:
                parsed, sent = _parse(body)
        except InvalidBody as exc:
            return error_response(400, "invalid_json", str(exc))
        scope[PARSED_BODY], scope[_SENT] = parsed, sent
        return None


def _parse(body: bytes) -> tuple[Any, tuple[frozenset[str], str] | None]:
    parsed = parse_json_body(body)
    return parsed, secrets_in(parsed)


def _declared(headers: Any) -> int:
    """The body's declared Content-Length (0 when absent or not a number)."""
    for name, value in headers:
        if name == b"content-length":
            return int(value) if value.isdigit() else 0
    return 0


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
