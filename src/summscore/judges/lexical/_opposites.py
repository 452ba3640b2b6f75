"""Opposite words: the antonyms of the lexicon, and a word against its negative prefix form
("limited" / "unlimited", "taxable" / "non-taxable", "direct" / "indirect")."""

from __future__ import annotations

import re

from ._lexicon import ANTONYMS, STOPWORDS
from ._memo import NAME_ENTRY, short_keys
from ._text import Span
from ._words import canon, stem

__all__ = ["OPPOSITES", "compared_the_other_way", "opposites", "turned_word"]


# Each antonym as listed (most are stems already: "approv", "oppos") and as its stem where that
# differs ("fewer" is read "few", "female" "femal"), both ways. A word a synonym group folds is
# kept as listed only: the group mixes senses ("higher costs" is no "increase").
def _forms(word: str) -> set[str]:
    return {word, canon(word)} if canon(word) == stem(word) else {word}


OPPOSITES: dict[str, frozenset[str]] = {}
for _a, _b in ANTONYMS:
    for _x, _y in ((_a, _b), (_b, _a)):
        for _form in _forms(_x):
            OPPOSITES[_form] = OPPOSITES.get(_form, frozenset()) | _forms(_y)


# A negative prefix and the shortest stem it takes. "in", "im", "il" and "ir" open many words
# that are no negatives ("inform", "improve", "immigrant", "inpatient", "implant", "infamous"),
# so there only adjectives' stems count ("correct", "complet", "flexibl", "relevant"); "dis"
# only before stems of six letters or more ("discover" is no negative of "cover").
_PREFIXES = (("non-", 5), ("non", 5), ("un", 4), ("dis", 6))
_ADJECTIVE_PREFIXES = ("in", "im", "il", "ir")
_ADJECTIVE_ENDS = ("ent", "ect", "et", "bl", "at", "it", "ar", "al", "iv", "id", "ant", "ur")
# Words that open with a prefix's letters but are no negatives, nor their stems' opposites.
_NOT_PREFIXED = tuple(
    """unless until under uncl unit union uniqu univers install insight impress inform patient
    migrant plant uncover valuabl""".split()
)


_FUNCTION_PAIRS = [(a, b) for a, b in ANTONYMS if a in STOPWORDS or b in STOPWORDS]
_FUNCTION_OPPOSITES: dict[str, frozenset[str]] = {}
for _a, _b in _FUNCTION_PAIRS:
    _FUNCTION_OPPOSITES[_a] = _FUNCTION_OPPOSITES.get(_a, frozenset()) | {_b}
    _FUNCTION_OPPOSITES[_b] = _FUNCTION_OPPOSITES.get(_b, frozenset()) | {_a}


@short_keys(2048, NAME_ENTRY)
def opposites(token: str) -> frozenset[str]:
    """The words that say the opposite of ``token`` (as tokens: stemmed, folded)."""
    found = OPPOSITES.get(token, frozenset())
    if not token.isascii() or token.startswith(_NOT_PREFIXED):
        return found
    prefixed = {prefix + token for prefix, least in _PREFIXES if len(token) >= least}
    bare = {
        token[len(prefix) :]
        for prefix, least in _PREFIXES
        if token.startswith(prefix) and len(token) - len(prefix) >= least
    }
    if _adjective(token):
        prefixed |= {prefix + token for prefix in _ADJECTIVE_PREFIXES}
    if token[:2] in _ADJECTIVE_PREFIXES and _adjective(token[2:]):
        bare.add(token[2:])
    return found | {w for w in prefixed if not w.startswith(_NOT_PREFIXED)} | bare


def _adjective(base: str) -> bool:
    return len(base) >= 5 and base.endswith(_ADJECTIVE_ENDS) and not base.startswith(_NOT_PREFIXED)


def compared_the_other_way(statement: Span, part: Span) -> bool:
    """Do the two compare the same things from opposite ends ("women are less likely than men"
    and "men are more likely (than women)"; "the dollar strengthened against the yen" and "the
    yen weakened against the dollar")? The word after one's "than" or "against" comes before the
    other's, or anywhere in the other without one."""
    return _turned_round(statement, part) or _turned_round(part, statement)


def _turned_round(one: Span, other: Span) -> bool:
    for word in ("than", "against"):  # ("the dollar strengthened against the yen")
        if word not in one.text:  # (a quick test first: the words are worked out on use)
            continue
        mine, theirs = one.words, other.words
        if word not in mine:
            continue
        after = [w for w in mine[mine.index(word) + 1 :] if w.isalpha() and w not in STOPWORDS]
        compared = theirs[: theirs.index(word)] if word in theirs else theirs
        if after and after[0] in compared:
            return True
    return False


def turned_word(statement: Span, part: Span) -> str | None:
    """A word of ``part`` that says the opposite of one of the statement's, which ``part`` does
    not say itself, unless the two compare the same things from opposite ends."""
    if statement.negated != part.negated or compared_the_other_way(statement, part):
        return None  # (an opposite denied says the same: "not expensive" for "cheap")
    turned = [
        (token, opposite)
        for token in statement.token_set
        for opposite in opposites(token)
        if opposite in part.token_set
        and token not in part.token_set
        and opposite not in statement.token_set  # (a comparison: "women more than men")
    ]
    # Antonyms that are stopwords ("more", "before") are compared as written.
    mine = _FUNCTION_OPPOSITES.keys() & _function_words(statement)
    if mine:
        theirs = _function_words(part)
        turned += [
            (word, opposite)
            for word in mine
            for opposite in _FUNCTION_OPPOSITES[word]
            if opposite in theirs and word not in theirs and opposite not in statement.words
        ]
    # (The least pair names the reason: a set's order differs between processes.)
    return _as_written(min(turned)[1], part.text) if turned else None


def _function_words(span: Span) -> set[str]:
    """The span's words, without the bounds "at least", "at most", "no more", "no less"."""
    words = set(span.words)
    lower = span.text.lower()
    for before, bound in (("at", "least"), ("at", "most"), ("no", "more"), ("no", "less")):
        if bound in words and f"{before} {bound}" in lower:
            words.discard(bound)
    return words


def _as_written(token: str, text: str) -> str:
    """``token`` as ``text`` writes it ("unchanged" for "unchang"), for the reason."""
    for word in _WORD.findall(text):
        if canon(word.lower()) == token:
            return word
    return token


_WORD = re.compile(r"\w[\w'-]*")
