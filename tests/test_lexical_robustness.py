"""The offline judge on hostile input: no crash, and work that grows linearly with the text."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.judges.lexical._doc import analyze
from summscore.judges.lexical._index import POSTING_LIMIT, TokenIndex
from summscore.judges.lexical._words import content_tokens, format_number, parse_number

PRESETS = ("ragas", "deepeval", "mastra")


def test_a_number_beyond_the_float_range_is_kept_as_written() -> None:
    digits = "1" * 310
    assert parse_number(digits) is None
    assert content_tokens(f"The total was {digits}.") == ["total", digits]
    assert format_number(math.inf) == "inf"


def test_a_source_of_310_digits_is_scored_without_a_crash() -> None:
    for preset in PRESETS:
        result = SummarizationScorer(llm=LexicalJudge(), preset=preset).score(
            "1" * 310, "The number is 1."
        )
        assert result.ok or result.error  # a score or a row error, never an exception


class _Passage:
    """A passage that counts how often its tokens are read."""

    reads = 0

    def __init__(self, tokens: frozenset[str]) -> None:
        self._tokens = tokens

    @property
    def token_set(self) -> frozenset[str]:
        _Passage.reads += 1
        return self._tokens


def test_looking_up_every_passage_of_a_repetitive_text_is_linear() -> None:
    unit = [frozenset({"paris"}), frozenset({"london"}), frozenset({"berlin"})]
    for n in (600, 1200):
        passages = [_Passage(unit[i % 3]) for i in range(3 * n)]
        index = TokenIndex(passages)
        _Passage.reads = 0
        for passage in list(passages):
            index.shared(passage._tokens | {"capital"})
        # Each look-up examines a bounded number of passages, however long the text.
        assert index.examined <= len(passages) * POSTING_LIMIT
        assert _Passage.reads <= len(passages) * POSTING_LIMIT
        assert max(len(index.shared(t)) for t in unit) <= POSTING_LIMIT


def test_counts_stay_exact_for_a_text_of_ordinary_length() -> None:
    passages = [_Passage(frozenset(words.split())) for words in ("a b", "b c", "c d", "a d")]
    assert TokenIndex(passages).shared(frozenset({"a", "d"})) == {0: 1, 2: 1, 3: 2}


def test_a_source_made_of_one_repeated_unit_is_judged_in_linear_work() -> None:
    """45 KB of "Paris ... London ... Berlin " took 41 s: every statement was compared with
    every passage. Now the windows each statement examines are bounded."""
    source = "Paris ... London ... Berlin " * 1600
    result = SummarizationScorer(llm=LexicalJudge(), preset="deepeval").score(
        source, "Paris and London and Berlin."
    )
    assert result.ok and result.claims and all(c.supported for c in result.claims)
    doc = analyze(source)
    assert doc._index is not None
    assert doc._index.examined <= len(doc.sentences) * POSTING_LIMIT


_WORDS = st.sampled_from(
    "Paris London 1 3,800 U.S . -lrb- not no without the a said 2019 $5m 45% "
    "東京 は 雨 不 没有 , ; : ! ? ... \n\n - * Mr. Dr. 1e308 99999999999999999999".split(" ")
)
_TEXTS = st.one_of(
    st.text(max_size=400),
    st.lists(_WORDS, max_size=200).map(" ".join),
    st.tuples(st.lists(_WORDS, min_size=1, max_size=8).map(" ".join), st.integers(1, 60)).map(
        lambda unit_times: (unit_times[0] + " ") * unit_times[1]
    ),
)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(source=_TEXTS, summary=_TEXTS, preset=st.sampled_from(PRESETS))
def test_any_text_is_scored_or_refused_clearly(source: str, summary: str, preset: str) -> None:
    scorer = SummarizationScorer(llm=LexicalJudge(), preset=preset)
    try:
        result = scorer.score(source, summary)
    except (ValueError, TypeError) as error:  # bad input: a clear error naming the field
        assert any(field in str(error) for field in ("source", "summary", "context")), error
        return
    assert result.ok or result.error
    doc = analyze(source)
    if doc._index is not None:  # the windows looked at stay proportional to the text
        assert doc._index.examined <= (len(doc.sentences) + 50) * POSTING_LIMIT


def test_tokenised_corpus_text_reads_as_written() -> None:
    """CNN/DM and XSum as distributed: "3 , 800" is one number, "u.s ." one abbreviation."""
    from summscore.judges.lexical._words import normalize

    assert normalize("the agency - lrb - accc - rrb - said 3 , 800 people in the u.s . left") == (
        "the agency (accc) said 3,800 people in the u.s. left"
    )
    assert normalize("the 31 - year - old did n't say ` ` no . ''") == (
        'the 31-year-old didn\'t say " no."'
    )
    # A claim cut from a tokenised summary keeps few of its marks, yet reads as written too.
    assert normalize("Chelsea beat Rangers 1 - 0 at Loftus Road.") == (
        "Chelsea beat Rangers 1-0 at Loftus Road."
    )
    assert normalize("He stole more than £ 500,000 from the 25 - year - old") == (
        "He stole more than £500,000 from the 25-year-old"
    )
    # Ordinary text is left alone: a spaced dash, a list of two numbers.
    assert normalize("A tremor - the second, in 2019, 100 people") == (
        "A tremor - the second, in 2019, 100 people"
    )


def test_a_tokenised_number_does_not_contradict_the_same_number_written_normally() -> None:
    verdicts = LexicalJudge().run(
        "verdicts",
        {
            "claims": ["About 3,800 people left the U.S. last year."],
            "evidence": "about 3 , 800 people left the u.s . last year , officials said .",
            "vocabulary": ("yes", "no", "idk"),
        },
    )["verdicts"]
    assert verdicts[0]["verdict"] == "yes", verdicts


def test_a_tokenised_sum_of_money_in_a_claim_is_no_rival_of_an_age() -> None:
    (verdict,) = LexicalJudge().run(
        "verdicts",
        {
            "claims": ["A former accountant is charged with stealing more than £ 500,000."],
            "evidence": "Johnny McGurk, 49, a former accountant, is charged with stealing from a "
            "quarry firm.",
            "vocabulary": ("yes", "no", "idk"),
        },
    )["verdicts"]
    # The source does not give the sum: unknown, not contradicted by the age.
    assert verdict["verdict"] == "idk", verdict
    assert "500000" in verdict["reason"]
