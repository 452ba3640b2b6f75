"""Judge replies checked beyond their schema: questions that are questions, phrases from the text."""

from __future__ import annotations

from summscore._checks import check_keyphrases, check_questions

SOURCE = (
    "The city council of Leeds approved a budget of 3 million pounds for new parks on Tuesday. "
    "Work starts in May."
)


def test_real_questions_pass_untouched() -> None:
    questions = ["Did the council approve a budget?", "Does work start in May?"]
    assert check_questions(questions) == (questions, None)


def test_bare_answers_are_not_questions() -> None:
    kept, problem = check_questions(["Yes", "Yes", "1", "Is the budget 3 million pounds?"])
    assert kept == ["Is the budget 3 million pounds?"]
    assert problem is not None and "3 of 4" in problem and "'Yes'" in problem


def test_japanese_questions_are_judged_by_characters() -> None:
    kept, problem = check_questions(["予算は承認されましたか？", "はい"])
    assert kept == ["予算は承認されましたか？"]
    assert problem is not None


def test_keyphrases_must_come_from_the_text() -> None:
    phrases = ["city council", "3 million pounds", "Apple Inc.", "Cupertino, California"]
    kept, problem = check_keyphrases(phrases, SOURCE)
    assert kept == ["city council", "3 million pounds"]
    assert problem is not None and "'Apple Inc.'" in problem


def test_keyphrases_match_across_case_spacing_and_width() -> None:
    kept, problem = check_keyphrases(["City  Council of LEEDS", "new parks"], SOURCE)
    assert problem is None and len(kept) == 2


def test_a_paraphrased_keyphrase_with_most_words_in_the_text_is_kept() -> None:
    kept, problem = check_keyphrases(["budget for parks"], SOURCE)
    assert kept == ["budget for parks"] and problem is None
