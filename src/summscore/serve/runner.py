"""The service's scheduler: one scorer, a bounded judge queue, per-request preset options.

Every request goes through one ``Runner`` and so through one ``SummarizationScorer``: the
source cache, the reply cache and the judge client are shared, and at most ``max_concurrency``
cases are judged at once whatever the number of requests. Beyond that, up to ``max_queue`` cases
wait; a request that would overflow the queue is refused whole (503, Retry-After) rather than
accepted and left to time out.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..results import SummaryResult
from ..scorer import SummarizationScorer
from .models import ScoreRequest

__all__ = [
    "DEFAULT_REQUEST_OPTIONS",
    "DeadlineExceeded",
    "OptionError",
    "Overloaded",
    "Runner",
    "ServeConfig",
]

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
# The preset option each request option sets, where the names differ between releases.
_QUESTION_OPTIONS = ("n", "max_questions")

T = TypeVar("T")


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
        for name in ("max_queue", "max_batch", "max_body_bytes", "max_questions"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        unknown = set(self.request_options) - DEFAULT_REQUEST_OPTIONS
        if unknown:
            raise ValueError(
                f"request_options: unknown option(s) {', '.join(sorted(unknown))}; "
                f"choose from {', '.join(sorted(DEFAULT_REQUEST_OPTIONS))}"
            )
        if self.token is not None and not self.token:
            raise ValueError("token cannot be empty")


class Overloaded(Exception):
    """The judge queue is full; try again after ``retry_after`` seconds."""

    def __init__(self, retry_after: int, message: str) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class DeadlineExceeded(Exception):
    """A request ran past the server's ``request_timeout``; its cases were cancelled."""

    def __init__(self, seconds: float, cases: int = 1) -> None:
        super().__init__(
            f"the request took longer than this server's deadline of {seconds:g} s "
            "(--request-timeout) and was stopped; send fewer cases per request, shorter texts, "
            "or ask the operator for a longer deadline"
        )
        self.seconds, self.cases = seconds, cases


class OptionError(ValueError):
    """A request option this server does not allow or the preset rejects; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class Runner:
    """Schedules cases from every request onto one scorer."""

    def __init__(
        self,
        scorer: SummarizationScorer,
        config: ServeConfig,
        on_case: Callable[[SummaryResult, BaseException | None], None] | None = None,
    ) -> None:
        self.scorer = scorer
        self.config = config
        self.on_case = on_case  # told of every judged case (the metrics)
        self.max_concurrency = config.max_concurrency or scorer.max_concurrency
        if self.config.max_batch > self.max_concurrency + config.max_queue:
            raise ValueError(
                f"max_batch ({config.max_batch}) cannot exceed max_concurrency + max_queue "
                f"({self.max_concurrency + config.max_queue}): such a batch could never be taken"
            )
        self._slots: asyncio.Semaphore | None = None
        self._admitted = 0  # cases taken: judged now or waiting for a slot
        self._running = 0
        self._case_seconds = 1.0  # moving average, for Retry-After
        self._variants: OrderedDict[tuple[Any, ...], SummarizationScorer] = OrderedDict()
        names = tuple(scorer.options)
        self.request_options = sorted(
            o for o in config.request_options if o in names or (o == "n" and _questions_name(names))
        )

    # ------------------------------------------------------------------ state

    @property
    def in_flight(self) -> int:
        return self._running

    @property
    def queued(self) -> int:
        return self._admitted - self._running

    @contextmanager
    def admit(self, count: int) -> Iterator[None]:
        """Take ``count`` cases into the queue for the duration of the block, or raise Overloaded."""
        capacity = self.max_concurrency + self.config.max_queue
        if self._admitted + count > capacity:
            waiting = self._admitted + count - self.max_concurrency
            seconds = self._case_seconds * max(waiting, 1) / self.max_concurrency
            raise Overloaded(
                max(1, math.ceil(seconds)),
                f"the judge queue is full ({self._admitted} cases taken, room for {capacity}); "
                "retry after the Retry-After seconds",
            )
        self._admitted += count
        try:
            yield
        finally:
            self._admitted -= count

    async def within_deadline(self, work: Awaitable[T], cases: int = 1) -> T:
        """``work``, or DeadlineExceeded once the server's ``request_timeout`` has passed (the
        work is cancelled: every case it holds leaves its judge slot)."""
        seconds = self.config.request_timeout
        if seconds is None:
            return await work
        try:
            return await asyncio.wait_for(work, seconds)
        except asyncio.TimeoutError:
            raise DeadlineExceeded(seconds, cases) from None

    # ------------------------------------------------------------------ options

    def option_problem(self, name: str, field: str) -> str | None:
        """Why a request may not set option ``name`` on this server (None: it may)."""
        names = tuple(self.scorer.options)
        option = "n" if name == "maxQuestions" else name
        target = _questions_name(names) if option == "n" else option
        if option not in self.config.request_options:
            if option not in DEFAULT_REQUEST_OPTIONS:
                return f"{field}: no such option (options: {', '.join(self.request_options)})"
            return (
                f"{field}: this server does not let a request set {name} "
                f"(it allows: {', '.join(self.request_options) or 'none'})"
            )
        if target is None or target not in names:
            return (
                f"{field}: not an option of the {self.scorer.preset} preset "
                f"(its options: {', '.join(names)})"
            )
        return None

    def scorer_for(self, options: dict[str, Any], prefix: str = "options") -> SummarizationScorer:
        """The server's scorer with the request's preset options; caches and judge shared."""
        if not options:
            return self.scorer
        names = tuple(self.scorer.options)
        translated: dict[str, Any] = {}
        for name, value in options.items():
            field = f"{prefix}.{name}"
            problem = self.option_problem(name, field)
            if problem:
                raise OptionError(field, problem)
            target = (_questions_name(names) if name == "n" else None) or name
            if target in _QUESTION_OPTIONS and value > self.config.max_questions:
                raise OptionError(
                    field, f"{field}: at most {self.config.max_questions} on this server"
                )
            translated[target] = value
        key = tuple(sorted({**self.scorer.options, **translated}.items()))
        variant = self._variants.get(key)
        if variant is not None:
            self._variants.move_to_end(key)
            return variant
        try:
            # Shares the judge, its request limit, the caches and the spend; the preset's options
            # are part of every source-cache key, so variants never mix.
            variant = self.scorer.with_options(**translated)
        except (TypeError, ValueError) as exc:
            message = str(exc)
            at = next((n for n in options if message.startswith(n)), None)
            at = at or (next(iter(options)) if len(options) == 1 else None)
            raise OptionError(f"{prefix}.{at}" if at else prefix, f"{prefix}: {message}") from None
        self._variants[key] = variant
        if len(self._variants) > 64:
            self._variants.popitem(last=False)
        return variant

    # ------------------------------------------------------------------ scoring

    async def score(self, scorer: SummarizationScorer, case: ScoreRequest) -> dict[str, Any]:
        """Score one validated case; a judge failure is a result with ``error`` set."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.max_concurrency)
        async with self._slots:
            self._running += 1
            start = time.monotonic()
            error: BaseException | None = None
            try:
                result = await scorer.ascore(case.source, case.summary, case.assessment_questions)
            except Exception as exc:
                error, result = exc, scorer.failed_result(exc)
            finally:
                self._running -= 1
                elapsed = time.monotonic() - start
                self._case_seconds = 0.8 * self._case_seconds + 0.2 * elapsed
        if self.on_case is not None:
            self.on_case(result, error)
        return with_id(result.to_dict(), case.id)

    def failed(self, message: str, id: Any) -> dict[str, Any]:
        """The result of a batch case that could not be scored (bad input), in result shape."""
        result = self.scorer.failed_result(ValueError(message))
        result.error = f"invalid input: {message}"
        return with_id(result.to_dict(), id)


def with_id(data: dict[str, Any], id: Any) -> dict[str, Any]:
    data["id"] = id
    return data


def _questions_name(names: tuple[str, ...]) -> str | None:
    return next((n for n in _QUESTION_OPTIONS if n in names), None)
