"""Keep secrets out of messages, logs, reports and caches.

Judge errors often quote request details. Before summscore stores or raises any text that came
from a judge client it goes through :func:`redact`, which masks bearer tokens, ``sk-`` style keys,
``api_key=...`` pairs, and the literal value of every environment variable whose name looks like a
credential (``*_API_KEY``, ``*_TOKEN``, ``*_SECRET``), plus keys registered with :func:`register_secret`.
"""

from __future__ import annotations

import os
import re
import threading

__all__ = ["redact", "register_secret"]

_MASK = "***"
_PATTERNS = [
    re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{8,}"),
    re.compile(r"\b(?:sk|pk|rk|ak)-[A-Za-z0-9_-]{12,}"),
    re.compile(
        r"(?i)\b(api[_-]?key|access[_-]?token|secret|password)(\"?\s*[:=]\s*\"?)[^\s\"',;&]{4,}"
    ),
]
_SECRET_ENV_SUFFIXES = ("API_KEY", "APIKEY", "_TOKEN", "_SECRET", "_PASSWORD", "ACCESS_KEY")
_registered: set[str] = set()
_lock = threading.Lock()


def register_secret(value: str | None) -> None:
    """Mask ``value`` wherever it appears in text summscore emits from now on."""
    if value and len(value) >= 6:
        with _lock:
            _registered.add(value)


def _env_secrets() -> list[str]:
    found = []
    for name, value in os.environ.items():
        if value and len(value) >= 6 and name.upper().endswith(_SECRET_ENV_SUFFIXES):
            found.append(value)
    return found


def redact(text: str) -> str:
    """Return ``text`` with credentials masked."""
    if not text:
        return text
    with _lock:
        literal = list(_registered)
    for secret in sorted({*literal, *_env_secrets()}, key=len, reverse=True):
        text = text.replace(secret, _MASK)
    text = _PATTERNS[0].sub("Bearer " + _MASK, text)
    text = _PATTERNS[1].sub(_MASK, text)
    text = _PATTERNS[2].sub(lambda m: f"{m.group(1)}{m.group(2)}{_MASK}", text)
    return text
