"""The offline judge's fast paths give what the general code they stand in for gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from summscore.judges.lexical import _words

# Letters, apostrophes, hyphens, digits, spaces and a few Greek and Cyrillic letters: the
# characters the patterns tell apart.
_CHARS = st.sampled_from(list("aAbBzZ'-_ 0.é\u03b1\u0391\u0430\u0410"))


@settings(max_examples=300, deadline=None)
@given(st.text(_CHARS, max_size=40))
def test_lower_case_words_of_ascii_text_are_those_of_the_general_pattern(text: str) -> None:
    assert _words.lowercase_words(text) == frozenset(_words._LOWER_WORD.findall(text))
