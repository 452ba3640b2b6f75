"""The offline judge reads research-corpus text as written: glued sentences, word placeholders,
and the weak structural checks that raise a doubt rather than a "no"."""

from __future__ import annotations

from summscore.judges import LexicalJudge
from summscore.judges.lexical._tasks import extract_truths


def _verdicts(claims: list[str], source: str) -> list[dict[str, object]]:
    return list(
        LexicalJudge().run(
            "verdicts",
            {"claims": claims, "evidence": source, "vocabulary": ("yes", "no", "unknown")},
        )["verdicts"]
    )


GLUED = (
    "About 80,000 works of art faced being auctioned to help pay off the pottery firm's pension "
    "debt.But a public appeal raised the money to keep the collection in Staffordshire.The Art "
    "Fund led the campaign, which ended in 2014."
)


def test_sentences_glued_without_a_space_are_read_apart() -> None:
    assert extract_truths(GLUED) == [
        "About 80,000 works of art faced being auctioned to help pay off the pottery firm's "
        "pension debt.",
        "But a public appeal raised the money to keep the collection in Staffordshire.",
        "The Art Fund led the campaign, which ended in 2014.",
    ]


def test_a_word_glued_to_the_next_sentence_is_no_rival_name() -> None:
    (verdict,) = _verdicts(["The Art Fund campaign kept the collection in Staffordshire."], GLUED)
    assert verdict["verdict"] != "no"
    assert "staffordshire.the" not in str(verdict.get("reason", ""))


def test_initials_decimals_and_web_addresses_are_not_sentence_ends() -> None:
    text = "Officials in the U.S.A said growth was 3.5 percent, according to bbc.co.uk today."
    assert extract_truths(text) == [text]


ARREST = (
    "Barrientos, originally from the Dominican Republic, lived with her partner and two children "
    "in the Bronx until her arrest in February."
)


def test_a_placeholder_for_a_word_is_no_name_but_leaves_the_claim_unconfirmed() -> None:
    claims = [
        "UNK, from the Dominican Republic, lived with her partner and two children in the Bronx.",
        "[UNK], from the Dominican Republic, lived in the Bronx.",
        "Barrientos lived with her partner and two children in the Bronx.",
    ]
    placeholder, bracketed, named = _verdicts(claims, ARREST)
    for verdict in (placeholder, bracketed):
        assert verdict["verdict"] == "unknown"
        assert "UNK" in str(verdict["reason"])
        assert 0 < float(str(verdict["support"])) < 1
    assert named["verdict"] == "yes"


def test_two_of_the_sources_names_swapped_stay_unconfirmed_with_their_evidence() -> None:
    source = (
        "Tesla was founded in 2003 by Martin Eberhard and Marc Tarpenning. Elon Musk joined in "
        "2004 as the largest investor."
    )
    (verdict,) = _verdicts(["Tesla was founded in 2003 by Elon Musk."], source)
    assert verdict["verdict"] == "unknown" and "martin eberhard" in str(verdict["reason"])


def test_every_sentence_end_glued_to_a_capitalised_word_is_read_apart() -> None:
    from summscore.judges.lexical._repair import unglued

    assert unglued('It worked!Then they left.Was it over?"No," she said.') == (
        'It worked! Then they left. Was it over? "No," she said.'
    )
    assert unglued("No glued sentence here. None at all!") == "No glued sentence here. None at all!"
