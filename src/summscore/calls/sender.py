"""Sending one request to the judge: request limits, timeouts, retries, usage accounting.

``JudgeSender`` is the part of a scorer's ``JudgeCaller`` that gets a reply from
the judge for a finished request:

* each attempt holds a slot of the scorer's request limit (and of the ``*_many`` call's, see
  ``JudgeSender.use_call_limit``) and reports rate limits and successes to it;
* transient failures (429 honouring Retry-After, timeouts, 5xx, dropped connections) are retried
  with exponential backoff and jitter, ``max_retries`` times;
* an attempt's timeout is shortened once answers come back much faster, so that a lost answer is
  asked again in seconds (``JudgeSender.attempt_timeout``);
* after ``AUTH_FAILURES_TO_STOP`` authentication failures in a row the judge is not asked again;
* keys the judge echoes are masked, and every call, retry and cached or reused reply is counted
  in the request's log and the scorer's running usage.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import random
import sys
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from tenacity import AsyncRetrying, retry_if_exception_type, stop_after_attempt

from ..errors import JudgeError, TransientJudgeError
from ..judges.base import Judge, JudgeReply, JudgeRequest
from ..masking.replies import current_case_keys, redact_value, request_keys
from ..masking.secrets import redact
from ..results import Usage
from .limiter import RequestLimiter
from .policy import CallLog, CallPolicy, is_auth_failure, is_rate_limit, reply_usage

__all__ = ["AUTH_FAILURES_TO_STOP", "JudgeSender"]

# After this many authentication failures in a row the judge is not asked again: every later
# request fails at once with the same error (a wrong API key would otherwise cost one failed call
# per row, with retries).
AUTH_FAILURES_TO_STOP = 3

# A request that takes this many times longer than the slowest of the last answers (and at least
# _STALL_FLOOR seconds) is taken for lost and asked again, rather than waited on up to the full
# timeout: a response lost on the way (seen with many keep-alive connections under load) must
# not stall a run for minutes while every other request is answered in a fraction of a second.
_STALL_FACTOR = 5.0
_STALL_FLOOR = 10.0
_STALL_SAMPLES = 20

# A limit on requests in flight for one ``*_many`` call, inside the scorer's own limit.
_call_limiter: contextvars.ContextVar[RequestLimiter | None] = contextvars.ContextVar(
    "summscore_call_limiter", default=None
)


class JudgeSender:
    """The sending half of ``JudgeCaller``: gets the judge's reply to a finished
    request under the caller's policy and keeps the scorer's running usage. The state below is
    set by ``JudgeCaller.__init__``."""

    judge: Judge
    policy: CallPolicy
    limiter: RequestLimiter | None
    total: Usage
    _sleep: Callable[[float], Awaitable[None]]
    _lock: threading.Lock
    _in_process: bool
    _auth_failures: int
    _auth_error: JudgeError | None
    _latencies: deque[float]
    _early: dict[Any, tuple[asyncio.AbstractEventLoop, float]]

    @staticmethod
    def use_call_limit(limiter: RequestLimiter) -> None:
        """Requests from the current task (and tasks it starts) also hold a slot of ``limiter``."""
        _call_limiter.set(limiter)

    async def _send_to_judge(self, log: CallLog, request: JudgeRequest) -> JudgeReply:
        try:  # most requests succeed at once: no retry machinery for them (~60 us a call)
            reply = await self._once(request)
        except TransientJudgeError as exc:
            if self.policy.max_retries < 1:
                raise
            reply = await self._retry(log, request, exc)
        self._count(log, reply)
        # A judge (or a gateway in front of it) may echo the caller's key, or part of a key the
        # case's texts hold: masked before the reply is parsed, cached or quoted anywhere.
        return self.masked(reply, request)

    @staticmethod
    def masked(reply: JudgeReply, request: JudgeRequest) -> JudgeReply:
        """``reply`` with every key masked (see ``summscore.masking.replies``): the caller's, and those
        written in the case's texts (in the request's own texts outside a case). The reply itself
        when nothing is masked."""
        asked = current_case_keys()
        if asked is None:
            asked = request_keys(request.prompt, request.inputs)
        output = redact_value(reply.output, asked)
        return reply if output is reply.output else dataclasses.replace(reply, output=output)

    async def _retry(
        self, log: CallLog, request: JudgeRequest, first: TransientJudgeError
    ) -> JudgeReply:
        """Attempts 2 to ``max_retries + 1`` after a first that failed with ``first``: the same
        waits (Retry-After, else exponential backoff by attempt number) and retry counts as if
        tenacity had run the first attempt too."""
        self._count_retry(log)
        await self._sleep(self._delay(first, 1))
        retrying = AsyncRetrying(
            stop=stop_after_attempt(self.policy.max_retries),
            wait=lambda state: self._delay(
                state.outcome.exception() if state.outcome else None, state.attempt_number + 1
            ),
            retry=retry_if_exception_type(TransientJudgeError),
            before_sleep=lambda _state: self._count_retry(log),
            sleep=self._sleep,
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                reply = await self._once(request)
        return reply

    async def _once(self, request: JudgeRequest) -> JudgeReply:
        """One attempt, holding a slot of the scorer's (and the call's) request limit."""
        if self._auth_error is not None:
            raise self._auth_error
        limiters = [x for x in (_call_limiter.get(), self.limiter) if x is not None]
        epochs: list[int] = []
        for limiter in limiters:
            try:
                epochs.append(await limiter.acquire())
            except BaseException:
                for held in limiters[: len(epochs)]:
                    held.release()
                raise
        try:
            reply = await self._complete(request)
        except TransientJudgeError as exc:
            if is_rate_limit(exc):
                for limiter, epoch in zip(limiters, epochs):
                    limiter.rate_limited(epoch)
            raise
        except JudgeError as exc:
            self._note_auth(exc)
            raise
        finally:
            for limiter in reversed(limiters):
                limiter.release()
        self._auth_failures = 0
        for limiter in limiters:
            limiter.succeeded()
        return reply

    def attempt_timeout(self) -> float | None:
        """The policy's timeout, shortened once answers come back much faster (see above)."""
        timeout = self.policy.timeout
        if len(self._latencies) >= _STALL_SAMPLES:
            expected = max(_STALL_FLOOR, _STALL_FACTOR * max(self._latencies))
            timeout = expected if timeout is None else min(timeout, expected)
        return timeout

    async def _complete(self, request: JudgeRequest) -> JudgeReply:
        if self._in_process:
            return await self.judge.complete(request)
        timeout = self.attempt_timeout()
        start = time.monotonic()
        if sys.version_info >= (3, 11):  # no extra task per call, unlike wait_for
            return await self._complete_in_scope(request, timeout, start)
        try:
            if timeout is None:
                reply = await self.judge.complete(request)
            else:
                reply = await asyncio.wait_for(self.judge.complete(request), timeout)
        except (asyncio.TimeoutError, TimeoutError):
            raise TransientJudgeError(
                f"{request.task}: the judge did not answer within {timeout:g}s"
            ) from None
        self._answered(time.monotonic() - start)
        return reply

    async def _complete_in_scope(
        self, request: JudgeRequest, timeout: float | None, start: float
    ) -> JudgeReply:
        # A request sent before the recent latencies were known (the first of a run) gets the
        # policy's timeout; it is shortened like the others' as soon as they are known, so that
        # a lost first answer costs seconds, not the full timeout.
        if sys.version_info < (3, 11):  # pragma: no cover - _complete does not call it there
            raise RuntimeError("asyncio.timeout needs Python 3.11")
        loop = asyncio.get_running_loop()
        sent = loop.time()
        scope = asyncio.timeout_at(None if timeout is None else sent + timeout)
        early = len(self._latencies) < _STALL_SAMPLES
        try:
            async with scope:
                if early:
                    with self._lock:
                        self._early[scope] = (loop, sent)
                reply = await self.judge.complete(request)
        except TimeoutError:
            allowed = (scope.when() or sent) - sent  # the policy's timeout, or shortened
            raise TransientJudgeError(
                f"{request.task}: the judge did not answer within {allowed:.3g}s"
            ) from None
        finally:
            if early:
                with self._lock:
                    self._early.pop(scope, None)
        self._answered(time.monotonic() - start)
        return reply

    def _answered(self, latency: float) -> None:
        self._latencies.append(latency)
        if not self._early or len(self._latencies) < _STALL_SAMPLES:
            return
        expected = self.attempt_timeout()
        with self._lock:
            early, self._early = self._early, {}
        if expected is None:
            return
        for scope, (loop, started) in early.items():
            deadline = started + expected
            when = scope.when()
            if when is None or deadline < when:
                with contextlib.suppress(RuntimeError):  # that loop is closed
                    loop.call_soon_threadsafe(_shorten, scope, deadline)

    def _note_auth(self, exc: JudgeError) -> None:
        """Count authentication failures in a row; past the limit, stop asking the judge."""
        if not is_auth_failure(exc):
            return
        with self._lock:
            self._auth_failures += 1
            if self._auth_failures >= AUTH_FAILURES_TO_STOP and self._auth_error is None:
                self._auth_error = JudgeError(
                    redact(
                        f"{exc} (the judge refused {self._auth_failures} requests in a row; "
                        "summscore stopped asking it for this scorer)"
                    )
                )

    def _delay(self, exc: BaseException | None, failed_attempt: int) -> float:
        """Seconds to wait after attempt number ``failed_attempt`` failed with ``exc``."""
        policy = self.policy
        hint = getattr(exc, "retry_after", None)
        if isinstance(hint, (int, float)) and hint >= 0:
            return float(min(hint, policy.max_retry_after)) + random.uniform(0, 0.1)
        ceiling = min(policy.max_backoff, policy.backoff * (2 ** (failed_attempt - 1)))
        return random.uniform(ceiling / 2, ceiling) if ceiling > 0 else 0.0

    def count_reused(self, calls: int) -> None:
        """Record judge calls saved by the source cache in the scorer's running usage."""
        with self._lock:
            self.total.reused_calls += calls

    def _count_retry(self, log: CallLog) -> None:
        log.usage.retries += 1
        with self._lock:
            self.total.retries += 1

    def _count_cached(self, log: CallLog, reply: JudgeReply) -> None:
        log.usage.cached_calls += 1
        with self._lock:
            self.total.cached_calls += 1

    def _count(self, log: CallLog, reply: JudgeReply) -> None:
        one = reply_usage(reply)
        log.usage.add(one)
        with self._lock:
            self.total.add(one)


def _shorten(scope: Any, deadline: float) -> None:
    """Bring an ``asyncio.timeout`` scope's deadline forward (on its own loop)."""
    when = scope.when()
    if when is None or deadline < when:
        with contextlib.suppress(RuntimeError):  # answered (or timed out) meanwhile
            scope.reschedule(deadline)
