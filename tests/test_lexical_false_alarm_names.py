"""Wrong verdicts of the offline judge read on the development sets, about names and numbers: a
sentence-opening adverb, plural acronyms, adjectives made of names, surnames, quarters and numbers
written out, and a name written as its initial and number; each fix with the catch it must keep
(a rival name or number is still questioned). Negations, opposites, hash seeds and what a review
found: tests/test_lexical_false_alarms.py."""

from __future__ import annotations

import pytest

from summscore.judges.lexical._anchors import names, quantities
from summscore.judges.lexical._match import _surname_in
from summscore.judges.lexical._words import canon

from .lexical_cases import verdict_of

# ----------------------------------------------------------------------------------- names


def test_a_sentence_opening_adverb_is_no_name() -> None:
    for opener in ("Furthermore", "Moreover", "Besides", "Users", "Past"):
        assert names(f"{opener}, the company has agreed to buy aircraft.") == []
    assert names("Users receive a discount.") == []
    # A common plural may still begin a name.
    assert [a.key for a in names("Several Members of Parliament met the Users Guild.")] == [
        "members of parliament",
        "users guild",
    ]
    source = (
        "Copa said that during the quarter, it agreed with Boeing to accelerate the delivery of "
        "12 737 MAX 9 aircraft."
    )
    claim = "Furthermore, the company has agreed with Boeing to accelerate 12 737 MAX 9 deliveries."
    assert verdict_of(claim, source)["verdict"] != "no"


def test_a_plural_acronym_names_the_acronym() -> None:
    assert [a.key for a in names("We remove the bias terms of most CNNs.")] == ["cnn"]
    source = "Here we show that bias terms used in most CNNs can be removed for interpretability."
    claim = "We show that removing bias terms from CNN architectures gives interpretability."
    assert verdict_of(claim, source)["verdict"] != "no"


def test_a_plural_acronym_in_mixed_case_names_the_acronym() -> None:
    assert [a.key for a in names("A debate between PhDs on DVDs and MPs.")] == ["phd", "dvd", "mp"]
    source = "PhD F: Is spectral subtraction done after the mel scaling or on the FFT bins?"
    claim = "There was a discussion between PhDs about spectral subtraction on FFT bins."
    assert verdict_of(claim, source)["verdict"] != "no"  # was: names "phd f", not "phds"


def test_an_adjective_made_of_a_name_names_the_name() -> None:
    assert [a.key for a in names("SigmaWorks sells AI-powered project management.")] == [
        "sigmaworks",
        "ai",
    ]
    assert [a.key for a in names("A London-based firm grew.")] == ["london"]
    # Inside a title-cased name it stays part of the name: the edit below is caught.
    title = "EcoGenius offers Energy-efficient Building Solutions to cut energy use."
    assert "energy-efficient building solutions" in [a.key for a in names(title)]
    edited = "EcoGenius offers Energy-inefficient Building Solutions to cut energy use."
    assert verdict_of(edited, title)["verdict"] != "yes"


ROWLING = (
    "Rowling faced a flood of criticism on Twitter last year. The author said she had been "
    "called a traitor by Scottish nationalists."
)


@pytest.mark.parametrize(
    "claim",
    [
        "JK Rowling said she had been called a traitor on Twitter.",
        "Joanne Rowling said she had been called a traitor on Twitter.",
    ],
)
def test_a_full_name_whose_surname_opens_a_source_sentence_is_named(claim: str) -> None:
    # "Rowling" opens its sentences, so the source's name extractor sees no name there; the
    # claim's full name used to be a name the source never gives, against "Scottish": "no".
    assert verdict_of(claim, ROWLING)["verdict"] != "no"


def test_a_surname_the_source_gives_another_first_name_is_still_a_rival() -> None:
    source = (
        "Leo Varadkar met Justin Trudeau in Dublin on Monday. Varadkar said the talks went well."
    )
    verdict = verdict_of("Enda Varadkar met Justin Trudeau in Dublin on Monday.", source)
    assert verdict["verdict"] != "yes"
    assert not _surname_in("enda varadkar", frozenset({"leo varadkar"}), "Varadkar said so.")
    assert _surname_in("enda varadkar", frozenset(), "Varadkar said so.")
    # A word the source also writes in lower case is no surname where it opens a sentence.
    assert not _surname_in("white house", frozenset(), "House prices rose. The house sold.")
    assert not _surname_in("rowling", frozenset(), "Rowling said so.")  # one word: names_match
    # Only where every time the source writes it, it opens a sentence: a capital inside one
    # that the name reader left out ("Sterling", "Kelly") stays left out.
    assert not _surname_in("raheem sterling", frozenset(), "Sterling scored. Later Sterling said.")
    assert _surname_in("raheem sterling", frozenset(), 'Sterling scored. "Sterling is fast."')
    # The common noun that ends an institution's name is no surname.
    assert not _surname_in("west yorkshire police", frozenset(), "Police arrested him.")


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Reliance had non-GAAP earnings per diluted share of $1.87 for Q3 2020.",
            "Non-GAAP earnings per diluted share of Reliance for the third quarter of 2020 were "
            "$1.87.",
        ),
        (
            "Organic revenues rose 19% YoY in the second quarter.",
            "Organic revenues in the second quarter were up 19% year-over-year.",
        ),
    ],
)
def test_a_quarter_or_comparison_written_out_is_the_same_name(claim: str, source: str) -> None:
    assert verdict_of(claim, source)["verdict"] == "yes"


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("They got twenty-five machines.", ["25"]),
        ("all twenty - five people", ["25"]),  # as meeting transcripts are tokenised
        ("Twenty five of them", ["25"]),
        ("forty-two ships and ninety-nine percent", ["42", "99%"]),
        ("two hundred and fifty people, three hundred more", ["250", "300"]),
        ("twenty-five thousand fans", ["25000"]),
        ("twenty people, five cars", ["20", "5"]),
        ("a hundred people and a dozen eggs", ["100", "12"]),
    ],
)
def test_a_number_in_words_is_read_whole(text: str, numbers: list[str]) -> None:
    assert [a.key for a in quantities(text)] == numbers


def test_a_number_in_words_matches_its_digits() -> None:
    # "twenty - five" was 20 and 5: "25 machines" was unconfirmed or a rival of 5.
    source = (
        "Professor C: So all twenty - five people were sending things to all twenty - five "
        "machines at the workshop."
    )
    claim = "At the workshop all 25 people were sending things to all 25 machines."
    assert verdict_of(claim, source)["verdict"] == "yes"
    turned = verdict_of("At the workshop all 25 people were sending things to 20 machines.", source)
    assert turned["verdict"] != "yes"


def test_a_quarter_the_source_does_not_give_is_still_questioned() -> None:
    source = "Non-GAAP earnings per diluted share of Reliance for the third quarter were $1.87."
    verdict = verdict_of("Reliance had non-GAAP earnings per diluted share of $1.87 in Q4.", source)
    assert verdict["verdict"] != "yes"


def test_a_long_name_is_not_found_through_a_short_acronym_inside_it() -> None:
    source = (
        "We propose Mind-aware Multi-agent Management Reinforcement Learning (M^3RL) for training "
        "a manager to motivate self-interested workers. RL agents learn from rewards."
    )
    claim = (
        "We propose Wisdom-aware Multi-agent Management Reinforcement Learning for training a "
        "manager to motivate self-interested workers."
    )
    assert verdict_of(claim, source)["verdict"] != "yes"


def test_found_is_the_past_of_find_and_founded_of_establish() -> None:
    assert canon("found") == canon("find") != canon("founded") == canon("established")
    source = "Investigators did not find evidence of poison in the flat."
    verdict = verdict_of("Investigators found evidence of poison in the flat.", source)
    assert verdict["verdict"] == "no"
    assert "opposite" in str(verdict["reason"])
    founded = verdict_of(
        "The company was founded in 1990 by two engineers.",
        "The company was established in 1990 by two engineers.",
    )
    assert founded["verdict"] == "yes"


# ----------------------------------------------- a name's initial and number (2026-11-26)

F1_SOURCE = (
    "The F1 circus arrives in Monaco with the world champion at war with the media. "
    "Hamilton won here in 2019."
)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Formula 1 arrives in Monaco with the world champion at war with the media.", F1_SOURCE),
        ("formula 1 arrives in monaco with the world champion at war with the media.", F1_SOURCE),
        (
            "The F1 circus arrives in Monaco with the world champion at war with the media.",
            "The Formula 1 circus arrives in Monaco with the world champion at war with the media.",
        ),
        (
            "The F1 circus arrives in Monaco with the world champion at war with the media.",
            "The Formula One circus arrives in Monaco with the world champion at war with the "
            "media.",
        ),
        (
            "The show was on Channel 4 on Sunday evening after the news.",
            "The show was on C4 on Sunday evening after the news.",
        ),
    ],
)
def test_a_name_written_as_its_initial_and_number_is_the_name(claim: str, source: str) -> None:
    """A name written as its initial and number: "F1" is "Formula 1" (or "Formula One"), "C4"
    "Channel 4"; the claim's number, or its name, is the source's, not one it never gives."""
    assert verdict_of(claim, source)["verdict"] == "yes"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # The initial stands for another word: no name of the source.
        ("The A1 road was closed for about 1 hour.", "The road was closed for about 1 hour."),
        # Another number after the same initial is still another number.
        (
            "Formula 2 arrives in Monaco with the world champion at war with the media.",
            F1_SOURCE,
        ),
    ],
)
def test_an_initial_and_number_stand_only_for_that_name(claim: str, source: str) -> None:
    assert verdict_of(claim, source)["verdict"] != "yes"


def test_a_number_of_an_initial_and_number_has_no_rival() -> None:
    """The "1" of "Formula 1" is the source's "F1": the source's other numbers in the passage are
    no rivals of it."""
    source = "The F1 season has 24 races, and Hamilton leads after 16 of them."
    claim = "The Formula 1 season has 24 races, and Hamilton leads after 16 of them."
    assert verdict_of(claim, source)["verdict"] == "yes"
