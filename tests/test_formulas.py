"""The presets' formulas, exactly as upstream computes them, with their edge cases."""

from __future__ import annotations

import math
import sys
from enum import Enum

import pytest

from summscore.formulas import (
    deepeval_alignment_score,
    deepeval_coverage_score,
    deepeval_graded_alignment,
    deepeval_normalize_verdict,
    js_round2,
    mastra_component_score,
    mastra_graded_alignment,
    ragas_conciseness_score,
    ragas_final_score,
    ragas_qa_score,
)

from .fakes import FITNESS_SOURCE, FITNESS_SUMMARY

# ------------------------------------------------------------------------------------- ragas


def test_fitness_example_of_the_ragas_docs_is_reproduced_exactly() -> None:
    qa = ragas_qa_score(["1"] * 7 + ["0"])
    conciseness = ragas_conciseness_score(FITNESS_SOURCE, FITNESS_SUMMARY)
    score = ragas_final_score(qa, conciseness, coeff=0.5, length_penalty=True)
    assert score == 0.6423387096775146


def test_qa_counts_only_the_string_one_case_insensitively_and_unstripped() -> None:
    assert ragas_qa_score(["1", "0", "1", "0"]) == 0.5
    # ragas compares a.lower() == "1": " 1" and "yes" are not correct answers.
    assert ragas_qa_score([" 1", "yes", "1 "]) == 0.0


def test_qa_of_no_answers_is_nan_not_zero_division() -> None:
    assert math.isnan(ragas_qa_score([]))


def test_conciseness_is_in_characters_and_clamped_at_the_text_length() -> None:
    assert ragas_conciseness_score("abcd", "ab") == pytest.approx(0.5)
    assert ragas_conciseness_score("abcd", "abcdefgh") == pytest.approx(0.0, abs=1e-9)
    assert ragas_conciseness_score("東京都", "東京") == pytest.approx(1 / 3)


@pytest.mark.parametrize("coeff", [0.0, 0.25, 0.5, 1.0])
def test_final_score_weights_conciseness_by_coeff(coeff: float) -> None:
    assert ragas_final_score(0.8, 0.2, coeff=coeff, length_penalty=True) == pytest.approx(
        0.8 * (1 - coeff) + 0.2 * coeff
    )


def test_without_length_penalty_the_score_is_qa() -> None:
    assert ragas_final_score(0.8, None, coeff=0.3, length_penalty=False) == 0.8


# ---------------------------------------------------------------------------------- deepeval


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("yes", "yes"),
        ("Yes.", "yes"),
        ("  NO, it contradicts", "no"),
        ("borderline", "borderline"),
        ("idk", "borderline"),
        ("maybe", None),
        ("", None),
        (None, None),
    ],
)
def test_verdicts_are_read_as_deepeval_reads_them(raw: object, expected: str | None) -> None:
    assert deepeval_normalize_verdict(raw) == expected


def test_alignment_is_yes_over_kept_verdicts_and_zero_when_none() -> None:
    assert deepeval_alignment_score(["yes", "no", "borderline", "yes"]) == 0.5
    assert deepeval_alignment_score(["yes", None, None]) == 1.0  # dropped ones ignored
    assert deepeval_alignment_score([]) == 0
    assert deepeval_alignment_score([None]) == 0


def test_coverage_counts_summary_yes_among_source_yes() -> None:
    pairs = [("yes", "yes"), ("yes", "no"), ("no", "yes"), ("Yes ", " YES")]
    assert deepeval_coverage_score(pairs) == pytest.approx(2 / 3)
    assert deepeval_coverage_score([("no", "yes")]) == 0
    assert deepeval_coverage_score([]) == 0


def test_strict_mode_zeroes_components_below_the_threshold() -> None:
    assert deepeval_alignment_score(["yes", "no"], strict_mode=True, threshold=1) == 0
    assert deepeval_alignment_score(["yes"], strict_mode=True, threshold=1) == 1
    assert (
        deepeval_coverage_score([("yes", "yes"), ("yes", "no")], strict_mode=True, threshold=1) == 0
    )


# ------------------------------------------------------------------------------------ mastra


@pytest.mark.parametrize(
    ("value", "expected"),
    [(0.125, 0.13), (0.005, 0.01), (0.334, 0.33), (2 / 3, 0.67), (1.005, 1.01), (0.0, 0.0)],
)
def test_js_round2_rounds_halves_up_like_math_round(value: float, expected: float) -> None:
    assert js_round2(value) == expected


# Exact halves: for these, (x + Number.EPSILON) * 100 is k + 0.5 exactly (the epsilon is lost
# above 1), so only "halves go up" gives JavaScript's answer; a rounding that sends them down
# gives 1.5 for 1.505. Mastra's scale=10 makes such scores (5 of 16 claims: 3.125). Expected
# values are Node's (v20.20.2), printed once with
#   node -e 'for (const x of [1.505, 2.005, 3.125, 4.375, 9.375, 1000.005, -2.505])
#            console.log(Math.round((x + Number.EPSILON) * 100) / 100)'
# and checked on every value against Node where it is on PATH (tests/test_js_round.py).
@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1.505, 1.51),
        (2.005, 2.01),
        (3.125, 3.13),
        (4.375, 4.38),
        (9.375, 9.38),
        (1000.005, 1000.01),
        (-2.505, -2.5),
    ],
)
def test_js_round2_sends_exact_halves_up_as_math_round_does(value: float, expected: float) -> None:
    scaled = (value + sys.float_info.epsilon) * 100
    assert scaled - math.floor(scaled) == 0.5  # a true half: the case this test is for
    assert js_round2(value) == expected


def test_mastra_component_at_scale_10_rounds_an_exact_half_up() -> None:
    assert mastra_component_score(["yes"] * 5 + ["no"] * 11, scale=10) == 3.13  # Node: 3.13
    assert mastra_component_score(["yes"] * 15 + ["no"], scale=10) == 9.38  # Node: 9.38


def test_python_round_would_differ_on_halves() -> None:
    assert round(0.125, 2) == 0.12 and js_round2(0.125) == 0.13


def test_mastra_component_is_rounded_fraction_times_scale() -> None:
    assert mastra_component_score(["yes", "no", "unsure"]) == 0.33
    assert mastra_component_score([" Yes ", "YES", "no"], scale=10) == 6.67
    assert mastra_component_score([]) == 0


def test_mastra_graded_alignment_is_the_mean_support_read_to_hundredths_then_scaled() -> None:
    assert mastra_graded_alignment([]) == 0
    assert mastra_graded_alignment([0.5, 0.755]) == 0.63  # mean 0.6275, JS-rounded
    assert mastra_graded_alignment([0.5, 0.755], scale=10) == 6.3  # the scale-1 figure x 10


# ------------------------------------------------- defaults and readings a mutation pass found


def test_final_score_without_conciseness_under_the_length_penalty_says_what_is_missing() -> None:
    with pytest.raises(ValueError, match=r"^conciseness is required when length_penalty is on$"):
        ragas_final_score(0.8, None, coeff=0.5, length_penalty=True)


def test_verdicts_are_read_from_an_enums_value_as_deepeval_does() -> None:
    class Verdict(Enum):
        YES = "yes"
        IDK = "idk"

    assert str(Verdict.YES) == "Verdict.YES"  # its str() would read as no verdict
    assert deepeval_normalize_verdict(Verdict.YES) == "yes"
    assert deepeval_normalize_verdict(Verdict.IDK) == "borderline"


def test_deepeval_components_are_not_strict_by_default_and_strict_at_half() -> None:
    assert deepeval_alignment_score(["yes", "no", "no", "no"]) == 0.25
    assert deepeval_coverage_score([("yes", "yes"), ("yes", "no"), ("yes", "no")]) == 1 / 3
    # strict_mode alone zeroes below deepeval's default threshold, 0.5, and keeps 0.5 and above
    assert deepeval_alignment_score(["yes", "no"], strict_mode=True) == 0.5
    assert deepeval_alignment_score(["yes", "no", "no"], strict_mode=True) == 0
    assert deepeval_coverage_score([("yes", "yes"), ("yes", "no")], strict_mode=True) == 0.5
    assert deepeval_graded_alignment([0.5, 0.5], strict_mode=True) == 0.5
    assert deepeval_graded_alignment([0.2, 0.4]) == pytest.approx(0.3)
    assert deepeval_graded_alignment([0.2, 0.4], strict_mode=True) == 0
    assert deepeval_graded_alignment([]) == 0
