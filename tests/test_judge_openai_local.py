"""The OpenAI-compatible judge against local servers: llama-cpp-python's refusals, unreachable hosts."""

from __future__ import annotations

from typing import Any

import pytest

from summscore import JudgeError, SummarizationScorer
from summscore.judges import OpenAIJudge, _openai_format

from .fakes import FITNESS_SOURCE, FITNESS_SUMMARY
from .test_judge_openai import REQUEST, Server, client, completion, httpx


def _llama_cpp_python(body: dict[str, Any]) -> Any:
    """What llama-cpp-python's server (0.2 to 0.3) answers to a json_schema response_format."""
    fmt = body.get("response_format", {}).get("type")
    if fmt == "json_schema":
        message = (
            "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', "
            "'type'), 'msg': \"Input should be 'text' or 'json_object'\"}"
        )
        return httpx.Response(
            500, json={"error": {"message": message, "type": "internal_server_error"}}
        )
    return httpx.Response(200, json=completion('{"answers": ["1"]}'))


@pytest.fixture(autouse=True)
def _forget_negotiations() -> Any:
    _openai_format._negotiated.clear()
    yield
    _openai_format._negotiated.clear()


async def test_a_500_that_names_the_format_falls_back_to_json_mode() -> None:
    server = Server(_llama_cpp_python)
    judge = OpenAIJudge(client(server), "qwen")
    reply = await judge.complete(REQUEST)
    assert reply.output == '{"answers": ["1"]}'
    assert [b.get("response_format", {}).get("type") for b in server.bodies] == [
        "json_schema",
        "json_object",
    ]
    assert judge.response_format == "json_object"


async def test_the_fallback_is_remembered_for_the_server() -> None:
    first = Server(_llama_cpp_python)
    await OpenAIJudge(client(first), "qwen").complete(REQUEST)
    second = Server(_llama_cpp_python)
    judge = OpenAIJudge(client(second), "qwen")  # same base URL and model: no second refusal
    assert judge.response_format == "json_object"
    await judge.complete(REQUEST)
    assert [b["response_format"]["type"] for b in second.bodies] == ["json_object"]


def test_a_500_that_does_not_name_the_format_is_retried_not_downgraded() -> None:
    calls = {"n": 0}

    def flaky(body: dict[str, Any]) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            return httpx.Response(500, json={"error": {"message": "boom", "type": "server_error"}})
        return httpx.Response(200, json=completion('{"answers": ["1", "1", "1", "1", "1"]}'))

    server = Server(flaky)
    scorer = SummarizationScorer(
        llm=client(server), model="qwen", preset="ragas", prompts="own", backoff=0
    )
    judge = scorer.judge
    assert isinstance(judge, OpenAIJudge)
    scorer.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert judge.response_format == "json_schema"
    assert server.bodies[0]["response_format"]["type"] == "json_schema"


def test_an_unreachable_server_is_named_in_the_error() -> None:
    import openai

    unreachable = openai.AsyncOpenAI(base_url="http://127.0.0.1:9/v1", api_key="sk-x-unused-123456")
    scorer = SummarizationScorer(llm=unreachable, model="m", max_retries=0, backoff=0)
    with pytest.raises(JudgeError, match=r"judge server: http://127\.0\.0\.1:9/v1"):
        scorer.score(FITNESS_SOURCE, FITNESS_SUMMARY)


def test_a_timeout_on_a_local_server_says_what_to_do() -> None:
    def slow(request: Any) -> Any:
        raise httpx.ReadTimeout("timed out", request=request)

    import openai

    local = openai.AsyncOpenAI(
        base_url="http://127.0.0.1:8080/v1",
        api_key="sk-x-unused-123456",
        http_client=httpx.AsyncClient(transport=httpx.MockTransport(slow)),
    )
    scorer = SummarizationScorer(llm=local, model="m", max_retries=0, backoff=0)
    with pytest.raises(JudgeError, match="max_concurrency=1"):
        scorer.score(FITNESS_SOURCE, FITNESS_SUMMARY)


def test_one_async_client_serves_several_event_loops_in_turn(judge_server: Any) -> None:
    """asyncio.run twice (a notebook cell, then Inspect's eval(), then score()): each loop gets
    its own connection pool, so a pool opened on a closed loop is never reused."""
    import asyncio

    import openai

    client = openai.AsyncOpenAI(base_url=judge_server.url, api_key="sk-x-unused-123456")
    scorer = SummarizationScorer(llm=client, model="gpt-4o-mini", max_retries=0)
    first = asyncio.run(scorer.ascore(FITNESS_SOURCE, FITNESS_SUMMARY))
    second = asyncio.run(scorer.ascore(FITNESS_SOURCE, FITNESS_SUMMARY + " More."))
    third = scorer.score(FITNESS_SOURCE, FITNESS_SUMMARY + " Even more.")
    assert first.ok and second.ok and third.ok
