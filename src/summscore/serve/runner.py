"""The service's scheduler: one scorer, a bounded judge queue, per-request preset options.

Every request goes through one ``Runner`` and so through one ``SummarizationScorer``: the
source cache, the reply cache and the judge client are shared, and at most ``max_concurrency``
cases are judged at once whatever the number of requests. Beyond that, up to ``max_queue`` cases
wait; a request that would overflow the queue is refused whole (503, Retry-After) rather than
accepted and left to time out.

With the offline judge in lanes (``lanes``), the cases of a large request (its texts together
reach the lanes' mark: one large case, or a batch of many smaller ones) wait for slots of their
own, as many as the large lane has workers, and are judged in the large lane, so that they never
take the slots and the workers small requests need. Identical
cases are judged once (``shared``). When the server stops, work still running after its
grace period is answered 503 (``ShuttingDown``), never dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from ..masking.replies import redact_value
from ..masking.sent import secrets_in, sent_by_caller, sent_now
from ..results import SummaryResult
from ..scorer import SummarizationScorer
from .config import DEFAULT_REQUEST_OPTIONS, ServeConfig
from .lanes import LanedJudge, large_request, request_chars, within_large_request
from .models import ScoreRequest
from .naming import JudgeNames
from .shared import SharedResults, case_key

__all__ = [
    "DEFAULT_REQUEST_OPTIONS",
    "DeadlineExceeded",
    "OptionError",
    "Overloaded",
    "Runner",
    "ServeConfig",
    "ShuttingDown",
]

# The fields of a case that hold text the judge reads (what makes a request large).
_TEXT_FIELDS = ("source", "summary", "assessment_questions")

# The preset option each request option sets, where the names differ between releases.
_QUESTION_OPTIONS = ("n", "max_questions")

T = TypeVar("T")


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


class ShuttingDown(Exception):
    """The server is stopping and the request's work was still running after the grace period."""

    def __init__(self, cases: int = 1) -> None:
        super().__init__(
            "the server is shutting down and this request was not finished in time; send it "
            "again (to another replica)"
        )
        self.cases = cases


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
        self._large_slots: asyncio.Semaphore | None = None
        self._stopped = False
        # One event per event loop (an app may serve from several, as tests do).
        self._stopping: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Event] = (
            weakref.WeakKeyDictionary()
        )
        self._admitted = 0  # cases taken: judged now or waiting for a slot
        self._running = 0
        self._case_seconds = 1.0  # moving average, for Retry-After
        self._variants: OrderedDict[tuple[Any, ...], SummarizationScorer] = OrderedDict()
        names = tuple(scorer.options)
        self.request_options = sorted(
            o for o in config.request_options if o in names or (o == "n" and _questions_name(names))
        )
        self.names = JudgeNames(scorer.judge)
        self.shared = SharedResults(config.result_cache_bytes)
        self.on_reused: Callable[[str], None] | None = None  # told "shared" or "cached"
        # Large cases of the offline judge in lanes have slots of their own (see .lanes).
        laned = isinstance(scorer.llm, LanedJudge) and scorer.llm.large is not None
        lanes = scorer.llm if laned else None
        self.large_chars: int | None = lanes.large_chars if lanes else None
        self.large_concurrency: int = lanes.large_workers if lanes else 0

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

    def is_large(self, cases: Iterable[Any]) -> bool:
        """Whether a request with ``cases`` (validated, or as sent) goes to the large lane: its
        texts together reach the lanes' mark (False without a large lane)."""
        if self.large_chars is None or not self.large_concurrency:
            return False
        total = 0
        for case in cases:
            if isinstance(case, ScoreRequest):
                texts = {name: getattr(case, name) for name in _TEXT_FIELDS}
            elif isinstance(case, dict):
                texts = {name: case.get(name) for name in _TEXT_FIELDS}
            else:
                continue
            total += request_chars(texts)
            if total >= self.large_chars:
                return True
        return False

    @contextmanager
    def lane(self, cases: Iterable[Any]) -> Iterator[None]:
        """For the duration of the block, the work started in it (cases, judge requests) is in
        the large lane when the request with ``cases`` is large (see ``is_large``): a request
        is judged in one lane as a whole."""
        with large_request(self.is_large(cases)):
            yield

    @property
    def stopping(self) -> asyncio.Event:
        """Set when the server stops taking time for work in flight (see ``stop``); the
        event of the running loop."""
        loop = asyncio.get_running_loop()
        event = self._stopping.get(loop)
        if event is None:
            event = self._stopping[loop] = asyncio.Event()
            if self._stopped:
                event.set()
        return event

    def stop(self) -> None:
        """The server is stopping and its grace period is over: requests still running are
        answered 503 and their work is cancelled (workers are freed for the exit)."""
        self._stopped = True
        for loop, event in list(self._stopping.items()):
            if not loop.is_closed():
                loop.call_soon_threadsafe(event.set)

    async def within_deadline(self, work: Awaitable[T], cases: int = 1) -> T:
        """``work``, or DeadlineExceeded once the server's ``request_timeout`` has passed, or
        ShuttingDown once ``stop`` is called (the work is cancelled either way, and has left
        its judge slots when this returns)."""
        task = asyncio.ensure_future(work)
        stop = asyncio.ensure_future(self.stopping.wait())
        try:
            await asyncio.wait(
                {task, stop},
                timeout=self.config.request_timeout,
                return_when=asyncio.FIRST_COMPLETED,
            )
        except BaseException:
            task.cancel()
            raise
        finally:
            stop.cancel()
        if task.done():
            return task.result()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        if self.stopping.is_set():
            raise ShuttingDown(cases)
        raise DeadlineExceeded(self.config.request_timeout or 0.0, cases)

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
        if target is None or target not in names:  # (listed as a request names them: n)
            return (
                f"{field}: not an option of the {self.scorer.preset} preset "
                f"(a request may set: {', '.join(self.request_options) or 'none'})"
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
        """Score one validated case; a judge failure is a result with ``error`` set. A case
        identical to one in flight or recently scored is answered with that result (see
        ``shared``), with this case's ``id``."""
        key = case_key(
            scorer.preset, scorer.options, case.source, case.summary, case.assessment_questions
        )
        # A run of a server key comes back unmasked in the case that sent it, and only there
        # (its result may be given to another client sending the same texts): ``masking.sent``.
        texts = (case.source, case.summary, case.assessment_questions)
        with sent_by_caller(secrets_in(*texts) if sent_now() is not None else None):
            data, how = await self.shared.get(key, lambda: self._score_once(scorer, case))
        if how != "scored" and self.on_reused is not None:
            self.on_reused(how)
        return with_id(data, case.id)

    def _slots_for(self, case: ScoreRequest) -> asyncio.Semaphore:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.max_concurrency)
            if self.large_concurrency:
                self._large_slots = asyncio.Semaphore(self.large_concurrency)
        if self._large_slots is not None and (within_large_request() or self.is_large([case])):
            return self._large_slots
        return self._slots

    async def _score_once(self, scorer: SummarizationScorer, case: ScoreRequest) -> dict[str, Any]:
        async with self._slots_for(case):
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
        return self.names.apply(result.to_dict())

    def failed(self, message: str, id: Any) -> dict[str, Any]:
        """The result of a batch case that could not be scored (bad input), in result shape."""
        result = self.scorer.failed_result(ValueError(message))
        result.error = f"invalid input: {message}"
        return with_id(self.names.apply(result.to_dict()), id)


def with_id(data: dict[str, Any], id: Any) -> dict[str, Any]:
    """``data`` with the request's ``id``, a key in it masked (as the CLI masks row ids): an id
    is only ever shown, never scored, so masking it changes no score."""
    data["id"] = redact_value(id)
    return data


def _questions_name(names: tuple[str, ...]) -> str | None:
    return next((n for n in _QUESTION_OPTIONS if n in names), None)
