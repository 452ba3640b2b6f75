"""A scripted OpenAI-compatible judge server, for parity, performance and fault-tolerance tests.

    python -m compat.judge_server --port 8099 [--latency 0.05 --jitter 0.02 --max-concurrency 8
                                               --error-rate 0.1 --hang-rate 0.05 ...]

Serves ``POST /v1/chat/completions`` (and ``/chat/completions``) and ``GET /v1/models`` on
127.0.0.1. Each answer is deterministic and read off the prompt by :mod:`compat.oracle`: the
server recognises the judge tasks that ragas's and deepeval's prompts and summscore's own prompts
ask for and answers from the texts inside the prompt, so a summary that omits facts loses coverage
and one with a wrong number or name gets a "no" verdict. An unrecognised prompt gets a
deterministic answer shaped by the requested JSON schema, never an error.

``response_format`` of type ``json_object`` and ``json_schema`` are honoured, as are ``tools``
with a forced ``tool_choice`` (the answer comes back as the tool call's arguments). ``usage``
reports token counts (about four characters a token). ``"stream": true`` answers as server-sent
events (``chat.completion.chunk`` objects, then ``data: [DONE]``), as OpenAI does; the usage
chunk comes when ``stream_options.include_usage`` asks for it. Mastra's reason prompt asks for
plain text and gets it.

Faults are off by default and set per server (:class:`Faults`): latency with jitter, a limit of
concurrent requests beyond which it answers 429 with Retry-After, and at given rates 500s, hung
requests, malformed JSON and lists one item short. Fault draws come from a seeded generator, so a
run is repeatable.
"""

from __future__ import annotations

import argparse
import json
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from compat.judge_http import (
    MODEL_IDS,  # noqa: F401 - importable from here, as before
    _forced_tool,
    _handler_for,
    _one_short,
    _prompt_of,
    _QuietServer,
    _schema_of,
    sse_events,
)
from compat.oracle import answer, recognise

__all__ = ["Faults", "JudgeServer", "Stats", "sse_events"]


@dataclass(frozen=True)
class Faults:
    """What can go wrong, and how often (rates are probabilities per request)."""

    latency: float = 0.0  # seconds added to every answer
    # True: ``latency`` is the whole time from a request's arrival to its answer, the server's
    # own work included (a hosted model's time to answer), not added to that work. With a
    # Python server sharing the client's cores, added latency also charges the client for the
    # server's CPU: 32 answers computed at once queue on the server's GIL.
    paced: bool = False
    jitter: float = 0.0  # up to this many more seconds, uniformly
    max_concurrency: int | None = None  # more requests at once than this get a 429
    retry_after: float = 0.05  # the Retry-After the 429 carries, in seconds
    error_rate: float = 0.0  # answer 500
    hang_rate: float = 0.0  # answer only after hang_seconds (past any sane client timeout)
    hang_seconds: float = 30.0
    malformed_rate: float = 0.0  # answer with JSON that does not parse
    short_list_rate: float = 0.0  # drop the last item of the answer's list
    wrap_rate: float = 0.0  # wrap plain-text answers in prose and a code fence
    seed: int = 0


@dataclass
class Stats:
    """What the server saw. ``tasks`` counts recognised judge tasks (``"?"`` for the rest)."""

    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    tasks: Counter[str] = field(default_factory=Counter)
    faults: Counter[str] = field(default_factory=Counter)
    peak_concurrency: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    streamed: int = 0  # answers sent as server-sent events
    answered: int = 0  # answers timed below (200s and injected 500s)
    answer_seconds: float = 0.0  # total time from arrival to answer ready
    slowest_answer: float = 0.0


class JudgeServer:
    """The server, started on a free port of 127.0.0.1 in a background thread.

    >>> with JudgeServer() as server:
    ...     client = openai.OpenAI(base_url=server.url, api_key="not-needed")
    """

    def __init__(
        self, faults: Faults = Faults(), *, host: str = "127.0.0.1", port: int = 0
    ) -> None:
        self.faults = faults
        self.stats = Stats()
        self._lock = threading.Lock()
        self._in_flight = 0
        self._rng = random.Random(faults.seed)
        self._httpd = _QuietServer((host, port), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """The ``base_url`` for an OpenAI client: ``http://127.0.0.1:<port>/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    def configure(self, **changes: Any) -> None:
        """Change the faults of a running server (``server.configure(error_rate=0.2)``)."""
        with self._lock:
            self.faults = replace(self.faults, **changes)
            if "seed" in changes:
                self._rng = random.Random(self.faults.seed)

    def reset(self) -> None:
        """Forget the statistics and turn every fault off."""
        with self._lock:
            self.stats = Stats()
            self.faults = Faults()
            self._rng = random.Random(0)

    def start(self) -> JudgeServer:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, name="compat-judge-server", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> JudgeServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---------------------------------------------------------------------------- handling

    def _enter(self) -> bool:
        """Count a request in; False when over the concurrency limit."""
        with self._lock:
            self.stats.requests += 1
            limit = self.faults.max_concurrency
            if limit is not None and self._in_flight >= limit:
                return False
            self._in_flight += 1
            self.stats.peak_concurrency = max(self.stats.peak_concurrency, self._in_flight)
            return True

    def _leave(self) -> None:
        with self._lock:
            self._in_flight -= 1

    def _draw(self) -> tuple[str | None, float]:
        """The fault for this request (if any) and its latency, from the seeded generator."""
        with self._lock:
            faults = self.faults
            delay = faults.latency + (self._rng.uniform(0, faults.jitter) if faults.jitter else 0.0)
            roll = self._rng.random()
            for name, rate in (
                ("error", faults.error_rate),
                ("hang", faults.hang_rate),
                ("malformed", faults.malformed_rate),
                ("short_list", faults.short_list_rate),
                ("wrap", faults.wrap_rate),
            ):
                if roll < rate:
                    self.stats.faults[name] += 1
                    return name, delay
                roll -= rate
            return None, delay

    def completion(
        self, body: dict[str, Any], arrived: float | None = None
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        """Answer one chat-completion request: (status, JSON body, extra headers).

        ``arrived`` is when the request came in (``time.monotonic()``; now when not given)."""
        arrived = time.monotonic() if arrived is None else arrived
        if not self._enter():
            with self._lock:
                self.stats.statuses[429] += 1
                retry_after = self.faults.retry_after
            return (
                429,
                {
                    "error": {
                        "message": "Too many requests: the judge is busy",
                        "type": "rate_limit",
                    }
                },
                {"Retry-After": f"{retry_after:g}", "retry-after-ms": str(int(retry_after * 1000))},
            )
        try:
            fault, delay = self._draw()
            paced = self.faults.paced
            if delay and not paced:
                time.sleep(delay)
            if fault == "hang":
                time.sleep(self.faults.hang_seconds)
            if fault == "error":
                status: int = 500
                payload = {"error": {"message": "injected server error", "type": "server_error"}}
            else:
                status, payload = 200, self._answer(body, fault)
            if paced:
                time.sleep(max(0.0, arrived + delay - time.monotonic()))
            took = time.monotonic() - arrived
            with self._lock:
                self.stats.statuses[status] += 1
                self.stats.answered += 1
                self.stats.answer_seconds += took
                self.stats.slowest_answer = max(self.stats.slowest_answer, took)
            return status, payload, {}
        finally:
            self._leave()

    def _answer(self, body: dict[str, Any], fault: str | None) -> dict[str, Any]:
        messages = body.get("messages") or []
        prompt = _prompt_of(messages)
        schema = _schema_of(body)
        found = recognise(prompt)
        with self._lock:
            self.stats.tasks[found.task if found else "?"] += 1
        reply = answer(prompt, schema)
        if fault == "short_list":
            reply = _one_short(reply)
        content = json.dumps(reply, ensure_ascii=False)
        if found is not None and found.task == "mastra-reason" and schema is None:
            content = str(reply["reason"])  # Mastra reads the reason step's text as it comes
        if fault == "malformed":
            content = content[: max(1, len(content) // 2)].replace('"', "'", 1) + " <- oops"
        elif fault == "wrap" and not body.get("response_format") and not body.get("tools"):
            content = f"Here is my assessment.\n```json\n{content}\n```\nHope this helps."
        message: dict[str, Any] = {"role": "assistant", "content": content}
        tool = _forced_tool(body)
        if tool is not None:
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_0",
                        "type": "function",
                        "function": {"name": tool, "arguments": content},
                    }
                ],
            }
        prompt_tokens = max(1, sum(len(str(m.get("content") or "")) for m in messages) // 4)
        completion_tokens = max(1, len(content) // 4)
        with self._lock:
            self.stats.prompt_tokens += prompt_tokens
            self.stats.completion_tokens += completion_tokens
        return {
            "id": f"chatcmpl-{self.stats.requests}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "compat-judge"),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if tool else "stop",
                    "logprobs": None,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m compat.judge_server", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--port", type=int, default=8099)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added to every answer")
    parser.add_argument(
        "--paced",
        action="store_true",
        help="the latency includes the time to compute the answer instead of adding to it",
    )
    parser.add_argument("--jitter", type=float, default=0.0, help="up to this many more seconds")
    parser.add_argument("--max-concurrency", type=int, help="beyond this, answer 429 + Retry-After")
    parser.add_argument("--retry-after", type=float, default=0.05)
    parser.add_argument("--error-rate", type=float, default=0.0)
    parser.add_argument("--hang-rate", type=float, default=0.0)
    parser.add_argument("--hang-seconds", type=float, default=30.0)
    parser.add_argument("--malformed-rate", type=float, default=0.0)
    parser.add_argument("--short-list-rate", type=float, default=0.0)
    parser.add_argument("--wrap-rate", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    faults = Faults(
        latency=args.latency,
        paced=args.paced,
        jitter=args.jitter,
        max_concurrency=args.max_concurrency,
        retry_after=args.retry_after,
        error_rate=args.error_rate,
        hang_rate=args.hang_rate,
        hang_seconds=args.hang_seconds,
        malformed_rate=args.malformed_rate,
        short_list_rate=args.short_list_rate,
        wrap_rate=args.wrap_rate,
        seed=args.seed,
    )
    server = JudgeServer(faults, port=args.port)
    print(f"compat judge server on {server.url} (Ctrl-C to stop)", flush=True)
    try:
        server._httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server._httpd.server_close()


if __name__ == "__main__":
    main()
