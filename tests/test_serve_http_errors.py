"""Requests that are not HTTP/1.1 uvicorn can read (a chunked body whose framing is broken, a
Content-Length that is not a number, a request line of garbage) get the service's one error shape,
``{"error": {"type": "invalid_http", ...}}``, not uvicorn's plain-text "Invalid HTTP request
received."."""

from __future__ import annotations

import json
import socket

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from .test_serve_slow_clients import WAIT, serving

_CASE = b'{"source": "The mill closed in 1990.", "summary": "It closed."}'


def _exchange(address: tuple[str, int], request: bytes) -> bytes:
    with socket.create_connection(address, timeout=WAIT) as client:
        client.sendall(request)
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
    return answer


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\nzz\r\n" + _CASE + b"\r\n0\r\n\r\n",
        b"POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Length: many\r\n\r\n" + _CASE,
        b"POST /v1/score HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}",  # no Host
        b"GARBAGE\r\n\r\n",
    ],
    ids=["broken chunk framing", "content-length not a number", "no host", "garbage"],
)
def test_a_request_uvicorn_cannot_read_gets_the_documented_error_shape(
    request_bytes: bytes,
) -> None:
    with serving([]) as address:
        answer = _exchange(address, request_bytes)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 Bad Request\r\n"), answer
    assert b"content-type: application/json" in head.lower()
    if b"transfer-encoding: chunked" in head.lower():
        body = b"".join(body.split(b"\r\n")[1::2])
    error = json.loads(body)["error"]
    assert error["type"] == "invalid_http"
    assert error["message"].startswith("the request is not valid HTTP/1.1")
    assert error["field"] is None
