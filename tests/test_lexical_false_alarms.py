"""Wrong verdicts of the offline judge read on the development sets: the "no"s it gave to claims of
summaries people accepted, with the catch each fix must keep (the same wording with the fact
turned round is still contradicted); the negations SummEdits edited in that it let pass; reasons
that changed with the process's hash seed; and what a review of those fixes found. Names and
numbers: tests/test_lexical_false_alarm_names.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from summscore.judges.lexical._anchors import names
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
