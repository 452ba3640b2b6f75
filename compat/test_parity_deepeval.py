"""End-to-end parity over real HTTP, against unmodified deepeval code.

The judge is a real client talking to the compat judge server, which answers each prompt
deterministically from its content: upstream's metric and ours must give the same numbers.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("deepeval")

from compat.clients import ALL, PARITY, deepeval_model, llm_test_case
from compat.corpus import case
from compat.judge_server import JudgeServer
from summscore import deepeval as de


@pytest.fixture
def server(judge_server: JudgeServer) -> JudgeServer:
    return judge_server


# ---------------------------------------------------------------------------- deepeval

DEEPEVAL_CONFIGS = [
    {},
    {"n": 3},
    {"strict_mode": True},
    {"truths_extraction_limit": 2},
    {"threshold": 0.7, "include_reason": False},
]


@pytest.mark.parametrize("config", DEEPEVAL_CONFIGS, ids=str)
async def test_deepeval_metric_matches_upstream(server: JudgeServer, config: dict) -> None:
    from deepeval.metrics import SummarizationMetric as Upstream

    model = deepeval_model(server)
    # deepeval's OpenAIModel builds a new client (and loads the CA bundle) for every call: the
    # defaults run on the whole corpus, each variant on a third of it.
    cases = PARITY if not config else PARITY[::3]
    for c in cases:
        upstream, ours = (
            Upstream(model=model, **config),
            de.SummarizationMetric(model=model, **config),
        )
        await upstream.a_measure(llm_test_case(c), _show_indicator=False)
        await ours.a_measure(llm_test_case(c), _show_indicator=False)
        assert ours.score == upstream.score, c.id
        assert ours.score_breakdown == upstream.score_breakdown, c.id
        assert ours.reason == upstream.reason, c.id
        assert ours.evaluation_cost == pytest.approx(upstream.evaluation_cost), c.id


async def test_deepeval_metric_matches_upstream_with_given_questions(server: JudgeServer) -> None:
    from deepeval.metrics import SummarizationMetric as Upstream

    c = case("deepeval-doc-given-questions")
    model = deepeval_model(server)
    questions = list(c.assessment_questions)
    upstream = Upstream(model=model, assessment_questions=questions)
    ours = de.SummarizationMetric(model=model, assessment_questions=questions)
    await upstream.a_measure(llm_test_case(c), _show_indicator=False)
    await ours.a_measure(llm_test_case(c), _show_indicator=False)
    assert (ours.score, ours.score_breakdown) == (upstream.score, upstream.score_breakdown)
    assert server.stats.tasks["questions"] == 0  # given questions are used, none generated


def test_ours_scores_every_case_inside_deepeval_evaluate_and_assert_test(
    server: JudgeServer, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deepeval import assert_test
    from deepeval import evaluate as deepeval_evaluate
    from deepeval.evaluate.configs import AsyncConfig, DisplayConfig

    monkeypatch.chdir(tmp_path)  # deepeval keeps its run cache in the working directory
    (tmp_path / ".deepeval").mkdir()  # deepeval 3.3 does not create it
    metric = de.SummarizationMetric(model=deepeval_model(server), threshold=0.0)
    result = deepeval_evaluate(
        test_cases=[llm_test_case(c) for c in ALL],
        metrics=[metric],
        async_config=AsyncConfig(run_async=True, max_concurrent=8),
        display_config=DisplayConfig(print_results=False, show_indicator=False),
    )
    assert len(result.test_results) == len(ALL)
    for row in result.test_results:
        (data,) = row.metrics_data
        assert data.error is None and data.score is not None and data.success
    assert_test(llm_test_case(case("news-fitness")), [metric])
