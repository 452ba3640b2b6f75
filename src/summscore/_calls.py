"""Asking the judge: retries, timeouts, repair of unusable replies, usage accounting.

One :class:`JudgeCaller` per scorer. ``ask`` sends a rendered prompt and returns the list the task
produces (keyphrases, answers, verdicts, ...):

* transient failures (429 honouring Retry-After, timeouts, 5xx, dropped connections) are retried
  with exponential backoff and jitter, ``max_retries`` times;
* a reply that is not the requested JSON is asked again once (``repair_retries``) with the parse
  error appended to the prompt;
* a list of the wrong length (fewer answers than questions) is asked again the same way; if it is
  still wrong, the caller gets what was judged and a warning is recorded.
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
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel
from tenacity import AsyncRetrying, retry_if_exception_type, stop_after_attempt

from ._affinity import current_affinity
from ._callpolicy import (
    CallLog,
    CallPolicy,
    is_auth_failure,
    is_rate_limit,
    parse_reply,
    repair_feedback,
    reply_usage,
)
from ._limiter import RequestLimiter
from ._redact import redact
from ._redact_replies import keys_in, redact_value
from ._replycache import ReplyCache, cache_identity
from .errors import JudgeError, JudgeOutputError, TransientJudgeError
from .judges.base import Judge, JudgeReply, JudgeRequest
from .prompts.base import Rendered
from .result import Usage

__all__ = ["AUTH_FAILURES_TO_STOP", "CallLog", "CallPolicy", "JudgeCaller", "repair_feedback"]

M = TypeVar("M", bound=BaseModel)

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


class JudgeCaller:
    """Sends requests to one judge under one policy and keeps the scorer's running usage."""

    def __init__(
        self,
        judge: Judge,
        policy: CallPolicy,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        cache: ReplyCache | None = None,
        limiter: RequestLimiter | None = None,
    ) -> None:
        self.judge = judge
        self.policy = policy
        self.cache = cache
        self.limiter = limiter
        self._sleep = sleep
        self.total = Usage()
        self._lock = threading.Lock()
        self._cache_identity = cache_identity(judge)
        # A judge that answers in the loop's own thread without awaiting (the offline judge)
        # cannot be timed out, nor does its latency say anything about a stalled server.
        self._in_process = getattr(judge, "in_process", False) is True
        self._auth_failures = 0
        self._auth_error: JudgeError | None = None
        self._latencies: deque[float] = deque(maxlen=200)
        # Requests in flight that were sent with the policy's timeout: loop and loop time sent.
        self._early: dict[Any, tuple[asyncio.AbstractEventLoop, float]] = {}

    @staticmethod
    def use_call_limit(limiter: RequestLimiter) -> None:
        """Requests from the current task (and tasks it starts) also hold a slot of ``limiter``."""
        _call_limiter.set(limiter)

    async def ask(
        self,
        log: CallLog,
        task: str,
        rendered: Rendered,
        reply_model: type[M],
        *,
        inputs: Mapping[str, Any],
        field_name: str,
        expect_len: int | None = None,
        what: str = "items",
    ) -> list[Any]:
        """Ask for ``task`` and return ``getattr(reply, field_name)``.

        ``expect_len`` is the length the list must have (one answer per question); ``what`` names
        those items in the feedback and warning.
        """
        base = self._prompt(rendered)
        prompt = base
        last_error: JudgeOutputError | None = None
        attempts = 1 + self.policy.repair_retries
        for attempt in range(attempts):
            request = JudgeRequest(
                task, prompt, rendered.schema, inputs, affinity=current_affinity()
            )
            try:
                reply, parsed = await self._answer(
                    log, task, request, reply_model, last=attempt + 1 == attempts
                )
            except JudgeOutputError as exc:
                last_error = exc
                prompt = base + repair_feedback(str(exc))
                continue
            items = list(getattr(parsed, field_name))
            if expect_len is None or len(items) == expect_len:
                self._keep(request, reply)
                return items
            if attempt + 1 < attempts:
                prompt = base + repair_feedback(
                    f'"{field_name}" had {len(items)} entries but there are {expect_len} {what}; '
                    f"give exactly one entry per item, in order"
                )
                continue
            log.warn(
                f"{task}: the judge returned {len(items)} {field_name} for {expect_len} {what} "
                f"after {attempts} attempts; scored the {min(len(items), expect_len)} judged"
            )
            self._keep(request, reply)
            return items
        assert last_error is not None
        raise JudgeOutputError(
            redact(
                f"{task}: the judge's reply was unusable after {attempts} attempts: {last_error}"
            )
        )

    async def ask_text(
        self,
        log: CallLog,
        task: str,
        rendered: Rendered,
        reply_model: type[M],
        *,
        inputs: Mapping[str, Any],
    ) -> M:
        """Like :meth:`ask` for a single-object reply (the reason)."""
        base = self._prompt(rendered)
        prompt = base
        last_error: JudgeOutputError | None = None
        attempts = 1 + self.policy.repair_retries
        for attempt in range(attempts):
            request = JudgeRequest(
                task, prompt, rendered.schema, inputs, affinity=current_affinity()
            )
            try:
                reply, parsed = await self._answer(
                    log, task, request, reply_model, last=attempt + 1 == attempts
                )
                self._keep(request, reply)
                return parsed
            except JudgeOutputError as exc:
                last_error = exc
                prompt = base + repair_feedback(str(exc))
        raise JudgeOutputError(redact(f"{task}: the judge's reply was unusable: {last_error}"))

    def _prompt(self, rendered: Rendered) -> str:
        """The prompt text, rendered only for judges that read prompts."""
        return rendered.text if self.judge.reads_prompts else ""

    def _cache_key(self, request: JudgeRequest) -> str:
        return ReplyCache.key(self._cache_identity, request, self.judge.reads_prompts)

    async def _answer(
        self, log: CallLog, task: str, request: JudgeRequest, reply_model: type[M], *, last: bool
    ) -> tuple[JudgeReply, M]:
        """The reply to ``request`` (from the cache when it holds one) and what it says. A cached
        reply that cannot be read (damaged on disk, or stored by something else) is not the
        judge's answer: the judge is asked instead, and that uses up no attempt."""
        if self.cache is not None:
            cached = self.cache.get(self._cache_key(request))
            if cached is not None:
                try:  # read as when it was kept (a reply cut off is kept only on a last attempt)
                    parsed = parse_reply(log, task, cached, reply_model, last=True)
                except JudgeOutputError:
                    self.cache.report_damaged(
                        "an entry does not read as this task's reply", returned=True
                    )
                else:
                    self._count_cached(log, cached)
                    return cached, parsed
        reply = await self._send_to_judge(log, request)
        return reply, parse_reply(log, task, reply, reply_model, last=last)

    def _keep(self, request: JudgeRequest, reply: JudgeReply) -> None:
        """Cache a reply that was used (parsed and accepted): a failed one is asked again."""
        if self.cache is not None:
            self.cache.put(self._cache_key(request), reply)

    async def _send_to_judge(self, log: CallLog, request: JudgeRequest) -> JudgeReply:
        try:  # most requests succeed at once: no retry machinery for them (~60 us a call)
            reply = await self._once(request)
        except TransientJudgeError as exc:
            if self.policy.max_retries < 1:
                raise
            reply = await self._retry(log, request, exc)
        self._count(log, reply)
        # A judge (or a gateway in front of it) may echo the caller's key, or part of a key the
        # source holds: mask it before the reply is parsed, cached or quoted anywhere. (Nothing
        # masked: the reply as it came.)
        output = redact_value(reply.output, keys_in(request.prompt or request.inputs))
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
