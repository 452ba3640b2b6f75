"""The Inspect AI face inside inspect_ai.eval(), against the compat judge server."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from compat.clients import MODEL, async_client
from compat.corpus import case
from compat.oracle import answer
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.solver import generate
from pydantic import BaseModel

from summscore import SummarizationScorer
from summscore.inspect import summarization

CASES = [
    case("news-tesla-faithful"),
    case("news-tesla-misattributed"),
    case("science-crispr-omits"),
]


def _task(scorer: Any) -> Task:
    """Each sample's input is the source; a mock model 'writes' the case's summary."""
    samples = [Sample(input=c.source, id=c.id) for c in CASES]
    outputs = [ModelOutput.from_content(model="mockllm/model", content=c.summary) for c in CASES]
    for output in outputs:  # given usage: mockllm would otherwise count tokens with tiktoken,
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # a download
    summarizer = get_model("mockllm/model", custom_outputs=outputs)
    return Task(dataset=samples, solver=generate(), scorer=scorer, model=summarizer)


def _scores(log: Any) -> dict[str, float]:
    return {s.id: s.scores["summarization"].value for s in log.samples}


def test_every_sample_is_scored_inside_inspect_eval(judge_server: Any, tmp_path: Path) -> None:
    shared = SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset="deepeval")
    [log] = eval(_task(summarization(scorer=shared)), log_dir=str(tmp_path), display="none")
    assert log.status == "success"
    expected = {c.id: shared.score(c.source, c.summary).score for c in CASES}
    assert _scores(log) == pytest.approx(expected)
    metrics = log.results.scores[0].metrics
    assert metrics["mean"].value == pytest.approx(sum(expected.values()) / len(expected))
    assert "stderr" in metrics


def _compat_grader(messages: Any, tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
    """An Inspect model answering as the compat judge server does, from the same oracle, with
    the JSON schema the judge backend asked for."""
    schema = config.response_schema.json_schema.model_dump(exclude_none=True)
    reply = json.dumps(answer(messages[-1].text, schema))
    output = ModelOutput.from_content(model="mockllm/grader", content=reply)
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output


def test_an_inspect_model_can_be_the_judge(judge_server: Any, tmp_path: Path) -> None:
    grader = get_model("mockllm/grader", custom_outputs=_compat_grader)
    task = _task(summarization(preset="ragas", model=grader))
    [log] = eval(task, log_dir=str(tmp_path), display="none")
    assert log.status == "success"
    reference = SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset="ragas")
    expected = {c.id: reference.score(c.source, c.summary).score for c in CASES}
    assert _scores(log) == pytest.approx(expected)


def test_name_names_each_instance_as_given_in_one_task(judge_server: Any, tmp_path: Path) -> None:
    presets = ("ragas", "deepeval", "mastra")
    shared = {
        p: SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset=p)
        for p in presets
    }
    scorers = [
        summarization(scorer=shared["ragas"]),
        summarization(name="summ_deepeval", scorer=shared["deepeval"]),
        summarization(name="summ_mastra", scorer=shared["mastra"]),
        summarization(scorer=shared["deepeval"]),  # a second unnamed one: Inspect's own suffix
    ]
    [log] = eval(_task(scorers), log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    names = ["summarization", "summ_deepeval", "summ_mastra", "summarization1"]
    assert [s.name for s in log.results.scores] == names
    for sample in log.samples:
        c = next(c for c in CASES if c.id == sample.id)
        assert list(sample.scores) == names
        expected = {p: shared[p].score(c.source, c.summary).score for p in presets}
        assert sample.scores["summarization"].value == pytest.approx(expected["ragas"])
        assert sample.scores["summ_deepeval"].value == pytest.approx(expected["deepeval"])
        assert sample.scores["summ_mastra"].value == pytest.approx(expected["mastra"])
        assert sample.scores["summarization1"].value == pytest.approx(expected["deepeval"])
    with pytest.raises(ValueError, match="name must be a non-empty string"):
        summarization(name="", scorer=shared["ragas"])


def test_summscore_judge_calls_run_off_inspects_event_loop(tmp_path: Path) -> None:
    """With summscore's own judge (``scorer=``/``llm=``) the judge's calls run on summscore's
    background loop, not on the loop where Inspect does each sample's logging between the
    scorer's awaits (answers read there waited for that work: issue #48)."""
    threads: list[str] = []

    async def judge(prompt: str, schema: type[BaseModel]) -> BaseModel:
        threads.append(threading.current_thread().name)
        return schema.model_validate(answer(prompt, schema.model_json_schema()))

    shared = SummarizationScorer(llm=judge, preset="ragas")
    [log] = eval(_task(summarization(scorer=shared)), log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    assert threads and set(threads) == {"summscore-loop"}
    expected = {c.id: shared.score(c.source, c.summary).score for c in CASES}
    assert _scores(log) == pytest.approx(expected)
