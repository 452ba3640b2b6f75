"""A number a summary gives only in a sentence about something else answers no question, even
when that sentence sits next to one about what the question asks (issue #44, outside check):
"Maria Jensen bought 29 lemons at the market." after "Wout Claes won the Tour of Flanders ..."
answered "Does the text say that Claes, 29, had never won a monument before?" with yes, as the
two sentences read together as one window (deepeval and mastra 0.25 -> 0.48)."""

from __future__ import annotations

import pytest

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.judges.lexical import _tasks

SOURCE = (
    "The Tour of Flanders was won by Belgian rider Wout Claes after a solo attack 18 kilometres "
    "from the finish. Dutch rider Pieter de Jong was second at 22 seconds. Defending champion "
    "Marco Ricci crashed on the Kwaremont and did not finish. Claes, 29, had never won a "
    "monument before."
)
SUMMARY = "Wout Claes won the Tour of Flanders with a solo attack 18 km from the finish."
QUESTION = "Does the text say that Claes, 29, had never won a monument before?"
FILLERS = ["Maria Jensen bought 29 lemons at the market.", "Peter Holm owns 29 bicycles."]


@pytest.mark.parametrize("filler", FILLERS)
def test_a_number_in_the_next_sentence_about_something_else_answers_nothing(filler: str) -> None:
    before = _tasks.answer_questions(SUMMARY, [QUESTION])
    assert _tasks.answer_questions(f"{SUMMARY} {filler}", [QUESTION]) == before == [False]


def test_the_number_in_a_sentence_about_the_question_still_answers_it() -> None:
    about = f"{SUMMARY} Claes, 29, had never won a monument before."
    assert _tasks.answer_questions(about, [QUESTION]) == [True]
    said = "Claes won the race. The 29-year-old Claes had never won a monument before."
    assert _tasks.answer_questions(said, [QUESTION]) == [True]


@pytest.mark.parametrize("preset", ["ragas", "deepeval", "mastra"])
@pytest.mark.parametrize("filler", FILLERS)
def test_the_padding_raises_no_score(preset: str, filler: str) -> None:
    scorer = SummarizationScorer(LexicalJudge(), preset=preset)
    before = scorer.score(SOURCE, SUMMARY)
    after = scorer.score(SOURCE, f"{SUMMARY} {filler}")
    assert after.score <= before.score
    if preset != "ragas":
        assert after.coverage_score == before.coverage_score
    else:
        assert after.qa_score == before.qa_score
