"""Negation as the lexical judge reads it: whether a text denies something
(``is_negated``), the word each negation governs (``negated_heads``) and what it denies
(``negated_scopes``)."""

from __future__ import annotations

import re

from ._lexicon import NEGATION_CJK, NEGATIONS
from ._words import content_tokens, has_cjk

__all__ = ["is_negated", "negated_heads", "negated_scopes"]

# A word with its inner apostrophes ("can't") but not the quote marks around it ("'nothing'").
_LOWER_RUN = re.compile(r"[a-z]+(?:'[a-z]+)*")
# Set phrases that hold a negation word but deny nothing: "at no cost", "not only ... but",
# "no more than 40" (a bound), "no doubt".
_NOT_DENIALS = re.compile(
    r"\b(?:no (?:extra |additional |added )?(?:cost|charge|fee)s?|not only|not least|no doubt"
    r"|no matter|no (?:more|less|fewer|later|earlier|sooner) than|nothing but"
    r"|(?:say|says|said|saying) ['\"]?no['\"]? to)\b"  # "voters said no to the plan": rejected it
)
# Verbs that deny what follows them as "not" does: "failed to get the balance right" says what
# "did not get the balance right" says, "were unable to find" what "found no" says.
# "Declined to" denies only before a verb ("declined to comment"; "shares declined to 40p" fell).
_DENYING = (
    r"(?:fail(?:s|ed|ing)?|unable|refus(?:e|es|ed|ing)|neglect(?:s|ed|ing)?) to"
    r"|declin(?:e|es|ed|ing) to (?=comment|answer|say|confirm|discuss|name|reveal|elaborate"
    r"|disclose|specify|provide|identify|respond|speculate|give|release|testify|sign|attend"
    r"|meet|take|pay|accept|approve|join|appear)"
)
_DENIES = re.compile(rf"\b(?:{_DENYING})")


def is_negated(text: str) -> bool:
    lower = text.lower()
    if "n't" in lower:
        return True
    words = _LOWER_RUN.findall(lower)
    if not NEGATIONS.isdisjoint(words):
        # Only a text with a negation word pays for the set phrases.
        if "no" not in words and "not" not in words and "nothing" not in words:
            return True
        if not NEGATIONS.isdisjoint(_LOWER_RUN.findall(_NOT_DENIALS.sub(" ", lower))):
            return True
    if (
        "fail" in lower
        or "unable" in lower
        or "refus" in lower
        or "declin" in lower
        or "neglect" in lower
    ) and _DENIES.search(lower):
        return True
    return has_cjk(text) and any(marker in text for marker in NEGATION_CJK)


_NEGATION_AT = re.compile(
    rf"(?:\b(?:not|no|never|none|nobody|nothing|neither|nor|cannot|{_DENYING})\b|n't\b)"
    r"([^.;:!?,]{0,80})",
    re.IGNORECASE,
)


def negated_heads(text: str) -> frozenset[str] | None:
    """The content word each negation of ``text`` governs: the first one after it in the same
    clause ("the request was not | approved" governs "approve"); a bare "No." governs nothing.
    None where that cannot be read (Chinese and Japanese negate with a suffix)."""
    if has_cjk(text):
        return None
    heads: set[str] = set()
    for m in _NEGATION_AT.finditer(text):
        following = content_tokens(m.group(1))
        if following:
            heads.add(following[0])
    return frozenset(heads)


def negated_scopes(text: str) -> list[tuple[str, ...]]:
    """What each negation of ``text`` denies, where it negates a content word directly: that word
    and the next two content words of the clause ("will not | increase the price of
    production": increase, price, production). A negation of "have", "be" or another function
    word has no scope here ("we don't have the discourse model" says nothing against a
    discourse model). Empty where that cannot be read (Chinese and Japanese negate with a
    suffix)."""
    if has_cjk(text):
        return []
    scopes = []
    for m in _NEGATION_AT.finditer(text):
        following = m.group(1).split(None, 2)
        if following and following[0].lower() in ("a", "an", "the"):  # "is not a new podcast"
            following = following[1:]
        if following and content_tokens(following[0]):
            scopes.append(tuple(content_tokens(m.group(1))[:3]))
    return scopes
