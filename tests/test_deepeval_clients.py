"""summscore.deepeval on deepeval's own GPTModel: one HTTP client per event loop instead of one
per call (speed only), with the same requests and the same numbers as upstream's metric."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("deepeval")

from compat.clients import deepeval_model, llm_test_case
from compat.corpus import CASES
from deepeval.metrics import SummarizationMetric as UpstreamMetric

from summscore.deepeval import SummarizationMetric

pytestmark = pytest.mark.upstream


async def test_the_face_asks_through_one_client_per_loop_and_gives_upstreams_numbers(
    judge_server: Any,
) -> None:
    model = deepeval_model(judge_server)
    cases = [c for c in CASES if c.kind != "injection"][:3]
    face = SummarizationMetric(model=model)
    for c in cases:
        # (a new upstream metric per case: deepeval's reuses its first case's questions)
        upstream = UpstreamMetric(model=deepeval_model(judge_server))
        await upstream.a_measure(llm_test_case(c), _show_indicator=False)
        await face.a_measure(llm_test_case(c), _show_indicator=False)
        assert face.score == upstream.score, c.id
        assert face.score_breakdown == upstream.score_breakdown, c.id
        assert face.reason == upstream.reason, c.id
    judge = face.scorer.judge
    copies = list(judge._copies.values())
    assert len(copies) == 1 and copies[0].async_http_client is not None
    assert face.model is model and model.async_http_client is None  # the user's object as given
    assert face.evaluation_model == upstream.evaluation_model


def test_a_model_with_its_own_http_client_is_used_as_given(judge_server: Any) -> None:
    import httpx

    from summscore.deepeval._clients import pools_clients

    model = deepeval_model(judge_server)
    assert pools_clients(model)
    model.async_http_client = httpx.AsyncClient()
    assert not pools_clients(model)
    face = SummarizationMetric(model=model)
    assert type(face.scorer.judge).__name__ == "DeepEvalJudge"


def test_choosing_the_client_pool_raises_no_deprecation_warning(judge_server: Any) -> None:
    # deepeval 4 keeps ``GPTModel`` as a deprecated alias of ``OpenAIModel`` whose look-up
    # warns: the face looked it up to recognise the model, so every test of a user's suite that
    # built the metric showed "'GPTModel' is deprecated", pointing at summscore's code.
    import warnings

    model = deepeval_model(judge_server)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        face = SummarizationMetric(model=model)
    assert [str(w.message) for w in caught] == []
    assert type(face.scorer.judge).__name__ == "PooledClientJudge"
