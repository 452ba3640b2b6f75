"""Keep keys out of judge replies: what a judge sends back is masked before it is parsed, cached
or put into a result.

Replies are data the scoring goes on with, so only what is surely a key is masked: the registered
and environment secrets of :mod:`summscore._redact`, ``sk-`` style keys, and the keys the request
itself held (:func:`keys_in`), in whole or in any ``WINDOW``-long piece.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from pydantic import BaseModel

from . import _redact as _core
from ._redact import _MASK, _PATTERNS, _any_piece, _mask_known

__all__ = ["keys_in", "redact_text", "redact_value"]


def _redact_reply_text(text: str, known: frozenset[str]) -> str:
    # Replies are data the scoring goes on with: only what is surely a key is masked (registered
    # and environment secrets, sk- style keys), not prose such as "password: ..." or "bearer ...".
    if not text:
        return text
    if known:
        text = _mask_known(text, known)
    return _PATTERNS[1].sub(_MASK, text) if "-" in text else text


def keys_in(request: Any) -> frozenset[str]:
    """The keys written in a request to a judge (its prompt, or for a judge that reads no prompt
    the strings of its inputs): the source or summary may hold one. ``sk-`` style keys, and
    bearer tokens and ``api_key=``/``password:`` values that look like keys. A judge can echo a
    key in part, without the prefix a pattern needs (a keyphrase cut at the hyphen):
    :func:`redact_value` given them masks any ``WINDOW``-long run of them (all of a shorter
    one)."""
    if isinstance(request, str):
        return _keys_in_text(request)
    texts: list[str] = []
    _gather_texts(dict(request), texts)
    if len(texts) == 1:
        return _keys_in_text(texts[0])
    # One lookup per string: a source is in many requests, and its search is remembered.
    return frozenset().union(*map(_keys_in_text, texts))


def _keys_in_text(text: str) -> frozenset[str]:
    # Remembered for the texts of ordinary size only: the memo holds its texts alive.
    return _keys_in_short(text) if len(text) <= 65536 else _search_keys(text)


@functools.lru_cache(maxsize=128)
def _keys_in_short(text: str) -> frozenset[str]:
    return _search_keys(text)


def _search_keys(text: str) -> frozenset[str]:
    found = set(_PATTERNS[1].findall(text)) if "k-" in text else set()
    lower = text.lower()  # the case-blind patterns run only where their words occur (~3 us)
    if "bearer" in lower:
        found.update(
            v for v in map(_unpunctuated, _BEARER_VALUE.findall(text)) if _looks_like_key(v)
        )
    if any(word in lower for word in _PAIR_WORDS):
        found.update(v for v in map(_unpunctuated, _PAIR_VALUE.findall(text)) if _looks_like_key(v))
    return frozenset(found)


# A bearer token or a "password: ..." value of a request, masked in the reply only when it looks
# like a key (8 or more characters, letters and digits): "bearer instruments" is prose.
_BEARER_VALUE = re.compile(r"(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{8,})")
_PAIR_VALUE = re.compile(
    r"(?i)\b(?:api[_-]?key|access[_-]?token|secret|password)\"?\s*[:=]\s*\"?([^\s\"',;&]{8,})"
)
_PAIR_WORDS = ("apikey", "api_key", "api-key", "access", "secret", "password")


def _unpunctuated(value: str) -> str:
    """A value without the punctuation that ends its sentence ("password: hunter2hunter2.")."""
    return value.rstrip(".:!?)]}")


def _looks_like_key(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def redact_text(text: str, asked: frozenset[str] = frozenset()) -> str:
    """A user's text (a source or summary a report shows) with the keys in it masked by the
    rules replies are masked by: its own keys (:func:`keys_in`) and ``asked`` (those of the
    texts shown beside it: a summary may repeat a key of its source in other words) included;
    prose stays."""
    if not text:
        return text
    known = _core._known_secrets() | keys_in(text) | asked
    return _redact_reply_text(text, known) if _could_mask(text, known) else text


def redact_value(value: Any, asked: frozenset[str] = frozenset()) -> Any:
    """A judge's reply with every key in it masked: a string, a dict or list of them, or a
    pydantic model. Returns ``value`` itself when nothing needed masking (a model whose dump
    changed comes back as the masked dict, which the reply parser accepts like the model).

    Masks registered and environment secrets, ``sk-`` style keys, and any ``WINDOW``-long run of
    the keys in ``asked`` (those :func:`keys_in` found in the request); not the looser patterns
    :func:`redact` applies to error text, so ordinary prose in a reply stays as the judge wrote it.
    """
    known = _core._known_secrets() | asked if asked else _core._known_secrets()
    texts: list[str] = []
    if _gather_texts(value, texts) and not _could_mask("\x00".join(texts), known):
        return value
    return _redact_reply(value, known)


def _gather_texts(value: Any, texts: list[str]) -> bool:
    """Append every string of a reply (dict keys included) to ``texts``, as :func:`_redact_reply`
    visits them; False for a reply holding a model, which only :func:`_redact_reply` reads."""
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
    """Could :func:`_redact_reply_text` change some string of ``text`` (a reply's strings joined
    by NUL)? Each of its tests is a search that a match in one string also passes on the joined
    text (no match holds a NUL, and a NUL before a word is a word boundary as a string's start
    is), so False means no string of the reply changes: one search each for the whole reply."""
    if known:
        quick = _any_piece(known)
        if quick is not None and quick.search(text) is not None:
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
