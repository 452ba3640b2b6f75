"""Classical text analysis for the lexical judge: sentences, clauses, content tokens, numbers,
named entities and negation, for English-like and CJK text alike.

Content tokens are light-stemmed lower-case words for alphabetic scripts, and for Chinese and
Japanese (no spaces between words) kanji/hanzi character bigrams and katakana words, with
hiragana particles dropped. Numbers are canonicalised so that "$3 trillion", "3,000,000,000,000"
and "3 trillion dollars" compare equal, and "12 percent" equals "12%".
"""

from __future__ import annotations

import itertools
import re
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache

__all__ = ["Doc", "Span", "analyze", "content_tokens", "split_clauses", "split_sentences"]

# --------------------------------------------------------------------------------------- words

_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "if",
        "then",
        "than",
        "so",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "from",
        "with",
        "without",
        "within",
        "into",
        "onto",
        "over",
        "under",
        "about",
        "above",
        "below",
        "between",
        "among",
        "through",
        "during",
        "before",
        "after",
        "since",
        "until",
        "upon",
        "via",
        "per",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "do",
        "does",
        "did",
        "doing",
        "done",
        "have",
        "has",
        "had",
        "having",
        "will",
        "would",
        "shall",
        "should",
        "can",
        "could",
        "may",
        "might",
        "must",
        "it",
        "its",
        "it's",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "why",
        "how",
        "all",
        "any",
        "both",
        "each",
        "few",
        "more",
        "most",
        "other",
        "some",
        "such",
        "no",
        "nor",
        "not",
        "only",
        "own",
        "same",
        "too",
        "very",
        "just",
        "also",
        "again",
        "further",
        "once",
        "i",
        "me",
        "my",
        "we",
        "our",
        "ours",
        "you",
        "your",
        "yours",
        "he",
        "him",
        "his",
        "she",
        "her",
        "hers",
        "they",
        "them",
        "their",
        "theirs",
        "itself",
        "themselves",
        "himself",
        "herself",
        "ourselves",
        "yourself",
        "yourselves",
        "s",
        "t",
        "don",
        "now",
        "up",
        "out",
        "off",
        "down",
        "one's",
        "oneself",
        "whether",
        "while",
        "though",
        "although",
        "because",
        "however",
        "thus",
        "hence",
        "yet",
        "said",
        "says",
        "say",
        "text",
        "state",
        "states",
        "stated",
        "mention",
        "mentions",
        "mentioned",
        "according",
        "around",
        "approximately",
        "roughly",
        "nearly",
        "almost",
        "circa",
        "about",
        "also",
        "well",
    ]
)
# Light synonym folding after stemming, so paraphrases meet ("firm" ~ "company", "rose" ~
# "increased"); antonyms are then checked between the canonical forms.
_SYNONYM_GROUPS = (
    ("found", "establish", "start", "creat", "launch", "set-up", "founder"),
    ("company", "firm", "busi", "corpor", "enterpris", "compan"),
    (
        "increas",
        "rise",
        "rose",
        "risen",
        "grow",
        "grew",
        "grown",
        "climb",
        "jump",
        "surg",
        "soar",
        "boost",
        "up",
    ),
    (
        "decreas",
        "fall",
        "fell",
        "fallen",
        "drop",
        "declin",
        "shrink",
        "shrank",
        "plung",
        "slump",
        "down",
        "reduc",
    ),
    ("buy", "bought", "purchas", "acquir"),
    ("sell", "sold"),
    ("win", "won"),
    ("lose", "lost", "los"),
    ("employe", "staf", "personnel", "headcount"),
    ("ceo", "chief-executiv"),
    ("kill", "dead", "death", "die", "died"),
    ("help", "assist", "aid"),
    ("big", "larg", "huge"),
    ("small", "tiny"),
    ("begin", "began", "begun", "commenc"),
    ("end", "finish", "conclud"),
    ("show", "reveal", "demonstrat", "indicat"),
    ("car", "vehicl", "automobil"),
    ("child", "children", "kid"),
    ("doctor", "physician"),
    ("use", "utiliz", "employ"),
    ("need", "requir"),
    ("goal", "target", "objectiv"),
    ("recommend", "suggest", "advis", "advic"),
    ("say", "stat", "announc", "report", "tell", "told"),
    ("price", "cost"),
    ("shop", "store"),
    ("rule", "regul", "law"),
)
_SYNONYMS = {word: group[0] for group in _SYNONYM_GROUPS for word in group}
_QUESTION_WORDS = frozenset(
    [
        "does",
        "do",
        "did",
        "is",
        "are",
        "was",
        "were",
        "has",
        "have",
        "had",
        "can",
        "could",
        "will",
        "would",
        "should",
        "text",
        "document",
        "say",
        "says",
        "state",
        "states",
        "mention",
        "mentions",
        "passage",
        "source",
        "original",
        "summary",
        "true",
    ]
)
_NEGATIONS = frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nobody",
        "nothing",
        "neither",
        "nor",
        "cannot",
        "can't",
        "won't",
        "don't",
        "doesn't",
        "didn't",
        "isn't",
        "aren't",
        "wasn't",
        "weren't",
        "hasn't",
        "haven't",
        "hadn't",
        "without",
    ]
)
_NEGATION_CJK = ("ない", "なかった", "ません", "ず", "不", "没", "沒", "未", "無", "无", "非")

_WORD_NUMBERS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "dozen": 12,
}
_SCALES = {
    "thousand": 1e3,
    "k": 1e3,
    "million": 1e6,
    "m": 1e6,
    "mn": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "b": 1e9,
    "trillion": 1e12,
    "tn": 1e12,
    "万": 1e4,
    "億": 1e8,
    "亿": 1e8,
    "千": 1e3,
    "百万": 1e6,
}
_MONTHS = {
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_SUFFIXES = (
    "ational",
    "ization",
    "fulness",
    "ousness",
    "iveness",
    "ations",
    "ements",
    "ement",
    "ation",
    "ments",
    "ment",
    "ness",
    "ings",
    "ing",
    "ies",
    "ied",
    "edly",
    "ers",
    "est",
    "ed",
    "es",
    "er",
    "ly",
    "s",
)

_CJK_RUN = re.compile(
    r"[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+"
)
_TOKEN = re.compile(
    r"[A-Za-z\u00c0-\u024f][A-Za-z\u00c0-\u024f'\u2019\-]*"
    r"|\d+(?:[.,]\d+)*"
    r"|[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+"
)


def _script(ch: str) -> str:
    code = ord(ch)
    if 0x3040 <= code <= 0x309F:
        return "hiragana"
    if 0x30A0 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF:
        return "katakana"
    if 0xAC00 <= code <= 0xD7AF:
        return "hangul"
    return "han"


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light English stemmer: enough to match "launches"/"launched"/"launching"."""
    w = word.lower().replace("\u2019", "'")
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) <= 4:
        return w
    for suffix in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            if suffix in ("ies", "ied"):
                w += "y"
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiousl":
        w = w[:-1]  # "stopp" -> "stop"
    if len(w) > 4 and w.endswith("e"):
        w = w[:-1]
    return w


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
        if kind == "han" or kind == "hangul":
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


def content_tokens(text: str, *, question: bool = False) -> list[str]:
    """Content tokens of ``text`` in order (stopwords dropped, stemmed; CJK as bigrams)."""
    out: list[str] = []
    for match in _TOKEN.finditer(text):
        piece = match.group(0)
        first = piece[0]
        if first.isdigit():
            out.append(_canonical_plain_number(piece))
            continue
        if _CJK_RUN.fullmatch(piece):
            out.extend(_cjk_tokens(piece))
            continue
        lower = piece.lower().strip("-'\u2019")
        if not lower or lower in _STOPWORDS or (question and lower in _QUESTION_WORDS):
            continue
        if len(lower) == 1:
            continue
        stemmed = stem(lower)
        out.append(_SYNONYMS.get(stemmed, stemmed))
    return out


# ------------------------------------------------------------------------------------- numbers

_NUMBER = re.compile(
    r"(?P<cur>[$€£¥₹]|US\$|USD\s?|EUR\s?|GBP\s?|JPY\s?|RMB\s?)?"
    r"(?P<num>\d+(?:[,.]\d+)*)"
    r"(?:\s?(?P<scale>thousand|million|billion|trillion|bn|mn|tn|[kKmMbB](?![a-zA-Z])|万|億|亿|千))?"
    r"\s?(?P<pct>%|percent|per cent|％|パーセント)?",
    re.IGNORECASE,
)
_WORD_NUMBER = re.compile(
    r"\b(" + "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True)) + r")\b"
    r"(?:\s+(thousand|million|billion|trillion))?(\s?(?:%|percent|per cent))?",
    re.IGNORECASE,
)


def _canonical_plain_number(raw: str) -> str:
    value = _parse_number(raw)
    return _fmt(value) if value is not None else raw


def _parse_number(raw: str) -> float | None:
    text = raw
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", text):
        text = text.replace(",", "")
    elif re.fullmatch(r"\d{1,3}(\.\d{3})+", text) and text.count(".") > 1:
        text = text.replace(".", "")  # 1.000.000 (European grouping)
    else:
        text = (
            text.replace(",", ".")
            if text.count(",") == 1 and "." not in text
            else text.replace(",", "")
        )
    try:
        return float(text)
    except ValueError:
        return None


def _fmt(value: float) -> str:
    if value == int(value) and abs(value) < 1e18:
        return str(int(value))
    return f"{value:.6g}"


def extract_numbers(text: str) -> set[str]:
    """Canonical numeric values in ``text``: "3e12" style for scaled, "12%" for percentages."""
    found: set[str] = set()
    for m in _NUMBER.finditer(text):
        value = _parse_number(m.group("num"))
        if value is None:
            continue
        scale = (m.group("scale") or "").lower()
        if scale:
            value *= _SCALES.get(scale, 1.0)
        if m.group("pct"):
            found.add(_fmt(value) + "%")
        else:
            found.add(_fmt(value))
    for m in _WORD_NUMBER.finditer(text):
        value = float(_WORD_NUMBERS[m.group(1).lower()])
        if m.group(2):
            value *= _SCALES[m.group(2).lower()]
        if m.group(1).lower() == "one" and not m.group(2) and not m.group(3):
            continue  # "one of", "one day": too often not a quantity
        found.add(_fmt(value) + ("%" if m.group(3) else ""))
    return found


# ------------------------------------------------------------------------------------ entities

_CAP_WORD = r"(?:[A-Z][\w'\u2019&.\-]*|[A-Z]{2,})"
_ENTITY = re.compile(
    rf"{_CAP_WORD}(?:\s+(?:(?:of|de|del|la|van|von|der|da|and|&)\s+)?{_CAP_WORD})*"
)
_KATAKANA_WORD = re.compile(r"[\u30a0-\u30ff\u31f0-\u31ff]{2,}")
_LATIN_IN_CJK = re.compile(r"[A-Za-z][A-Za-z0-9.&\-]+")


def extract_entities(sentence: str) -> set[str]:
    """Lower-cased named-entity-like phrases: capitalised word runs, katakana words, months."""
    found: set[str] = set()
    start_word = True
    for m in _ENTITY.finditer(sentence):
        phrase = m.group(0).strip(" .,-'\u2019")
        if not phrase:
            continue
        at_start = sentence[: m.start()].strip(" \"'“‘(") == "" if start_word else False
        start_word = False
        words = phrase.split()
        lower = phrase.lower()
        if at_start and len(words) == 1 and (lower in _STOPWORDS or lower in _QUESTION_WORDS):
            continue
        if len(words) == 1 and lower in _STOPWORDS:
            continue
        found.add(lower)
    for m in _KATAKANA_WORD.finditer(sentence):
        found.add(m.group(0))
    if _CJK_RUN.search(sentence):
        for m in _LATIN_IN_CJK.finditer(sentence):
            found.add(m.group(0).lower())
    return found


# ----------------------------------------------------------------------------------- sentences

_ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "sr",
        "jr",
        "st",
        "inc",
        "ltd",
        "co",
        "corp",
        "vs",
        "etc",
        "e.g",
        "i.e",
        "u.s",
        "u.k",
        "no",
        "fig",
        "approx",
        "est",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "gen",
        "col",
        "lt",
        "sgt",
        "rep",
        "sen",
        "gov",
        "pres",
    ]
)
_SENTENCE_END = re.compile(
    r"([.!?]+[\"'”’)\]]*)(\s+)|([。！？!?]+[」』”’）)]*)|\n\s*\n|\n(?=\s*[-*•\d])"
)


def split_sentences(text: str) -> list[str]:
    """Split into sentences: Latin punctuation + space (minding abbreviations), CJK full stops,
    blank lines and list items."""
    text = unicodedata.normalize("NFKC", text) if _needs_nfkc(text) else text
    sentences: list[str] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        if m.group(1):
            before = text[start : m.start(1)]
            last_word = before.rsplit(None, 1)[-1].lower().rstrip(".") if before.strip() else ""
            if last_word in _ABBREVIATIONS or re.fullmatch(r"[a-z]", last_word):
                continue
            nxt = text[m.end() : m.end() + 1]
            if nxt and nxt.islower():
                continue
            end = m.end(1)
        else:
            end = m.end()
        piece = text[start:end].strip()
        if piece:
            sentences.append(piece)
        start = m.end()
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return [s for s in (s.strip(" \n\t-*•") for s in sentences) if s]


def _needs_nfkc(text: str) -> bool:
    return any("\uff01" <= ch <= "\uff5e" for ch in text)


_SUBJECT = r"(?:the|a|an|it|he|she|they|we|i|this|that|these|those|its|his|her|their|our|[A-Z0-9][\w'-]*)\b"
_CLAUSE_SPLIT = re.compile(
    r";\s+|；|:\s+(?=[A-Z])"
    rf"|,\s+(?:and|but|while|whereas|although|though|yet)\s+(?={_SUBJECT})"
    r"|\s+(?:but|whereas)\s+|、しかし|，但|，而"
)


def split_clauses(sentence: str, min_tokens: int = 3) -> list[str]:
    """Split a long sentence into self-standing clauses; short fragments stay attached."""
    parts = [p.strip(" ,;") for p in _CLAUSE_SPLIT.split(sentence)]
    clauses: list[str] = []
    for part in parts:
        if not part:
            continue
        if clauses and len(content_tokens(part)) < min_tokens:
            clauses[-1] = f"{clauses[-1]}, {part}"
        else:
            clauses.append(part)
    if len(clauses) > 1 and len(content_tokens(clauses[0])) < min_tokens:
        clauses[1] = f"{clauses[0]}, {clauses[1]}"
        clauses.pop(0)
    return clauses or [sentence.strip()]


def is_negated(text: str) -> bool:
    lowered = text.lower().replace("\u2019", "'")
    words = re.findall(r"[a-z']+", lowered)
    if any(w in _NEGATIONS or w.endswith("n't") for w in words):
        return True
    return any(marker in text for marker in _NEGATION_CJK) and bool(_CJK_RUN.search(text))


# ------------------------------------------------------------------------------------ analysis


@dataclass(frozen=True)
class Span:
    """A sentence or clause with everything the judge compares."""

    text: str
    tokens: tuple[str, ...]
    token_set: frozenset[str]
    numbers: frozenset[str]
    entities: frozenset[str]
    negated: bool


@dataclass
class Doc:
    text: str
    sentences: list[Span]
    token_set: frozenset[str]
    numbers: frozenset[str]
    entities: frozenset[str]
    lowered: str
    windows: list[Span] = field(default_factory=list)


def make_span(text: str, *, question: bool = False) -> Span:
    tokens = tuple(content_tokens(text, question=question))
    return Span(
        text=text,
        tokens=tokens,
        token_set=frozenset(tokens),
        numbers=frozenset(extract_numbers(text)),
        entities=frozenset(extract_entities(text)),
        negated=is_negated(text),
    )


class _DocCache:
    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._items: OrderedDict[str, Doc] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str) -> Doc:
        with self._lock:
            doc = self._items.get(text)
            if doc is not None:
                self._items.move_to_end(text)
                return doc
        doc = _analyze(text)
        with self._lock:
            self._items[text] = doc
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return doc


def _analyze(text: str) -> Doc:
    sentences = [make_span(s) for s in split_sentences(text)] or [make_span(text)]
    windows = list(sentences)
    for a, b in itertools.pairwise(sentences):
        windows.append(
            Span(
                text=f"{a.text} {b.text}",
                tokens=a.tokens + b.tokens,
                token_set=a.token_set | b.token_set,
                numbers=a.numbers | b.numbers,
                entities=a.entities | b.entities,
                negated=a.negated or b.negated,
            )
        )
    tokens: set[str] = set()
    numbers: set[str] = set()
    entities: set[str] = set()
    for s in sentences:
        tokens |= s.token_set
        numbers |= s.numbers
        entities |= s.entities
    return Doc(
        text=text,
        sentences=sentences,
        token_set=frozenset(tokens),
        numbers=frozenset(numbers),
        entities=frozenset(entities),
        lowered=text.lower(),
        windows=windows,
    )


_cache = _DocCache()


def analyze(text: str) -> Doc:
    """Analyse ``text`` (memoised: a source is analysed once however often it is judged)."""
    return _cache.get(text)
