"""Research-corpus summaries read as a person reads them: a summary written all in lower case
(the systems of FRANK and Goyal'21 write them so) sentence by sentence, numbers whose thousands a
tokeniser set apart, ordinals; and how much support a claim keeps when it names what the source
never gives."""

from __future__ import annotations

import pytest

from summscore.judges import LexicalJudge
from summscore.judges.lexical._anchors import quantities
from summscore.judges.lexical._graded import ABSENT, UNCONFIRMED, claim_support, source_grams
from summscore.judges.lexical._tasks import extract_claims
from summscore.judges.lexical._words import normalize


def _verdicts(claims: list[str], source: str) -> list[dict[str, object]]:
    return list(
        LexicalJudge().run(
            "verdicts",
            {"claims": claims, "evidence": source, "vocabulary": ("yes", "no", "unknown")},
        )["verdicts"]
    )


def test_a_caseless_text_is_split_into_its_sentences() -> None:
    summary = (
        "physical activity can increase grey matter in the brain , study found . it can increase "
        "the size of areas that contribute to balance . changes may reduce the risk of falling ."
    )
    assert len(extract_claims(summary)) == 3
    # Written text keeps a lower-case word after an abbreviation's period in its sentence.
    assert len(extract_claims("Prices rose approx. the same as last year in the city centre.")) == 1
    assert len(extract_claims("the u.s. president met the prime minister of japan in tokyo.")) == 1


@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("a campaign to raise £50, 000 for troops", "50000"),
        ("it cost 3, 800 dollars", "3800"),
        ("it cost $3, 800", "3800"),
        ("1, 000, 000 people", "1000000"),
    ],
)
def test_thousands_set_apart_by_a_tokeniser_are_one_number(written: str, key: str) -> None:
    assert [a.key for a in quantities(normalize(written))] == [key]


def test_a_list_of_numbers_is_not_read_as_one() -> None:
    assert [a.key for a in quantities(normalize("scores of 3, 400 and 5"))] == ["3", "400", "5"]
    assert [a.key for a in quantities(normalize("in 2013, 400 people"))] == ["2013", "400"]


@pytest.mark.parametrize(
    ("written", "keys"),
    [
        ("$4.4-4.6 billion", ["4400000000", "4600000000"]),
        ("10-12% higher", ["10%", "12%"]),
        ("for 2024 to 1.0% from 1.5%", ["2024", "1%", "1.5%"]),  # "to" makes no range
        ("a 5-4 ruling", ["5", "4"]),  # no scale after the second: nothing to share
        ("in 2019-2020", ["2019", "2020"]),
    ],
)
def test_the_first_end_of_a_range_takes_the_scale_of_the_second(
    written: str, keys: list[str]
) -> None:
    assert [a.key for a in quantities(written)] == keys


def test_a_range_written_short_agrees_with_the_source_written_out() -> None:
    source = "Management expects fourth-quarter revenue between $4.4 billion and $4.6 billion."
    (verdict,) = _verdicts(["The company expects $4.4-4.6 billion next quarter."], source)
    assert verdict["verdict"] == "yes", verdict  # was "no": "the source gives 4400000000 ..."


def test_a_caseless_amount_with_its_thousands_apart_agrees_with_the_source() -> None:
    source = "The appeal has now raised £50,000 for the families of troops killed in Iraq."
    (verdict,) = _verdicts(["the appeal has raised £50, 000 for the families of troops."], source)
    assert verdict["verdict"] == "yes"


def test_a_claim_naming_what_the_source_never_gives_keeps_half_its_support() -> None:
    source = "The council approved the new library in Porto after a long debate on Monday."
    invented = "The council approved the new library in Porto for 40 million euros."
    weak = "Porto council backed a library plan that residents and traders supported."
    named, unsupported = _verdicts([invented, weak], source)
    assert named["verdict"] == unsupported["verdict"] == "unknown"
    assert "does not mention 40000000" in str(named["reason"])
    grams = source_grams(source)
    assert named["support"] == round(claim_support(invented, grams) * ABSENT, 4)
    assert unsupported["support"] == round(claim_support(weak, grams) * UNCONFIRMED, 4)
    assert ABSENT < UNCONFIRMED
