"""Matching a statement against a text: shared words, names (abbreviated, spelled out, in part),
the passages that cover a statement best, and the fragments a statement falls into."""

from __future__ import annotations

import re

from ._anchors import _at_sentence_start
from ._doc import Doc
from ._initials import initial_and_number
from ._lexicon import STOPWORDS
from ._memo import PATTERN_ENTRY, WORD_ENTRY, short_keys, weigh
from ._names import contains_phrase, matches_any, name_set, name_tokens, names_match
from ._text import Span, make_span

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
    memo = name_set(names)
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
    out here too), and no name of the text has it (there, ``names_match`` decided: "Enda
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


def far_numbers(statement: Span, near: frozenset[str]) -> frozenset[str]:
    """The statement's numbers not in ``near``: a number given only in a sentence about
    something else lends a window no word of the question ("29 lemons" next to "Claes won"
    does not say Claes is 29)."""
    return frozenset(n for n in statement.numbers if n not in near) & statement.token_set


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
