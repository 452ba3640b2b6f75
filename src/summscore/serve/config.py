"""The limits of one server (``ServeConfig``), checked when it is built."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

__all__ = ["DEFAULT_REQUEST_OPTIONS", "ServeConfig"]

DEFAULT_REQUEST_OPTIONS = frozenset(
    {
        "scale",
        "n",
        "version",
        "threshold",
        "strict_mode",
        "coeff",
        "length_penalty",
        "include_reason",
    }
)


@dataclass(frozen=True)
class ServeConfig:
    """Limits of one server. ``max_concurrency`` None means the scorer's ``max_concurrency``;
    ``request_timeout`` None means no deadline (seconds otherwise: a request still running then
    is answered 504 and its cases are cancelled, their judge slots free again); ``docs`` False
    leaves out the ``/docs`` page (``/openapi.json`` stays).

    Attributes:
        max_concurrency: Cases judged at once, shared by every request; None: the scorer's.
        max_queue: Cases waiting for the judge beyond ``max_concurrency`` before requests are
            answered 503 with Retry-After.
        max_batch: Cases per batch request.
        max_body_bytes: The largest request body; a larger one is answered 413.
        max_questions: The largest ``n`` / ``maxQuestions`` a request may ask for.
        request_options: The preset options a request may set (all of them by default).
        token: The bearer token every request must send (``Authorization: Bearer ...``); None
            for none.
        request_timeout: Seconds a request may run before it is answered 504; None for no
            deadline.
        docs: Serve the Swagger UI at ``/docs`` (from the package, no network needed).
        body_timeout: Seconds a client has to send a scoring request's body (then 408).
        result_cache_bytes: Bytes of recent results kept to answer identical requests (0: none
            kept; identical requests in flight are still answered once).
        public_metrics: Serve ``/metrics`` without the token (by default it needs the token
            when one is set).
        max_body_memory: Bytes of request bodies held at once, being read or scored (a request
            past it gets 503; one request alone is always taken).
    """

    max_concurrency: int | None = None
    max_queue: int = 256
    max_batch: int = 100
    max_body_bytes: int = 10 * 1024 * 1024
    max_questions: int = 20
    request_options: frozenset[str] = field(default=DEFAULT_REQUEST_OPTIONS)
    token: str | None = field(default=None, repr=False)
    request_timeout: float | None = None
    docs: bool = True
    body_timeout: float = 60.0
    result_cache_bytes: int = 32 * 1024 * 1024
    public_metrics: bool = False
    max_body_memory: int = 32 * 1024 * 1024

    def __post_init__(self) -> None:
        timeout = self.request_timeout
        if timeout is not None and (
            isinstance(timeout, bool)
            or not isinstance(timeout, (int, float))
            or not math.isfinite(timeout)
            or timeout <= 0
        ):
            raise ValueError(
                f"request_timeout must be a positive number of seconds, got {timeout!r}"
            )
        for name in (
            "max_queue",
            "max_batch",
            "max_body_bytes",
            "max_questions",
            "max_body_memory",
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        cache = self.result_cache_bytes
        if isinstance(cache, bool) or not isinstance(cache, int) or cache < 0:
            raise ValueError(f"result_cache_bytes must be 0 or more, got {cache!r}")
        body = self.body_timeout
        if isinstance(body, bool) or not isinstance(body, (int, float)) or not body > 0:
            raise ValueError(f"body_timeout must be a positive number of seconds, got {body!r}")
        unknown = set(self.request_options) - DEFAULT_REQUEST_OPTIONS
        if unknown:
            raise ValueError(
                f"request_options: unknown option(s) {', '.join(sorted(unknown))}; "
                f"choose from {', '.join(sorted(DEFAULT_REQUEST_OPTIONS))}"
            )
        if self.token is not None and not self.token:
            raise ValueError("token cannot be empty")
