"""Keep keys out of judge replies: what a judge sends back is masked before it is parsed, cached
or put into a result.

Replies are data the scoring goes on with, so only what is surely a key is masked: the registered
and environment secrets of ``secrets``, ``sk-`` style keys, and the keys written in the
texts of the case the reply is about (``case_keys``), in whole or in any ``WINDOW``-long
piece: a judge may quote such a key without the prefix that makes it look like one.

Work shared by several cases (the source side, done once per source) is masked with the keys of
what it is about (``shared_work``), never with those of the case that happens to do it: a
score depends on its own case only. Each case then masks its own keys in what it puts out (its
result, ``redact_result``; its error, ``case_error``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

from . import secrets as _core
from .secrets import (
    _MASK,
    _PATTERNS,
    _case_keys,
    _log_keys,
    _mask_known,
    _may_hold,
    current_case_keys,
    redact,
)

M = TypeVar("M", bound=BaseModel)

__all__ = [
    "case_error",
    "case_keys",
    "current_case_keys",
    "keys_in",
    "redact_result",
    "redact_value",
    "request_keys",
    "shared_work",
]


def _redact_reply_text(text: str, known: frozenset[str]) -> str:
    # Replies are data the scoring goes on with: only what is surely a key is masked (registered
    # and environment secrets, sk- style keys), not prose such as "password: ..." or "bearer ...".
    if not text:
        return text
    if known:
        text = _mask_known(text, known)
    return _PATTERNS[1].sub(_MASK, text) if "-" in text else text


def keys_in(*texts: str) -> frozenset[str]:
    """The ``sk-`` style keys written in ``texts`` (a case's source, summary and questions, or a
    request's prompt). A judge can echo such a key in part, without the prefix the pattern needs
    (the offline judge's keyphrases cut ``sk-proj-...`` at its hyphens): ``redact_value``
    given them masks any ``WINDOW``-long run of them. Bearer tokens and ``password:`` values stay
    prose here ("the secret: COVID-19 wards" names no key), as they do in replies."""
    found: set[str] = set()
    for text in texts:
        if "k-" in text:  # every such key holds "k-": most texts end here (~3 us for 3 kB)
            found.update(_PATTERNS[1].findall(text))
    return frozenset(found)


def request_keys(prompt: str, inputs: Mapping[str, Any]) -> frozenset[str]:
    """``keys_in`` a request made outside a case: its prompt, or the strings of its inputs
    for a judge that reads no prompt."""
    if prompt:
        return keys_in(prompt)
    texts: list[str] = []
    for value in inputs.values():
        _gather_texts(value, texts)
    return keys_in(*texts)


@contextlib.contextmanager
def case_keys(*texts: str) -> Iterator[None]:
    """Mask the keys of ``texts`` (a case's source, summary and questions) in every reply about
    the case, source-side ones included: a key the summary names may come back in a question
    about the source. Searched once per case, not once per request."""
    token = _case_keys.set(keys_in(*texts))
    try:
        yield
    finally:
        _case_keys.reset(token)


@contextlib.contextmanager
def shared_work(*texts: str) -> Iterator[None]:
    """Work done inside for every case with these ``texts`` (a source and its given questions):
    replies, cache entries and error text are masked with the keys of ``texts`` alone, whichever
    case does the work, so that they are the same for every case that uses them. Log records
    made inside keep the surrounding case's keys masked too (a log is no result)."""
    outer = _case_keys.get()
    logged = _log_keys.get()
    if outer:
        logged = outer | logged if logged else outer
    log_token = _log_keys.set(logged)
    token = _case_keys.set(keys_in(*texts))
    try:
        yield
    finally:
        _case_keys.reset(token)
        _log_keys.reset(log_token)


def case_error(exc: BaseException) -> BaseException:
    """``exc`` as the case being scored may raise it: ``exc`` itself when its text holds none of
    the case's keys (``case_keys``), else a copy with them masked. (A failure of shared work
    reaches every case waiting on it as one object, masked for none of them: a copy, so that
    one case's keys never change what another case reports.) The copy keeps the type, the
    attributes and the traceback, not the exceptions chained to ``exc``."""
    message = str(exc)
    masked = redact(message)
    if masked == message:
        return exc
    kind = type(exc)
    try:  # not through __init__, whose parameters differ from class to class
        twin = kind.__new__(kind)
        twin.__dict__.update(vars(exc))
        twin.args = (masked,)
        shown = str(twin)
    except Exception:  # an exception that cannot be built so, or shows more than its args
        shown = None
    if shown != masked:
        twin = RuntimeError(masked)
    twin.__cause__ = None
    twin.__context__ = None
    twin.__suppress_context__ = True
    return twin.with_traceback(exc.__traceback__)


def redact_result(result: M) -> M:
    """A case's result with the case's keys (``case_keys``) masked in it, the result itself
    when it holds none of them: a case may reuse the source side of an earlier case with the
    same source, whose replies were masked with that case's keys, not this one's."""
    keys = current_case_keys()
    if not keys:
        return result
    dumped = result.model_dump()
    cleaned = _redact_reply(dumped, keys)
    return result if cleaned is dumped else type(result).model_validate(cleaned)


def redact_value(value: Any, asked: frozenset[str] = frozenset()) -> Any:
    """A judge's reply (or a case's text the report shows) with every key in it masked: a
    string, a dict or list of them, or a pydantic model. Returns ``value`` itself when nothing
    needed masking (a model whose dump changed comes back as the masked dict, which the reply
    parser accepts like the model).

    Masks registered and environment secrets, ``sk-`` style keys, and any ``WINDOW``-long run of
    the keys in ``asked`` (the case's, see ``case_keys``); not the looser patterns
    ``redact`` applies to error text, so ordinary prose in a reply stays as the judge wrote it.
    """
    known = _core._known_secrets() | asked if asked else _core._known_secrets()
    if isinstance(value, bytes):  # read as the reply parser reads it
        text = value.decode("utf-8", "replace")
        masked = _redact_reply_text(text, known) if _could_mask(text, known) else text
        return value if masked == text else masked
    texts: list[str] = []
    if _gather_texts(value, texts) and not _could_mask("\x00".join(texts), known):
        return value
    return _redact_reply(value, known)


def _gather_texts(value: Any, texts: list[str]) -> bool:
    """Append every string of a reply (dict keys included) to ``texts``, as ``_redact_reply``
    visits them; False for a reply holding a model, which only ``_redact_reply`` reads."""
    if isinstance(value, str):
        texts.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str):
                texts.append(key)
            elif not _gather_texts(key, texts):
                return False
            if isinstance(item, str):
                texts.append(item)
            elif not _gather_texts(item, texts):
                return False
    elif isinstance(value, (list, tuple)):
        if value and isinstance(value[0], str):
            try:  # all strings (most replies): joined in C, by NUL as the reply's strings are
                texts.append("\x00".join(value))
                return True
            except TypeError:
                pass
        for item in value:
            if isinstance(item, str):
                texts.append(item)
            elif not _gather_texts(item, texts):
                return False
    elif isinstance(value, BaseModel):
        return False
    return True


def _could_mask(text: str, known: frozenset[str]) -> bool:
    """Could ``_redact_reply_text`` change some string of ``text`` (a reply's strings joined
    by NUL)? Each of its tests is a search that a match in one string also passes on the joined
    text (no match holds a NUL, and a NUL before a word is a word boundary as a string's start
    is), so False means no string of the reply changes: one search each for the whole reply."""
    if known and _may_hold(text, known):
        return True
    return "-" in text and _PATTERNS[1].search(text) is not None


def _redact_reply(value: Any, known: frozenset[str]) -> Any:
    if isinstance(value, str):
        return _redact_reply_text(value, known)
    if isinstance(value, BaseModel):
        dumped = value.model_dump(mode="json")
        cleaned = _redact_reply(dumped, known)
        return value if cleaned == dumped else cleaned
    # A container is rebuilt only when one of its parts changed; each part is compared by identity
    # first, so an unchanged reply costs one pass, not a deep comparison at every level.
    if isinstance(value, dict):
        out = {}
        changed = False
        for key, item in value.items():
            new_key = _redact_reply(key, known)
            new_item = _redact_reply(item, known)
            changed = changed or _differs(new_key, key) or _differs(new_item, item)
            out[new_key] = new_item
        return out if changed else value
    if isinstance(value, (list, tuple)):
        items = [_redact_reply(v, known) for v in value]
        if any(_differs(new, old) for new, old in zip(items, value)):
            return type(value)(items)
        return value
    return value


def _differs(new: Any, old: Any) -> bool:
    return new is not old and new != old
