"""Words of the lexical judge: normalisation, scripts, stemming and content tokens.

Content tokens are light-stemmed, synonym-folded lower-case words for alphabetic scripts, and for
Chinese and Japanese (no spaces between words) kanji/hanzi bigrams and katakana words, with
hiragana particles dropped; numbers become their value ("3,000" is "3000").
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Generic, TypeVar

from ._lexicon import (
    DEMONYMS,
    OTHER_FUNCTION_WORDS,
    QUESTION_WORDS,
    STOPWORDS,
    SUFFIXES,
    SYNONYMS,
)
from ._memo import MEMOS, SHORT_KEY, WORD_ENTRY, short_keys, weigh
from ._unicode import fold

__all__ = [
    "WordMemo",
    "ascii_words",
    "canon",
    "content_tokens",
    "format_number",
    "has_cjk",
    "lowercase_words",
    "normalize",
    "parse_number",
    "stem",
]

_V = TypeVar("_V")

# The Chinese, Japanese and Korean characters (a regex class body; the one definition).
CJK = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_RUN = re.compile(f"[{CJK}]+")
# Combining marks that other scripts write inside a word (Greek and Cyrillic accents, Hebrew
# points, Arabic harakat, the vowel signs of the Indic scripts, Thai, Lao, Myanmar and Khmer,
# whose blocks are taken whole but for the danda and digits, and the zero-width joiners).
_MARKS = (
    "\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed"
    "\u0900-\u0963\u0970-\u0dff\u0e00-\u0e4f\u0e5a-\u0eff\u1000-\u109f\u1780-\u17ff\u200c\u200d"
)
# A letter of any alphabetic script but Latin (read by its own pattern) and CJK (read by
# characters): Cyrillic, Greek, Armenian, Georgian, Hebrew, Arabic, Devanagari, Thai, ...
OTHER_LETTER = f"(?:[^\\W\\d_A-Za-z\u00c0-\u024f\u1e00-\u1eff\u3000-\uffff]|[{_MARKS}])"
# A word of such letters (with an apostrophe or hyphen inside: "д'Артаньян", "Рио-де-Жанейро").
OTHER_WORD = f"{OTHER_LETTER}+(?:['\u2019\\-]{OTHER_LETTER}+)*"
_TOKEN = re.compile(
    r"[A-Za-z\u00c0-\u024f\u1e00-\u1eff][A-Za-z\u00c0-\u024f\u1e00-\u1eff\u0300-\u036f'\u2019\-]*"
    r"|\d+(?:[.,]\d+)*"
    f"|[{CJK}]+"
    f"|{OTHER_WORD}"
)
# _TOKEN for ASCII text, where its CJK and other-script alternatives cannot match: the search
# does not try them at every space and mark (a third faster).
_ASCII_TOKEN = re.compile(r"[A-Za-z][A-Za-z'\-]*|\d+(?:[.,]\d+)*")
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")  # the one-letter words


def has_cjk(text: str) -> bool:
    return not text.isascii() and _CJK_RUN.search(text) is not None


def normalize(text: str) -> str:
    """One spelling (see ``_unicode``: NFC, full-width forms, Unicode spaces, curly quotes and
    line endings folded), so "％" is "%", "’" is "'" and a decomposed "é" the composed one; undo
    the tokenisation of research corpora ("3 , 800", "u.s .", "-lrb-", "31 - year - old", and
    "<unk>", a model's placeholder for a word it could not write)."""
    text = fold(text)
    if "<unk>" in text:  # a summariser's placeholder for a word it could not write: no word
        text = text.replace("<unk>", " ")
    if _maybe_tokenised(text) and _tokenised_hint(text):
        text = _detokenize(text)
    if ", " in text and _SPACED_THOUSANDS_HINT.search(text) is not None:
        text = _SPACED_THOUSANDS.sub(_thousands, text)
    return text


# A number whose thousands a tokeniser set apart after the comma ("£50, 000", "3, 800" in XSum as
# FRANK ships it), where no other sign of tokenisation shows. Joined only where it cannot be a
# list of numbers: a group of three digits that opens with 0 ("50, 000"), or an amount of money.
# (The hint opens with the comma, so the search skips ahead to ", " in C: 40 times faster.)
_SPACED_THOUSANDS_HINT = re.compile(r", (?<=\d, )\d{3}(?!\d)")
_SPACED_THOUSANDS = re.compile(
    r"(?<![\d.,])([$£€¥]\s?)?(\d{1,3})((?:, \d{3})+)(?![\d]|,\d)"
    r"(\s?(?:dollars?|pounds?|euros?|yen)\b)?",
    re.IGNORECASE,
)


def _thousands(m: re.Match[str]) -> str:
    groups = m.group(3).split(", ")[1:]
    if m.group(1) or m.group(4) or any(g.startswith("0") for g in groups):
        joined = f"{m.group(1) or ''}{m.group(2)},{','.join(groups)}"
        return joined + (m.group(4) or "")
    return m.group(0)


def _maybe_tokenised(text: str) -> bool:
    """A cheap first look (substring tests run in C) before the regular expression."""
    return (
        " ," in text
        or " ." in text
        or " '" in text
        or " n'" in text
        or "rb" in text
        or "`" in text
        or " ;" in text
        or " :" in text
        or " )" in text
        or " %" in text
        or " - " in text
        or "$ " in text
        or "£ " in text
        or "€ " in text
    )


_TOKENISED_HINT = re.compile(
    r" [,.;:!?%)] |\d [,.] \d| 's\b| n't\b|-[lr][rsc]b-|[lr][rsc]b -|` `|\d - \w|[$£€¥] \d"
)
# Substrings each alternative of _TOKENISED_HINT needs ("\\d [,.] \\d" needs " , " or " . "):
# text holding none of them cannot match, and the search (slow on a long text) is skipped.
_HINT_NEEDS = (
    *(f" {mark} " for mark in ",.;:!?%)"),
    *(" 's", " n't", "b-", "b -", "` `", " - ", "$ ", "£ ", "€ ", "¥ "),
)


def _tokenised_hint(text: str) -> bool:
    """``_TOKENISED_HINT.search(text)``, with the search run only where it can match."""
    return any(needed in text for needed in _HINT_NEEDS) and bool(_TOKENISED_HINT.search(text))


_BRACKETS = re.compile(r"-?\s?\b([lr])([rsc])b\b\s?-?", re.IGNORECASE)
_SPLIT_NUMBER = re.compile(r"\b(\d{1,3}) ?([,.]) (\d{3})\b")
_SPLIT_ABBREVIATION = re.compile(r"\b((?:[A-Za-z]\.){1,3}[A-Za-z]) \.")
_SPACED_HYPHEN = re.compile(r"(?<=\w) - (?=\w)")
_SPACE_BEFORE = re.compile(r" (?=[,.;:!?%)]|'s\b|n't\b|'re\b|'ve\b|'ll\b|'d\b|'m\b)")
_SPACE_AFTER = re.compile(r"(?<=[($£€¥]) ")


def _detokenize(text: str) -> str:
    """Text as written from Penn-Treebank-style tokens (CNN/DM and XSum as distributed)."""
    text = _BRACKETS.sub(lambda m: "(" if m.group(1).lower() == "l" else ")", text)
    text = text.replace("` `", '"').replace("``", '"').replace(" ''", '"').replace("''", '"')
    text = _SPLIT_NUMBER.sub(r"\1\2\3", text)
    text = _SPLIT_ABBREVIATION.sub(r"\1.", text)
    text = _SPACED_HYPHEN.sub("-", text)
    text = _SPACE_BEFORE.sub("", text)
    return _SPACE_AFTER.sub("", text)


# ------------------------------------------------------------------------------------ tokens


def _script(ch: str) -> str:
    code = ord(ch)
    if 0x3040 <= code <= 0x309F:
        return "hiragana"
    if 0x30A0 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF:
        return "katakana"
    return "han"


@short_keys(4096, WORD_ENTRY)
def stem(word: str) -> str:
    """A light English stemmer: enough to meet "launches"/"launched"/"launching"."""
    w = word.lower()
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) <= 4:
        return w
    for suffix in SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "s" and w.endswith(("ss", "us", "is")):
                break  # "cross", "status", "analysis" are not plurals
            w = w[: -len(suffix)]
            if suffix in ("ies", "ied"):
                w += "y"
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiousl":
        w = w[:-1]  # "stopp" -> "stop"
    if len(w) > 4 and w.endswith("e"):
        w = w[:-1]
    return w


# Synonym heads by the listed forms and by their stems ("price" and "pric" for "priced"); a
# country adjective counts as its country's one-word name ("japanese" as "japan").
_SYNONYM_HEADS = {
    **{word: stem(place) for word, place in DEMONYMS.items() if " " not in place + word},
    # (A form in -er folds only as written: its stem is another word, "worker" no "work", "lower"
    # no "low".)
    **{stem(w): head for w, head in SYNONYMS.items() if not w.endswith("er")},
    **{w + "s": head for w, head in SYNONYMS.items() if w.endswith("er")},  # "workers"
    **SYNONYMS,
}


@short_keys(4096, WORD_ENTRY)
def canon(word: str) -> str:
    """The comparable form of a lower-case word: its synonym group, else its stem."""
    if word in _SYNONYM_HEADS:
        return _SYNONYM_HEADS[word]
    stemmed = stem(word)
    return _SYNONYM_HEADS.get(stemmed, stemmed)


def _cjk_tokens(run: str) -> list[str]:
    """Bigrams for han runs, whole katakana words; hiragana (particles, endings) dropped."""
    tokens: list[str] = []
    i = 0
    while i < len(run):
        kind = _script(run[i])
        j = i
        while j < len(run) and _script(run[j]) == kind:
            j += 1
        part = run[i:j]
        if kind == "han":
            if len(part) == 1:
                tokens.append(part)
            else:
                tokens.extend(part[k : k + 2] for k in range(len(part) - 1))
        elif kind == "katakana" and len(part) >= 2:
            tokens.append(part)
        elif kind == "hiragana" and len(part) >= 3:
            tokens.extend(part[k : k + 2] for k in range(len(part) - 1))
        i = j
    return tokens


def ascii_words(text: str) -> list[str] | None:
    """The words and numbers of an ASCII text as written, what its content tokens are made of;
    None for other text. (Read once per sentence and handed to ``content_tokens`` and
    ``quantities``: the search is most of what either would spend.)"""
    return _ASCII_TOKEN.findall(text) if text.isascii() else None


def content_tokens(
    text: str, *, question: bool = False, words: list[str] | None = None
) -> list[str]:
    """Content tokens of ``text`` in order: stopwords dropped, canonicalised; CJK as bigrams.
    ``words``: ``ascii_words`` of ``text``, where the caller has them."""
    if words is None and text.isascii():
        words = _ASCII_TOKEN.findall(text)
    if words is not None:  # words and numbers only: one memoised look-up each, all in C
        memo = _QUESTION_TOKENS if question else _PLAIN_TOKENS
        return list(filter(None, map(memo.__getitem__, words)))
    out: list[str] = []
    for piece in _TOKEN.findall(text):
        first = piece[0]
        if first > "\u3000" and not first.isdigit():  # (full-width digits are numbers)
            out.extend(_cjk_tokens(piece))
        else:
            token = _piece_token(piece, question)
            if token:
                out.append(token)
    return out


class WordMemo(dict[str, _V], Generic[_V]):
    """Word -> ``work(word)``, worked out on first sight: a dictionary whose hits are looked up
    in C (``map(memo.__getitem__, words)``), without the argument tuple an ``lru_cache``
    builds (one look-up per word of every text). Each entry is weighed as it is stored (only a
    miss runs Python code); the memo is emptied when its entries weigh more than
    ``_TOKEN_MEMO_BYTES``, and a word longer than ``SHORT_KEY`` is worked out every time."""

    def __init__(self, work: Callable[[str], _V]) -> None:
        super().__init__()
        self.work = work
        self.memo_bytes = 0
        self.memo_limit = _TOKEN_MEMO_BYTES
        MEMOS.append(self)

    def __missing__(self, word: str) -> _V:
        if len(word) > SHORT_KEY:
            return self.work(word)
        value = self.work(word)
        cost = weigh(word) + weigh(value) + _DICT_ENTRY
        if self.memo_bytes + cost > self.memo_limit:
            self.cache_clear()
        self[word] = value
        self.memo_bytes += cost
        return value

    def cache_clear(self) -> None:
        self.clear()
        self.memo_bytes = 0


_TOKEN_MEMO_BYTES = 2 << 20
_DICT_ENTRY = 100  # a dictionary entry and its share of the table


@short_keys(4096, WORD_ENTRY)
def _piece_token(piece: str, question: bool) -> str:
    """The content token of one word or number (its value, "3000" for "3,000"); "" for a
    stopword. Memoised: one call per word of every text."""
    if piece[0].isdigit():
        value = parse_number(piece)
        return format_number(value) if value is not None else piece
    return _word_token(piece, question)


@short_keys(4096, WORD_ENTRY)
def _word_token(piece: str, question: bool) -> str:
    """The content token of one word, or "" for a stopword."""
    lower = piece.lower().strip("-'")
    if len(lower) < 2 or lower in STOPWORDS or lower in OTHER_FUNCTION_WORDS:
        return ""
    if question and lower in QUESTION_WORDS:
        return ""
    return canon(lower)


# Word or number -> its content token ("" for a stopword), in statements and in questions.
_PLAIN_TOKENS: WordMemo[str] = WordMemo(lambda piece: _piece_token(piece, False))
_QUESTION_TOKENS: WordMemo[str] = WordMemo(lambda piece: _piece_token(piece, True))


# ---------------------------------------------------------------------------------- numbers

_GROUPED = re.compile(r"\d{1,3}(,\d{3})+(\.\d+)?")
_DOT_GROUPED = re.compile(r"\d{1,3}(\.\d{3}){2,}")
_COMMA_THOUSANDS = re.compile(r"\d+,\d{3}")


@short_keys(2048, WORD_ENTRY)
def parse_number(raw: str) -> float | None:
    text = raw
    if "," in text and _GROUPED.fullmatch(text):
        text = text.replace(",", "")
    elif text.count(".") > 1 and _DOT_GROUPED.fullmatch(text):
        text = text.replace(".", "")  # 1.000.000 (European grouping)
    elif text.count(",") == 1 and "." not in text and not _COMMA_THOUSANDS.fullmatch(text):
        text = text.replace(",", ".")  # 3,5 (decimal comma)
    else:
        text = text.replace(",", "")
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None  # "1" * 310 is no number a text compares


@short_keys(2048, WORD_ENTRY)
def format_number(value: float) -> str:
    if not math.isfinite(value):  # a finite number scaled past the float range
        return "inf" if value > 0 else "-inf" if value < 0 else "nan"
    if value == int(value) and abs(value) < 1e18:
        return str(int(value))
    return f"{value:.6g}"


_LOWER_WORD = re.compile(
    r"(?<![A-Za-z])[a-z][a-z'\-]+"
    # Cyrillic and Greek, the other scripts with capitals (whose names are capitalised words)
    r"|(?<![\u0370-\u03ff\u1f00-\u1fff\u0400-\u04ff])"
    r"[\u03ac-\u03ce\u1f00-\u1fff\u0430-\u045f][\u03ac-\u03ce\u1f00-\u1fff\u0430-\u045f\u0300-\u036f'\-]+"
)
# Its first alternative, for ASCII text (where the second cannot match), with the look-behind
# after the first letter: the search skips to lower-case letters instead of trying every
# position (twice as fast on a whole source).
_LOWER_ASCII_WORD = re.compile(r"[a-z](?<![A-Za-z][a-z])[a-z'\-]+")


def lowercase_words(text: str) -> frozenset[str]:
    """Words ``text`` writes in lower case: evidence that a capitalised form is no name."""
    if not text.isascii():
        return frozenset(_LOWER_WORD.findall(text))
    # A word never spans a space, so the text's distinct pieces between spaces are read instead,
    # and most of them, lower-case letters only, are words as they stand: only the others are
    # searched (a third fewer instructions for a whole source, all of it in C).
    pieces = set(text.split())
    plain = set(filter(str.isalpha, filter(str.islower, pieces)))
    found = _LOWER_ASCII_WORD.findall(" ".join(pieces - plain))
    plain -= _LETTERS  # (a word has two letters or more)
    plain.update(found)
    return frozenset(plain)
