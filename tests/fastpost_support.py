"""What the tests of the OpenAI judge's lean HTTP path share (tests/test_judge_openai_fastpost.py,
tests/test_judge_openai_fastpost_failures.py): a recording HTTP server on 127.0.0.1, the key and
request they send, and a judge's client and one completion."""

from __future__ import annotations

import asyncio
import http.server
import threading
from collections.abc import Callable
from typing import Any

import openai

from summscore.judges import OpenAIJudge
from summscore.judges.base import JudgeRequest
from summscore.prompts.replies import AnswersReply

KEY = "sk-fastpost-test-0123456789abcdef"
REQUEST = JudgeRequest("answers", "Answer. Reply with JSON.", AnswersReply, {})
# Headers the HTTP library decides (framing, compression it can decode), not the SDK.
_TRANSPORT_HEADERS = {"host", "accept-encoding", "connection", "content-length"}


Reply = tuple[int, dict[str, str], bytes]


class Recorder:
    """A threaded HTTP/1.1 server on 127.0.0.1 that records each request and answers with
    ``respond(path, headers, body) -> (status, headers, body)``."""

    def __init__(self, respond: Callable[[str, dict[str, str], bytes], Reply]) -> None:
        self.seen: list[tuple[str, str, dict[str, str], bytes]] = []
        recorder = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                headers = {k.lower(): v for k, v in self.headers.items()}
                recorder.seen.append((self.command, self.path, headers, body))
                status, reply_headers, content = respond(self.path, headers, body)
                self.send_response(status)
                for name, value in reply_headers.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def _client(url: str, **options: Any) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=url, api_key=KEY, **options)


def _complete(judge: OpenAIJudge) -> Any:
    return asyncio.run(judge.complete(REQUEST))
