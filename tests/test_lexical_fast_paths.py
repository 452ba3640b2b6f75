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


# Words and marks the clause and fragment patterns look for, in every combination.
_PIECES = st.sampled_from(
    ["The", "it", "Food", "Drug", "and", "but", "while", "though", "yet", "whereas", "&", ",", ";",
     ":", " ", "  ", "x", "Ann", "、しかし", "，但", "，而", "；", "\n"]
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(_PIECES, max_size=14).map("".join))
def test_a_sentence_the_clause_pattern_cannot_split_is_one_clause(sentence: str) -> None:
    from summscore.judges.lexical._text import _CLAUSE_SPLIT, _may_split

    if not _may_split(sentence):
        assert _CLAUSE_SPLIT.split(sentence) == [sentence]


@settings(max_examples=500, deadline=None)
@given(st.lists(_PIECES, max_size=14).map("".join))
def test_fragments_are_cut_as_the_name_pattern_would(text: str) -> None:
    from summscore.judges.lexical._match import _FRAGMENT_SPLIT, _NAME_AND, split_fragments

    protected = _NAME_AND.sub(lambda m: f"{m.group(1)}\x00{m.group(2)}\x00", text)
    expected = [p.replace("\x00", " ") for p in _FRAGMENT_SPLIT.split(protected) if p.strip()]
    assert split_fragments(text) == expected


_ASCII = st.text(st.sampled_from(list("aZ09'-_.,;:!?% \n$()\"")), max_size=30)


@settings(max_examples=500, deadline=None)
@given(_ASCII)
def test_the_ascii_patterns_find_what_the_general_ones_find(text: str) -> None:
    from summscore.judges.lexical import _graded, _text

    assert _words._ASCII_TOKEN.findall(text) == _words._TOKEN.findall(text)
    assert _text._ASCII_POSITION_WORD.findall(text) == _text._POSITION_WORD.findall(text)
    lowered = text.lower()
    assert _graded._ASCII_UNIT.findall(lowered) == _graded._UNIT.findall(lowered)
