"""The Braintrust face: an autoevals Scorer on its own and inside braintrust.Eval(), against the
compat judge. Eval runs in its local mode (no_send_logs=True): no Braintrust account, no upload."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openai
import pytest

autoevals = pytest.importorskip("autoevals")
braintrust = pytest.importorskip("braintrust")

from autoevals.llm import Factuality  # noqa: E402
from compat.clients import KEY, MODEL, async_client  # noqa: E402
from compat.corpus import case  # noqa: E402

from summscore import SummarizationScorer  # noqa: E402
from summscore.braintrust import Summarization  # noqa: E402
from summscore.judges import LexicalJudge  # noqa: E402

CASES = [  # three sources, so that a case is known by its source
    case("news-tesla-misattributed"),
    case("news-rates-wrong-number"),
    case("science-crispr-omits"),
]


def test_every_case_is_scored_inside_braintrust_eval(judge_server: Any) -> None:
    shared = SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset="mastra")
    summaries = {c.source: c.summary for c in CASES}
    result = braintrust.Eval(
        "summscore-faces",
        data=[braintrust.EvalCase(input=c.source, expected=c.summary) for c in CASES],
        task=lambda input: summaries[input],
        scores=[Summarization(scorer=shared)],
        no_send_logs=True,
    )
    assert [r.error for r in result.results] == [None] * len(CASES)
    got = {r.input: r.scores["Summarization"] for r in result.results}
    expected = {c.source: shared.score(c.source, c.summary).score for c in CASES}
    assert got == pytest.approx(expected)
    assert result.summary.scores["Summarization"].score == pytest.approx(
        sum(expected.values()) / len(expected)
    )


def test_the_class_in_scores_uses_the_openai_judge_of_the_environment(openai_env: Any) -> None:
    """Eval(..., scores=[Summarization]) instantiates it bare, as autoevals' Factuality: the
    judge is an OpenAI client from OPENAI_API_KEY / OPENAI_BASE_URL with autoevals' model."""
    c = case("news-tesla-faithful")
    result = braintrust.Eval(
        "summscore-faces",
        data=[braintrust.EvalCase(input=c.source)],
        task=lambda input: c.summary,
        scores=[Summarization],
        no_send_logs=True,
    )
    [row] = result.results
    reference = SummarizationScorer(
        llm=async_client(openai_env), model=Summarization().scorer.judge.model
    )
    assert row.scores["Summarization"] == pytest.approx(reference.score(c.source, c.summary).score)


@pytest.fixture(autouse=True)
def no_autoevals_client() -> Iterator[None]:
    """No client set with autoevals.init before or after a test (it is process-wide)."""
    autoevals.init()
    yield
    autoevals.init()


@pytest.fixture
def no_openai_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """A usual Braintrust setup: no OPENAI_* variables."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "BRAINTRUST_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def _has_default_model() -> bool:
    import inspect

    return "default_model" in inspect.signature(autoevals.init).parameters


def _side_by_side(case: Any, scores: list[Any]) -> Any:
    """One Eval of ``case`` scored by ``scores`` (autoevals' own Factuality among them)."""
    result = braintrust.Eval(
        "summscore-faces",
        data=[braintrust.EvalCase(input=case.source, expected=case.summary)],
        task=lambda input: case.summary,
        scores=scores,
        no_send_logs=True,
    )
    [row] = result.results
    return row


def test_the_client_set_with_autoevals_init_judges_as_for_autoevals_scorers(
    judge_server: Any, no_openai_env: None
) -> None:
    """No OPENAI_API_KEY, the client set with autoevals.init (Braintrust's usual setup): the face
    scores with that client and autoevals' default model, beside autoevals' Factuality in one
    Eval; also when init comes after the face was built."""
    c = case("news-rates-wrong-number")
    early = Summarization(name="Early")  # before init: no key anywhere yet
    client = openai.AsyncOpenAI(base_url=judge_server.url, api_key=KEY, max_retries=0)
    if _has_default_model():
        autoevals.init(client=client, default_model=MODEL)
    else:  # autoevals before init(default_model=...): its default model name goes to the server
        autoevals.init(client=client)
    row = _side_by_side(c, [Summarization, early, Factuality])
    assert (row.metadata or {}).get("scorer_errors") is None, row.metadata
    model = Summarization().scorer.judge.model
    expected = SummarizationScorer(llm=client, model=model).score(c.source, c.summary).score
    assert row.scores["Summarization"] == pytest.approx(expected)
    assert row.scores["Early"] == pytest.approx(expected)
    assert row.scores["Factuality"] is not None  # autoevals' scorer reached the same client
    assert Summarization().scorer.llm is client


def test_a_sync_client_set_with_autoevals_init_judges_too(
    judge_server: Any, no_openai_env: None
) -> None:
    """The issue's setup, a synchronous openai.OpenAI given to autoevals.init."""
    c = case("science-crispr-omits")
    client = openai.OpenAI(base_url=judge_server.url, api_key=KEY, max_retries=0)
    autoevals.init(client=client)
    metric = Summarization(model=MODEL)
    expected = SummarizationScorer(llm=client, model=MODEL).score(c.source, c.summary).score
    assert metric(output=c.summary, input=c.source).score == pytest.approx(expected)


def test_without_a_client_the_braintrust_proxy_and_key_are_used_as_autoevals_does(
    judge_server: Any, no_openai_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No OPENAI_* variables and no init: autoevals' scorers go to Braintrust's AI proxy with
    BRAINTRUST_API_KEY, and so does the face (the proxy here is the judge server)."""
    from autoevals.oai import prepare_openai

    monkeypatch.setenv("BRAINTRUST_API_KEY", "bt-not-a-real-key")
    monkeypatch.setenv("BRAINTRUST_AI_GATEWAY_URL", judge_server.url)
    upstream = prepare_openai(is_async=True).openai
    judge = Summarization(model=MODEL).scorer.llm
    assert (str(judge.base_url), judge.api_key) == (str(upstream.base_url), upstream.api_key)
    assert judge.api_key == "bt-not-a-real-key"
    if not str(upstream.base_url).startswith(judge_server.url):
        return  # autoevals before BRAINTRUST_AI_GATEWAY_URL: its proxy is Braintrust's, online
    c = case("news-tesla-faithful")
    row = _side_by_side(c, [Summarization(model=MODEL), Factuality(model=MODEL)])
    assert (row.metadata or {}).get("scorer_errors") is None, row.metadata
    reference = SummarizationScorer(llm=async_client(judge_server), model=MODEL)
    assert row.scores["Summarization"] == pytest.approx(reference.score(c.source, c.summary).score)


def test_with_no_key_at_all_each_case_fails_as_autoevals_scorers_do(no_openai_env: None) -> None:
    """Nothing configured: building the scorer works and each case records the missing key
    under scorer_errors, as for autoevals' own Factuality; the run goes on."""
    c = case("news-tesla-faithful")
    row = _side_by_side(c, [Summarization, Factuality])
    errors = (row.metadata or {}).get("scorer_errors") or {}
    assert set(errors) == {"Summarization", "Factuality"}
    assert all("OpenAIError" in trace for trace in errors.values()), errors


def test_a_call_returns_autoevals_score_with_the_reason() -> None:
    metric = Summarization(llm=LexicalJudge(), preset="deepeval")
    c = case("science-crispr-omits")
    score = metric(output=c.summary, expected="a reference summary", input=c.source)
    assert isinstance(score, autoevals.Score)
    assert score.name == "Summarization"
    assert score.score == pytest.approx(metric.scorer.score(c.source, c.summary).score)
    assert score.metadata["rationale"] and "alignment_score" in score.metadata


async def test_eval_async_awaits_the_scorer() -> None:
    metric = Summarization(llm=LexicalJudge())
    c = case("news-tesla-faithful")
    score = await metric.eval_async(c.summary, input=c.source)
    assert score.score == pytest.approx(metric.scorer.score(c.source, c.summary).score)


def test_a_bad_case_raises_naming_the_field_as_autoevals_scorers_do() -> None:
    metric = Summarization(llm=LexicalJudge())
    with pytest.raises(Exception, match="input"):
        metric(output="a summary", input=None)


def test_a_scale_other_than_one_is_refused_as_braintrust_scores_lie_in_0_1() -> None:
    shared = SummarizationScorer(llm=LexicalJudge(), preset="mastra", scale=10)
    with pytest.raises(ValueError, match="scale=10"):
        Summarization(scorer=shared)


def test_model_and_client_do_not_go_beside_llm() -> None:
    with pytest.raises(TypeError, match="model= and client="):
        Summarization(llm=LexicalJudge(), model="gpt-4o-mini")
