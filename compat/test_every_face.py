"""One shared scorer behind every face (ragas x2, deepeval, mastra, MLflow, Inspect AI, Opik,
LangSmith, promptfoo's assertion and webhook, Braintrust, Phoenix, TruLens): one number per case,
over real HTTP to the compat judge server, for each of the three presets."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

for framework in (
    "ragas",
    "deepeval",
    "mlflow",
    "inspect_ai",
    "opik",
    "langsmith",
    "autoevals",
    "phoenix.evals",
    "trulens.core",
    "fastapi",
):
    pytest.importorskip(framework)

from fastapi.testclient import TestClient  # noqa: E402
from inspect_ai import Task, eval  # noqa: E402
from inspect_ai.dataset import Sample  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402
from inspect_ai.solver import generate  # noqa: E402
from ragas.dataset_schema import SingleTurnSample  # noqa: E402

from compat.clients import MODEL, PARITY, async_client, llm_test_case  # noqa: E402
from compat.judge_server import JudgeServer  # noqa: E402
from summscore import SummarizationScorer, mastra, ragas  # noqa: E402
from summscore import braintrust as braintrust_face  # noqa: E402
from summscore import deepeval as de  # noqa: E402
from summscore import inspect as inspect_face  # noqa: E402
from summscore import langsmith as langsmith_face  # noqa: E402
from summscore import mlflow as mlflow_face  # noqa: E402
from summscore import opik as opik_face  # noqa: E402
from summscore import phoenix as phoenix_face  # noqa: E402
from summscore import promptfoo as promptfoo_face  # noqa: E402
from summscore import trulens as trulens_face  # noqa: E402
from summscore.calls.sync import run_sync  # noqa: E402
from summscore.serve import create_app  # noqa: E402

CASES = [c for c in PARITY if c.kind in ("faithful", "omits", "wrong-number", "wrong-name")][:6]


def _inspect_scores(scorer: SummarizationScorer, log_dir: Path) -> dict[str, float]:
    outputs = [ModelOutput.from_content(model="mockllm/model", content=c.summary) for c in CASES]
    for output in outputs:
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    task = Task(
        dataset=[Sample(input=c.source, id=c.id) for c in CASES],
        solver=generate(),
        scorer=inspect_face.summarization(scorer=scorer),
        model=get_model("mockllm/model", custom_outputs=outputs),
    )
    [log] = eval(task, log_dir=str(log_dir), display="none")
    assert log.status == "success", log.error
    return {str(s.id): s.scores["summarization"].value for s in log.samples or []}


@pytest.mark.parametrize("preset", ["ragas", "deepeval", "mastra"])
def test_one_shared_scorer_gives_one_number_behind_every_face(
    judge_server: JudgeServer, preset: str, tmp_path: Path
) -> None:
    scorer = SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset=preset)
    collections = ragas.SummaryScore(scorer=scorer)
    legacy = ragas.SummarizationScore(scorer=scorer)
    deepeval_metric = de.SummarizationMetric(scorer=scorer)
    mastra_metric = mastra.SummarizationMetric(scorer=scorer)
    mlflow_scorer = mlflow_face.Summarization(scorer=scorer)
    opik_metric = opik_face.Summarization(scorer=scorer, track=False)
    inspect_scores = _inspect_scores(scorer, tmp_path)
    langsmith_evaluator = langsmith_face.Summarization(scorer=scorer)
    braintrust_scorer = braintrust_face.Summarization(scorer=scorer)
    phoenix_evaluator = phoenix_face.SummarizationEvaluator(scorer=scorer)
    trulens_function = trulens_face.Summarization(scorer=scorer)
    webhook = TestClient(create_app(scorer))
    for c in CASES:
        scores: dict[str, Any] = {
            "ragas collections": collections.score(
                reference_contexts=list(c.contexts), response=c.summary
            ).value,
            "ragas legacy": run_sync(
                legacy.single_turn_ascore(
                    SingleTurnSample(reference_contexts=list(c.contexts), response=c.summary)
                )
            ),
            "deepeval": deepeval_metric.measure(llm_test_case(c), _show_indicator=False),
            "mastra": mastra_metric.measure(c.source, c.summary).score,
            "mlflow": mlflow_scorer(inputs=c.source, outputs=c.summary).value,
            "opik": opik_metric.score(input=c.source, output=c.summary).value,
            "inspect": inspect_scores[c.id],
            "langsmith": langsmith_evaluator(
                inputs={"source": c.source}, outputs={"summary": c.summary}
            ).score,
            "promptfoo python": promptfoo_face.score_output(
                scorer, c.summary, {"vars": {"source": c.source}}
            )["score"],
            "promptfoo webhook": webhook.post(
                "/v1/promptfoo",
                json={"output": c.summary, "context": {"vars": {"source": c.source}}},
            ).json()["score"],
            "braintrust": braintrust_scorer(output=c.summary, input=c.source).score,
            "phoenix": phoenix_evaluator.evaluate({"input": c.source, "output": c.summary})[
                0
            ].score,
            "trulens": trulens_function(c.source, c.summary)[0],
        }
        first = scores["ragas collections"]
        assert not math.isnan(first), c.id
        assert all(value == first for value in scores.values()), (c.id, scores)
