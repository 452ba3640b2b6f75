"""A deepeval test file: run it with pytest or with deepeval's runner.

    OPENAI_API_KEY=... pytest examples/test_deepeval_summaries.py
    OPENAI_API_KEY=... deepeval test run examples/test_deepeval_summaries.py

summscore.deepeval.SummarizationMetric is a drop-in for deepeval's metric: same arguments (the
judge named as deepeval names it), same prompts and numbers with the same judge, and generated
assessment questions belong to each test case. OPENAI_BASE_URL points the judge at any
OpenAI-compatible server.
"""

from __future__ import annotations

import pytest
from deepeval import assert_test
from deepeval.test_case import LLMTestCase

from summscore.deepeval import SummarizationMetric

CASES = [
    LLMTestCase(
        input=(
            "The European Central Bank raised its main interest rate by 0.25 percentage points to "
            "4.5% on Thursday, its tenth consecutive increase. The bank cut its growth forecast "
            "for 2024 to 1.0% from 1.5%."
        ),
        actual_output=(
            "The ECB raised its main rate by 0.25 points to 4.5%, its tenth straight increase, and "
            "cut its 2024 growth forecast to 1.0% from 1.5%."
        ),
    ),
    LLMTestCase(
        input=(
            "Voters in Portugal gave the Socialist Party 120 of the 230 seats in parliament on "
            "Sunday, an absolute majority. Turnout was 58%."
        ),
        actual_output="Portugal's Socialists won 120 of 230 seats on Sunday, a majority; turnout was 58%.",
    ),
]


@pytest.mark.parametrize("test_case", CASES)
def test_summary_is_faithful_and_complete(test_case: LLMTestCase) -> None:
    assert_test(test_case, [SummarizationMetric(threshold=0.5, model="gpt-4o-mini", n=3)])
