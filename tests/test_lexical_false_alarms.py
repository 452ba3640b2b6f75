"""Wrong verdicts of the offline judge read on the development sets: the "no"s it gave to claims of
summaries people accepted, with the catch each fix must keep (the same wording with the fact
turned round is still contradicted); the negations SummEdits edited in that it let pass; reasons
that changed with the process's hash seed; and what a review of those fixes found."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from summscore.judges.lexical._anchors import names, quantities
from summscore.judges.lexical._match import _surname_in
from summscore.judges.lexical._negation import is_negated, negated_scopes
from summscore.judges.lexical._opposites import OPPOSITES
from summscore.judges.lexical._words import canon

from .lexical_cases import verdict_of

# ------------------------------------------------------------------------------- negation

PIZZA = (
    "The boss of pizza giant Domino's has admitted the company failed to get the balance right "
    "when it upped delivery prices to counter inflation."
)
POISON = "The authorities opened an investigation but were unable to find evidence of poison."


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The boss admitted the company did not get the balance right on prices.", PIZZA),
        ("The authorities have found no evidence of poison in the investigation.", POISON),
        (
            "She refused to show up at her fitness to practise hearing at the council.",
            "She chose not to show up at her fitness to practise hearing at the council.",
        ),
    ],
)
def test_a_verb_that_denies_is_a_negation_like_not(claim: str, source: str) -> None:
    assert verdict_of(claim, source)["verdict"] != "no"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "The boss of pizza giant Domino's has admitted the company managed to get the balance "
            "right when it upped delivery prices.",
            PIZZA,
        ),
        (
            "The authorities opened an investigation and were able to find evidence of poison.",
            POISON,
        ),
    ],
)
def test_the_claim_that_turns_the_denial_round_is_contradicted(claim: str, source: str) -> None:
    verdict = verdict_of(claim, source)
    assert verdict["verdict"] == "no"
    assert "opposite" in str(verdict["reason"])


REMOTE = (
    "If you need to have special colours for remote controls it will cost more. I think it will "
    "increase the price of the production of the remote control."
)
TRIAL = (
    "Agent: We offer a free trial of thirty days to all new customers. After that we charge a "
    "monthly fee."
)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "The project manager believes that having personalised or special colours for the "
            "remote control will not increase the price of production.",
            REMOTE,
        ),
        (
            "The sales agent explained that the company does not offer a free trial to new "
            "customers and charges a monthly fee.",
            TRIAL,
        ),
    ],
)
def test_a_negation_inserted_into_a_long_claim_is_found(claim: str, source: str) -> None:
    """What the negation denies ("increase the price of production") stands in one piece of the
    passage, though the rest of the claim does not: a claim edited with "not" (SummEdits' commonest
    edit after names and numbers) is contradicted."""
    verdict = verdict_of(claim, source)
    assert verdict["verdict"] == "no"
    assert "opposite" in str(verdict["reason"])
    unedited = claim.replace("will not increase", "will increase").replace(
        "does not offer", "offers"
    )
    assert verdict_of(unedited, source)["verdict"] == "yes"


def test_a_negated_function_word_denies_nothing_it_is_followed_by() -> None:
    """ "We don't have the discourse model" says nothing against a claim about a discourse model."""
    source = "We still need the Go-there decision. We don't have the discourse model here yet."
    claim = (
        "The document discusses the Go-there decision and the need for a discourse model to "
        "depict it."
    )
    assert verdict_of(claim, source)["verdict"] != "no"
    assert negated_scopes("We don't have the discourse model here yet.") == []
    assert negated_scopes("It is not a new podcast about games.") == [("new", "podcast", "gam")]


def test_a_negation_word_in_quote_marks_still_negates() -> None:
    assert is_negated("he could think of 'nothing' to explain why she had left")
    source = "Mr Hussen said that he could think of 'nothing' to explain why she had left."
    claim = "Mr Hussen said he could think of ` nothing ' to explain why she had left."
    assert verdict_of(claim, source)["verdict"] != "no"


def test_failed_alone_denies_nothing() -> None:
    assert not is_negated("The bank failed in 2008 after a run on its deposits.")


# ------------------------------------------------------------------------------- opposites


def test_an_adjective_is_no_verb_of_its_stem() -> None:
    """ "low double digits" says nothing of a decrease: only "lower" folds into "decrease"."""
    assert canon("low") == "low" and canon("lower") == canon("decrease")
    assert canon("work") != canon("worker")
    source = "We now expect full-year revenue growth to be in the low double-digits."
    claim = "The full-year revenue increase is expected to be in the low double-digits."
    assert verdict_of(claim, source)["verdict"] == "yes"


def test_a_defeat_is_no_win() -> None:
    source = "City slipped to their third defeat in five games at Crystal Palace on Monday."
    claim = "City lost to Crystal Palace for the third time in five games on Monday."
    assert verdict_of(claim, source)["verdict"] != "no"


@pytest.mark.parametrize(
    ("word", "other"),
    [("male", "female"), ("more", "fewer"), ("inside", "outside"), ("support", "oppose")],
)
def test_every_listed_antonym_is_found_in_the_form_tokens_take(word: str, other: str) -> None:
    """The pairs are looked up by canonical token; "female" is read "femal", "fewer" "few"."""
    assert canon(other) in OPPOSITES[canon(word)]


def test_an_antonym_in_a_stemmed_form_contradicts() -> None:
    source = "The patient was a female nurse from Leeds who had worked at the hospital."
    claim = "The patient was a male nurse from Leeds who had worked at the hospital."
    verdict = verdict_of(claim, source)
    assert verdict["verdict"] == "no"
    assert "female" in str(verdict["reason"])


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


_SEEDED = """
import json
from summscore.judges import LexicalJudge
source = ("Organic revenues in the second quarter were up 19% year-over-year, adjusted EBITDA was up "
          "21% and adjusted earnings per share of $0.94 increased 38% versus last year. The male "
          "nurse won more awards and the first prize.")
claims = ["Company's Q2 revenues and earnings rose by 19% and 38% respectively YoY",
          "The female nurse won fewer awards."]
print(json.dumps(LexicalJudge().run(
    "verdicts", {"claims": claims, "evidence": source, "vocabulary": ("yes", "no", "idk")})))
"""


def test_reasons_do_not_depend_on_the_hash_seed() -> None:
    """A set of strings is walked in another order in each process (string hashes are seeded):
    where the first pair found names the reason, the walk is sorted."""
    outputs = set()
    for seed in range(8):  # (the nurse's claim meets two antonyms: "female" and "fewer")
        env = {**os.environ, "PYTHONHASHSEED": str(seed)}
        run = subprocess.run(
            [sys.executable, "-c", _SEEDED], env=env, capture_output=True, text=True, check=True
        )
        outputs.add(run.stdout)
    assert len(outputs) == 1, outputs
    _, nurse = json.loads(outputs.pop())["verdicts"]
    assert nurse["verdict"] == "no" and '"male" instead' in nurse["reason"]


# ------------------------------------------------------------------- found in review (2026-11-25)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "The company will not cut jobs.",
            "Rivals cut jobs this year, but the company said it would not cut jobs.",
        ),
        (
            "Samsung cut prices in March.",
            "Apple did not cut prices in March; Samsung cut prices in March.",
        ),
        (
            "The minister refused to answer questions from reporters.",
            "The minister declined to answer questions from reporters.",
        ),
        (
            "The spokesman refused to comment on the deal.",
            "The spokesman declined to comment on the deal.",
        ),
        ("Voters said 'no' to the plan.", "Voters rejected the plan."),
        ("Voters rejected the plan.", "Voters said no to the plan."),
        (
            "Shares fell to 40p on Monday after the results.",
            "Shares declined to 40p on Monday after the results.",
        ),
    ],
)
def test_what_another_piece_says_as_the_claim_does_is_no_opposite(claim: str, source: str) -> None:
    """The piece with the other polarity may be about someone else; "declined to" denies a verb
    that follows it, not a level; "said no to" rejects, it does not negate."""
    assert verdict_of(claim, source)["verdict"] == "yes"


def test_adjectives_plurals_and_titles_read_as_written() -> None:
    assert [a.key for a in names("The AI-driven unit and the US-led talks.")] == ["ai", "us"]
    assert [a.key for a in names("Ms Smith shops at Wal-mart.")] == ["ms smith", "wal-mart"]
    assert canon("workers") == canon("worker") == canon("staff")


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
