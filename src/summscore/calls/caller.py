"""Asking the judge: a task's reply, with repair of unusable replies and the reply cache.

One ``JudgeCaller`` per scorer. ``ask`` sends a rendered prompt and returns the list the task
produces (keyphrases, answers, verdicts, ...):

* a reply that is not the requested JSON is asked again once (``repair_retries``) with the parse
  error appended to the prompt;
* a list of the wrong length (fewer answers than questions) is asked again the same way; if it is
  still wrong, the caller gets what was judged and a warning is recorded;
* a reply that was used is kept in the reply cache (when the scorer has one), and a cached reply
  is used instead of asking the judge again.

Sending each request (request limits, timeouts, retries with backoff that honour Retry-After,
usage accounting) is ``JudgeSender``'s, which ``JudgeCaller`` extends.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

from ..errors import JudgeError, JudgeOutputError
from ..judges.base import Judge, JudgeReply, JudgeRequest
from ..masking.secrets import redact
from ..prompts.base import Rendered
from ..results import Usage
from .affinity import current_affinity
from .limiter import RequestLimiter
from .policy import CallLog, CallPolicy, parse_reply, repair_feedback
from .reply_cache import ReplyCache, cache_identity
from .sender import JudgeSender

__all__ = ["CallLog", "CallPolicy", "JudgeCaller", "repair_feedback"]

M = TypeVar("M", bound=BaseModel)


class JudgeCaller(JudgeSender):
    """Sends requests to one judge under one policy and keeps the scorer's running usage.

    Asks for a task's reply, has an unusable one asked again and keeps replies in the reply cache;
    the sending of each request (limits, timeouts, retries, usage) is ``JudgeSender``'s.
    """

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
        """Like ``ask`` for a single-object reply (the reason)."""
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
                # Masked again as it is read: kept before a key of this case was known as one.
                cached = self.masked(cached, request)
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
