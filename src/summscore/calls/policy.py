"""The parts of a judge call that hold no I/O: its limits (``CallPolicy``), what it cost
(``CallLog``), how a reply is read, and how an error is recognised."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from pydantic import BaseModel

from ..errors import JudgeOutputError
from ..judges.base import JudgeReply
from ..results import Usage
from .reply_json import coerce_reply

__all__ = [
    "CallLog",
    "CallPolicy",
    "is_auth_failure",
    "is_rate_limit",
    "parse_reply",
    "repair_feedback",
    "reply_usage",
]

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class CallPolicy:
    """Limits for one judge call. ``timeout`` is per attempt, in seconds (None: no limit)."""

    max_retries: int = 4
    backoff: float = 1.0
    max_backoff: float = 30.0
    max_retry_after: float = 120.0
    timeout: float | None = 120.0
    repair_retries: int = 1

    def __post_init__(self) -> None:
        for name in ("max_retries", "repair_retries"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
        for name in ("backoff", "max_backoff", "max_retry_after"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"{name} must be a non-negative number, got {value!r}")
        if self.timeout is not None and (
            isinstance(self.timeout, bool)
            or not isinstance(self.timeout, (int, float))
            or self.timeout <= 0
        ):
            raise ValueError(
                f"timeout must be a positive number of seconds or None, got {self.timeout!r}"
            )


@dataclass
class CallLog:
    """What one result's judge calls cost, and what went wrong on the way."""

    usage: Usage = field(default_factory=Usage)
    warnings: list[str] = field(default_factory=list)

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)


def reply_usage(reply: JudgeReply) -> Usage:
    """What one judge call that answered ``reply`` adds to a result's and the scorer's usage."""
    if reply.input_tokens is None and reply.output_tokens is None and reply.cost is None:
        return _ONE_CALL  # the offline judge's replies: one object, only ever added (read)
    return Usage(
        judge_calls=1,
        input_tokens=reply.input_tokens,
        output_tokens=reply.output_tokens,
        cost=reply.cost,
    )


_ONE_CALL = Usage(judge_calls=1)


def parse_reply(log: CallLog, task: str, reply: JudgeReply, model: type[M], *, last: bool) -> M:
    """Read a reply. A reply cut off mid-JSON is asked again; only on the last attempt is what
    it holds kept, and then with a warning."""
    try:
        return coerce_reply(reply.output, model)
    except JudgeOutputError:
        if not last:
            raise
        parsed = coerce_reply(reply.output, model, allow_truncated=True)
        log.warn(f"{task}: the judge's reply was cut off; scored what it held")
        return parsed


def is_rate_limit(exc: BaseException) -> bool:
    text = str(exc)
    return "HTTP 429" in text or "rate limit" in text.lower()


def is_auth_failure(exc: BaseException) -> bool:
    text = str(exc)
    return any(f"HTTP {status}" in text for status in (401, 403))


def repair_feedback(problem: str) -> str:
    return (
        "\n\nYour previous reply could not be used: "
        f"{problem}. Reply again with only the JSON the instructions above ask for."
    )
