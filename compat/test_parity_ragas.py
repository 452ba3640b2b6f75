"""End-to-end parity over real HTTP, against unmodified ragas code.

The judge is a real client talking to the compat judge server, which answers each prompt
deterministically from its content: upstream's metric and ours must give the same numbers.
"""

from __future__ import annotations

import pytest

pytest.importorskip("ragas")

from ragas import EvaluationDataset, evaluate
from ragas.dataset_schema import SingleTurnSample

from compat.clients import ALL, PARITY, legacy_ragas_llm, ragas_llm
from compat.judge_server import JudgeServer
from summscore import ragas


@pytest.fixture
def server(judge_server: JudgeServer) -> JudgeServer:
    return judge_server


# ------------------------------------------------------------------------------- ragas


@pytest.mark.parametrize("options", [{}, {"coeff": 0.3}, {"length_penalty": False}], ids=str)
async def test_collections_summary_score_matches_upstream(
    server: JudgeServer, options: dict
) -> None:
    collections = pytest.importorskip("ragas.metrics.collections")
    Upstream = collections.SummaryScore

    llm = ragas_llm(server)
    upstream, ours = Upstream(llm=llm, **options), ragas.SummaryScore(llm=llm, **options)
    for c in PARITY:
        theirs = await upstream.ascore(reference_contexts=list(c.contexts), response=c.summary)
        mine = await ours.ascore(reference_contexts=list(c.contexts), response=c.summary)
        assert mine.value == theirs.value, c.id


def test_legacy_metric_matches_upstream_in_one_evaluate_run(server: JudgeServer) -> None:
    from ragas.metrics._summarization import SummarizationScore as Upstream

    theirs = Upstream()
    theirs.name = "upstream_summary_score"
    dataset = EvaluationDataset(
        samples=[
            SingleTurnSample(reference_contexts=list(c.contexts), response=c.summary)
            for c in PARITY
        ]
    )
    frame = evaluate(
        dataset,
        metrics=[ragas.SummarizationScore(), theirs],
        llm=legacy_ragas_llm(server),
        show_progress=False,
        raise_exceptions=True,
    ).to_pandas()
    assert list(frame["summary_score"]) == list(frame["upstream_summary_score"])
    assert frame["summary_score"].notna().all()


def test_ours_scores_every_row_inside_ragas_evaluate(server: JudgeServer) -> None:
    dataset = EvaluationDataset(
        samples=[
            SingleTurnSample(reference_contexts=list(c.contexts), response=c.summary) for c in ALL
        ]
    )
    frame = evaluate(
        dataset,
        metrics=[ragas.SummarizationScore()],
        llm=legacy_ragas_llm(server),
        show_progress=False,
        raise_exceptions=False,
    ).to_pandas()
    assert len(frame) == len(ALL) and frame["summary_score"].notna().all()
