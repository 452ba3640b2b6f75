"""What a results row was scored from: one hash of the row's text and the run's scoring settings.

``summscore score`` writes it in each row's ``fingerprint`` column; ``--resume`` reuses an earlier
result only for a row whose fingerprint is the same, so a results file shared by two inputs, an
edited summary, or another judge, preset, option or summscore version never hands a row someone
else's score. The hash covers the text as scored (a list of contexts joined as the scorer joins
it), the preset with its options, the judge's name (model and host for a server), the prompt set
and summscore's version; not the call settings (timeout, retries, concurrency, workers), which
do not change a number. No key goes into it, and the text cannot be recovered from it (though
someone who guesses a row's exact text and settings can confirm the guess, as with any hash).
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from .._version import __version__
from ..cases import check_questions, check_source, check_summary

if TYPE_CHECKING:
    from ..scorer import SummarizationScorer

__all__ = ["fingerprint", "run_settings"]

_DIGEST = 16  # bytes: 32 hex characters


def run_settings(scorer: SummarizationScorer) -> bytes:
    """The scorer's settings that decide a number, as a digest (the key of every fingerprint)."""
    settings = {
        "summscore": __version__,
        "preset": scorer.preset,
        "options": {name: _plain(value) for name, value in scorer.options.items()},
        "judge": scorer.judge.name,
        "prompt_set": scorer.prompt_set,
    }
    text = json.dumps(settings, sort_keys=True, default=_type_name, ensure_ascii=False)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=_DIGEST).digest()


def _plain(value: Any) -> Any:
    """A number as a float, so that ``--scale 1`` and the default ``1`` are one setting."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return value


def _type_name(value: Any) -> str:
    return type(value).__qualname__  # not repr(): an address would differ in every run


def fingerprint(settings: bytes, source: Any, summary: Any, questions: Any) -> str | None:
    """The row's fingerprint under ``settings``; None for a row that cannot be scored."""
    try:
        case = [check_source(source), check_summary(summary), check_questions(questions)]
    except (TypeError, ValueError):
        return None
    text = json.dumps(case, ensure_ascii=False, separators=(",", ":"))
    digest = hashlib.blake2b(
        text.encode("utf-8", "surrogatepass"), digest_size=_DIGEST, key=settings
    )
    return digest.hexdigest()
