"""The Opik face on its own and inside opik.evaluate_on_dict_items(), against the compat judge:
its judge named as Opik's own LLM-judge metrics name theirs (a model name, Opik's model objects,
Opik's default model), beside Opik's Hallucination metric on the same model.

opik.evaluation.evaluate() needs an Opik server (a Dataset lives there); evaluate_on_dict_items
is Opik's own evaluation loop without one, so that is what runs here, with tracking off.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # litellm would fetch its price map
opik = pytest.importorskip("opik")

from compat.clients import KEY, MODEL, async_client  # noqa: E402
from compat.corpus import case  # noqa: E402
from compat.oracle import answer  # noqa: E402
from opik.evaluation.metrics import Hallucination  # noqa: E402
from opik.evaluation.models import LiteLLMChatModel, OpikBaseModel, models_factory  # noqa: E402

from summscore import SummarizationScorer  # noqa: E402
from summscore.judges import LexicalJudge, OpikJudge  # noqa: E402
from summscore.opik import Summarization  # noqa: E402

CASES = [
    case("news-tesla-faithful"),
    case("news-tesla-misattributed"),
    case("science-crispr-omits"),
]


def test_every_item_is_scored_inside_opiks_evaluation_loop(judge_server: Any) -> None:
    shared = SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset="mastra")
    items = [{"input": c.source, "summary": c.summary} for c in CASES]
    result = opik.evaluate_on_dict_items(
        items=items,
        task=lambda item: {"output": item["summary"]},
        scoring_metrics=[Summarization(scorer=shared, track=False)],
    )
    values = [t.score_results[0].value for t in result.test_results]
    expected = [shared.score(c.source, c.summary).score for c in CASES]
    assert sorted(values) == pytest.approx(sorted(expected))


def test_score_and_ascore_return_the_reason_and_evidence() -> None:
    metric = Summarization(llm=LexicalJudge(), preset="deepeval", track=False)
    c = case("science-crispr-omits")
    result = metric.score(input=c.source, output=c.summary)
    assert result.value == pytest.approx(metric.scorer.score(c.source, c.summary).score)
    assert result.reason and {"alignment_score", "coverage_score"} <= set(result.metadata)


def test_context_is_the_source_when_given() -> None:
    metric = Summarization(llm=LexicalJudge(), track=False)
    c = case("report-q3-multi-context")
    result = metric.score(input="summarize the report", output=c.summary, context=list(c.contexts))
    assert result.value == pytest.approx(metric.scorer.score(list(c.contexts), c.summary).score)


def test_a_bad_item_is_a_failed_score_naming_the_field() -> None:
    metric = Summarization(llm=LexicalJudge(), track=False)
    result = metric.score(input="source text", output="")
    assert result.scoring_failed and math.isnan(result.value)
    assert "summary" in result.reason


# ----------------------------------------------------------------- the judge, named Opik's way


@pytest.fixture
def openai_env(judge_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """LiteLLM's OpenAI provider pointed at the compat judge, as a user's environment points it."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", judge_server.url)
    monkeypatch.delenv("OPENAI_API_BASE", raising=False)


def _expected(judge_server: Any, c: Any, preset: str) -> float:
    reference = SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset=preset)
    return reference.score(c.source, c.summary).score


def _hallucination_ran(model: Any) -> Any:
    """Opik's own LLM-judge metric on ``model``; it must have reached the judge. Its model."""
    metric = Hallucination(model=model, track=False)
    result = metric.score(input="What closed?", output="The plant closed.", context=["It closed."])
    assert not getattr(result, "scoring_failed", False), result.reason
    return metric._model


def test_a_model_name_is_read_as_opiks_metrics_read_it(judge_server: Any, openai_env: None) -> None:
    c = case("news-fitness")
    metric = Summarization(model="gpt-4o-mini", preset="deepeval", track=False)
    result = metric.score(input=c.source, output=c.summary)
    assert not result.scoring_failed, result.reason
    assert result.value == pytest.approx(_expected(judge_server, c, "deepeval"))
    # The very model object Opik's Hallucination makes of the same name (Opik caches them).
    assert isinstance(metric.scorer.judge, OpikJudge)
    assert metric.scorer.judge.model is _hallucination_ran("gpt-4o-mini")
    # A string llm= means the same in the Opik face.
    assert (
        Summarization(llm="gpt-4o-mini", track=False).scorer.judge.model
        is metric.scorer.judge.model
    )


def test_opiks_model_objects_are_judges(judge_server: Any, openai_env: None) -> None:
    c = case("report-q3-hallucinates")
    model = LiteLLMChatModel(
        model_name="openai/gpt-4o-mini", track=False, api_base=judge_server.url
    )
    expected = _expected(judge_server, c, "mastra")
    for metric in (
        Summarization(model=model, preset="mastra", track=False),
        Summarization(llm=model, preset="mastra", track=False),
    ):
        result = metric.score(input=c.source, output=c.summary)
        assert result.value == pytest.approx(expected), result.reason
        assert metric.scorer.judge.name == "opik:openai/gpt-4o-mini"
    assert _hallucination_ran(model) is model


class _OracleModel(OpikBaseModel):
    """A model of a user's own implementing only what OpikBaseModel makes abstract, answering as
    the compat judge does."""

    def __init__(self) -> None:
        super().__init__(model_name="oracle")
        self.prompts = 0

    def generate_string(self, input: str, response_format: Any = None, **kwargs: Any) -> str:
        self.prompts += 1
        schema = response_format.model_json_schema() if response_format else None
        return json.dumps(answer(input, schema))

    def generate_provider_response(self, messages: list[dict[str, Any]], **kwargs: Any) -> Any:
        raise AssertionError("not asked")


def test_a_user_model_with_only_the_abstract_methods_is_a_judge(judge_server: Any) -> None:
    c = case("science-crispr")
    model = _OracleModel()
    result = Summarization(model=model, preset="ragas", track=False).score(
        input=c.source, output=c.summary
    )
    assert result.value == pytest.approx(_expected(judge_server, c, "ragas")), result.reason
    assert model.prompts > 0


def test_no_judge_named_is_opiks_default_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPIK_DEFAULT_LLM", "gpt-4o-mini")
    metric = Summarization(track=False)
    assert metric.scorer.judge.model is models_factory.get(model_name=None, track=False)
    assert metric.scorer.judge.name == "opik:gpt-4o-mini"
    with pytest.raises(TypeError, match="pass the judge once"):
        Summarization(llm=LexicalJudge(), model="gpt-4o-mini")
    shared = SummarizationScorer(llm=LexicalJudge())
    with pytest.raises(ValueError, match="model= and scorer= name different judges"):
        Summarization(scorer=shared, model="gpt-4o-mini")
