"""Judge replies checked beyond their schema: questions that are questions, phrases from the text."""

from __future__ import annotations

from summscore.calls.checks import check_keyphrases, check_questions

SOURCE = (
    "The city council of Leeds approved a budget of 3 million pounds for new parks on Tuesday. "
    "Work starts in May."
)


def test_real_questions_pass_untouched() -> None:
    questions = ["Did the council approve a budget?", "Does work start in May?", "Question 3?"]
    assert check_questions(questions) == (questions, None)


def test_bare_answers_are_not_questions() -> None:
    kept, problem = check_questions(["Yes", "yes.", "1", "Is the budget 3 million pounds?"])
    assert kept == ["Is the budget 3 million pounds?"]
    assert problem is not None and "3 of 4" in problem and "'Yes'" in problem


def test_japanese_and_chinese_bare_answers_are_caught() -> None:
    kept, problem = check_questions(["予算は承認されましたか？", "はい", "是"])
    assert kept == ["予算は承認されましたか？"]
    assert problem is not None


EXAMPLE = (
    "Example: Apple Inc. is based in Cupertino, California. Key phrases: Apple Inc., Cupertino"
)


def test_keyphrases_copied_from_the_prompts_example_are_dropped() -> None:
    phrases = ["city council", "3 million pounds", "Apple Inc.", "Cupertino"]
    kept, problem = check_keyphrases(phrases, SOURCE, EXAMPLE)
    assert kept == ["city council", "3 million pounds"]
    assert problem is not None and "'Apple Inc.'" in problem


def test_keyphrases_match_across_case_spacing_and_width() -> None:
    kept, problem = check_keyphrases(["City  Council of LEEDS", "new parks"], SOURCE, EXAMPLE)
    assert problem is None and len(kept) == 2


def test_a_paraphrase_in_neither_text_nor_example_is_kept_as_upstream_keeps_it() -> None:
    kept, problem = check_keyphrases(["municipal spending", "budget for parks"], SOURCE, EXAMPLE)
    assert kept == ["municipal spending", "budget for parks"] and problem is None


class _SillyJudge:
    """Answers every task sensibly, except that its first assessment questions are all "Yes"."""

    def __init__(self, fix_on_second_try: bool) -> None:
        self.fix = fix_on_second_try
        self.question_calls = 0

    async def __call__(self, prompt: str, schema: type) -> dict[str, object]:
        name = schema.__name__
        if name == "QuestionsReply":
            self.question_calls += 1
            if self.question_calls == 1 or not self.fix:
                return {"questions": ["Yes", "Yes", "Does work start in May?"]}
            return {"questions": ["Did the council approve a budget?", "Does work start in May?"]}
        if name == "TruthsReply":
            return {"truths": ["The council approved a budget.", "Work starts in May."]}
        if name == "ClaimsReply":
            return {"claims": ["The council approved a budget."]}
        if name == "VerdictsReply":
            return {"verdicts": [{"verdict": "yes"}]}
        if name == "AnswersReply":
            count = prompt.count("?")
            return {"answers": ["yes"] * max(count, 1)}
        return {"reason": "fine"}


def test_bare_answers_as_questions_are_asked_again_with_the_problem_named() -> None:
    from summscore import SummarizationScorer

    judge = _SillyJudge(fix_on_second_try=True)
    scorer = SummarizationScorer(llm=judge, preset="deepeval", prompts="own", include_reason=False)
    result = scorer.score(SOURCE, "The council approved a budget.")
    assert judge.question_calls == 2
    assert [a.question for a in result.assessment] == [
        "Did the council approve a budget?",
        "Does work start in May?",
    ]
    assert not any("questions:" in w for w in result.warnings)


def test_what_is_still_unusable_is_dropped_with_a_warning() -> None:
    from summscore import SummarizationScorer

    judge = _SillyJudge(fix_on_second_try=False)
    scorer = SummarizationScorer(llm=judge, preset="deepeval", prompts="own", include_reason=False)
    result = scorer.score(SOURCE, "The council approved a budget.")
    assert [a.question for a in result.assessment] == ["Does work start in May?"]
    assert any(
        w.startswith("questions: 2 of 3 questions are not questions") for w in result.warnings
    )
