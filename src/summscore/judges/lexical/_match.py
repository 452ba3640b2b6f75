"""Matching a statement against a text: shared words, names (abbreviated, spelled out, in part),
the passages that cover a statement best, and the fragments a statement falls into."""

from __future__ import annotations

import re

from ._anchors import _at_sentence_start
from ._doc import Doc
from ._initials import initial_and_number
from ._lexicon import DEMONYMS, STOPWORDS
from ._memo import NAME_ENTRY, PATTERN_ENTRY, WORD_ENTRY, SizedMemo, short_keys, weigh
from ._text import Span, make_span
from ._words import content_tokens, normalize, stem

__all__ = [
    "abbreviated",
    "anchor_in_doc",
    "anchor_in_span",
    "anchors_near",
    "clip",
    "contains_phrase",
    "fragments",
    "matches_any",
    "name_tokens",
    "names_match",
    "pieces",
    "ranked",
    "recall",
    "spelled_out",
    "split_fragments",
]

# (The lookahead names every alternative's first character, so the search skips to those.)
_FRAGMENT_SPLIT = re.compile(
    r"(?=[,;\s、，；])(?:,\s+|;\s*|\s+(?:and|with|while|after|before|as|but)\s+|、|，|；)"
)


def recall(span: Span, window: Span) -> float:
    if not span.token_set:
        return 0.0
    return len(span.token_set & window.token_set) / len(span.token_set)


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


_JOINED = r"(?:\s+(?:and|of|for|the|&)\s+|\s+)"


@short_keys(2048, WORD_ENTRY)
def _acronym_letters(acronym: str) -> str | None:
    """The letters of a name that may be an acronym ("f.d.a" -> "fda"), else None (memoised:
    every name of a passage is asked whether it spells out a statement's)."""
    letters = acronym.replace(".", "")
    if not 2 <= len(letters) <= 6 or not letters.isalpha() or " " in acronym:
        return None
    return letters


def _may_spell_out(letters: str, text: str) -> bool:
    """Does ``text`` hold every initial the spelled-out form needs? (Compiling an acronym's
    pattern costs far more than this test, and most texts fail it.)"""
    return all(map(text.__contains__, map(str.upper, letters)))  # (each letter's capital)


@short_keys(512, PATTERN_ENTRY)
def _acronym_pattern(acronym: str) -> re.Pattern[str] | None:
    letters = _acronym_letters(acronym)
    if letters is None:
        return None
    # "\bF[a-z]+" written "F(?<!\wF)[a-z]+": the same matches, and a pattern that opens with a
    # letter is searched for that letter (a long text is not tried at every position).
    head = letters[0].upper()
    words = [rf"{head}(?<!\w{head})[a-z]+", *(rf"{ch.upper()}[a-z]+" for ch in letters[1:])]
    return re.compile(_JOINED.join(words) + r"\b")


def spelled_out(acronym: str, text: str) -> bool:
    """Does ``text`` spell out ``acronym`` ("FDA": "Food and Drug Administration")?"""
    letters = _acronym_letters(acronym)
    if letters is None or not _may_spell_out(letters, text):
        return False
    pattern = _acronym_pattern(acronym)
    return pattern is not None and pattern.search(text) is not None


class _NameSet:
    """What is worked out about one text's set of names, memoised with it (see ``_NAME_SETS``):
    the answers of :func:`matches_any`, the names by the words they are filed under, and the
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


def _name_set(names: frozenset[str]) -> _NameSet:
    found = _NAME_SETS.get(names)
    if found is None:
        found = _NAME_SETS.put(names, _NameSet(names))
    return found


def matches_any(key: str, names: frozenset[str]) -> bool:
    """Does ``key`` name the same thing as one of ``names``? (memoised: one pair of texts asks
    the same question many times). Among many names, only those filed under one of the key's
    words are compared (see :func:`_filed`): a look-up costs what those are, not the text's
    every name."""
    if key in names:
        return True
    memo = _name_set(names)
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
    name and of its form with countries written out. Two names :func:`names_match` share one:
    one inside the other shares its runs, a run of stems its first stem, and the forms without
    an honorific are parts of the names."""
    _, place, _, stems = _forms(name)
    found = set(stems) | set(_ALNUM.findall(name))
    if place != name:
        found |= set(_stems(place)) | set(_ALNUM.findall(place))
    return frozenset(found)


def _filed(names: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """``names`` by the words they are filed under (built once per set of names)."""
    memo = _name_set(names)
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


# Capitalised abbreviations of periods and comparisons that texts, earnings calls above all, write
# out in words: "Q3" is "the third quarter", "YoY" "year-over-year".
_WRITTEN_OUT = {
    "q1": ("first quarter",), "q2": ("second quarter",), "q3": ("third quarter",),
    "q4": ("fourth quarter",), "h1": ("first half",), "h2": ("second half",),
    "yoy": ("year-over-year", "year over year", "year-on-year", "year on year"),
    "qoq": ("quarter-over-quarter", "quarter over quarter", "quarter-on-quarter"),
}  # fmt: skip


def _name_in(key: str, names: frozenset[str], text: str) -> bool:
    if matches_any(key, names):
        return True
    # Names the extractor did not see as names (lower-case in a CJK text, say), by whole phrase.
    if contains_phrase(text, key):
        return True
    written = _WRITTEN_OUT.get(key)
    return written is not None and any(contains_phrase(text, words) for words in written)


def _acronyms(names: frozenset[str]) -> tuple[tuple[str, str], ...]:
    """(name, its letters) for the names that may be acronyms (worked out once per set)."""
    memo = _name_set(names)
    if memo.acronyms is None:
        found = ((name, _acronym_letters(name)) for name in names)
        memo.acronyms = tuple((name, letters) for name, letters in found if letters is not None)
        memo.grew(weigh(memo.acronyms))
    return memo.acronyms


def abbreviated(key: str, statement: Span, names: frozenset[str]) -> bool:
    """Is ``key`` part of a name the statement spells out and ``names`` abbreviates ("drug
    administration" in "US Food and Drug Administration", abbreviated "FDA")? At least half of
    its words must be in the spelled-out form: "Wisdom-aware Multi-agent Management
    Reinforcement Learning" is not "RL"."""
    text = statement.text
    words = set(key.split())
    for name, letters in _acronyms(names):
        if not _may_spell_out(letters, text):
            continue  # its pattern cannot match: not compiled
        pattern = _acronym_pattern(name)
        for m in pattern.finditer(text) if pattern is not None else ():
            if 2 * len(words & set(m.group(0).lower().split())) >= len(words):
                return True
    return False


# The common nouns that end names of institutions: "Police" opening a sentence is no surname of
# "West Yorkshire Police".
_GENERIC_HEADS = frozenset(
    """police council government court ministry department party university college school
    club company group bank agency army navy team league union committee board office service
    hospital church association federation commission authority institute society""".split()
)


def _surname_in(key: str, names: frozenset[str], text: str) -> bool:
    """Does ``text`` name the last word of the name ``key`` where it opens sentences? A surname
    that opens a sentence ("Rowling faced criticism") is read as no name, so "JK Rowling" would
    be a name the source never gives. It counts as given, as the same surname inside a sentence
    does, when every time the text writes the word it writes it with a capital at a sentence's
    start (a word the name reader also leaves out inside sentences, "Sterling", "Kelly", is left
    out here too), and no name of the text has it (there, :func:`names_match` decided: "Enda
    Varadkar" is not "Leo Varadkar")."""
    words = key.split()
    if len(words) < 2:
        return False
    last = words[-1]
    if len(last) < 3 or not last.isalpha() or last in STOPWORDS or last in _GENERIC_HEADS:
        return False
    capital = last[0].upper() + last[1:]
    if capital not in text or any(last in name.split() for name in names):
        return False
    found = [m.start() for m in re.finditer(rf"\b{last}\b", text, re.IGNORECASE)]
    return bool(found) and all(
        text.startswith(capital, start) and _at_sentence_start(text, start) for start in found
    )


def anchor_in_doc(key: str, statement: Span, doc: Doc) -> bool:
    if key in statement.numbers:
        return key in doc.numbers or initial_and_number(key, statement, doc.lowered)
    # The answer depends on the statement's text only: memoised per text (a claim, its
    # fragments and the verdict's checks ask about the same names).
    memo = doc.names_found
    found = memo.get((key, statement.text))
    if found is None:
        found = (
            _name_in(key, doc.entities, doc.lowered)
            or spelled_out(key, doc.text)
            or abbreviated(key, statement, doc.entities)
            or _surname_in(key, doc.entities, doc.text)
            or initial_and_number(key, statement, doc.lowered)
        )
        weight = weigh(key, 0) + doc.weighs_text(statement.text)
        doc.remember(memo, (key, statement.text), found, weight)
    return found


def anchors_near(statement: Span, doc: Doc) -> frozenset[str]:
    """The anchors (numbers, names) of a question that ``doc`` gives in a sentence also holding
    another of the question's content words, or none but the anchor's own. A number or a name elsewhere in the text, in a
    sentence about something else ("Maria Jensen bought 3 lemons"), answers no question about
    "3 headliners": what the rest of a text says never answers a question for it. (Memoised
    per question text; a sentence is looked for among the inverted index's candidates, at most
    ``_NEAR_TRIES`` per name, so the work stays linear in long texts.)"""
    memo = doc.near
    found = memo.get(statement.text)
    if found is not None:
        return found
    present = [a for a in statement.anchors if anchor_in_doc(a, statement, doc)]
    near: set[str] = set()
    if present:
        shared = doc.shared_counts(statement.token_set)
        sentences = doc.sentences
        candidates = sorted(shared, key=lambda i: (-shared[i], i))
        holding: dict[str, list[int]] = {}  # number -> the candidates that give it
        for i in candidates:
            for number in statement.numbers.intersection(sentences[i].numbers):
                holding.setdefault(number, []).append(i)
        for key in present:
            own = _own_tokens(key) & statement.token_set
            if len(own) == len(statement.token_set):
                near.add(key)  # the question asks about the anchor alone
                continue
            if key in statement.numbers and key in holding:
                tries = holding[key]
            else:
                tries = candidates[:_NEAR_TRIES]
            for i in tries:
                sentence = sentences[i]
                held = own & sentence.token_set
                # (A sentence that says nothing but the anchor, "ECB up.", is about it.)
                about = shared[i] > len(held) or sentence.token_set <= held
                if about and anchor_in_span(key, statement, sentence):
                    near.add(key)
                    break
    found = frozenset(near)
    doc.remember(memo, statement.text, found, weigh(found, 1) + doc.weighs_text(statement.text))
    return found


_NEAR_TRIES = 32


def _own_tokens(key: str) -> frozenset[str]:
    """The content tokens an anchor itself brings to a statement."""
    return name_tokens(key) | {key}


def anchor_in_span(key: str, statement: Span, span: Span) -> bool:
    if key in statement.numbers:
        return key in span.numbers or initial_and_number(key, statement, span.text)
    lowered = span.text.lower()
    return (
        _name_in(key, span.entities, lowered)
        or spelled_out(key, span.text)
        or abbreviated(key, statement, span.entities)
        or _surname_in(key, span.entities, span.text)
        or initial_and_number(key, statement, span.text)
    )


def clip(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def pieces(window: Span) -> list[Span]:
    """The window cut at sentence ends, commas, semicolons and conjunctions (the window itself
    if it is one): a negation in one sentence says nothing of the next."""
    if window.parts is not None:
        first, second = window.parts
        return pieces(first) + pieces(second)
    parts = split_fragments(window.text)
    if len(parts) < 2:
        return [window]
    return [make_span(p, common=window.common) for p in parts]


def ranked(statement: Span, doc: Doc, top: int = 3) -> list[Span]:
    """The windows that cover the statement best, the shorter first among equals."""
    return doc.best_windows(statement.token_set, top)


# ("\bX" written "X(?<!\wX)": the same matches, and the search skips to capitals.)
_NAME_AND = re.compile(r"([A-Z](?<!\w[A-Z])[\w'-]*)\s+(and|&)\s+(?=[A-Z])")


def split_fragments(text: str) -> list[str]:
    """Cut at commas, semicolons and conjunctions, but not inside "Food and Drug Administration"."""
    protected = text
    if "and" in text or "&" in text:  # (what _NAME_AND needs: its search has no first character)
        protected = _NAME_AND.sub(lambda m: f"{m.group(1)}\x00{m.group(2)}\x00", text)
    return [p.replace("\x00", " ") for p in _FRAGMENT_SPLIT.split(protected) if p.strip()]


def fragments(statement: Span) -> list[Span]:
    parts = split_fragments(statement.text)
    if len(parts) < 2:
        return []
    spans = [make_span(p, common=statement.common, own_words=True) for p in parts]
    return [s for s in spans if len(s.token_set) >= 3]
