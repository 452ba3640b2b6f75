"""What the service tells its operators: Prometheus metrics (``GET /metrics``) and access logs.

``Metrics`` holds one registry per app (two apps in one process never share counters):
requests by route, method and status, their latency, cases by outcome, judge calls, retries and
errors by kind, tokens and cost, requests refused (503) and past the deadline (504), and the queue
as gauges read when scraped. ``Observe`` is the ASGI middleware that counts every request and
writes one access-log line for it, with the path as the client sent it (``/v1/score:batch``, not
``/v1/score%3Abatch`` as uvicorn's own access log prints it), as text or JSON, masked like every
summscore log line (no key or token).

Every line the server writes is bounded (``BoundedFormatter``, ``JsonFormatter``): a
message past ``MAX_MESSAGE_CHARS`` and a traceback past ``MAX_TRACEBACK_CHARS`` keep their
beginning and end, so no log line carries a request or response body.
"""

from __future__ import annotations

import copy as _copy
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .._version import __version__
from ..files.lines import json_line
from ..masking.secrets import redact_log as redact
from ..results import SummaryResult

__all__ = [
    "CONTENT_TYPE_LATEST",
    "MAX_MESSAGE_CHARS",
    "MAX_TRACEBACK_CHARS",
    "BoundedFormatter",
    "JsonFormatter",
    "Metrics",
    "Observe",
    "access_log",
    "bounded",
]

access_log = logging.getLogger("summscore.serve.access")

MAX_MESSAGE_CHARS = 2000
MAX_TRACEBACK_CHARS = 8000

# Seconds: a cached case answers in milliseconds, a deepeval case on a slow model in a minute.
_LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300)


class Metrics:
    """The service's Prometheus metrics, in a registry of its own."""

    def __init__(
        self, in_flight: Callable[[], int], queued: Callable[[], int], **info: str
    ) -> None:
        self.registry = registry = CollectorRegistry()
        self.requests = Counter(
            "summscore_http_requests",
            "HTTP requests answered, by route template, method and status code",
            ["route", "method", "status"],
            registry=registry,
        )
        self.latency = Histogram(
            "summscore_http_request_duration_seconds",
            "time from a request's arrival to the end of its answer, by route template",
            ["route", "method"],
            buckets=_LATENCY_BUCKETS,
            registry=registry,
        )
        self.cases = Counter(
            "summscore_cases",
            "cases handled: scored, failed (the judge or the rule gave no score: see the "
            "result's error), invalid (bad input in a batch), timeout (past --request-timeout)",
            ["outcome"],
            registry=registry,
        )
        self.judge_calls = Counter(
            "summscore_judge_calls", "calls made to the judge", registry=registry
        )
        self.judge_retries = Counter(
            "summscore_judge_retries",
            "judge calls retried (rate limit, timeout, 5xx, unreadable reply)",
            registry=registry,
        )
        self.judge_errors = Counter(
            "summscore_judge_errors",
            "cases whose judge failed after its retries, by kind (the exception's class: "
            "TransientJudgeError for rate limits, timeouts and 5xx, JudgeOutputError for an "
            "unreadable reply, JudgeError for the rest)",
            ["kind"],
            registry=registry,
        )
        self.tokens = Counter(
            "summscore_judge_tokens",
            "tokens the judge reported, by direction (input, output)",
            ["direction"],
            registry=registry,
        )
        self.cost = Counter(
            "summscore_judge_cost_usd",
            "judge spend in US dollars, where the model's price is known",
            registry=registry,
        )
        self.reused = Counter(
            "summscore_reused_results",
            "cases answered without judging them again, by how: shared (an identical case was "
            "in flight) or cached (an identical case was scored recently)",
            ["how"],
            registry=registry,
        )
        self.slow_clients = Counter(
            "summscore_slow_clients",
            "connections closed because a request's headers or body did not arrive in time",
            ["phase"],
            registry=registry,
        )
        self.rejected = Counter(
            "summscore_rejected_requests",
            "requests refused with 503 because the judge queue was full",
            registry=registry,
        )
        self.timeouts = Counter(
            "summscore_request_timeouts",
            "requests answered 504 because they ran past --request-timeout",
            registry=registry,
        )
        Gauge(
            "summscore_cases_in_flight", "cases being judged now", registry=registry
        ).set_function(in_flight)
        Gauge(
            "summscore_queue_depth",
            "cases waiting for a judge slot (a request that would overflow it gets 503)",
            registry=registry,
        ).set_function(queued)
        build = Gauge(
            "summscore_build_info",
            "this server: summscore version, preset and judge (always 1)",
            ["version", *sorted(info)],
            registry=registry,
        )
        build.labels(__version__, *(info[k] for k in sorted(info))).set(1)
        for outcome in ("scored", "failed", "invalid", "timeout"):
            self.cases.labels(outcome)  # exported at 0 from the start, as rate() needs
        for direction in ("input", "output"):
            self.tokens.labels(direction)
        for how in ("shared", "cached"):
            self.reused.labels(how)
        for phase in ("headers", "body"):
            self.slow_clients.labels(phase)

    def case_done(self, result: SummaryResult, error: BaseException | None = None) -> None:
        """Count one judged case: its outcome and what it cost."""
        usage = result.usage
        self.cases.labels("failed" if result.error else "scored").inc()
        self.judge_calls.inc(usage.judge_calls)
        self.judge_retries.inc(usage.retries)
        if usage.input_tokens:
            self.tokens.labels("input").inc(usage.input_tokens)
        if usage.output_tokens:
            self.tokens.labels("output").inc(usage.output_tokens)
        if usage.cost:
            self.cost.inc(usage.cost)
        if error is not None:
            self.judge_errors.labels(type(error).__name__).inc()

    def case_reused(self, how: str) -> None:
        """Count one case answered with an identical case's result (``shared`` or ``cached``)."""
        self.reused.labels(how).inc()

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


def bounded(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text``, or its beginning and end around a note of how much was left out."""
    if len(text) <= limit:
        return text
    keep = max(limit // 2, 1)
    return f"{text[:keep]} ...[{len(text) - 2 * keep:,} characters left out]... {text[-keep:]}"


class BoundedFormatter(logging.Formatter):
    """A text formatter whose lines are bounded and masked (see the module's docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        copy = _copy.copy(record)  # (not makeLogRecord: summscore's record factory wants a name)
        copy.message = bounded(redact(record.getMessage()))
        if self.usesTime():
            copy.asctime = self.formatTime(copy, self.datefmt)
        line = self.formatMessage(copy)
        if record.exc_info:
            line += "\n" + bounded(
                redact(self.formatException(record.exc_info)), MAX_TRACEBACK_CHARS
            )
        return line.encode("utf-8", "backslashreplace").decode("utf-8")


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and an access line's fields;
    bounded and masked as ``BoundedFormatter``'s lines."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": bounded(redact(record.getMessage())),
        }
        entry.update(getattr(record, "access", {}))
        if record.exc_info:
            trace = redact(self.formatException(record.exc_info))
            entry["exception"] = bounded(trace, MAX_TRACEBACK_CHARS)
        line = json_line(entry)[:-1]  # (one line for every splitter: U+2028 and kin escaped)
        return line.encode("utf-8", "backslashreplace").decode("utf-8")


def _requested_path(scope: Scope) -> str:
    """The path and query as the client sent them (``raw_path``), percent-escapes kept as sent."""
    raw = scope.get("raw_path")
    path = raw.decode("latin-1") if raw else scope.get("path", "")
    query = scope.get("query_string", b"")
    return redact(path + ("?" + query.decode("latin-1") if query else ""))


class Observe:
    """Count and time every HTTP request into ``metrics`` and log it on ``access_log``."""

    def __init__(
        self,
        app: ASGIApp,
        metrics: Metrics,
        routes: Callable[[], Iterable[str]] = tuple,
        log_requests: bool = True,
    ) -> None:
        self.app, self.metrics, self.log_requests = app, metrics, log_requests
        self._routes = routes
        self._known: frozenset[str] | None = None

    def _template(self, scope: Scope) -> str:
        """The route's template (a small label set); a request answered before routing (415,
        413) by its path when that is a route's; any other path is "unmatched"."""
        route = getattr(scope.get("route"), "path", None)
        if route:
            return str(route)
        if self._known is None:
            self._known = frozenset(self._routes())
        path = scope.get("path", "")
        return path if path in self._known else "unmatched"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def tell(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, tell)
        finally:
            elapsed = time.perf_counter() - start
            template = self._template(scope)
            method = scope["method"]
            self.metrics.requests.labels(template, method, str(status)).inc()
            self.metrics.latency.labels(template, method).observe(elapsed)
            if status == 503:
                self.metrics.rejected.inc()
            elif status == 504:
                self.metrics.timeouts.inc()
            if self.log_requests and access_log.isEnabledFor(logging.INFO):
                _log_access(scope, method, status, elapsed)


def _log_access(scope: Scope, method: str, status: int, elapsed: float) -> None:
    client = scope.get("client")
    peer = f"{client[0]}:{client[1]}" if client else "-"
    path = _requested_path(scope)
    version = scope.get("http_version", "1.1")
    fields = {
        "client": peer,
        "method": method,
        "path": path,
        "status": status,
        "duration_ms": round(elapsed * 1000, 1),
        "http_version": version,
    }
    access_log.info(
        '%s - "%s %s HTTP/%s" %d %.1fms',
        peer,
        method,
        path,
        version,
        status,
        elapsed * 1000,
        extra={"access": fields},
    )
