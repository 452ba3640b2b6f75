"""The systems ``throughput.py --faces`` times: each framework's own evaluation loop with its own
summarization metric ("upstream") and with summscore's face, and the core's ``score_many`` on
the same cases. Every runner takes ``(url, cases)`` (the compat judge server's base URL, the
cases) and returns how many rows failed. A face is given ``scorer=`` a scorer over an
``AsyncOpenAI`` client (adaptive request limit, no ``max_concurrency``), built as ``score_many``'s
is here, so that its 429 count is the one to compare a face's with.

Which loop runs how many rows at once is the framework's default: ragas ``evaluate()`` 16
workers, deepeval ``evaluate()`` 20 test cases, MLflow ``genai.evaluate()`` 10 worker threads
(``MLFLOW_GENAI_EVAL_MAX_WORKERS``), Opik ``evaluate_on_dict_items`` its task threads, Inspect
``eval()`` its sample limit, LangSmith ``evaluate()`` one example at a time (``max_concurrency=0``),
Braintrust ``Eval`` no limit, Phoenix ``async_evaluate_dataframe`` 3 rows (``concurrency``).
A loop that judges fewer rows at once than the face could keeps it below ``score_many``, which
has no such cap: that is the loop's limit, not the face's.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import uuid
from collections.abc import Callable
from typing import Any

from compat.corpus import Case

MODEL = "gpt-4o-mini"
KEY = "sk-benchmark-not-a-real-key"

Runner = Callable[[str, list[Case]], int]  # (url, cases) -> failed rows


def _client(url: str) -> Any:
    import openai

    return openai.AsyncOpenAI(base_url=url, api_key=KEY, max_retries=0)


def _scorer(url: str, preset: str) -> Any:
    from summscore import SummarizationScorer

    return SummarizationScorer(_client(url), model=MODEL, preset=preset)


def score_many(preset: str) -> Runner:
    """The core alone: ``score_many`` with the adaptive limit, as the faces use it."""

    def run(url: str, cases: list[Case]) -> int:
        results = _scorer(url, preset).score_many(
            [(list(c.contexts), c.summary) for c in cases], progress=False
        )
        return sum(not r.ok for r in results)

    return run


# ------------------------------------------------------------------- ragas and deepeval


def ragas_evaluate(face: bool) -> Runner:
    """``ragas.evaluate()`` with ragas' legacy ``SummarizationScore`` or summscore's face."""

    def run(url: str, cases: list[Case]) -> int:
        from ragas import EvaluationDataset, SingleTurnSample, evaluate
        from ragas.llms import llm_factory

        if face:
            from summscore.ragas import SummarizationScore
        else:
            from ragas.metrics._summarization import SummarizationScore  # type: ignore[no-redef]

        llm = llm_factory(MODEL, client=_client(url))
        dataset = EvaluationDataset(
            samples=[
                SingleTurnSample(reference_contexts=list(c.contexts), response=c.summary)
                for c in cases
            ]
        )
        frame = evaluate(
            dataset, metrics=[SummarizationScore()], llm=llm, show_progress=False
        ).to_pandas()
        return int(frame["summary_score"].isna().sum())

    return run


def deepeval_evaluate(face: bool) -> Runner:
    """``deepeval.evaluate()`` with deepeval's ``SummarizationMetric`` or summscore's face."""

    def run(url: str, cases: list[Case]) -> int:
        from deepeval import evaluate
        from deepeval.evaluate.configs import DisplayConfig, ErrorConfig
        from deepeval.models import GPTModel
        from deepeval.test_case import LLMTestCase

        if face:
            from summscore.deepeval import SummarizationMetric
        else:
            from deepeval.metrics import SummarizationMetric  # type: ignore[no-redef]

        model = GPTModel(model=MODEL, base_url=url, api_key=KEY)
        result = evaluate(
            test_cases=[LLMTestCase(input=c.source, actual_output=c.summary) for c in cases],
            metrics=[SummarizationMetric(model=model)],
            display_config=DisplayConfig(print_results=False, show_indicator=False),
            error_config=ErrorConfig(ignore_errors=True),  # a failed row is counted, not fatal
        )
        return sum(1 for row in result.test_results for d in row.metrics_data or [] if d.error)

    return run


# ------------------------------------------------------------------- the other frameworks


def mlflow_evaluate(preset: str) -> Runner:
    def run(url: str, cases: list[Case]) -> int:
        import mlflow

        from summscore.mlflow import Summarization

        store = tempfile.mkdtemp(prefix="summscore-bench-mlflow-")
        os.environ["MLFLOW_ALLOW_FILE_STORE"] = "true"  # mlflow-skinny has no SQL store
        os.environ["MLFLOW_TRACKING_URI"] = f"file://{store}"
        mlflow.set_tracking_uri(f"file://{store}")
        mlflow.set_experiment("summscore-bench")
        data = [{"inputs": {"document": c.source}, "outputs": c.summary} for c in cases]
        scorer = Summarization(scorer=_scorer(url, preset))
        table = mlflow.genai.evaluate(data=data, scorers=[scorer]).result_df
        return int(table["summarization/value"].isna().sum())

    return run


def opik_evaluate(preset: str) -> Runner:
    def run(url: str, cases: list[Case]) -> int:
        import opik

        from summscore.opik import Summarization

        result = opik.evaluate_on_dict_items(
            items=[{"input": c.source, "summary": c.summary} for c in cases],
            task=lambda item: {"output": item["summary"]},
            scoring_metrics=[Summarization(scorer=_scorer(url, preset), track=False)],
        )
        return sum(1 for t in result.test_results for s in t.score_results if s.scoring_failed)

    return run


def inspect_eval(preset: str) -> Runner:
    def run(url: str, cases: list[Case]) -> int:
        from inspect_ai import Task, eval
        from inspect_ai.dataset import Sample
        from inspect_ai.model import ModelOutput, ModelUsage, get_model
        from inspect_ai.solver import generate

        from summscore.inspect import summarization

        outputs = [
            ModelOutput.from_content(model="mockllm/model", content=c.summary) for c in cases
        ]
        for output in outputs:  # mockllm would count tokens with tiktoken (a download)
            output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        task = Task(
            dataset=[Sample(input=c.source, id=str(i)) for i, c in enumerate(cases)],
            solver=generate(),
            scorer=summarization(scorer=_scorer(url, preset)),
            model=get_model("mockllm/model", custom_outputs=outputs),
        )
        [log] = eval(
            task, log_dir=tempfile.mkdtemp(prefix="summscore-bench-inspect-"), display="none"
        )
        values = [s.scores["summarization"].value for s in log.samples or []]
        return sum(1 for v in values if not isinstance(v, (int, float)) or v != v)

    return run


def langsmith_evaluate(preset: str) -> Runner:
    def run(url: str, cases: list[Case]) -> int:
        from langsmith import Client, evaluate
        from langsmith.schemas import Example

        from summscore.langsmith import Summarization

        dataset = uuid.uuid4()
        summaries = {str(i): c.summary for i, c in enumerate(cases)}
        examples = [
            Example(id=uuid.uuid4(), dataset_id=dataset, inputs={"article": c.source, "n": str(i)})
            for i, c in enumerate(cases)
        ]
        results = evaluate(
            lambda inputs: {"summary": summaries[inputs["n"]]},
            data=examples,
            evaluators=[Summarization(scorer=_scorer(url, preset), source_key="article")],
            upload_results=False,
            client=Client(api_key="offline", api_url="http://127.0.0.1:9"),
        )
        return sum(
            1 for row in results for r in row["evaluation_results"]["results"] if r.score is None
        )

    return run


def braintrust_eval(preset: str) -> Runner:
    def run(url: str, cases: list[Case]) -> int:
        import braintrust

        from summscore.braintrust import Summarization

        # The task "writes" the case's summary (given as expected; the face ignores expected).
        result = braintrust.Eval(
            "summscore-bench",
            data=[braintrust.EvalCase(input=c.source, expected=c.summary) for c in cases],
            task=lambda input, hooks: hooks.expected,
            scores=[Summarization(scorer=_scorer(url, preset))],
            no_send_logs=True,
        )
        return sum(
            1
            for r in result.results
            if r.error is not None or r.scores.get("Summarization") is None
        )

    return run


def phoenix_evaluate(preset: str) -> Runner:
    def run(url: str, cases: list[Case]) -> int:
        import pandas as pd
        from phoenix.evals import async_evaluate_dataframe

        from summscore.phoenix import SummarizationEvaluator

        df = pd.DataFrame(
            {"input": [c.source for c in cases], "output": [c.summary for c in cases]}
        )
        evaluator = SummarizationEvaluator(scorer=_scorer(url, preset))
        out = asyncio.run(
            async_evaluate_dataframe(dataframe=df, evaluators=[evaluator], hide_tqdm_bar=True)
        )
        return sum(1 for d in out["summarization_score"] if d is None or d.get("score") is None)

    return run


# (loop, upstream runner, face runner, score_many runner for the 429 count, preset). Where the
# framework has no summarization metric of its own, score_many is the upstream to beat.
PRESET = "ragas"


def loops() -> list[tuple[str, Runner, Runner, Runner]]:
    many_ragas, many_deepeval = score_many("ragas"), score_many("deepeval")
    many = score_many(PRESET)
    return [
        ("ragas evaluate()", ragas_evaluate(False), ragas_evaluate(True), many_ragas),
        ("deepeval evaluate()", deepeval_evaluate(False), deepeval_evaluate(True), many_deepeval),
        ("MLflow genai.evaluate()", many, mlflow_evaluate(PRESET), many),
        ("Opik evaluate_on_dict_items()", many, opik_evaluate(PRESET), many),
        ("Inspect eval()", many, inspect_eval(PRESET), many),
        ("LangSmith evaluate()", many, langsmith_evaluate(PRESET), many),
        ("Braintrust Eval()", many, braintrust_eval(PRESET), many),
        ("Phoenix async_evaluate_dataframe()", many, phoenix_evaluate(PRESET), many),
    ]
