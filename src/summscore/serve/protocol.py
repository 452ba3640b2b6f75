"""Slow clients timed out: uvicorn's HTTP/1.1 protocol with a deadline for a request's headers and
one for its body.

uvicorn closes a connection idle between requests (``timeout_keep_alive``), but has no deadline
while a request arrives: a client that sends its headers or its body a byte at a time holds a
connection (and, for a body, a coroutine and the bytes so far) for as long as it likes, and 300
such clients were never closed. ``timed_protocol`` makes a subclass of uvicorn's h11
protocol that watches h11's view of the client (``their_state``):

- from a connection's first moment, and from the first byte of each later request, the request
  line and headers must be complete within ``header_timeout`` seconds; otherwise the client gets
  a ``408`` in the service's error shape and the connection is closed;
- from the end of the headers, the body must be complete within ``body_timeout`` seconds plus a
  second. The scoring endpoints answer ``408`` themselves at ``body_timeout``
  (``guard``); this deadline closes any other connection still trickling a body (a body the
  app never reads, after a 404 say). While the app has not answered, it gets up to three more
  seconds (an event loop held by other work), then the connection is closed regardless.

A request h11 cannot read (a chunked body whose framing is broken, a ``Content-Length`` that is
not a number, no ``Host``, a request line of garbage) gets a ``400`` in the service's error shape
(type ``invalid_http``), not uvicorn's plain-text "Invalid HTTP request received.".

Headers are also bounded in size by h11 (16 KiB, uvicorn's default), bodies by the guard's limit.
The subclass uses uvicorn's h11 implementation whatever else is installed (with ``httptools``,
uvicorn's "auto" would pick a protocol without these deadlines).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["timed_protocol"]

_BODY_MARGIN = 1.0  # seconds: the app's own 408 comes first
_EXTENSIONS = 3  # margins more for an app that is about to answer (a busy event loop)


_INVALID_HTTP = json.dumps(
    {
        "error": {
            "type": "invalid_http",
            "message": "the request is not valid HTTP/1.1 (its request line, its headers or the "
            "framing of its chunked body); the connection is closed",
            "field": None,
        }
    }
).encode()


def _answer_408(message: str) -> bytes:
    body = json.dumps(
        {"error": {"type": "request_timeout", "message": message, "field": None}}
    ).encode()
    head = (
        "HTTP/1.1 408 Request Timeout\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


def timed_protocol(
    header_timeout: float,
    body_timeout: float,
    on_timeout: Callable[[str], None] | None = None,
) -> type[H11Protocol]:
    """An ``H11Protocol`` subclass with these deadlines (seconds); ``on_timeout("headers")`` or
    ``on_timeout("body")`` is told of each connection closed for one (the metrics)."""

    class TimedH11Protocol(H11Protocol):
        _timer: asyncio.TimerHandle | None = None
        _phase: str | None = None
        _extended = 0

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm("headers", header_timeout)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._follow()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._follow()

        def send_400_response(self, msg: str) -> None:
            """uvicorn's answer to a request h11 cannot read, in the service's error shape."""
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(_INVALID_HTTP)).encode()),
                (b"connection", b"close"),
            ]
            try:
                answer = h11.Response(status_code=400, headers=headers, reason=b"Bad Request")
                self.transport.write(self.conn.send(answer))
                self.transport.write(self.conn.send(h11.Data(data=_INVALID_HTTP)))
                self.transport.write(self.conn.send(h11.EndOfMessage()))
            except h11.LocalProtocolError:  # (an answer had begun: nothing more can be said)
                pass
            self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _follow(self) -> None:
            """Arm the deadline for what the client is sending now, per h11."""
            if self.transport is None or self.transport.is_closing():
                self._disarm()
                return
            state = self.conn.their_state
            if state is h11.SEND_BODY:
                self._arm("body", body_timeout + _BODY_MARGIN)
            elif state is h11.IDLE and (self.conn.trailing_data[0] or self.cycle is None):
                # A request is arriving, or none has yet on this connection.
                self._arm("headers", header_timeout)
            else:
                # The app is working, or the connection is idle between requests (uvicorn's
                # keep-alive timer closes it).
                self._disarm()

        def _arm(self, phase: str, seconds: float) -> None:
            if self._phase == phase and self._timer is not None:
                return  # the deadline runs from the phase's start, not from the last byte
            self._disarm()
            self._phase = phase
            self._timer = self.loop.call_later(seconds, self._expired, phase)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer, self._phase = None, None

        def _expired(self, phase: str) -> None:
            self._timer, self._phase = None, None
            if self.transport is None or self.transport.is_closing():
                return
            waiting = self.cycle is not None and not self.cycle.response_started
            if phase == "body" and waiting and self._extended < _EXTENSIONS:
                # The app has not answered yet (its loop was busy): its own 408 is due.
                self._extended += 1
                self._arm("body", _BODY_MARGIN)
                return
            if phase == "headers":  # no request yet: the answer is written here
                seconds = header_timeout
                self.transport.write(
                    _answer_408(f"the request line and headers did not arrive within {seconds:g} s")
                )
            # A body still trickling past the guard's own 408 (or after an answer that did not
            # need it): the connection is closed; the app, if waiting, sees the client gone.
            self.transport.close()
            if on_timeout is not None:
                on_timeout(phase)

    return TimedH11Protocol
