"""The systems ``throughput.py --faces`` times: each framework's own evaluation loop with
summscore's face, with the framework's own metric where it has one, and the core's
``score_many`` on the same cases. Every runner takes ``(url, cases)`` (the compat judge server's
base URL, the cases) and returns how many rows failed. A face is given ``scorer=`` a scorer over
an ``AsyncOpenAI`` client (adaptive request limit, no ``max_concurrency``), built as
``score_many``'s is, so that its 429 count is the one to compare a face's with.

A loop runs at its default concurrency (``rows=None``: ragas ``evaluate()`` 16 workers, deepeval
``evaluate()`` 20 test cases, MLflow ``genai.evaluate()`` 10 threads, Opik
``evaluate_on_dict_items`` 16 scoring threads, Inspect ``eval()`` the model's connection limit,
LangSmith ``evaluate()`` one example at a time, Braintrust ``Eval`` no limit, Phoenix
``async_evaluate_dataframe`` 3 rows) or with its own knob set to ``rows`` (``groups`` sets it to
every row at once, as ``score_many`` has them). A loop that judges fewer rows at once than the
face could keeps it below ``score_many``, which has no such cap: that is the loop's limit, not
the face's, and the raised rows take it away.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import loop_alone
import loop_judges
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


def core_rows_at_once(preset: str, rows: int) -> Runner:
    """The core given ``rows`` cases at a time, as a loop that holds ``rows`` rows in flight
    hands them to a face: ``ascore`` per case on one shared scorer, at most ``rows`` at once.
    What the judge costs at the loop's concurrency, without the loop: with one row at a time,
    each case waits its dependent judge rounds in turn, which no face in that loop can avoid."""

    def run(url: str, cases: list[Case]) -> int:
        async def main() -> int:
            scorer = _scorer(url, preset)
            gate = asyncio.Semaphore(rows)

            async def one(case: Case) -> bool:
                async with gate:
                    try:
                        result = await scorer.ascore(list(case.contexts), case.summary)
                    except Exception:
                        return False
                    return bool(result.ok)

            return sum(not ok for ok in await asyncio.gather(*(one(c) for c in cases)))

        return asyncio.run(main())

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
    """``deepeval.evaluate()`` with deepeval's ``SummarizationMetric`` or summscore's face, with
    deepeval's defaults (its test-run cache written, as a user who sets nothing has it)."""

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
        with _fresh_directory():  # deepeval's run cache, rewritten after every test case
            result = evaluate(
                test_cases=[LLMTestCase(input=c.source, actual_output=c.summary) for c in cases],
                metrics=[SummarizationMetric(model=model)],
                display_config=DisplayConfig(print_results=False, show_indicator=False),
                error_config=ErrorConfig(ignore_errors=True),  # a failed row is counted
            )
        return sum(1 for row in result.test_results for d in row.metrics_data or [] if d.error)

    return run


# ------------------------------------------------------------------- the other frameworks


def mlflow_evaluate(
    preset: str, rows: int | None = None, own: bool = False, alone: bool = False
) -> Runner:
    """``mlflow.genai.evaluate()``: rows at once = ``MLFLOW_GENAI_EVAL_MAX_WORKERS`` (10)."""

    def run(url: str, cases: list[Case]) -> int:
        import mlflow

        from summscore.mlflow import Summarization

        store = tempfile.mkdtemp(prefix="summscore-bench-mlflow-")
        os.environ["MLFLOW_ALLOW_FILE_STORE"] = "true"  # mlflow-skinny has no SQL store
        os.environ["MLFLOW_TRACKING_URI"] = f"file://{store}"
        mlflow.set_tracking_uri(f"file://{store}")
        mlflow.set_experiment("summscore-bench")
        data = [{"inputs": {"document": c.source}, "outputs": c.summary} for c in cases]
        if own:
            scorer, column = loop_judges.mlflow_judge(url), loop_judges.MLFLOW_COLUMN
        elif alone:
            scorer, column = loop_alone.mlflow(), loop_alone.MLFLOW_COLUMN
        else:
            scorer, column = Summarization(scorer=_scorer(url, preset)), "summarization/value"
        with _env(MLFLOW_GENAI_EVAL_MAX_WORKERS=rows):
            table = mlflow.genai.evaluate(data=data, scorers=[scorer]).result_df
        return int(table[column].isna().sum())

    return run


def opik_evaluate(
    preset: str, rows: int | None = None, own: bool = False, alone: bool = False
) -> Runner:
    """``opik.evaluate_on_dict_items()``: rows at once = ``scoring_threads`` (16)."""

    def run(url: str, cases: list[Case]) -> int:
        import opik

        from summscore.opik import Summarization

        if own:
            metric = loop_judges.opik_judge(url)
        elif alone:
            metric = loop_alone.opik()
        else:
            metric = Summarization(scorer=_scorer(url, preset), track=False)
        result = opik.evaluate_on_dict_items(
            items=[{"input": c.source, "summary": c.summary, "context": [c.source]} for c in cases],
            task=lambda item: {"output": item["summary"]},
            scoring_metrics=[metric],
            **({} if rows is None else {"scoring_threads": rows}),
        )
        return sum(1 for t in result.test_results for s in t.score_results if s.scoring_failed)

    return run


def inspect_eval(preset: str, rows: int | None = None, alone: bool = False) -> Runner:
    """Inspect ``eval()``: samples at once = ``max_samples`` (default ``max_connections``, 10)."""

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
            scorer=loop_alone.inspect() if alone else summarization(scorer=_scorer(url, preset)),
            model=get_model("mockllm/model", custom_outputs=outputs),
        )
        [log] = eval(
            task,
            log_dir=tempfile.mkdtemp(prefix="summscore-bench-inspect-"),
            display="none",
            **({} if rows is None else {"max_samples": rows}),
        )
        name = loop_alone.NAME if alone else "summarization"
        values = [s.scores[name].value for s in log.samples or []]
        return sum(1 for v in values if not isinstance(v, (int, float)) or v != v)

    return run


def langsmith_evaluate(preset: str, rows: int | None = None, alone: bool = False) -> Runner:
    """LangSmith ``evaluate()``: examples at once = ``max_concurrency`` (0: one at a time)."""

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
            evaluators=[
                loop_alone.langsmith()
                if alone
                else Summarization(scorer=_scorer(url, preset), source_key="article")
            ],
            upload_results=False,
            client=Client(api_key="offline", api_url="http://127.0.0.1:9"),
            **({} if rows is None else {"max_concurrency": rows}),
        )
        return sum(
            1 for row in results for r in row["evaluation_results"]["results"] if r.score is None
        )

    return run


def braintrust_eval(
    preset: str, rows: int | None = None, own: bool = False, alone: bool = False
) -> Runner:
    """``braintrust.Eval()``: rows at once = ``max_concurrency`` (no limit by default)."""

    def run(url: str, cases: list[Case]) -> int:
        import braintrust

        from summscore.braintrust import Summarization

        # The task "writes" the case's summary (given as expected; the face ignores expected).
        if own:
            score = loop_judges.braintrust_judge(url)
        elif alone:
            score = loop_alone.braintrust()
        else:
            score = Summarization(scorer=_scorer(url, preset))
        result = braintrust.Eval(
            "summscore-bench",
            data=[braintrust.EvalCase(input=c.source, expected=c.summary) for c in cases],
            task=lambda input, hooks: hooks.expected,
            scores=[score],
            no_send_logs=True,
            **({} if rows is None else {"max_concurrency": rows}),
        )
        name = loop_judges.BRAINTRUST_NAME if own else loop_alone.NAME if alone else "Summarization"
        return sum(1 for r in result.results if r.error is not None or r.scores.get(name) is None)

    return run


def phoenix_evaluate(
    preset: str, rows: int | None = None, own: bool = False, alone: bool = False
) -> Runner:
    """Phoenix ``async_evaluate_dataframe()``: rows at once = ``concurrency`` (3)."""

    def run(url: str, cases: list[Case]) -> int:
        import pandas as pd
        from phoenix.evals import async_evaluate_dataframe

        from summscore.phoenix import SummarizationEvaluator

        df = pd.DataFrame(
            {
                "input": [c.source for c in cases],
                "output": [c.summary for c in cases],
                "context": [c.source for c in cases],
            }
        )
        if own:
            evaluator, column = loop_judges.phoenix_judge(url), loop_judges.PHOENIX_COLUMN
        elif alone:
            evaluator, column = loop_alone.phoenix(), loop_alone.PHOENIX_COLUMN
        else:
            evaluator = SummarizationEvaluator(scorer=_scorer(url, preset))
            column = "summarization_score"
        out = asyncio.run(
            async_evaluate_dataframe(
                dataframe=df,
                evaluators=[evaluator],
                hide_tqdm_bar=True,
                **({} if rows is None else {"concurrency": rows}),
            )
        )
        return sum(1 for d in out[column] if d is None or d.get("score") is None)

    return run


# ------------------------------------------------------------------- helpers


@contextmanager
def _fresh_directory() -> Iterator[None]:
    """Work in a new empty directory for the block. deepeval keeps its test-run cache in
    ``.deepeval/`` under the working directory and writes the whole file again after each test
    case: in a shared directory every run would pay for the test cases of all the runs before it
    (the later systems of a repeat more than the first), so each run starts with none, as a
    user's first run does."""
    workdir = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="summscore-bench-deepeval-") as scratch:
        os.chdir(scratch)
        try:
            yield
        finally:
            os.chdir(workdir)


@contextmanager
def _env(**values: int | None) -> Iterator[None]:
    """Set the environment variables given a value for the block, then put back what was."""
    saved = {name: os.environ.get(name) for name in values}
    try:
        for name, value in values.items():
            if value is not None:
                os.environ[name] = str(value)
        yield
    finally:
        for name, old in saved.items():
            if old is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = old
