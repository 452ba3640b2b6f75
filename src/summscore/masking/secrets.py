"""Keep secrets out of messages, logs, reports and caches.

Before summscore stores, logs or raises any text that came from a judge (its replies included),
that text goes through ``redact``. It masks:

* every secret registered with ``register_secret`` (each judge backend registers the keys held
  by the object the user passed, see ``judges/_secrets.py``) and the value of every environment
  variable whose name looks like a credential (``*_API_KEY``, ``*_TOKEN``, ``*_SECRET``, ...);
  any run of 12 or more characters of such a secret counts as the secret, so a key cut in two, or
  quoted in part, is masked too, and so is one a gateway or judge sends back in other letter
  case ("SK-PROJ-..." or all lower case; secrets of 12 characters or fewer are matched as
  written);
* bearer tokens, ``sk-`` style keys and ``api_key=...`` pairs, registered or not.

Masking happens before any cut to length, so a key straddling a cut cannot escape in part.
Judge replies are masked more narrowly (keys only, not prose), by ``replies``.
``install_log_redaction`` applies the same masking to log records of summscore and of the
HTTP and framework libraries the judges use.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import os
import re
import string
import threading
import traceback
from collections.abc import Iterable
from typing import Any

__all__ = [
    "WINDOW",
    "current_case_keys",
    "install_log_redaction",
    "redact",
    "redact_log",
    "register_secret",
    "registered_secrets",
    "shorten",
]

WINDOW = 12
"""Any run of this many characters of a secret is treated as the secret."""

_MASK = "***"
_MIN_SECRET = 6
_PATTERNS = [
    re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{8,}"),
    re.compile(r"\b(?:sk|pk|rk|ak)-[A-Za-z0-9_-]{12,}"),
    # "OPENAI_API_KEY=...", "client_secret: '...'", "API key: ..." too (not "\b": "_" is a word
    # character, so "\bapi_key" misses the variable names of .env files).
    re.compile(
        r"(?i)(?<![A-Za-z0-9])(api[_ -]?key|access[_-]?token|secret|password)"
        r"([\"']?\s*[:=]\s*[\"']?)[^\s\"',;&]{4,}"
    ),
]
_SECRET_ENV_SUFFIXES = ("API_KEY", "APIKEY", "_TOKEN", "_SECRET", "_PASSWORD", "ACCESS_KEY")
# Values local servers are given because the client insists on a key: not secrets, and masking
# them would only blank ordinary words.
_PLACEHOLDERS = frozenset(
    {"not-needed", "not_needed", "dummy", "none", "empty", "no-key", "sk-no-key-required"}
)
# ASCII letter case folded one character for one: what _fold falls back on where str.lower changes
# a text's length ("İ"), as the spans found in the folded text must be the original's.
_FOLD = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_registered: set[str] = set()
_lock = threading.Lock()
_version = 0  # bumped by every new registration
# (registration version, environment snapshot, the secrets they give): rebuilt when either changes.
_known_cache: tuple[int, Any, frozenset[str]] | None = None


def register_secret(value: Any) -> None:
    """Mask ``value`` (a string, or a pydantic ``SecretStr``) wherever summscore emits text."""
    getter = getattr(value, "get_secret_value", None)
    if callable(getter):
        value = getter()
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if not isinstance(value, str):
        return
    value = value.strip()
    if value.lower().startswith("bearer "):
        value = value[7:].strip()
    if len(value) < _MIN_SECRET or value.lower() in _PLACEHOLDERS:
        return
    global _version
    with _lock:
        if value not in _registered:
            _registered.add(value)
            _version += 1
    install_log_redaction()


def registered_secrets() -> frozenset[str]:
    """The secrets registered so far (for tests)."""
    with _lock:
        return frozenset(_registered)


def _env_secrets() -> list[str]:
    found = []
    for name, value in os.environ.items():
        if (
            value
            and len(value) >= _MIN_SECRET
            and name.upper().endswith(_SECRET_ENV_SUFFIXES)
            and value.lower() not in _PLACEHOLDERS
        ):
            found.append(value)
    return found


def _fold(text: str) -> str:
    """``text`` in lower case, character for character (str.lower where it keeps the length, as
    it does for all but a few letters; a length kept means each character gave one)."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text.translate(_FOLD)


def _secret_spans(text: str, secret: str, folded: str | None = None) -> list[tuple[int, int]]:
    """Where ``text`` holds ``WINDOW`` or more consecutive characters of ``secret`` in any letter
    case (all of it, as written, when the secret is that short). ``folded``: ``_fold`` of
    ``text``, where the caller has it."""
    if len(secret) <= WINDOW:
        spans = []
        start = text.find(secret)
        while start != -1:
            spans.append((start, start + len(secret)))
            start = text.find(secret, start + 1)
        return spans
    # Every WINDOW-long piece of the secret contains one of its aligned half-window blocks, so
    # finding those blocks and growing each match both ways finds every such piece.
    # (Compared case-folded: the same length as the text, so the spans are the text's own.)
    text = _fold(text) if folded is None else folded
    secret = _fold(secret)
    block = WINDOW // 2
    spans = []
    for offset in range(0, len(secret) - block + 1, block):
        piece = secret[offset : offset + block]
        at = text.find(piece)
        while at != -1:
            left = 0
            while (
                offset - left > 0
                and at - left > 0
                and text[at - left - 1] == secret[offset - left - 1]
            ):
                left += 1
            right = block
            while (
                offset + right < len(secret)
                and at + right < len(text)
                and text[at + right] == secret[offset + right]
            ):
                right += 1
            if left + right >= WINDOW:
                spans.append((at - left, at + right))
            at = text.find(piece, at + 1)
    return spans


def _mask_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    if not merged:
        return text
    parts = []
    last = 0
    for start, end in merged:
        parts.append(text[last:start])
        parts.append(_MASK)
        last = end
    parts.append(text[last:])
    return "".join(parts)


def _environment_snapshot() -> dict[Any, Any]:
    """The environment as it is now, compared cheaply: the raw (undecoded) mapping where the
    platform keeps one, so checking for a change costs a C-level comparison, not a decode of
    each pair (nor a copy: the caller keeps a copy when it changed)."""
    raw = getattr(os.environ, "_data", None)
    return raw if isinstance(raw, dict) else dict(os.environ)


# What the caller being answered sent (``sent.sent_by_caller``): the secrets it holds a piece of,
# and its text folded. A run of such a secret that the caller sent itself is left as sent in what
# goes back to it: masked, it answered whether a text the caller chose is a piece of the server's
# key (and changed its score), a way to read the key a piece at a time. Logs mask it all.
_sent: contextvars.ContextVar[tuple[frozenset[str], str] | None] = contextvars.ContextVar(
    "summscore_sent", default=None
)


def _known_secrets() -> frozenset[str]:
    """Registered and environment secrets. Every reply is masked with these, so the set (and the
    pattern built from it) is reused until a secret is registered or the environment changes."""
    global _known_cache
    snapshot = _environment_snapshot()
    cached = _known_cache
    if cached is not None and cached[0] == _version and cached[1] == snapshot:
        return cached[2]
    snapshot = dict(snapshot)  # before the secrets are read: a change meanwhile is seen next time
    with _lock:
        version = _version
        literal = list(_registered)
    known = frozenset({*literal, *_env_secrets()})
    _known_cache = (version, snapshot, known)
    return known


@functools.lru_cache(maxsize=32)
def _quick_pieces(known: frozenset[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What a text holding a piece of a ``known`` secret must contain, for a quick "nothing to
    do": each short secret as written, and the lower-case blocks of the long ones that
    ``_secret_spans`` starts from (looked for in the text folded). One substring test per
    piece runs three times faster than one regular expression of them all."""
    exact: set[str] = set()
    folded: set[str] = set()
    block = WINDOW // 2
    for secret in known:
        if len(secret) <= WINDOW:
            exact.add(secret)
        else:
            lowered = _fold(secret)
            folded.update(lowered[i : i + block] for i in range(0, len(secret) - block + 1, block))
    return tuple(exact), tuple(folded)


def _may_hold(text: str, known: frozenset[str]) -> bool:
    """Could ``text`` hold a piece of a ``known`` secret? False means surely not."""
    exact, blocks = _quick_pieces(known)
    # (The tests are mapped in C: no Python frame per piece.)
    if exact and any(map(text.__contains__, exact)):
        return True
    return bool(blocks) and any(map(_fold(text).__contains__, blocks))


def _mask_known(text: str, known: frozenset[str] | None = None, *, logs: bool = False) -> str:
    known = _known_secrets() if known is None else known
    if not known or not _may_hold(text, known):
        return text
    folded = _fold(text)  # (again: only in the rare text that may hold a secret)
    sent = None if logs else _sent.get()
    spans: list[tuple[int, int]] = []
    for secret in known:
        found = _secret_spans(text, secret, folded)
        if sent is not None and secret in sent[0]:  # (runs the caller sent itself stay)
            found = [(a, b) for a, b in found if folded[a:b] not in sent[1]]
        spans.extend(found)
    return _mask_spans(text, spans)


# The sk- keys written in the texts of the case being scored in this task (see
# replies.case_keys): masked in replies, results and error text about the case.
_case_keys: contextvars.ContextVar[frozenset[str] | None] = contextvars.ContextVar(
    "summscore_case_keys", default=None
)


# Keys masked in log records only, beside the case's: those of the case whose task does work
# shared by other cases (see replies.shared_work), whose own keys are the shared work's.
_log_keys: contextvars.ContextVar[frozenset[str] | None] = contextvars.ContextVar(
    "summscore_log_keys", default=None
)


def current_case_keys() -> frozenset[str] | None:
    """The keys of the case being scored in this task (None outside a case)."""
    return _case_keys.get()


def redact(text: str) -> str:
    """Return ``text`` with credentials masked (the keys of the case being scored included: an
    error may quote part of one)."""
    return _redact(text, _case_keys.get())


def redact_log(text: str) -> str:
    """``redact`` for a log line: every secret masked, those the caller sent too."""
    return _redact(text, _case_keys.get(), logs=True)


def _redact(text: str, case: frozenset[str] | None, *, logs: bool = False) -> str:
    if not text:
        return text
    known = _known_secrets()
    text = _mask_known(text, known | case if case else known, logs=logs)
    text = _PATTERNS[0].sub("Bearer " + _MASK, text)
    text = _PATTERNS[1].sub(_MASK, text)
    text = _PATTERNS[2].sub(lambda m: f"{m.group(1)}{m.group(2)}{_MASK}", text)
    return text


def shorten(text: str, limit: int) -> str:
    """Redact ``text``, then cut it to ``limit`` characters (in that order)."""
    text = redact(text)
    return text if len(text) <= limit else text[:limit] + "..."


# Log records: summscore's own, and those of the libraries a judge call passes through, are masked
# when created. A user's own handlers, and records of other loggers, are left alone.
_LOG_PREFIXES = (
    "summscore",
    "openai",
    "httpx",
    "httpcore",
    "langchain",
    "langchain_core",
    "langchain_openai",
    "ragas",
    "deepeval",
    "instructor",
    "urllib3",
    "requests",
    "litellm",
    "anthropic",
)
_log_installed = False


def _wants_redaction(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in _LOG_PREFIXES)


def install_log_redaction() -> None:
    """Mask secrets in log records of summscore and of the HTTP/framework libraries (idempotent).

    Done in the log record factory, so it holds whatever handler or level the user configures;
    records of other loggers are untouched.
    """
    global _log_installed
    with _lock:
        if _log_installed:
            return
        _log_installed = True
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        if _wants_redaction(record.name):
            _redact_record(record)
        return record

    logging.setLogRecordFactory(factory)


def _redact_record(record: logging.LogRecord) -> None:
    try:
        message = record.getMessage()
    except Exception:  # a broken format string: leave it to logging to report
        return
    keys = _case_keys.get()
    extra = _log_keys.get()
    if extra:
        keys = extra | keys if keys else extra
    cleaned = _redact(message, keys, logs=True)
    if cleaned != message:
        record.msg = cleaned
        record.args = None
    if record.exc_info and record.exc_info[1] is not None:
        text = "".join(traceback.format_exception(*record.exc_info)).rstrip()
        record.exc_text = _redact(text, keys, logs=True)
    if record.stack_info:
        record.stack_info = _redact(record.stack_info, keys, logs=True)


install_log_redaction()
