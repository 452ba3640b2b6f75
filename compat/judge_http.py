"""The wire side of the compat judge server (compat/judge_server.py): what it reads from a chat
request body (the prompt, the requested JSON schema, a forced tool), the faults it applies to a
reply, the server-sent events of a streamed answer, and the HTTP handler that serves them."""

from __future__ import annotations

import json
import re
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol

MODEL_IDS = ("compat-judge", "gpt-4o-mini", "gpt-4o")


class Served(Protocol):
    """What the handler uses of the server it serves (compat.judge_server.JudgeServer)."""

    stats: Any
    _lock: Any

    def completion(
        self, body: dict[str, Any], arrived: float | None = None
    ) -> tuple[int, dict[str, Any], dict[str, str]]: ...


def sse_events(payload: dict[str, Any], *, include_usage: bool = False) -> list[dict[str, Any]]:
    """A completed ``chat.completion`` as the ``chat.completion.chunk`` objects OpenAI streams.

    The content (or the tool call's arguments) arrives in a few pieces; the last choice chunk
    carries the finish reason; a usage chunk with no choices follows when asked for.
    """
    base = {
        "id": payload["id"],
        "object": "chat.completion.chunk",
        "created": payload["created"],
        "model": payload["model"],
    }
    choice = payload["choices"][0]
    message = choice["message"]

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    events = [chunk({"role": "assistant", "content": ""})]
    calls = message.get("tool_calls")
    text = calls[0]["function"]["arguments"] if calls else message.get("content") or ""
    pieces = [text[i : i + 64] for i in range(0, len(text), 64)] or [""]
    for i, piece in enumerate(pieces):
        if calls:
            call: dict[str, Any] = {"index": 0, "function": {"arguments": piece}}
            if i == 0:
                call.update(id=calls[0]["id"], type="function")
                call["function"]["name"] = calls[0]["function"]["name"]
            events.append(chunk({"tool_calls": [call]}))
        else:
            events.append(chunk({"content": piece}))
    events.append(chunk({}, choice["finish_reason"]))
    if include_usage:
        events.append({**base, "choices": [], "usage": payload["usage"]})
    return events


def _prompt_of(messages: list[dict[str, Any]]) -> str:
    """The judge prompt: the last user message (system messages hold format instructions)."""
    for message in reversed(messages):
        if message.get("role") == "user":
            return _text_of(message.get("content"))
    return "\n".join(_text_of(m.get("content")) for m in messages)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part.get("text", "") if isinstance(part, dict) else str(part) for part in content
        )
    return "" if content is None else str(content)


def _schema_of(body: dict[str, Any]) -> dict[str, Any] | None:
    response_format = body.get("response_format") or {}
    if response_format.get("type") == "json_schema":
        schema = (response_format.get("json_schema") or {}).get("schema")
        return schema if isinstance(schema, dict) else None
    for tool in body.get("tools") or []:
        parameters = (tool.get("function") or {}).get("parameters")
        if isinstance(parameters, dict):
            return parameters
    # Instructor's JSON mode puts the schema in the system message.
    for message in body.get("messages") or []:
        if message.get("role") == "system":
            text = _text_of(message.get("content"))
            match = re.search(r"json_schema:\s*(\{.*\})", text, re.DOTALL)
            if match:
                try:
                    found = json.loads(match.group(1))
                except json.JSONDecodeError:
                    continue
                return found if isinstance(found, dict) else None
    return None


def _forced_tool(body: dict[str, Any]) -> str | None:
    choice = body.get("tool_choice")
    tools = body.get("tools") or []
    if isinstance(choice, dict):
        return str((choice.get("function") or {}).get("name") or "") or None
    if tools and choice in ("required", "auto", None):
        return str((tools[0].get("function") or {}).get("name") or "") or None
    return None


def _one_short(reply: dict[str, Any]) -> dict[str, Any]:
    for key, value in reply.items():
        if isinstance(value, list) and len(value) > 1:
            return {**reply, key: value[:-1]}
    return reply


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True
    # The default listen backlog (5) refuses connections when a client opens dozens at once.
    request_queue_size = 256

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that drops its keep-alive connection (clients closed at the end of a test,
        # a timed-out request) is normal here, not a server error worth a traceback.
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def _handler_for(server: Served) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in separate writes: without TCP_NODELAY every answer waits
        # for the client's delayed ACK (~40 ms).
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def _send(
            self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
        ) -> None:
            data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a hung request it timed out)

        def _send_stream(self, events: list[dict[str, Any]]) -> None:
            """Server-sent events, chunked, so the connection stays open for the next request."""
            try:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for event in [*events, "[DONE]"]:
                    data = (
                        event if isinstance(event, str) else json.dumps(event, ensure_ascii=False)
                    )
                    line = f"data: {data}\n\n".encode()
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass

        def do_GET(self) -> None:
            if self.path.rstrip("/") in ("/v1/models", "/models"):
                models = [{"id": m, "object": "model", "owned_by": "compat"} for m in MODEL_IDS]
                self._send(200, {"object": "list", "data": models})
            else:
                self._send(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:
            arrived = time.monotonic()
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                self._send(400, {"error": {"message": "the request body is not JSON"}})
                return
            status, payload, headers = server.completion(body, arrived)
            if status == 200 and body.get("stream"):
                with server._lock:
                    server.stats.streamed += 1
                usage = bool((body.get("stream_options") or {}).get("include_usage"))
                self._send_stream(sse_events(payload, include_usage=usage))
            else:
                self._send(status, payload, headers)

    return Handler
