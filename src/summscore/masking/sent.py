"""What a caller sent comes back as it sent it, whatever the server's keys are.

The service masks its own secrets (registered keys, the values of ``*_API_KEY`` variables) in any
``WINDOW``-long piece, so that a judge's error quoting the key never reaches a client. Applied to
text the client sent itself (an id, a summary the judge quotes back, a field an error names),
that masking answered whether a text the client chose is a piece of the server's key, with
``***`` or with the text (and changed the case's score): a client knowing the usual prefix could
read the key a piece at a time. ``sent_by_caller`` leaves a run of a server secret unmasked in
what goes back to a request when the request itself holds that very run (a judge's error quoting
more of the key still masks it); log records mask it all.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from . import secrets as _core

__all__ = ["secrets_in", "sent_by_caller", "sent_now"]


def secrets_in(*values: Any) -> tuple[frozenset[str], str] | None:
    """What ``values`` (a request body as parsed, or a case's texts: their strings, keys of
    objects included) hold of the server's secrets: the secrets a piece of which they hold, and
    their text folded (None when they hold none). About 10 ms a megabyte (20 with letters past
    ASCII): the service finds them where it parses."""
    texts: list[str] = []
    _strings(values, texts)
    joined = "\x00".join(texts)
    if not joined.isascii() and (
        _HIDDEN.search(joined) or not unicodedata.is_normalized("NFKC", joined)
    ):
        # Also as a judge may read it (the offline judge does): a soft hyphen or a zero-width
        # space dropped, full-width letters as plain ones. Else a guess so spelt came back as
        # ``***`` where the judge's reading of it is a piece of the key.
        joined += "\x00" + unicodedata.normalize("NFKC", joined).translate(_INVISIBLE)
    known = _core._known_secrets()
    if not (known and joined and _core._may_hold(joined, known)):
        return None
    folded = _core._fold(joined)
    held = frozenset(s for s in known if _core._secret_spans(joined, s, folded))
    return (held, folded) if held else None


def sent_now() -> tuple[frozenset[str], str] | None:
    """What the caller being answered sent of the server's secrets (``sent_by_caller``)."""
    return _core._sent.get()


@contextlib.contextmanager
def sent_by_caller(sent: tuple[frozenset[str], str] | None) -> Iterator[None]:
    """While the block runs, a run of a server secret that the caller sent itself (``sent``:
    ``secrets_in`` what it sent) is left as sent, except in log records."""
    token = _core._sent.set(sent)
    try:
        yield
    finally:
        _core._sent.reset(token)


# Format characters nobody sees (soft hyphen, zero-width spaces and joiners, direction marks,
# byte order mark), dropped by judges that read past them.
_INVISIBLE = {
    code: None
    for code in itertools.chain(
        range(0xAD, 0xAE),
        range(0x600, 0x606),
        range(0x61C, 0x61D),
        range(0x180E, 0x180F),
        range(0x200B, 0x2010),
        range(0x202A, 0x202F),
        range(0x2060, 0x2070),
        range(0xFEFF, 0xFF00),
    )
    if unicodedata.category(chr(code)) == "Cf"
}
_HIDDEN = re.compile("[" + "".join(map(chr, _INVISIBLE)) + "]")


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
