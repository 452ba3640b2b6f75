"""Checks of judge replies beyond their JSON schema.

Small models under constrained decoding return replies that parse and still make no sense: the
assessment questions ``["Yes", "Yes", "Yes"]``, key phrases copied from the prompt's worked example
instead of the document. Each check returns the items that pass and a description of the ones
that do not (None when all pass), so the caller can ask again with that description, and in the
end keep only what is usable and say what it dropped. A judge that answers sensibly never trips
them, so they change no number relative to upstream for such a judge.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

__all__ = ["check_keyphrases", "check_questions"]

_WORD = re.compile(r"\w+", re.UNICODE)
_BARE_ANSWERS = {
    "yes",
    "no",
    "1",
    "0",
    "true",
    "false",
    "idk",
    "unsure",
    "borderline",
    "none",
    "n/a",
    "はい",
    "いいえ",
    "是",
    "否",
    "对",
    "不",
}


def _normal(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _is_cjk(text: str) -> bool:
    return any(
        "\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af"
        for ch in text
    )


def _looks_like_question(item: str) -> bool:
    """Anything but an empty string or a bare answer word ("Yes", "1", "はい") passes: the check
    catches a judge answering the questions instead of asking them, and nothing subtler."""
    return _normal(item).strip(" .?!。？！") not in _BARE_ANSWERS | {""}


def check_questions(questions: Sequence[str]) -> tuple[list[str], str | None]:
    """Keep the items that read as questions (not a bare "Yes", "1" or empty string)."""
    kept = [q for q in questions if isinstance(q, str) and _looks_like_question(q)]
    dropped = [q for q in questions if q not in kept]
    if not dropped:
        return kept, None
    shown = ", ".join(repr(q) for q in dropped[:3])
    return kept, (
        f"{len(dropped)} of {len(questions)} questions are not questions about the text ({shown}); "
        "each entry must be a full closed question"
    )


def _occurs(phrase: str, source: str, source_words: set[str]) -> bool:
    normal = _normal(phrase)
    if not normal:
        return False
    if normal in source:
        return True
    if _is_cjk(phrase):
        return False
    words = _WORD.findall(normal)
    if not words:
        return False
    found = sum(1 for w in words if w in source_words)
    return found / len(words) >= 0.5


def check_keyphrases(
    keyphrases: Sequence[str], source: str, instructions: str = ""
) -> tuple[list[str], str | None]:
    """Drop the key phrases copied from the prompt's own examples: absent from ``source`` but
    present in ``instructions`` (the prompt around it). A phrase in neither is a paraphrase and
    is kept, as upstream keeps it."""
    normal_source = _normal(source)
    source_words = set(_WORD.findall(normal_source))
    normal_instructions = _normal(instructions)

    def copied(phrase: str) -> bool:
        if not isinstance(phrase, str) or _occurs(phrase, normal_source, source_words):
            return False
        return bool(_normal(phrase)) and _normal(phrase) in normal_instructions

    kept = [k for k in keyphrases if not copied(k)]
    dropped = [k for k in keyphrases if copied(k)]
    if not dropped:
        return kept, None
    shown = ", ".join(repr(k) for k in dropped[:3])
    return kept, (
        f"{len(dropped)} of {len(keyphrases)} key phrases come from the prompt's examples, not "
        f"from the text ({shown}); copy key phrases from the text itself"
    )
