"""Turn a backend's exception into a JudgeError the retry loop understands.

Backends raise their SDK's own exceptions (openai, httpx, langchain providers, deepeval's wrappers);
this module reads them without importing any SDK: by HTTP status where the exception carries one,
by type name otherwise. Transient failures (429, 408, 409, 5xx, timeouts, dropped connections)
become ``TransientJudgeError`` with the server's Retry-After hint; the rest become
``JudgeError``. Messages are redacted.
"""

from __future__ import annotations

import asyncio
import email.utils
import time
from typing import Any

from ..errors import JudgeError, TransientJudgeError
from ..masking.secrets import redact, shorten

__all__ = ["classify_exception", "retry_after_seconds"]

_MAX_MESSAGE = 400
_TRANSIENT_STATUS = {408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529}
_TRANSIENT_NAMES = (
    "RateLimit",
    "Timeout",
    "TimedOut",
    "APIConnectionError",
    "ConnectError",
    "ConnectionError",
    "RemoteProtocolError",
    "ReadError",
    "ServiceUnavailable",
    "InternalServerError",
    "Overloaded",
)


def _status_of(exc: BaseException) -> int | None:
    for attr in ("status_code", "http_status", "status"):
        value = getattr(exc, attr, None)
        if isinstance(value, int):
            return value
    response = getattr(exc, "response", None)
    value = getattr(response, "status_code", None)
    return value if isinstance(value, int) else None


def _headers_of(exc: BaseException) -> Any:
    response = getattr(exc, "response", None)
    return getattr(response, "headers", None)


def retry_after_seconds(headers: Any) -> float | None:
    """Read ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP date)."""
    if not headers:
        return None
    try:
        millis = headers.get("retry-after-ms")
        if millis is not None:
            return max(float(millis) / 1000.0, 0.0)
        value = headers.get("retry-after")
    except Exception:
        return None
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except (TypeError, ValueError):
        pass
    try:
        when = email.utils.parsedate_to_datetime(str(value))
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - time.time(), 0.0)


def _describe(exc: BaseException) -> str:
    status = _status_of(exc)
    name = type(exc).__name__
    prefix = f"{name} (HTTP {status})" if status else name
    if status == 401:
        return f"{prefix}: the judge rejected the credentials; check the API key"
    # Mask first, then cut: a key straddling the cut must not survive in part.
    message = shorten(str(exc).strip() or name, _MAX_MESSAGE)
    return redact(f"{prefix}: {message}")


def classify_exception(exc: BaseException) -> JudgeError:
    """Map any exception from a judge call to a (possibly transient) JudgeError."""
    if isinstance(exc, JudgeError):
        return exc
    status = _status_of(exc)
    transient = False
    if status is not None:
        transient = status in _TRANSIENT_STATUS or status >= 500
    elif isinstance(exc, (asyncio.TimeoutError, TimeoutError, ConnectionError)):
        transient = True
    else:
        names = [cls.__name__ for cls in type(exc).__mro__]
        transient = any(marker in n for n in names for marker in _TRANSIENT_NAMES)
    message = _describe(exc)
    if transient:
        return TransientJudgeError(message, retry_after=retry_after_seconds(_headers_of(exc)))
    return JudgeError(message)
