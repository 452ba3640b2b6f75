"""A stand-in for LangSmith's API on 127.0.0.1, for the pytest integration's tests.

LangSmith's pytest plugin, with test tracking on, creates a dataset, an experiment and an example
per test, sends the test's run and its feedback (multipart ``/runs/multipart``) and updates the
experiment. This server answers those calls with the shapes the SDK reads and keeps every request
body, so a test can check what the plugin would have uploaded. It answers anything else with
``{}``; it is no model of LangSmith beyond that.
"""

from __future__ import annotations

import datetime
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["LangSmithAPI"]


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat()


class LangSmithAPI:
    """``with LangSmithAPI() as api:`` serves on ``api.url``; ``api.bodies`` are the requests."""

    def __init__(self) -> None:
        self.bodies: list[tuple[str, str, bytes]] = []
        self._stored: dict[str, dict[str, dict[str, Any]]] = {
            "datasets": {},
            "sessions": {},
            "examples": {},
        }
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> LangSmithAPI:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def feedback(self) -> list[dict[str, Any]]:
        """Every feedback the SDK sent, as JSON objects (``POST /feedback`` and the feedback parts
        of multipart run uploads)."""
        found: list[dict[str, Any]] = []
        for method, path, body in self.bodies:
            if method == "POST" and path.split("?")[0].rstrip("/") == "/feedback":
                found.append(json.loads(body))
            if not path.startswith("/runs/multipart"):
                continue
            for part in body.split(b"\r\n--"):
                head, _, payload = part.partition(b"\r\n\r\n")
                if b'name="feedback.' in head:
                    found.append(json.loads(payload.rstrip(b"\r\n-")))
        return found

    def runs(self) -> dict[str, dict[str, Any]]:
        """Every run (trace) the SDK sent, by id: the created run's fields with its later patches
        (outputs, end time) merged in. Multipart uploads (``/runs/multipart``), or the JSON
        batches of older SDKs (``/runs/batch``: ``{"post": [...], "patch": [...]}``)."""
        found: dict[str, dict[str, Any]] = {}
        for method, path, body in self.bodies:
            if method == "POST" and path.split("?")[0].rstrip("/") == "/runs/batch":
                batch = json.loads(body or b"{}")
                for run in [*batch.get("post", []), *batch.get("patch", [])]:
                    found.setdefault(str(run["id"]), {}).update(run)
                continue
            if method != "POST" or not path.startswith("/runs/multipart"):
                continue
            for part in body.split(b"\r\n--"):
                head, _, payload = part.partition(b"\r\n\r\n")
                name = head.partition(b'name="')[2].partition(b'"')[0].decode()
                verb, _, rest = name.partition(".")
                if verb not in ("post", "patch") or not rest:
                    continue
                run_id, _, field = rest.partition(".")
                value = json.loads(payload.rstrip(b"\r\n-") or b"null")
                run = found.setdefault(run_id, {"id": run_id})
                if field:
                    run[field] = value
                elif isinstance(value, dict):
                    run.update(value)
        return found

    def _answer(self, method: str, path: str, body: bytes) -> tuple[int, Any]:
        route = path.split("?")[0].rstrip("/")
        kind, _, key = route.lstrip("/").partition("/")
        stored = self._stored.get(kind)
        if route == "/info":
            return 200, {"version": "0.0-test", "instance_flags": {}}
        if stored is None:
            return 200, {}
        with self._lock:
            if method == "POST" and not key:
                item = json.loads(body or b"{}")
                item.setdefault("id", str(uuid.uuid4()))
                item.update(created_at=_now(), modified_at=_now(), start_time=_now())
                item.setdefault("tenant_id", str(uuid.uuid4()))
                stored[item["id"]] = item
                return 200, item
            if method == "GET" and not key:
                return 200, list(stored.values())
            if key in stored:
                return 200, stored[key]
            if kind == "sessions" and stored:  # the experiment, however it is addressed
                return 200, next(iter(stored.values()))
            return 404, {"detail": "not found"}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                api.bodies.append((self.command, self.path, body))
                status, payload = api._answer(self.command, self.path, body)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _any

        return Handler
