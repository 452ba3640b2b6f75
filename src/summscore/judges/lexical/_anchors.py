"""Anchors: the checkable details of a text, numbers and names.

Numbers are canonicalised so that "$3 trillion", "3,000,000,000,000" and "3 trillion dollars"
compare equal and "12 percent" equals "12%", and carry a kind (year, percent, amount) and the
unit they count ("450 children"). Names are capitalised runs, acronyms, katakana words, Latin
words in CJK text and Chinese/Japanese place and institution names.
"""

from __future__ import annotations

import re
from operator import itemgetter
from typing import NamedTuple

from ._lexicon import (
    ABBREVIATIONS,
    COMMON_STARTS,
    LONE_OPENERS,
    MONTHS,
    NAME_JOINERS,
    QUESTION_WORDS,
    SCALES,
    STOPWORDS,
    WEEKDAYS,
    WORD_NUMBERS,
)
from ._words import WordMemo, canon, format_number, has_cjk, lowercase_words, parse_number

__all__ = ["Anchor", "names", "quantities"]

# ----------------------------------------------------------------------------------- numbers

# A number is found by its digits, with what follows them (a scale, a percent sign, a currency
# word) read in the same match, then what stands before it is read with an anchored match (much
# faster than one pattern that tries a currency prefix at every position).
# (The look-behind follows the first digit so that the search skips to digits; what follows
# them is a look-ahead, so the search for the next number starts right after the digits.)
_NUMBER = re.compile(
    r"\d(?<![A-Za-z0-9.]\d)\d*(?:[,.]\d+)*"
    r"(?=(?P<after>(?i:(?:\s?(?P<scale>thousand|million|billion|trillion|bn|mn|tn|[kmb](?![a-z])"
    r"|万|億|亿|千))?\s?(?P<pct>%|percent\b|per cent\b|％|パーセント)?))"
    r"(?P<money>(?i:\s*(?:dollars?|euros?|pounds?|yen|yuan|rupees?|元|円|ドル|美元)))?)"
)
# The second end of a range, with its scale or percent ("-4.6 billion", "–12%").
_RANGE_END = re.compile(
    r"\s?[-–]\s?(?:US\$|[$€£¥₹])?\d[\d,.]*\s?"
    r"(?i:(?P<scale>thousand|million|billion|trillion|bn|mn|tn)\b|(?P<pct>%|percent\b|per cent\b))"
)
_CURRENCY_BEFORE = re.compile(r"(?:US\$|[$€£¥₹]|(?:USD|EUR|GBP|JPY|RMB)\s?)$")
# A character every alternative of _CURRENCY_BEFORE holds: the search is skipped before numbers
# with none of them in the four characters it reads (most numbers).
_CURRENCY_MARKS = frozenset("$€£¥₹DRPYB")
_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_DIGIT_WORDS = "one|two|three|four|five|six|seven|eight|nine"
_UNDER_100 = (
    rf"(?:(?:{_TENS})(?:\s*-\s*|\s+)(?:{_DIGIT_WORDS})\b|"
    + "|".join(sorted((w for w in WORD_NUMBERS if w not in ("hundred", "dozen")), key=len)[::-1])
    + ")"
)
# A number in words, compounds whole: "twenty-five" (or "twenty - five", as transcripts are
# tokenised) is 25, "two hundred and fifty" 250; not 20 and 5, 2 and 100.
_WORD_NUMBER = re.compile(
    rf"\b((?:{_UNDER_100}\s+)?hundred(?:\s+(?:and\s+)?{_UNDER_100})?\b|{_UNDER_100}\b|dozen\b)"
    r"(?:[\s-]+(thousand|million|billion|trillion))?(\s?(?:%|percent\b|per cent\b))?",
    re.IGNORECASE,
)


class Anchor(NamedTuple):
    """A checkable detail of a text: a number or a name, at a character offset. (A named tuple:
    every sentence of every text makes a few, and a tuple is built several times faster than a
    frozen dataclass.)"""

    key: str  # canonical: "12%", "1300000000", "john smith"
    kind: str  # "percent", "year", "amount", "name", "month", "weekday"
    start: int
    surface: str = ""  # as written: "12 percent", "$1.3 billion", "John Smith"
    unit: str = ""  # what an amount counts: "child" in "450 children", "時" in "8時", "money"
    tentative: bool = False  # a lone capitalised word opening a sentence: a name unless the
    # text around writes it in lower case ("Samsung said" vs "Firefighters said")


_START = itemgetter(2)  # an anchor's start, read in C (what anchors are sorted by)
# ``_new_anchor(Anchor, (key, kind, start, surface, unit, tentative))`` builds an anchor in C
# (a named tuple's own ``__new__`` is a Python function: a call per anchor of every sentence).
_new_anchor = tuple.__new__


# The counted noun after an amount, past up to two capitalised qualifiers ("11 million Swedish
# crowns" counts crowns).
_UNIT_WORD = re.compile(r"[\s-]*(?:[A-Z][a-z]+\s+){0,2}([a-z]+)")
_UNIT_CJK = re.compile(r"[\u30a0-\u30ff]{2,}|[\u4e00-\u9fff]{1,2}")


def _unit_after(text: str, end: int) -> str:
    """The word an amount counts ("children", "homes"; 時, 世帯, メートル), comparable form."""
    cjk = None if text.isascii() else _UNIT_CJK.match(text, end)
    if cjk:
        return cjk.group(0)
    word = _UNIT_WORD.match(text, end)
    if word is None:
        return ""
    lower = word.group(1)
    if lower in STOPWORDS or len(lower) < 2:
        return ""
    return canon(lower)


_DIGIT = re.compile(r"\d")
_LATIN_WORD = re.compile(r"[A-Za-z]+")
_NUMBER_WORDS = frozenset(WORD_NUMBERS)


# What a word of a text says about its quantities (see quantities' ``words``).
_IS_NUMBER, _HOLDS_NUMBER_WORD, _NEITHER = 1, 2, 0


def _quantity_hint(word: str) -> int:
    """_IS_NUMBER for a number ("2,500"), _HOLDS_NUMBER_WORD for a word with a number word
    among its letter runs ("twenty-five", "Ten"), else _NEITHER."""
    if word[0].isdigit():
        return _IS_NUMBER
    if _NUMBER_WORDS.isdisjoint(_LATIN_WORD.findall(word.lower())):
        return _NEITHER
    return _HOLDS_NUMBER_WORD


_QUANTITY_HINTS: WordMemo[int] = WordMemo(_quantity_hint)


def quantities(text: str, words: list[str] | None = None) -> list[Anchor]:
    """Numbers in ``text`` with their kind and unit, in order of appearance. ``words``: the
    text's ``ascii_words``, where the caller has them: they tell whether it holds
    digits or number words at all without reading it again."""
    found: list[Anchor] = []
    if words is None:
        digits = _DIGIT.search(text) is not None
        spelled = not _NUMBER_WORDS.isdisjoint(_LATIN_WORD.findall(text.lower()))
    else:
        hints = set(map(_QUANTITY_HINTS.__getitem__, words))
        digits, spelled = _IS_NUMBER in hints, _HOLDS_NUMBER_WORD in hints
    for m in _NUMBER.finditer(text) if digits else ():
        written = m.group(0)
        value = parse_number(written)
        if value is None:
            continue
        start, stop = m.span()
        end = m.end("after")
        scale_word, pct, money_word = m.group("scale", "pct", "money")
        lead = max(start - 4, 0)
        currency = (
            None
            if _CURRENCY_MARKS.isdisjoint(text[lead:start])
            else _CURRENCY_BEFORE.search(text, lead, start)
        )
        scale = scale_word.lower() if scale_word else ""
        if not scale and not pct:
            # The first end of a range takes the second's scale or percent: "$4.4-4.6 billion"
            # is 4.4 billion, "10-12%" 10%. (Not "to": "for 2024 to 1.0%" is no range.)
            after = _RANGE_END.match(text, stop)
            if after is not None:
                scale, pct = (after.group("scale") or "").lower(), after.group("pct")
        if scale:
            value *= SCALES.get(scale, 1.0)
        surface = text[currency.start() if currency else start : end].strip()
        if pct:
            key = format_number(value) + "%"
            found.append(_new_anchor(Anchor, (key, "percent", start, surface, "%", False)))
            continue
        money = currency is not None or money_word is not None
        plain = not scale and not money
        is_year = plain and value.is_integer() and 1000 <= value <= 2100 and "," not in written
        kind = "year" if is_year else "amount"
        unit = "" if is_year else "money" if money else _unit_after(text, end)
        found.append(_new_anchor(Anchor, (format_number(value), kind, start, surface, unit, False)))
    if spelled:
        for m in _WORD_NUMBER.finditer(text):
            word = m.group(1).lower()
            if word == "one" and not m.group(2) and not m.group(3):
                continue  # "one of", "one day": too often not a quantity
            value = _spelled_value(word)
            if m.group(2):
                value *= SCALES[m.group(2).lower()]
            kind = "percent" if m.group(3) else "amount"
            key = format_number(value) + ("%" if m.group(3) else "")
            unit = "%" if m.group(3) else _unit_after(text, m.end())
            found.append(Anchor(key, kind, m.start(), m.group(0).strip(), unit))
        found.sort(key=_START)  # (the numbers in digits come in order: found by one search)
    return found


def _spelled_value(words: str) -> float:
    """The value of a number in words as _WORD_NUMBER finds it ("twenty - five", "two hundred
    and fifty")."""
    value = 0
    for word in _LATIN_WORD.findall(words):
        if word == "hundred":
            value = (value or 1) * 100
        elif word != "and":
            value += WORD_NUMBERS[word]
    return float(value)


# ---------------------------------------------------------------------------------- entities

# (Greek and Cyrillic write names with capitals too: "Иван Петров", "Γιώργος Παπαδόπουλος".)
_CAP_WORD = (
    r"(?:[A-Z\u00c0-\u00de\u0386\u0388-\u03ab\u0400-\u042f]"
    r"[A-Za-z0-9\u00c0-\u024f\u0370-\u03ff\u1f00-\u1fff\u0400-\u04ff'\u2019&.\-]*)"
)
_ENTITY = re.compile(
    rf"{_CAP_WORD}(?:\s+(?:(?:{'|'.join(map(re.escape, NAME_JOINERS))})\s+)?{_CAP_WORD})*"
)
_KATAKANA_WORD = re.compile(r"[\u30a0-\u30ff\u31f0-\u31ff]{2,}")
# Places and institutions in Chinese and Japanese end in a telling character: 鹿児島県,
# 东北地区, 国家统计局. Up to four characters before the suffix are taken as the name.
_CJK_NAME = re.compile(
    r"[\u4e00-\u9fff]{2,4}(?:地区|大学|銀行|银行|公司|集团|県|府|省|市|区|州|町|村|郡|庁|局|党)"
)
_LATIN_IN_CJK = re.compile(r"[A-Za-z][A-Za-z0-9.&\-]+(?:\s[A-Z][A-Za-z0-9.&\-]+)*")
_SENTENCE_OPENERS = frozenset(STOPWORDS | COMMON_STARTS | QUESTION_WORDS)


def _plural_acronym(surface: str) -> bool:
    """Is ``surface`` an acronym with a plural "s": "CNNs", "MPs", "PhDs" (its last word ends in
    a capital before the "s" and has another capital)?"""
    if len(surface) < 3 or surface[-1] != "s" or not surface[-2].isupper():
        return False
    word = surface.rsplit(" ", 1)[-1]
    return len(word) >= 3 and any(c.isupper() for c in word[:-2])


def _at_sentence_start(text: str, start: int) -> bool:
    before = text[:start].rstrip(" \"'“‘(")
    return not before or before[-1] in ".!?:;\n。！？"


_WORD = itemgetter(1)  # the word of an (offset, word) pair
# How an adjective made of a name ends: "AI-powered", "AI-driven", "US-led", "state-run"
# ("Wal-mart", "Year-on-year" are no such adjective).
_NAME_ADJECTIVE = (
    "ed",
    "en",
    "born",
    "made",
    "run",
    "style",
    "wide",
    "like",
    "free",
    "friendly",
)


def _name_runs(text: str) -> list[list[tuple[int, str]]]:
    """Runs of capitalised words as lists of (offset, word), cut after a word that ends a
    sentence ("Faso." in "Burkina Faso. The ...") and before a sentence-initial opener."""
    runs: list[list[tuple[int, str]]] = []
    for m in _ENTITY.finditer(text):
        run: list[tuple[int, str]] = []
        offset = m.start()
        words = m.group(0).split()
        for i, word in enumerate(words, 1):
            start = text.index(word, offset)
            offset = start + len(word)
            # A possessive ends a name: "the Louvre's Apollo Gallery" is two names. So does an
            # adjective made of a name before a common noun: "AI-powered project management",
            # "a London-based firm" name "AI" and "London" ("Energy-efficient Building
            # Solutions" is one name).
            possessive = word.endswith(("'s", "'"))
            bare = word[: word.rindex("'")] if possessive else word
            if "-" in bare and i == len(words):  # (the run's last word)
                head, _, tail = bare.rpartition("-")
                if head and tail.isalpha() and tail.islower() and tail.endswith(_NAME_ADJECTIVE):
                    bare, possessive = head, True
            run.append((start, bare))
            sentence_end = (
                word.endswith(".")
                and len(word) > 2
                and "." not in word[:-1]
                and (word[:-1].lower() not in ABBREVIATIONS)
            )
            if possessive or sentence_end:
                runs.append(run)
                run = []
        if run:
            runs.append(run)
    return runs


def _split_of(words: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    """ "Edmund Hillary of New Zealand" is a person and a place; "Bank of Canada" is one name.
    (Cut at each "of" with two words or more before it, since the last cut, and one after.)"""
    parts: list[list[tuple[int, str]]] = []
    start = 0
    for i, (_, word) in enumerate(words):
        if word == "of" and i - start >= 2 and i + 1 < len(words):
            parts.append(words[start:i])
            start = i + 1
    parts.append(words[start:])
    return parts


def _marked_as_name(word: str) -> bool:
    """Acronyms and CamelCase ("NASA", "iPhone", "McDonald") are names wherever they stand."""
    return len(word) >= 2 and (word.isupper() or any(ch.isupper() for ch in word[1:]))


def _may_be_name(word: str, text: str) -> bool:
    """Is a lone capitalised word at the start of a sentence a name? Acronyms and CamelCase
    are; words the text also writes in lower case, common openers, adverbs and gerunds are not."""
    bare = word.strip(".,'")
    if _marked_as_name(bare):
        return True
    lower = bare.lower()
    # (A word the text writes in lower case is part of it: most names are not, and the text's
    # lower-case words are only gathered for those that are.)
    if lower in _SENTENCE_OPENERS or lower in LONE_OPENERS:
        return False
    if lower in text and lower in lowercase_words(text):
        return False
    if "\u0370" <= bare[0] <= "\u04ff":
        return False  # Greek, Cyrillic: no list of openers tells an article ("Ο", "В") from a name
    return not lower.endswith(("ly", "ing"))


def names(text: str) -> list[Anchor]:
    """Named-entity-like phrases of ``text`` (lower-cased), in order of appearance.

    A lone capitalised word opening a sentence is marked ``tentative``: whether it is a name
    depends on the text around (see ``make_span``'s ``common``).
    """
    found: list[Anchor] = []
    for run in _name_runs(text):
        # A sentence-initial "The", "In", "Researchers" is not part of the name that follows.
        while (
            run
            and run[0][1].lower().strip(".,'") in _SENTENCE_OPENERS
            and (
                len(run) > 1
                or _at_sentence_start(text, run[0][0])
                or run[0][1].lower() in STOPWORDS
            )
        ):
            run = run[1:]
        if not run:
            continue
        tentative = False
        if len(run) == 1 and _at_sentence_start(text, run[0][0]):
            if not _may_be_name(run[0][1], text):
                continue
            tentative = not _marked_as_name(run[0][1].strip(".,'"))
        # (_split_of cuts at an "of" with two words before it and one after.)
        for part in _split_of(run) if len(run) > 3 else (run,):
            surface = " ".join(map(_WORD, part)).strip(" .,-'")
            if surface.endswith("'s"):
                surface = surface[:-2]
            key = surface.lower()
            if _plural_acronym(surface):
                key = key[:-1]  # a plural acronym: "CNNs", "MPs", "PhDs"
            if not key or (key in STOPWORDS and " " not in key):
                continue
            kind = "month" if key in MONTHS else "weekday" if key in WEEKDAYS else "name"
            found.append(_new_anchor(Anchor, (key, kind, part[0][0], surface, "", tentative)))
    if not text.isascii():  # katakana and CJK names are written in no ASCII text
        for m in _KATAKANA_WORD.finditer(text):
            found.append(Anchor(m.group(0), "name", m.start(), m.group(0)))
        for m in _CJK_NAME.finditer(text):
            found.append(Anchor(m.group(0), "name", m.start(), m.group(0)))
        if has_cjk(text):
            for m in _LATIN_IN_CJK.finditer(text):
                found.append(Anchor(m.group(0).lower(), "name", m.start(), m.group(0)))
        found.sort(key=_START)  # (the runs of capitalised words come in order)
    return found
