"""The switch that forbids real model requests (SUMMSCORE_ALLOW_MODEL_REQUESTS,
``allow_model_requests``): a judge that would ask a model raises before anything is sent; the
offline judge and function judges are never stopped; ``local`` lets only loopback servers through."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import httpx
import openai
import pytest
from compat.clients import KEY
from compat.judge_server import JudgeServer
from pydantic import BaseModel

from summscore import JudgeError, SummarizationScorer
from summscore.judges import (
    LexicalJudge,
    ModelRequestsForbidden,
    allow_model_requests,
    check_model_request,
)
from summscore.judges.guard import ALLOW_MODEL_REQUESTS_ENV, model_requests_allowed

from .fakes import FITNESS_SOURCE, FITNESS_SUMMARY


@pytest.fixture(scope="module")
def server() -> Iterator[JudgeServer]:
    judge_server = JudgeServer().start()
    yield judge_server
    judge_server.stop()


@pytest.fixture(autouse=True)
def _no_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ALLOW_MODEL_REQUESTS_ENV, raising=False)


class Recorder:
    """An httpx transport that records what reaches it (and answers nothing useful)."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(500, json={"error": {"message": "not a model"}})


def remote_client(recorder: Recorder) -> openai.AsyncOpenAI:
    """A client whose base URL is off this machine; its transport never leaves the process."""
    return openai.AsyncOpenAI(
        api_key=KEY,
        base_url="https://api.openai.com/v1",
        http_client=httpx.AsyncClient(transport=httpx.MockTransport(recorder)),
        max_retries=0,
    )


def local_scorer(server: JudgeServer) -> SummarizationScorer:
    client = openai.AsyncOpenAI(base_url=server.url, api_key=KEY, max_retries=0)
    return SummarizationScorer(
        client, model="gpt-4o-mini", preset="deepeval", prompts="own", max_retries=0
    )


def test_allowed_by_default(server: JudgeServer) -> None:
    assert model_requests_allowed() is True
    assert math.isfinite(local_scorer(server).score(FITNESS_SOURCE, FITNESS_SUMMARY).score)


def test_forbidden_in_the_block_nothing_is_sent(server: JudgeServer) -> None:
    before = server.stats.requests
    with allow_model_requests(False), pytest.raises(ModelRequestsForbidden) as caught:
        local_scorer(server).score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert server.stats.requests == before
    assert "openai:gpt-4o-mini" in str(caught.value)
    assert KEY not in str(caught.value)
    assert isinstance(caught.value, JudgeError)


@pytest.mark.parametrize("value", ["0", "false", "No", " off "])
def test_forbidden_by_the_environment(
    server: JudgeServer, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(ALLOW_MODEL_REQUESTS_ENV, value)
    before = server.stats.requests
    with pytest.raises(ModelRequestsForbidden, match=ALLOW_MODEL_REQUESTS_ENV):
        local_scorer(server).score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert server.stats.requests == before


def test_a_block_wins_over_the_environment_and_restores_it(
    server: JudgeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ALLOW_MODEL_REQUESTS_ENV, "0")
    with allow_model_requests(True):
        assert math.isfinite(local_scorer(server).score(FITNESS_SOURCE, FITNESS_SUMMARY).score)
        with allow_model_requests("local"):
            assert model_requests_allowed() == "local"
        assert model_requests_allowed() is True
    assert model_requests_allowed() is False


def test_a_block_restores_the_setting_after_an_exception() -> None:
    with pytest.raises(RuntimeError), allow_model_requests(False):
        raise RuntimeError("boom")
    assert model_requests_allowed() is True


def test_the_offline_judge_and_function_judges_are_never_stopped() -> None:
    async def judge(prompt: str, schema: type[BaseModel]) -> BaseModel:
        return schema.model_validate(_canned(schema))

    with allow_model_requests(False):
        offline = SummarizationScorer(LexicalJudge(), preset="deepeval")
        assert math.isfinite(offline.score(FITNESS_SOURCE, FITNESS_SUMMARY).score)
        function = SummarizationScorer(judge, preset="ragas", prompts="own")
        assert function.judge.name.startswith("function:")
        assert math.isfinite(function.score(FITNESS_SOURCE, FITNESS_SUMMARY).score)


def _canned(schema: type[BaseModel]) -> dict[str, Any]:
    """A valid reply for each task of the ragas preset."""
    fields = set(schema.model_fields)
    if "keyphrases" in fields:
        return {"keyphrases": ["training"]}
    if "questions" in fields:
        return {"questions": ["Does the text mention training?"]}
    if "answers" in fields:
        return {"answers": ["1"]}
    return {name: "ok" for name in fields}


def test_local_lets_loopback_servers_through(server: JudgeServer) -> None:
    with allow_model_requests("local"):
        assert math.isfinite(local_scorer(server).score(FITNESS_SOURCE, FITNESS_SUMMARY).score)


def test_local_stops_a_server_off_this_machine_before_sending() -> None:
    recorder = Recorder()
    scorer = SummarizationScorer(
        remote_client(recorder), model="gpt-4o-mini", prompts="own", max_retries=0
    )
    with allow_model_requests("local"), pytest.raises(ModelRequestsForbidden, match="off this"):
        scorer.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert recorder.requests == []


def test_a_batch_keeps_every_row_with_the_reason(server: JudgeServer) -> None:
    with allow_model_requests(False):
        results = local_scorer(server).score_many(
            [(FITNESS_SOURCE, FITNESS_SUMMARY), (FITNESS_SOURCE, "Another summary.")],
            progress=False,
        )
    assert len(results) == 2
    assert all(not r.ok and "forbidden" in (r.error or "") for r in results)


def test_framework_judges_are_stopped_too() -> None:
    fake_chat = pytest.importorskip("langchain_core.language_models.fake_chat_models")
    model = fake_chat.FakeListChatModel(responses=['{"answers": ["1"]}'])
    scorer = SummarizationScorer(model, preset="ragas", prompts="own", max_retries=0)
    assert scorer.judge.name.startswith("langchain:")
    with allow_model_requests("local"), pytest.raises(ModelRequestsForbidden):
        scorer.score(FITNESS_SOURCE, FITNESS_SUMMARY)


@pytest.mark.parametrize(
    ("base_url", "local"),
    [
        ("http://127.0.0.1:8099/v1", True),
        ("http://127.8.0.3/v1", True),
        ("http://localhost:11434/v1", True),
        ("http://[::1]:8000/v1", True),
        ("https://api.openai.com/v1", False),
        ("http://10.0.0.5:8000/v1", False),
        ("http://localhost.example.com/v1", False),
        ("", False),
        (None, False),
    ],
)
def test_which_addresses_are_local(base_url: str | None, local: bool) -> None:
    with allow_model_requests("local"):
        if local:
            check_model_request("judge", base_url)
        else:
            with pytest.raises(ModelRequestsForbidden):
                check_model_request("judge", base_url)


def test_a_bad_value_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ALLOW_MODEL_REQUESTS_ENV, "sometimes")
    with pytest.raises(ValueError, match=f"{ALLOW_MODEL_REQUESTS_ENV}='sometimes'"):
        check_model_request("judge")
    with pytest.raises(ValueError, match="allowed"), allow_model_requests("maybe"):  # type: ignore[arg-type]
        pass
