"""Which case a judge request belongs to, for judges that spread requests over processes.

The scorer marks the requests of one case with the case's source text
(``summscore.judges.JudgeRequest.affinity``). A judge that keeps per-text memos in several
processes (the offline judge's pool) sends requests of one source to one process, so that the
source is analysed once, there. It is a hint for where to do the work, never part of what is asked:
replies, caches and numbers do not depend on it.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

__all__ = ["case_affinity", "current_affinity"]

_affinity: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "summscore_case_affinity", default=None
)


def current_affinity() -> str | None:
    """The affinity of the case being scored in this task (None outside a case)."""
    return _affinity.get()


@contextlib.contextmanager
def case_affinity(source: str) -> Iterator[None]:
    """Mark the judge requests made inside (and by tasks started inside) as ``source``'s."""
    token = _affinity.set(source)
    try:
        yield
    finally:
        _affinity.reset(token)
