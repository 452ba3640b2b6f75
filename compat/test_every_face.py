"""One shared scorer behind every face (ragas x2, deepeval, mastra, MLflow, Inspect AI, Opik,
LangSmith, promptfoo's assertion and webhook, Braintrust, Phoenix, TruLens): one number per case,
over real HTTP to the compat judge server, for each of the three presets. Beside them, each face
in its framework's own way of naming a judge (Braintrust's ``autoevals.init`` client, Phoenix's
``LLM``), a source of several passages through promptfoo, LangSmith's evaluator run id, and the
names errors carry (promptfoo's two forms alike, TruLens's metric)."""

from __future__ import annotations

import asyncio
import datetime
import math
from collections.abc import Iterator
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

import uuid  # noqa: E402

import autoevals  # noqa: E402
import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from inspect_ai import Task, eval  # noqa: E402
from inspect_ai.dataset import Sample  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402
from inspect_ai.solver import generate  # noqa: E402
from langsmith.schemas import Run  # noqa: E402
from phoenix.evals import LLM  # noqa: E402
from ragas.dataset_schema import SingleTurnSample  # noqa: E402

from compat.clients import KEY, MODEL, PARITY, async_client, llm_test_case  # noqa: E402
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


@pytest.fixture
def autoevals_client() -> Iterator[None]:
    """The test may set a client with autoevals.init (process-wide): unset it afterwards."""
    yield
    autoevals.init()


@pytest.mark.parametrize("preset", ["ragas", "deepeval", "mastra"])
def test_one_shared_scorer_gives_one_number_behind_every_face(
    judge_server: JudgeServer, preset: str, tmp_path: Path, autoevals_client: None
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
    # Each framework's own way of naming the judge, on the same server and model.
    autoevals.init(client=async_client(judge_server), default_model=MODEL)  # reset after
    braintrust_by_init = braintrust_face.Summarization(preset=preset)  # judge: autoevals.init's
    phoenix_llm = LLM(provider="openai", model=MODEL, base_url=judge_server.url, api_key=KEY)
    phoenix_by_llm = phoenix_face.SummarizationEvaluator(llm=phoenix_llm, preset=preset)
    for c in CASES:
        run_id = uuid.uuid4()
        langsmith_result = langsmith_evaluator.evaluate_run(
            _langsmith_run(c.source, c.summary), evaluator_run_id=run_id
        )
        assert langsmith_result.source_run_id == run_id  # linked as a function evaluator's is
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
            "langsmith evaluate_run": langsmith_result.score,
            "promptfoo python": promptfoo_face.score_output(
                scorer, c.summary, {"vars": {"source": c.source}}
            )["score"],
            "promptfoo python, passages": promptfoo_face.score_output(
                scorer, c.summary, {"vars": {"source": list(c.contexts)}}
            )["score"],
            "promptfoo webhook": webhook.post(
                "/v1/promptfoo",
                json={"output": c.summary, "context": {"vars": {"source": c.source}}},
            ).json()["score"],
            "promptfoo webhook, passages": webhook.post(
                "/v1/promptfoo",
                json={"output": c.summary, "context": {"vars": {"source": list(c.contexts)}}},
            ).json()["score"],
            "braintrust": braintrust_scorer(output=c.summary, input=c.source).score,
            "braintrust, autoevals.init's client": braintrust_by_init(
                output=c.summary, input=c.source
            ).score,
            "phoenix": phoenix_evaluator.evaluate({"input": c.source, "output": c.summary})[
                0
            ].score,
            "phoenix, Phoenix's LLM": phoenix_by_llm.evaluate(
                {"input": c.source, "output": c.summary}
            )[0].score,
            "trulens": trulens_function(c.source, c.summary)[0],
        }
        first = scores["ragas collections"]
        assert not math.isnan(first), c.id
        assert all(value == first for value in scores.values()), (c.id, scores)
    # What a case that cannot be scored says: the same in promptfoo's two forms, and named after
    # the TruLens metric.
    empty = {"output": " ", "context": {"vars": {"source": CASES[0].source}}}
    python = promptfoo_face.score_output(scorer, empty["output"], empty["context"])
    served = webhook.post("/v1/promptfoo", json=empty).json()
    assert python["reason"] == served["reason"] and "output cannot be empty" in python["reason"]
    assert python["metadata"] == served["metadata"]
    with pytest.raises(Exception, match=r"^brevity: "):
        trulens_face.Summarization(scorer=scorer, name="brevity")(CASES[0].source, " ")


def test_promptfoos_retries_of_a_case_being_judged_cost_no_judge_calls(
    judge_server: JudgeServer,
) -> None:
    """promptfoo asks a webhook again when it times out while the server is still judging: three
    identical requests at once ask the judge what one request asks, and get the same answer."""
    c = CASES[0]
    body = {"output": c.summary, "context": {"vars": {"source": c.source}}}

    def judge_requests(posts: int) -> tuple[int, list[Any]]:
        scorer = SummarizationScorer(llm=async_client(judge_server), model=MODEL)  # no caches
        app = create_app(scorer)

        async def post_at_once() -> list[Any]:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(
                transport=transport, base_url="http://summscore"
            ) as client:
                replies = [client.post("/v1/promptfoo", json=body) for _ in range(posts)]
                return [r.json() for r in await asyncio.gather(*replies)]

        before = judge_server.stats.requests
        answers = asyncio.run(post_at_once())
        return judge_server.stats.requests - before, answers

    once, [alone] = judge_requests(1)
    retried, answers = judge_requests(3)
    assert retried == once, (once, retried)
    assert answers == [answers[0]] * 3 and answers[0]["score"] == alone["score"]


def _langsmith_run(source: str, summary: str) -> Run:
    """The run evaluate() hands an evaluator: the target's inputs and outputs."""
    now = datetime.datetime.now(datetime.timezone.utc)
    return Run(
        id=uuid.uuid4(),
        name="summarize",
        run_type="chain",
        start_time=now,
        inputs={"source": source},
        outputs={"summary": summary},
        trace_id=uuid.uuid4(),
    )
