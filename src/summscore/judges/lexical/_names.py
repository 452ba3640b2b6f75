"""Names as the lexical judge compares them: two name keys that denote the same name (with or
without an honorific, a country as its adjective or short name, one inside the other by stems),
and whether a key names one of a text's set of names (memoised per set, bounded in bytes)."""

from __future__ import annotations

import re

from ._lexicon import DEMONYMS
from ._memo import NAME_ENTRY, SizedMemo, short_keys, weigh
from ._words import content_tokens, normalize, stem

__all__ = ["contains_phrase", "matches_any", "name_set", "name_tokens", "names_match"]


def names_match(a: str, b: str) -> bool:
    """Two name keys denote the same name: equal, or one contains the other as whole words,
    compared by stem ("macklem" ~ "tiff macklem" ~ "governor tiff macklem", "oxford" ~
    "university of oxford", "socialists" ~ "socialist party"), countries also by their
    adjectives and short names ("japanese" ~ "japan", "us" ~ "america")."""
    if a == b:
        return True
    (bare_a, place_a, plain_a, stems_a), (bare_b, place_b, plain_b, stems_b) = _forms(a), _forms(b)
    if plain_a and plain_b and stems_a.isdisjoint(stems_b) and a not in b and b not in a:
        # Most pairs of names: no honorific, no country, no shared stem and neither inside the
        # other, so no test below can hold (a phrase of one inside the other is a substring;
        # a run of one's stems inside the other's holds its first stem). Told apart cheaply.
        return False
    if _same_name(a, b):
        return True
    if (bare_a != a or bare_b != b) and bare_a and bare_b and _same_name(bare_a, bare_b):
        return True  # "mr balls" ~ "ed balls", "dr hill" ~ "adrian hill"
    if place_a == a and place_b == b:
        return False
    return place_a == place_b or _same_name(place_a, place_b)


@short_keys(1024, NAME_ENTRY)
def _forms(name: str) -> tuple[str, str, bool, frozenset[str]]:
    """``name`` without a leading honorific, with its countries written out, whether both are
    the name itself, and its stems (memoised: a text's names are each compared with every name
    of the statements judged against it)."""
    bare, place = _bare(name), _place(name)
    return bare, place, bare == name and place == name, frozenset(_stems(name))


_HONORIFICS = frozenset("mr mrs ms miss dr prof sir dame lord lady".split())


def _bare(name: str) -> str:
    """``name`` without a leading honorific ("mr balls" is "balls")."""
    head, _, rest = name.partition(" ")
    return rest if head.rstrip(".") in _HONORIFICS else name


@short_keys(1024, NAME_ENTRY)
def _place(name: str) -> str:
    """``name`` with country adjectives and short names written as the country."""
    whole = DEMONYMS.get(name)
    if whole is not None:
        return whole
    return " ".join(DEMONYMS.get(word, word) for word in name.split())


def _same_name(a: str, b: str) -> bool:
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if contains_phrase(long, short):
        return True
    return _stems_within(_stems(short), _stems(long))


@short_keys(1024, NAME_ENTRY)
def _stems(name: str) -> tuple[str, ...]:
    return tuple(stem(word) for word in name.split())


def _stems_within(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    n = len(short)
    # (A run of ``long`` equal to ``short`` holds its first stem: most names share none.)
    if not 0 < n <= len(long) or short[0] not in long:
        return False
    return n == 1 or any(long[i : i + n] == short for i in range(len(long) - n + 1))


def contains_phrase(text: str, phrase: str) -> bool:
    """Does ``text`` contain ``phrase`` as whole words (not inside a longer word)?"""
    if not phrase:
        return False
    start = text.find(phrase)
    while start != -1:
        end = start + len(phrase)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        start = text.find(phrase, start + 1)
    return False


class _NameSet:
    """What is worked out about one text's set of names, memoised with it (see ``_NAME_SETS``):
    the answers of ``matches_any``, the names by the words they are filed under, and the
    names that may be acronyms. It weighs its names and what it has worked out."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names
        self.answers: dict[str, bool] = {}
        self.filed: dict[str, tuple[str, ...]] | None = None
        self.acronyms: tuple[tuple[str, str], ...] | None = None
        self.memo_bytes = weigh(names)

    def grew(self, extra: int) -> None:
        self.memo_bytes += extra
        _NAME_SETS.grew(self.names, extra)


# The name sets of the texts judged last (a source's, a passage's), by bytes.
_NAME_SETS: SizedMemo[frozenset[str], _NameSet] = SizedMemo(
    "name sets", 8 << 20, max_items=1024, weight=lambda names, found: found.memo_bytes
)


def name_set(names: frozenset[str]) -> _NameSet:
    found = _NAME_SETS.get(names)
    if found is None:
        found = _NAME_SETS.put(names, _NameSet(names))
    return found


def matches_any(key: str, names: frozenset[str]) -> bool:
    """Does ``key`` name the same thing as one of ``names``? (memoised: one pair of texts asks
    the same question many times). Among many names, only those filed under one of the key's
    words are compared (see ``_filed``): a look-up costs what those are, not the text's
    every name."""
    if key in names:
        return True
    memo = name_set(names)
    found = memo.answers.get(key)
    if found is None:
        found = memo.answers[key] = _matches_any(key, names)
        memo.grew(weigh(key) + _ANSWER)
    return found


_ANSWER = 100  # a dictionary entry and its share of the table


def _matches_any(key: str, names: frozenset[str]) -> bool:
    if len(names) <= _FEW_NAMES:
        return any(names_match(key, other) for other in names)
    filed = _filed(names)
    seen: set[str] = set()
    for word in _filed_under(key):
        for other in filed.get(word, ()):
            if other not in seen:
                seen.add(other)
                if names_match(key, other):
                    return True
    return False


_FEW_NAMES = 8
_ALNUM = re.compile(r"[^\W_]+")


@short_keys(1024, NAME_ENTRY)
def _filed_under(name: str) -> frozenset[str]:
    """The words a name is filed under: the runs of letters and digits and the word stems of the
    name and of its form with countries written out. Two names ``names_match`` share one:
    one inside the other shares its runs, a run of stems its first stem, and the forms without
    an honorific are parts of the names."""
    _, place, _, stems = _forms(name)
    found = set(stems) | set(_ALNUM.findall(name))
    if place != name:
        found |= set(_stems(place)) | set(_ALNUM.findall(place))
    return frozenset(found)


def _filed(names: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """``names`` by the words they are filed under (built once per set of names)."""
    memo = name_set(names)
    if memo.filed is None:
        filed: dict[str, list[str]] = {}
        for name in names:
            for word in _filed_under(name):
                filed.setdefault(word, []).append(name)
        memo.filed = {word: tuple(found) for word, found in filed.items()}
        memo.grew(weigh(memo.filed))
    return memo.filed


@short_keys(1024, NAME_ENTRY)
def name_tokens(key: str) -> frozenset[str]:
    """The content tokens of a name key: the ``token_set`` of its span, without the analysis of
    anchors a span makes (memoised: a name meets every statement that names it)."""
    return frozenset(content_tokens(normalize(key)))
