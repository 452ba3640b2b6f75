"""The sentence analysis' shortcuts give what the general code they stand in for gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from summscore.judges.lexical import _anchors, _words

# Numbers with what may stand around them: currencies before, scales, percent signs, currency
# words and ordinal suffixes after, number words, and letters that fold to an ordinal's ("ſt").
_NUMBER_PIECES = st.sampled_from(
    ["5", "12", "3,000", "1.5", "2026", "10th", "3rd", " ", "  ", "\n", "$", "US$", "USD", "EUR ",
     "£", "# ", "#", "₹", "RMB", "B", "D", "million", "m", "bn", "K", "%", " percent", " per cent",
     "％", "dollars", " Dollars", "yen", "元", "万", "twenty", "Twenty-five", "one", "often",
     "dozen", "children", "Swedish crowns", "st", "ſt", "Nd", ".", ",", "'s", "-", "é"]
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(_NUMBER_PIECES, max_size=14).map("".join))
def test_numbers_read_with_the_words_of_the_text_are_those_read_without(text: str) -> None:
    assert _anchors.quantities(text, _words.ascii_words(text)) == _anchors.quantities(text)


@settings(max_examples=500, deadline=None)
@given(st.text(st.sampled_from(list("aAbzZ'-_ 0.,\n\t\x1c")), max_size=40))
def test_lower_case_words_are_those_the_pattern_finds_in_the_whole_text(text: str) -> None:
    assert _words.lowercase_words(text) == frozenset(_words._LOWER_ASCII_WORD.findall(text))
