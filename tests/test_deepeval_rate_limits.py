"""The deepeval face on deepeval's own models against a server that answers 429 (issue #48).

deepeval's native models retry a 429 themselves (tenacity, one more attempt after a 1 to 3 s
sleep that ignores Retry-After). Inside the face that retry hid every 429 that its second attempt
got past from the scorer: the adaptive request limit never halved, and a slot stayed held through
deepeval's sleep. The face's judge asks each attempt once; summscore's retries (Retry-After
honoured, the limit halved) take over.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("deepeval")

from compat.clients import deepeval_model
from deepeval.metrics.utils import copy_metrics
from deepeval.test_case import LLMTestCase

from summscore.deepeval import SummarizationMetric

pytestmark = pytest.mark.upstream


def _cases(n: int) -> list[LLMTestCase]:
    return [
        LLMTestCase(
            input=f"Report {i}. The plant in Leeds opened in 2019 and employs 340 people.",
            actual_output=f"The Leeds plant, opened in 2019, employs 340 people ({i}).",
        )
        for i in range(n)
    ]


async def test_a_429_to_a_deepeval_model_halves_the_scorers_limit(make_judge_server: Any) -> None:
    server = make_judge_server(max_concurrency=2, retry_after=0.01, latency=0.02)
    metric = SummarizationMetric(model=deepeval_model(server))
    limiter = metric.scorer._caller.limiter
    assert limiter is not None and limiter.limit == 8 and limiter.adaptive
    # As deepeval.evaluate() runs them: a copy of the metric per test case, all at once.
    copies = [copy_metrics([metric])[0] for _ in range(6)]
    await asyncio.gather(
        *(m.a_measure(c, _show_indicator=False) for m, c in zip(copies, _cases(6)))
    )
    rejected = server.stats.statuses[429]
    assert rejected > 0  # the server was asked more than it takes
    assert limiter.epoch >= 1 and limiter.limit < 8  # ... and the limit heard it
    # Every 429 was retried by summscore (counted, after Retry-After), none by deepeval.
    assert metric.scorer.usage.retries == rejected
    assert all(m.score is not None and m.error is None for m in copies)


def test_the_sync_path_hears_the_429s_too(make_judge_server: Any) -> None:
    server = make_judge_server(max_concurrency=1, retry_after=0.01, latency=0.02)
    metric = SummarizationMetric(model=deepeval_model(server), async_mode=False)
    scorer = metric.scorer
    results = scorer.score_many([(c.input, c.actual_output) for c in _cases(2)], progress=False)
    assert all(r.ok for r in results)
    rejected = server.stats.statuses[429]
    assert rejected > 0
    assert scorer._caller.limiter.epoch >= 1
    assert scorer.usage.retries == rejected
