"""The OpenAI judge's direct path: the SDK client's own ``post`` with the finished body, read as JSON.

It must send what ``chat.completions.create`` sends, read what the SDK reads, and step aside for a
``create`` that a tracing library replaced.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import openai
import pytest
from openai.resources.chat.completions import AsyncCompletions

from summscore.judges import OpenAIJudge
from summscore.judges.base import JudgeRequest
from summscore.prompts.replies import AnswersReply

from .test_judge_openai import API_KEY, Server, client, completion, httpx

REQUEST = JudgeRequest("answers", "Answer. Reply with JSON.", AnswersReply, {})
# Headers that differ between two requests of one client whatever the path.
_PER_REQUEST = {"x-stainless-retry-count", "x-stainless-read-timeout", "content-length"}


def _ok(body: dict[str, Any]) -> Any:
    return httpx.Response(200, json=completion('{"answers": ["1"]}'))


def _request_of(judge_options: dict[str, Any], monkeypatch: Any, *, sdk: bool) -> tuple[Any, ...]:
    if sdk:
        monkeypatch.setenv("SUMMSCORE_OPENAI_SDK_PATH", "1")
    else:
        monkeypatch.delenv("SUMMSCORE_OPENAI_SDK_PATH", raising=False)
    server = Server(_ok)
    seen: list[Any] = []

    def record(request: Any) -> Any:
        seen.append(request)
        return server(request)

    http_client = httpx.AsyncClient(transport=httpx.MockTransport(record))
    llm = openai.AsyncOpenAI(
        api_key=API_KEY,
        base_url="http://judge.local:8099/v1",
        http_client=http_client,
        default_headers={"X-Team": "evals"},
        default_query={"tenant": "t1"},
    )
    judge = OpenAIJudge(llm, "judge-model", **judge_options)
    assert judge._lean is not sdk

    import asyncio

    asyncio.run(judge.complete(REQUEST))
    (request,) = seen
    headers = {k: v for k, v in request.headers.items() if k not in _PER_REQUEST}
    return request.method, str(request.url), headers, json.loads(request.content)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"temperature": None, "max_tokens": 64, "system_prompt": "Be terse.", "timeout": 7.0},
        {"response_format": "json_object", "extra_body": {"top_k": 5, "temperature": 0.3}},
        {"response_format": "text", "extra_body": {"response_format": {"type": "text"}}},
    ],
)
def test_sends_exactly_what_create_sends(options: dict[str, Any], monkeypatch: Any) -> None:
    direct = _request_of(options, monkeypatch, sdk=False)
    through_sdk = _request_of(options, monkeypatch, sdk=True)
    assert direct == through_sdk
    assert direct[2]["authorization"] == f"Bearer {API_KEY}"
    assert direct[2]["x-team"] == "evals" and "tenant=t1" in direct[1]


@pytest.mark.parametrize("sync", [False, True])
async def test_reads_tool_call_arguments_and_usage_like_the_sdk(sync: bool) -> None:
    body = completion("")
    body["choices"][0]["message"] = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "c",
                "type": "function",
                "function": {"name": "answer", "arguments": '{"answers": ["0"]}'},
            }
        ],
    }
    server = Server(lambda _: httpx.Response(200, json=body))
    judge = OpenAIJudge(
        client(server, sync=sync),
        "judge-model",
        cost_per_input_token=0.5,
        cost_per_output_token=1.0,
    )
    assert judge._lean
    reply = await judge.complete(REQUEST)
    assert reply.output == '{"answers": ["0"]}'
    assert (reply.input_tokens, reply.output_tokens, reply.cost) == (11, 3, 8.5)


async def test_a_reply_without_choices_or_usage_is_an_empty_reply_not_a_crash() -> None:
    server = Server(lambda _: httpx.Response(200, json={"object": "chat.completion"}))
    reply = await OpenAIJudge(client(server), "judge-model").complete(REQUEST)
    assert (reply.output, reply.input_tokens, reply.output_tokens, reply.cost) == (
        "",
        None,
        None,
        None,
    )


def test_a_create_replaced_by_a_tracing_library_is_still_called(monkeypatch: Any) -> None:
    traced: list[str] = []
    original = AsyncCompletions.create

    @functools.wraps(original)
    async def traced_create(self: Any, *args: Any, **kwargs: Any) -> Any:
        traced.append(kwargs["model"])
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(AsyncCompletions, "create", traced_create)
    server = Server(_ok)
    judge = OpenAIJudge(client(server), "judge-model")
    assert not judge._lean

    import asyncio

    reply = asyncio.run(judge.complete(REQUEST))
    assert reply.output == '{"answers": ["1"]}' and traced == ["judge-model"]


def test_a_client_that_is_not_the_sdk_is_called_through_create() -> None:
    class Completions:
        async def create(self, **kwargs: Any) -> Any:
            raise AssertionError("not reached")

    class Chat:
        completions = Completions()

    class Duck:
        chat = Chat()

    assert not OpenAIJudge(Duck(), "judge-model")._lean


async def test_a_reply_in_content_parts_is_read_as_its_text() -> None:
    body = completion("")
    body["choices"][0]["message"]["content"] = [
        {"type": "text", "text": '{"answers": '},
        {"type": "text", "text": '["1"]}'},
    ]
    server = Server(lambda _: httpx.Response(200, json=body))
    reply = await OpenAIJudge(client(server), "judge-model").complete(REQUEST)
    assert reply.output == '{"answers": ["1"]}'
