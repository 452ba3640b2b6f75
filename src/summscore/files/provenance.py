"""What each results row records about its run beyond the result, so that two runs can be told
apart and their cases matched (``summscore compare``): the summary column it was scored from,
the id column (none: the ids are row numbers), fingerprints of its source and of its summary,
the preset's options and summscore's version.

The fingerprints are one-way hashes of the text alone (no settings in them, unlike the
``fingerprint`` column, so two runs of the same rows under other settings share them): they say
whether two rows were scored from the same source or summary, and cannot give the text back
(though someone who guesses a row's exact text can confirm the guess, as with any hash).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from .._version import __version__
from ..cases import check_source, check_summary

__all__ = ["RUN_FIELDS", "RunProvenance", "text_fingerprint"]

RUN_FIELDS = (
    "summary_column",
    "id_column",
    "source_fingerprint",
    "summary_fingerprint",
    "options",
    "summscore_version",
)
_DIGEST = 16  # bytes: 32 hex characters


def text_fingerprint(text: str) -> str:
    """A one-way hash of ``text`` (32 hex characters)."""
    data = text.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=_DIGEST, person=b"summscore-text").hexdigest()


def _checked(check: Any, value: Any) -> str | None:
    try:
        return text_fingerprint(check(value))
    except (TypeError, ValueError):
        return None


class RunProvenance:
    """The run's part of every row's ``RUN_FIELDS``; ``fields`` adds the row's own
    (a ``datasets.Row``)."""

    def __init__(
        self,
        options: Mapping[str, Any],
        *,
        summary_column: str | None,
        id_column: str | None,
    ) -> None:
        """``options``: the scorer's preset options (``scorer.options``)."""
        # JSON-safe: an option of an unusual type is written as its type's name.
        text = json.dumps(dict(options), sort_keys=True, default=lambda v: type(v).__qualname__)
        self.options: dict[str, Any] = json.loads(text)
        self.summary_column = summary_column
        self.id_column = id_column

    def fields(self, row: Any) -> dict[str, Any]:
        """The row's ``RUN_FIELDS`` (an A/B run's row names its own summary column)."""
        return {
            "summary_column": getattr(row, "variant", None) or self.summary_column,
            "id_column": self.id_column,
            "source_fingerprint": None
            if row.source is None
            else _checked(check_source, row.source),
            "summary_fingerprint": None
            if row.summary is None
            else _checked(check_summary, row.summary),
            "options": self.options,
            "summscore_version": __version__,
        }
