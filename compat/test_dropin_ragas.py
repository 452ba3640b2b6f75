"""Drop-in, side by side: what a migrating ragas user writes, run with ragas's summary metrics and
with summscore's on the same compat judge server (``AsyncOpenAI()`` with no arguments, reaching it
through ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``). Each test expects the same value, the same
prompts sent, or the same exception type and message.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

pytest.importorskip("ragas")
pytest.importorskip("ragas.metrics.collections")

from openai import AsyncOpenAI
from pydantic import BaseModel
from ragas import EvaluationDataset, evaluate
from ragas.dataset_schema import SingleTurnSample
from ragas.llms import llm_factory
from ragas.metrics._summarization import SummarizationScore as UpstreamLegacy
from ragas.metrics.collections import SummaryScore as Upstream

from compat.corpus import case
from compat.judge_server import JudgeServer
from compat.pytest_plugin import RecordingJudgeServer
from summscore import ragas as ours
from summscore.judges import LexicalJudge

pytestmark = pytest.mark.upstream

MODEL = "gpt-4o-mini"


def _outcome(make: Any) -> tuple[str, str]:
    try:
        make()
    except Exception as exc:
        return type(exc).__name__, str(exc)
    return "ok", ""


def _rejected_llms() -> list[Any]:
    from langchain_openai import ChatOpenAI
    from ragas.llms import LangchainLLMWrapper

    chat = ChatOpenAI(model=MODEL)
    return [MODEL, None, AsyncOpenAI(), chat, LangchainLLMWrapper(chat), object()]


@pytest.mark.parametrize("coeff", [0.5, 1.5])
def test_collections_llm_is_validated_as_ragas_does(openai_env: JudgeServer, coeff: float) -> None:
    for llm in _rejected_llms():
        theirs = _outcome(lambda llm=llm: Upstream(llm=llm, coeff=coeff))
        mine = _outcome(lambda llm=llm: ours.SummaryScore(llm=llm, coeff=coeff))
        assert theirs[0] == "ValueError", (llm, theirs)
        assert mine == theirs, type(llm).__name__
    assert (
        _outcome(lambda: ours.SummaryScore())[0] == _outcome(lambda: Upstream())[0] == "TypeError"
    )
    # Accepted by both: ragas's own LLM. summscore's judges are accepted too (ragas knows none).
    llm = llm_factory(MODEL, client=AsyncOpenAI())
    assert _outcome(lambda: Upstream(llm=llm)) == _outcome(lambda: ours.SummaryScore(llm=llm))
    assert ours.SummaryScore(llm=LexicalJudge()).scorer.judge.name == "lexical"
    assert openai_env.stats.requests == 0


async def test_collections_prompts_are_ragas_attributes_and_edits_reach_the_judge(
    recording_judge_server: RecordingJudgeServer,
) -> None:
    server = recording_judge_server
    c = case("news-tesla-misattributed")
    llm = llm_factory(MODEL, client=AsyncOpenAI())
    theirs, mine = Upstream(llm=llm), ours.SummaryScore(llm=llm)
    names = ("extract_keyphrases_prompt", "generate_questions_prompt", "generate_answers_prompt")
    for name in names:
        assert type(getattr(mine, name)) is type(getattr(theirs, name)), name
    sent, values = [], []
    for metric in (theirs, mine):
        for round_ in ("default", "edited"):
            if round_ == "edited":
                edited = copy.deepcopy(metric.generate_questions_prompt)
                edited.instruction += " Ask about names and numbers only."
                metric.generate_questions_prompt = edited
            server.prompts.clear()
            result = await metric.ascore(reference_contexts=list(c.contexts), response=c.summary)
            sent.append(list(server.prompts))
            values.append(result.value)
    their_default, their_edited, my_default, my_edited = sent
    assert my_default == their_default and my_edited == their_edited  # byte for byte, in order
    assert sum("names and numbers only" in p for p in my_edited) == 1
    assert values[2:] == values[:2]
    assert mine.scorer.prompt_set.endswith("+custom")


async def test_collections_edited_prompts_beside_a_shared_scorer_are_an_error() -> None:
    from summscore import SummarizationScorer

    metric = ours.SummaryScore(scorer=SummarizationScorer(llm=LexicalJudge(), preset="ragas"))
    assert hasattr(metric, "generate_answers_prompt")
    edited = copy.deepcopy(metric.generate_answers_prompt)
    edited.instruction = "Answer in Spanish."
    metric.generate_answers_prompt = edited
    with pytest.raises(ValueError, match="prompts were changed"):
        await metric.ascore(reference_contexts=["Rain fell."], response="It rained.")


def _dataset() -> EvaluationDataset:
    names = ("news-rates", "news-tesla-misattributed")
    return EvaluationDataset(
        samples=[
            SingleTurnSample(reference_contexts=list(case(n).contexts), response=case(n).summary)
            for n in names
        ]
    )


def _run(metric: Any, server: RecordingJudgeServer) -> tuple[list[float], list[str]]:
    server.prompts.clear()
    frame = evaluate(
        _dataset(),
        metrics=[metric],
        llm=llm_factory(MODEL, client=AsyncOpenAI()),
        show_progress=False,
        raise_exceptions=True,
    ).to_pandas()
    return list(frame[metric.name]), sorted(server.prompts)


def test_legacy_get_prompts_and_set_prompts_as_ragas(
    recording_judge_server: RecordingJudgeServer,
) -> None:
    server = recording_judge_server
    theirs, mine = UpstreamLegacy(), ours.SummarizationScore()
    assert {k: type(v) for k, v in mine.get_prompts().items()} == {
        k: type(v) for k, v in theirs.get_prompts().items()
    }
    assert _run(mine, server) == _run(theirs, server)  # the same prompts, the same values

    for metric in (theirs, mine):
        (key,) = [k for k in metric.get_prompts() if "questions" in k]
        prompt = copy.deepcopy(metric.get_prompts()[key])
        prompt.instruction += " Ask about names and numbers only."
        metric.set_prompts(**{key: prompt})
    their_values, their_prompts = _run(theirs, server)
    my_values, my_prompts = _run(mine, server)
    assert my_prompts == their_prompts and my_values == their_values
    assert sum("names and numbers only" in p for p in my_prompts) == 2

    for bad in ({"no_such_prompt": prompt}, {"generate_answers": "not a prompt"}):
        theirs_error = _outcome(lambda bad=bad: theirs.set_prompts(**bad))
        assert theirs_error[0] == "ValueError"
        assert _outcome(lambda bad=bad: mine.set_prompts(**bad)) == theirs_error


def _translator() -> Any:
    """A ragas LLM that "translates" by tagging each statement (the judge server does not translate)."""
    from ragas.llms.base import InstructorBaseRagasLLM

    class Translator(InstructorBaseRagasLLM):
        is_async = True

        def generate(self, prompt: str, response_model: type[BaseModel]) -> Any:
            data = json.loads(prompt.rsplit("input: ", 1)[1].rsplit("Output: ", 1)[0])
            return response_model(statements=[f"[es] {s}" for s in data["statements"]])

        async def agenerate(self, prompt: str, response_model: type[BaseModel]) -> Any:
            return self.generate(prompt, response_model)

    return Translator()


async def test_legacy_adapt_prompts_as_ragas(recording_judge_server: RecordingJudgeServer) -> None:
    llm = llm_factory(MODEL, client=AsyncOpenAI())
    theirs, mine = UpstreamLegacy(), ours.SummarizationScore()
    adapted = []
    for metric in (theirs, mine):
        prompts = await metric.adapt_prompts("spanish", llm=_translator(), adapt_instruction=True)
        metric.set_prompts(**prompts)
        adapted.append({k: (v.language, v.instruction, v.examples) for k, v in prompts.items()})
    assert adapted[1] == adapted[0]
    assert {language for language, _, _ in adapted[1].values()} == {"spanish"}
    assert all(instruction.startswith("[es] ") for _, instruction, _ in adapted[1].values())
    sample = SingleTurnSample(
        reference_contexts=list(case("news-rates").contexts), response=case("news-rates").summary
    )
    theirs.llm = mine.llm = llm
    server = recording_judge_server
    values, sent = [], []
    for metric in (theirs, mine):
        server.prompts.clear()
        values.append(await metric.single_turn_ascore(sample))
        sent.append(list(server.prompts))
    assert values[1] == values[0] and sent[1] == sent[0]
    assert all("[es] " in p for p in sent[1])
