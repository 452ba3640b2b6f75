"""Metamorphic properties of the offline judge, over the development sets' summaries (the
committed samples of benchmarks/data) and the three presets: what docs/offline-judge.md
guarantees about encodings, layout and sibling claims (unrelated numbers and padding:
tests/test_lexical_padding.py).

* The same text in another encoding (NFC, NFD, NFKC, no-break and other Unicode spaces, curly
  quotes, CRLF or CR line endings) gets the same verdicts, supports and answers, and under the
  deepeval and mastra rules the same score (the ragas rule's conciseness counts characters as
  upstream does).
* The same text laid out differently (a space of the source or the summary written as a run of
  spaces, or as a space and a line break, as PDF text wraps its lines) gets the same verdicts,
  supports and answers, and under the deepeval and mastra rules the same score.
* A claim's verdict and support are the same alone, among its summary's claims in any order, and
  beside claims of other summaries or claims that use its names as common words.
"""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from summscore.judges import LexicalJudge
from summscore.judges.lexical._text import split_sentences
from summscore.judges.lexical._words import normalize
from tests.lexical_properties_shared import (
    PRESETS,
    SEEDS,
    SETTINGS,
    _answers,
    _claims,
    _score,
    _seeds,
    _terminated,
)

# ----------------------------------------------------------------------------------- encodings


def _spaces(space: str) -> object:
    return lambda text: text.replace(" ", space)


def _curly(text: str) -> str:
    text = re.sub(r"'", "\u2019", text)
    quotes = iter(("\u201c", "\u201d") * (text.count('"') // 2 + 1))
    return re.sub('"', lambda _: next(quotes), text)


ENCODINGS = {
    "NFC": lambda text: unicodedata.normalize("NFC", text),
    "NFD": lambda text: unicodedata.normalize("NFD", text),
    "NFKC": lambda text: unicodedata.normalize("NFKC", text),
    "no-break spaces": _spaces("\u00a0"),
    "narrow no-break spaces": _spaces("\u202f"),
    "thin spaces": _spaces("\u2009"),
    "ideographic spaces": _spaces("\u3000"),
    "curly quotes": _curly,
    # Invisible characters that web pages put after spaces (a zero-width space, a word joiner).
    "zero-width spaces": lambda text: text.replace(" ", " \u200b"),
    "word joiners": lambda text: text.replace(" ", "\u2060 "),
    "CRLF": lambda text: text.replace("\n", "\r\n"),
    "CR": lambda text: text.replace("\n", "\r"),
}


@SETTINGS
@given(seed=SEEDS, encoding=st.sampled_from(sorted(ENCODINGS)), preset=st.sampled_from(PRESETS))
def test_the_same_text_in_another_encoding_gets_the_same_verdicts(
    seed: int, encoding: str, preset: str
) -> None:
    source, summary = _seeds()[seed]
    encode = ENCODINGS[encoding]
    if encoding == "NFKC":
        # Only the compatibility forms that change how a character is drawn are folded; a text
        # with a superscript or a fraction ("m²", "½") changes meaning under NFKC.
        assume(
            all(
                encode(t) == normalize(encode(t)) or normalize(t) == normalize(encode(t))
                for t in (source, summary)
            )
        )
    plain, encoded = (
        _score(preset, source, summary),
        _score(preset, encode(source), encode(summary)),
    )
    assert [(v, s) for _, v, s in _claims(encoded)] == [(v, s) for _, v, s in _claims(plain)]
    assert _answers(encoded) == _answers(plain)
    assert encoded.qa_score == plain.qa_score
    if preset != "ragas":
        assert encoded.score == plain.score


# -------------------------------------------------------------------------------------- layout

LAYOUTS = ("  ", "   ", " \n", " \n ", "\t ")
# Faithful summaries of amounts, where a number meets its scale and its currency (none of the
# committed samples' summaries repeats an amount of its source with a scale word).
AMOUNTS = (
    (
        "Leeds council approved a new bridge on Monday. The bridge will cost 14 million pounds "
        "and open in 2027.",
        "Leeds will spend 14 million pounds on a bridge.",
    ),
    (
        "Shares of Acme rose 12 percent after the company reported revenue of $3.2 billion.",
        "Acme reported revenue of $3.2 billion and its shares rose 12 percent.",
    ),
    (
        "Der Stadtrat von Leeds genehmigte am Montag eine neue Brücke. Die Brücke kostet "
        "14 Millionen Pfund und soll 2027 eröffnet werden.",
        "Leeds gibt 14 Millionen Pfund für eine Brücke aus.",
    ),
    (
        "El ayuntamiento de Porto aprobó 16 nuevos proyectos. El plan cuesta 700 millones de "
        "euros.",
        "El plan de Porto cuesta 700 millones de euros.",
    ),
)
# A line that opens with a bullet or "2. " is a list item: a line break there means something.
_BEFORE_LIST_ITEM = re.compile(r" (?=(?:[-*\u2022]|\d{1,3}[.)])[ \t])")


def _spaces_in(text: str, after_a_number: bool) -> list[int]:
    """Where ``text``'s spaces are (not those before a list item), or only those after a digit
    (where a number meets its scale or unit: "14 million", "3 percent")."""
    return [
        m.start()
        for m in re.finditer(r"(?<=\d) " if after_a_number else " ", text)
        if not _BEFORE_LIST_ITEM.match(text, m.start())
    ]


@SETTINGS
@given(
    pair=st.one_of(SEEDS.map(lambda i: _seeds()[i]), st.sampled_from(AMOUNTS)),
    pick=st.integers(min_value=0, max_value=10_000),
    space=st.sampled_from(LAYOUTS),
    side=st.sampled_from((0, 1)),
    after_a_number=st.booleans(),
    preset=st.sampled_from(PRESETS),
)
def test_the_same_text_laid_out_differently_gets_the_same_verdicts(
    pair: tuple[str, str], pick: int, space: str, side: int, after_a_number: bool, preset: str
) -> None:
    source, summary = pair
    texts = [source, summary]
    at = _spaces_in(texts[side], after_a_number)
    assume(at)
    i = at[pick % len(at)]
    texts[side] = texts[side][:i] + space + texts[side][i + 1 :]
    relaid = (texts[0], texts[1])
    plain, other = _score(preset, source, summary), _score(preset, *relaid)
    assert [(v, s) for _, v, s in _claims(other)] == [(v, s) for _, v, s in _claims(plain)]
    assert _answers(other) == _answers(plain)
    assert other.qa_score == plain.qa_score
    if preset != "ragas":  # (the ragas rule's conciseness counts characters, as upstream's)
        assert other.score == plain.score


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    ("source_number", "summary_number"),
    [
        ("14 million", "14 million"),
        ("14  million", "14 million"),
        ("14 \nmillion", "14 million"),
        ("14 million", "14  million"),
        ("14 million", "14 \nmillion"),
    ],
)
def test_a_number_and_its_scale_laid_out_on_two_lines_are_one_number(
    preset: str, source_number: str, summary_number: str
) -> None:
    source = (
        "Leeds council approved a new bridge on Monday. The bridge will cost "
        f"{source_number} pounds and open in 2027."
    )
    summary = f"Leeds will spend {summary_number} pounds on a bridge."
    plain = _score(
        preset,
        source.replace(source_number, "14 million"),
        "Leeds will spend 14 million pounds on a bridge.",
    )
    relaid = _score(preset, source, summary)
    assert relaid.qa_score == plain.qa_score
    assert relaid.unsupported_claims == plain.unsupported_claims == []
    if preset != "ragas":
        assert relaid.score == plain.score > 0


# ------------------------------------------------------------------------------ sibling claims


def _verdicts(claims: list[str], source: str) -> dict[str, dict[str, object]]:
    reply = LexicalJudge().run(
        "verdicts",
        {"claims": claims, "evidence": source, "vocabulary": ("yes", "no", "borderline")},
    )
    return dict(zip(claims, reply["verdicts"], strict=True))


def _echoes(claims: list[str]) -> list[str]:
    """Sibling claims that use the claims' capitalised words in lower case ("He ate an apple."
    beside "Apple shares rose"): what a claim's reading of names must not take from them."""
    words = {w for claim in claims for w in re.findall(r"\b[A-Z][a-z]{2,}\b", claim)}
    return [f"They talked about the {word.lower()} again." for word in sorted(words)]


@SETTINGS
@given(seed=SEEDS, other=SEEDS, order=st.randoms(use_true_random=False))
def test_a_claims_verdict_depends_on_the_claim_and_the_source_alone(
    seed: int, other: int, order: object
) -> None:
    source, summary = _seeds()[seed]
    claims = LexicalJudge().run("claims", {"text": summary})["claims"]
    strangers = LexicalJudge().run("claims", {"text": _seeds()[other][1]})["claims"]
    assume(claims)
    together = _verdicts(claims, source)
    shuffled = [*claims, *strangers, *_echoes(claims)]
    order.shuffle(shuffled)  # type: ignore[attr-defined]
    mixed = _verdicts(list(dict.fromkeys(shuffled)), source)
    for claim in claims:
        assert _verdicts([claim], source)[claim] == together[claim]
        assert mixed[claim] == together[claim]


@SETTINGS
@given(seed=SEEDS, order=st.randoms(use_true_random=False), preset=st.sampled_from(PRESETS[1:]))
def test_reordering_a_summarys_sentences_keeps_each_claims_verdict(
    seed: int, order: object, preset: str
) -> None:
    source, summary = _seeds()[seed]
    sentences = [_terminated(s) for s in split_sentences(summary)]
    assume(len(sentences) >= 2)
    shuffled = list(sentences)
    order.shuffle(shuffled)  # type: ignore[attr-defined]
    before = _score(preset, source, " ".join(sentences))
    after = _score(preset, source, " ".join(shuffled))
    assert sorted(_claims(after)) == sorted(_claims(before))
    # (The mean of the same supports in another order: equal but for the float sum's last bit.
    # The answers may differ: a question can be answered by two sentences that are adjacent in
    # one order only.)
    assert after.alignment_score == pytest.approx(before.alignment_score, abs=1e-12)


# Capitalised words that are also common words: names that a sibling claim's lower-case use must
# not turn into common words ("Apple shares rose" beside "He ate an apple.").
NAMES = ("Apple", "Amber", "Baker", "Brook", "Cook", "Fisher", "Hunter", "Mason", "Rose", "Stone")


@SETTINGS
@given(
    seed=SEEDS,
    name=st.sampled_from(NAMES),
    order=st.randoms(use_true_random=False),
)
def test_a_name_the_source_lacks_stays_a_name_whatever_the_sibling_claims_say(
    seed: int, name: str, order: object
) -> None:
    source, summary = _seeds()[seed]
    assume(name.lower() not in source.lower())
    claims = LexicalJudge().run("claims", {"text": summary})["claims"]
    assume(claims)
    claim = f"{name} said: {claims[0]}"
    alone = _verdicts([claim], source)[claim]
    siblings = [claim, *claims[1:], f"They talked about the {name.lower()} again."]
    order.shuffle(siblings)  # type: ignore[attr-defined]
    assert _verdicts(list(dict.fromkeys(siblings)), source)[claim] == alone
