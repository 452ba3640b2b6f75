"""What a caller sent comes back as it sent it, whatever the server's keys are.

The service masks its own secrets (registered keys, the values of ``*_API_KEY`` variables) in any
``WINDOW``-long piece, so that a judge's error quoting the key never reaches a client. Applied to
text the client sent itself (an id, a summary the judge quotes back, a field an error names),
that masking answered whether a text the client chose is a piece of the server's key, with
``***`` or with the text (and changed the case's score): a client knowing the usual prefix could
read the key a piece at a time. ``sent_by_caller`` leaves the secrets a request holds a piece of
unmasked in what goes back to it; log records still mask them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from . import secrets as _core

__all__ = ["secrets_in", "sent_by_caller"]


def secrets_in(value: Any) -> frozenset[str]:
    """The secrets of which ``value`` (a request body as parsed: its strings, keys of objects
    included) holds a piece (about 8 ms a megabyte: the service finds them where it parses)."""
    texts: list[str] = []
    _strings(value, texts)
    joined = "\x00".join(texts)
    known = _core._all_secrets()
    if not (known and joined and _core._may_hold(joined, known)):
        return frozenset()
    folded = _core._fold(joined)
    return frozenset(s for s in known if _core._secret_spans(joined, s, folded))


@contextlib.contextmanager
def sent_by_caller(sent: frozenset[str]) -> Iterator[None]:
    """While the block runs, the secrets ``sent`` (``secrets_in`` the request being answered)
    are not masked, except in log records."""
    token = _core._sent.set(sent)
    try:
        yield
    finally:
        _core._sent.reset(token)


def _strings(value: Any, texts: list[str]) -> None:
    if isinstance(value, str):
        texts.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            _strings(key, texts)
            _strings(item, texts)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _strings(item, texts)
