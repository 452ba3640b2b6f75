"""A local OpenAI-compatible gateway that echoes the caller's key back, as some real proxies do.

It answers chat completions like the compat judge server (the oracle's answers, in whatever
structured-output form the client asked for), but quotes the key it received (``Authorization:
Bearer``, ``api-key`` or ``x-api-key``) wherever a careless proxy might:

* ``mode="error"``: HTTP 400 whose JSON error body quotes the key, and a response header too;
* ``mode="server_error"``: the same as an HTTP 500 (a transient failure, retried);
* ``mode="echo"``: HTTP 200 whose every answer string carries the key (so replies, evidence,
  caches and reports all receive it), plus the response header;
* ``mode="unusable"``: HTTP 200 whose content is not JSON and quotes the key;
* ``mode="error_lower"`` and ``mode="echo_upper"``: "error" and "echo" with the key quoted in
  lower or upper case, as a gateway that normalises what it logs might.

Binds 127.0.0.1 on a free port; used by compat/test_leaks.py.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from compat.judge_server import JudgeServer

__all__ = ["MODES", "EchoGateway"]

MODES = ("error", "server_error", "echo", "unusable", "error_lower", "echo_upper")
_CASED = {"error_lower": ("error", str.lower), "echo_upper": ("echo", str.upper)}


class EchoGateway:
    """``with EchoGateway("echo") as gw: OpenAI(base_url=gw.url, api_key=...)``."""

    def __init__(self, mode: str = "echo") -> None:
        self.keys_seen: list[str] = []
        self.switch(mode)
        self._judge = JudgeServer()  # its completion() answers; its own port goes unused
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._http.daemon_threads = True
        self._thread = threading.Thread(
            target=self._http.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def switch(self, mode: str) -> None:
        """Answer in ``mode`` from now on, and forget the keys seen so far."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        self.mode = mode
        self.keys_seen.clear()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._http.server_address[1]}/v1"

    def __enter__(self) -> EchoGateway:
        self._judge.start()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._judge.stop()
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(timeout=5)

    def respond(self, key: str, body: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
        self.keys_seen.append(key)
        mode, cased = _CASED.get(self.mode, (self.mode, str))
        key = cased(key)  # the key as this gateway quotes it
        headers = {"x-echo-key": key, "x-request-note": f"authenticated as {key}"}
        if mode in ("error", "server_error"):
            status = 400 if mode == "error" else 500
            message = f"Incorrect API key provided: {key}. You can find your key in the dashboard."
            payload = {"error": {"message": message, "type": "invalid_request_error", "key": key}}
            return status, payload, headers
        status, payload, _ = self._judge.completion(body)
        message = payload["choices"][0]["message"]
        if mode == "unusable":
            message["content"] = f"Sorry, I cannot help with key {key} today."
            message.pop("tool_calls", None)
            return status, payload, headers
        if message.get("content"):
            message["content"] = _echo_into(message["content"], key)
        for call in message.get("tool_calls") or []:
            call["function"]["arguments"] = _echo_into(call["function"]["arguments"], key)
        return status, payload, headers


def _echo_into(content: str, key: str) -> str:
    """The JSON reply with the key appended to every string in it."""
    try:
        data = json.loads(content)
    except json.JSONDecodeError:
        return f"{content} {key}"

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return f"{value} (key {key})"
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        return value

    return json.dumps(walk(data), ensure_ascii=False)


def _key_of(headers: Any) -> str:
    auth = headers.get("Authorization") or ""
    if auth.lower().startswith("bearer "):
        return str(auth[7:].strip())
    return str(headers.get("api-key") or headers.get("x-api-key") or auth)


def _handler_for(gateway: EchoGateway) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b"{}"
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                body = {}
            status, payload, headers = gateway.respond(_key_of(self.headers), body)
            data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

    return Handler
