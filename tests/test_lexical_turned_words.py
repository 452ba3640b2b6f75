"""Edits the offline judge let pass on the development sets, each with the wording it must keep
accepting: an amount that moved the other way ("decreased 17%" for "up 17%"), another weekday or
quarter in the passage that says the same thing, a word against its negative prefix form
("limited" / "unlimited"), opposites that are stopwords ("most" / "least"), the antonyms added
to the lexicon, and a "not" the passage that supports the claim does not say."""

from __future__ import annotations

import pytest

from summscore.judges.lexical._direction import turned_change
from summscore.judges.lexical._moved import periods as _periods
from summscore.judges.lexical._opposites import opposites
from summscore.judges.lexical._text import make_span
from summscore.judges.lexical._words import canon

from .lexical_cases import verdict_of

# ----------------------------------------------------------------- an amount moved the other way

EARNINGS = (
    "Third quarter adjusted earnings per share was $0.52, up 12% from $0.46 in the third quarter "
    "of last year. Group revenue was $310 million, an increase from $298 million a year ago. "
    "Operating margin fell to 8.1% from 9.4% because of higher freight costs."
)


@pytest.mark.parametrize(
    ("claim", "amount", "word"),
    [
        ("Adjusted earnings per share decreased by 12% from the third quarter of last year.",
         "12%", "up"),
        ("Group revenue dropped to $310 million.", "$310 million", "increase"),
        ("Operating margin rose to 8.1%.", "8.1%", "fell"),
    ],
)  # fmt: skip
def test_an_amount_that_moved_the_other_way_is_contradicted(
    claim: str, amount: str, word: str
) -> None:
    verdict = verdict_of(claim, EARNINGS)
    assert verdict["verdict"] == "no"
    assert amount in str(verdict["reason"]) and f'"{word}"' in str(verdict["reason"])


@pytest.mark.parametrize(
    "claim",
    [
        "Adjusted earnings per share grew 12% to $0.52 in the third quarter.",
        "Group revenue increased to $310 million from $298 million.",
        "Operating margin declined to 8.1% on higher freight costs.",
        # "higher" qualifies the costs, not the margin: no direction of 9.4%.
        "Operating margin was 9.4% a year earlier.",
    ],
)
def test_an_amount_that_moved_as_the_source_says_is_not_contradicted(claim: str) -> None:
    assert verdict_of(claim, EARNINGS)["verdict"] != "no"


@pytest.mark.parametrize(
    ("statement", "window"),
    [
        # "up to" is a ceiling, "went up in" no change of the amount.
        ("Prices fell 20% in the sale.", "Prices are cut by up to 20% in the sale."),
        ("Food prices rose two years ago.", "Food prices have gone up in the past two years."),
        # "gain access" is no gain of the amount.
        ("The fee was reduced from $499.", "For $499 a month the client can gain access."),
        # "Tier 1" is no amount the appositive tells of ("Tier 1 rose" is not contradicted).
        ("Tier 1 rose to include more banks.", "The Tier 1 ratio was 13.8%, down 70 points."),
    ],
)
def test_words_that_are_no_change_of_the_amount_give_it_no_direction(
    statement: str, window: str
) -> None:
    assert turned_change(make_span(statement), make_span(window)) is None


def test_an_appositive_tells_of_the_clause_s_last_amount() -> None:
    found = turned_change(
        make_span("The Tier 1 ratio rose to 13.8%."),
        make_span("The Tier 1 ratio was 13.8%, down 70 points."),
    )
    assert found == ("13.8%", "rose", "down")


def test_a_negated_statement_has_no_direction() -> None:
    statement = make_span("Revenue did not decrease by 5%.")
    assert turned_change(statement, make_span("Revenue rose 5% in the year.")) is None


# ------------------------------------------------------------------ another day in the passage

BOJ = (
    "The central bank said on Thursday it would buy bonds to contain rising yields. Markets fell "
    "on Thursday as factories shrank."
)


def test_a_weekday_the_matching_sentence_gives_as_another_is_contradicted() -> None:
    claim = "The central bank said on Wednesday it would buy bonds to contain rising yields."
    verdict = verdict_of(claim, BOJ)
    assert verdict["verdict"] == "no" and "thursday" in str(verdict["reason"])


def test_the_weekday_the_matching_sentence_gives_is_accepted() -> None:
    claim = "The central bank said on Thursday it would buy bonds to contain rising yields."
    assert verdict_of(claim, BOJ)["verdict"] == "yes"


QUARTERS = (
    "Net income in the second quarter was $94 million, compared with $106 million in the second "
    "quarter of last year. We expect pricing to offset cost increases by the end of the third "
    "quarter."
)


@pytest.mark.parametrize(
    "claim",
    [
        "Net income in Q3 was $94 million, compared with $106 million a year ago.",
        "Net income in the first quarter was $94 million.",
    ],
)
def test_a_quarter_the_matching_sentence_gives_as_another_is_contradicted(claim: str) -> None:
    verdict = verdict_of(claim, QUARTERS)
    assert verdict["verdict"] == "no" and "Q2" in str(verdict["reason"])


@pytest.mark.parametrize(
    "claim",
    [
        "Net income in Q2 was $94 million, compared with $106 million a year earlier.",
        "Pricing should offset cost increases by the end of the third quarter.",
        # A half is not compared with quarters: the second half holds the third quarter.
        "Pricing should offset cost increases in the second half.",
    ],
)
def test_the_quarter_the_matching_sentence_gives_is_not_contradicted(claim: str) -> None:
    assert verdict_of(claim, QUARTERS)["verdict"] != "no"


def test_quarters_and_halves_are_read_in_each_way_they_are_written() -> None:
    assert _periods("third-quarter sales, Q2, 4Q, the first half, H2 and H3") == {
        "Q3", "Q2", "Q4", "H1", "H2"
    }  # fmt: skip


# ------------------------------------------------------------------------------ opposite words


@pytest.mark.parametrize(
    ("claim", "source", "word"),
    [
        ("The plan offers unlimited storage for teams.", "The plan offers limited storage for teams.",
         "limited"),
        ("The bonus is non-taxable for employees.", "The bonus is taxable for employees.",
         "taxable"),
        ("The study shows an indirect link between attention and accuracy.",
         "The study shows a direct link between attention and accuracy.", "direct"),
        ("The guidance for the year is unchanged.", "The guidance for the year is changed.",
         "changed"),
        ("The agency wants the least bang for its billions in chip subsidies.",
         "The agency wants the most bang for its billions in chip subsidies.", "most"),
        ("Consumer sales are expected to be below pre-pandemic levels.",
         "Consumer sales are expected to be above pre-pandemic levels.", "above"),
        ("The new rules apply to firms in the public sector with 250 staff.",
         "The new rules apply to firms in the private sector with 250 staff.", "private"),
        ("The vaccine weakens the immune response in older adults.",
         "The vaccine strengthens the immune response in older adults.", "strengthens"),
    ],
)  # fmt: skip
def test_a_word_turned_into_its_opposite_is_contradicted(
    claim: str, source: str, word: str
) -> None:
    verdict = verdict_of(claim, source)
    assert verdict["verdict"] == "no" and f'"{word}"' in str(verdict["reason"])


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # Both sides of a comparison are in the claim: no opposite is turned.
        ("Women are less likely than men to ask for a pay rise.",
         "Men are more likely to ask for a pay rise, a survey found."),
        # The same comparison made from the other end.
        ("Men in the survey earn more than women in the survey.",
         "Women in the survey earn less than men, the figures show."),
        ("Women are less likely than men to ask for a pay rise.",
         "Men are more likely to ask for a pay rise than women, a survey found."),
        # Words that open with a prefix's letters but are no negatives.
        ("The team installed the stalled pump at the site.",
         "The team installed a new pump at the site after the old one stalled."),
        ("The order stands unless the court lifts it.",
         "The order stands unless the court lifts it, with less time to appeal."),
    ],
)  # fmt: skip
def test_words_that_are_no_opposites_here_are_not_contradicted(claim: str, source: str) -> None:
    assert verdict_of(claim, source)["verdict"] != "no"


@pytest.mark.parametrize(
    ("word", "other"),
    [("limited", "unlimited"), ("taxable", "non-taxable"), ("correct", "incorrect"),
     ("similar", "dissimilar"), ("new", "old"), ("improve", "worsen"), ("strong", "weak")],
)  # fmt: skip
def test_opposites_are_found_both_ways(word: str, other: str) -> None:
    assert canon(other) in opposites(canon(word)) and canon(word) in opposites(canon(other))


@pytest.mark.parametrize(
    ("word", "other"),
    [("inform", "form"), ("improve", "prove"), ("discover", "cover"), ("unless", "less"),
     ("united", "ited"), ("weekly", "monthly"), ("morning", "even")],
)  # fmt: skip
def test_look_alikes_are_no_opposites(word: str, other: str) -> None:
    assert canon(other) not in opposites(canon(word))


# --------------------------------------------------------------- a "not" the passage does not say


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Maria will not bring Tom from the railway station and contact his friends.",
         "Tom: My train gets in at six. Maria: OK, I will bring him from the railway station and "
         "contact his friends."),
        ("The new images do not reveal the weblike structures the stars create inside galaxies "
         "as they evolve.",
         "The telescope's instrument was able to see how stars shape galactic structure. The new "
         "details captured in the images show how these intricate networks within galaxies are "
         "influenced over time as stars form and evolve."),
    ],
)  # fmt: skip
def test_a_denial_the_supporting_passage_does_not_make_is_not_confirmed(
    claim: str, source: str
) -> None:
    verdict = verdict_of(claim, source)
    assert verdict["verdict"] != "yes" and "without the" in str(verdict.get("reason"))


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # The source denies it too, in another clause than the best match.
        ("Children try foods they would not eat at home.",
         "Children at school try many foods. At home they would not eat those foods."),
        # "failed to" is said in other words as often: not read as a bare "not" here.
        ("The government is failing to meet its tree planting targets.",
         "The government met only half of its tree planting targets, the industry says."),
        # The passage negates as the claim does.
        ("Maria will not pick him up from the station.",
         "Maria: I can't pick him up from the station tonight."),
    ],
)  # fmt: skip
def test_a_denial_the_source_makes_or_may_make_is_not_doubted_for_its_not(
    claim: str, source: str
) -> None:
    assert "without the" not in str(verdict_of(claim, source).get("reason"))


# ------------------------------------------------------------------ another span of time

DETENTION = (
    "A court on Tuesday agreed to extend the detention of the two brothers for another 30 days, "
    "according to reports. The offer includes a 6-month warranty on all products."
)


@pytest.mark.parametrize(
    ("claim", "given"),
    [
        ("The two brothers were ordered to spend another 30 years in detention, reports say.",
         "30 days"),
        ("The offer includes a 6-year warranty on all products.", "6 months"),
    ],
)  # fmt: skip
def test_the_same_number_of_another_span_of_time_is_contradicted(claim: str, given: str) -> None:
    verdict = verdict_of(claim, DETENTION)
    assert verdict["verdict"] == "no" and given in str(verdict["reason"])


def test_the_same_span_of_time_is_accepted() -> None:
    claim = "The two brothers must spend another 30 days in detention, reports say."
    assert verdict_of(claim, DETENTION)["verdict"] == "yes"


# ------------------------------------------------ what a review of these checks found them misreading


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # A loss or a jobless rate that "improves" goes down.
        ("The operating loss decreased by $2 million to $5 million.",
         "The operating loss improved by $2 million to $5 million, the company said."),
        # One 3% rose, the other fell: the amount takes no direction.
        ("Shares climbed 3% on Tuesday.",
         "Shares gained 3% on Tuesday, recovering after falling 3% on Monday."),
        # "From $9 million" is where the claim's change started, not a rise of $9 million.
        ("Profit rose to $12 million from $9 million.",
         "Profit rose to $12 million. The year before, profit had fallen to $9 million."),
        # "Made up", "shut down" and the season "fall" are no changes.
        ("The share of women on the board fell to 30% from 35%.",
         "Women made up 30% of the board, down from 35% a year earlier."),
        ("Margins rose to 12% as raw material prices dropped.",
         "Margins improved to 12% as raw material prices dropped."),
        # The same comparison of amounts from the other end.
        ("Costs in Asia were 5% lower than in Europe.",
         "Costs in Europe were 5% higher than in Asia, the report found."),
        # A quarter of comparison, a quarter the passage's other sentence gives, a count.
        ("Acme's third-quarter revenue rose 8% to $50 million.",
         "Acme reported third-quarter results on Thursday. Revenue rose 8% from the second quarter "
         "to $50 million."),
        ("Revenue in the third quarter rose.", "Revenue rose in the third quarter, the second "
         "quarter in a row."),
        ("Retail sales rose 0.5% in March.",
         "The report, published in April, showed retail sales rose 0.5%. The figure covers March."),
        # Bounds, denied opposites, and the other end of "against".
        ("Most of the staff work remotely.", "At least 60% of the staff work remotely."),
        ("Acme will spend less than $5 million.", "Acme said spending would be no more than $5 million."),
        ("The stock is cheap.", "Analysts say the stock is not expensive."),
        ("The dollar strengthened against the yen.", "The yen weakened against the dollar."),
        # Look-alikes of negative prefixes.
        ("The partnership has been valuable for both companies.",
         "Both companies said the partnership has been invaluable."),
        ("The report counts the migrants who arrived by boat.",
         "The report counts the immigrants who arrived by boat."),
        ("The audit covered the last three years.",
         "The audit uncovered problems in the last three years."),
        # Two spans of time with one number in the claim.
        ("Acme signed a 10-year lease that can be ended with 10 days' notice.",
         "Acme signed a 10-year lease. It can be ended with 10 days' notice."),
    ],
)  # fmt: skip
def test_readings_a_review_found_wrong_are_not_contradicted(claim: str, source: str) -> None:
    assert verdict_of(claim, source)["verdict"] != "no"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Sales were not hit by the strike.", "Sales were unaffected by the strike, which hit "
         "production."),
        ("The investors who did not sell lost money.",
         "Investors who held on lost money, while those who sold early made a profit."),
    ],
)  # fmt: skip
def test_a_denial_said_in_other_words_keeps_its_yes(claim: str, source: str) -> None:
    assert "without the" not in str(verdict_of(claim, source).get("reason"))
