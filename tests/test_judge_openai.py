"""The OpenAI-compatible client judge, through an httpx mock transport under the real openai client."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import openai
import openai._base_client
import pytest

from summscore import JudgeError, SummarizationScorer
from summscore.judges import OpenAIJudge, resolve_judge
from summscore.judges.base import JudgeRequest
from summscore.prompts.replies import AnswersReply

from .fakes import FITNESS_SOURCE, FITNESS_SUMMARY

# The HTTP library the installed openai is built on: httpx (openai 1.x, 2.x) or httpx2 (3.x).
httpx = getattr(openai._base_client, "httpx", None) or openai._base_client.httpx2

API_KEY = "sk-test-0123456789abcdefghij"


def completion(content: str, prompt_tokens: int = 11, completion_tokens: int = 3) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "judge-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


class Server:
    """A scripted chat-completions endpoint: ``reply(body) -> httpx.Response``."""

    def __init__(self, reply: Callable[[dict[str, Any]], httpx.Response]) -> None:
        self.reply = reply
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[httpx.Headers] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.bodies.append(body)
        self.headers.append(request.headers)
        return self.reply(body)


def client(server: Server, *, sync: bool = False) -> Any:
    transport = httpx.MockTransport(server)
    if sync:
        return openai.OpenAI(
            api_key=API_KEY,
            base_url="http://judge.local:8099/v1",
            http_client=httpx.Client(transport=transport),
        )
    return openai.AsyncOpenAI(
        api_key=API_KEY,
        base_url="http://judge.local:8099/v1",
        http_client=httpx.AsyncClient(transport=transport),
    )


REQUEST = JudgeRequest("answers", "Answer. Reply with JSON.", AnswersReply, {})


@pytest.mark.parametrize("sync", [False, True])
async def test_asks_for_a_json_schema_and_reads_the_reply(sync: bool) -> None:
    server = Server(lambda body: httpx.Response(200, json=completion('{"answers": ["1", "0"]}')))
    judge = OpenAIJudge(client(server, sync=sync), "judge-model", temperature=0.0)
    reply = await judge.complete(REQUEST)
    assert reply.output == '{"answers": ["1", "0"]}'
    assert (reply.input_tokens, reply.output_tokens) == (11, 3)
    body = server.bodies[0]
    assert body["model"] == "judge-model"
    assert body["messages"] == [{"role": "user", "content": REQUEST.prompt}]
    assert body["temperature"] == 0.0
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["name"] == "AnswersReply"
    assert "answers" in body["response_format"]["json_schema"]["schema"]["properties"]
    assert judge.name == "openai:judge-model@judge.local:8099"


async def test_falls_back_to_json_mode_then_plain_text_when_the_server_refuses() -> None:
    def reply(body: dict[str, Any]) -> httpx.Response:
        fmt = body.get("response_format", {}).get("type")
        if fmt in ("json_schema", "json_object"):
            return httpx.Response(
                400,
                json={
                    "error": {
                        "message": f"response_format {fmt} is not supported",
                        "type": "invalid_request_error",
                    }
                },
            )
        return httpx.Response(200, json=completion('Here you go: {"answers": ["1"]}'))

    server = Server(reply)
    judge = OpenAIJudge(client(server), "judge-model")
    reply1 = await judge.complete(REQUEST)
    assert reply1.output.endswith('{"answers": ["1"]}')
    assert [b.get("response_format", {}).get("type") for b in server.bodies] == [
        "json_schema",
        "json_object",
        None,
    ]
    assert judge.response_format == "text"
    await judge.complete(REQUEST)
    assert "response_format" not in server.bodies[-1]  # the negotiated mode sticks


async def test_a_forced_format_does_not_negotiate() -> None:
    server = Server(
        lambda body: httpx.Response(
            400, json={"error": {"message": "response_format not supported"}}
        )
    )
    judge = OpenAIJudge(client(server), "judge-model", response_format="json_object")
    with pytest.raises(JudgeError):
        await judge.complete(REQUEST)
    assert len(server.bodies) == 1


def scripted_statuses(*responses: httpx.Response) -> Server:
    queue = list(responses)
    return Server(lambda body: queue.pop(0) if len(queue) > 1 else queue[0])


def test_rate_limits_and_server_errors_are_retried_through_the_scorer() -> None:
    server = scripted_statuses(
        httpx.Response(429, headers={"retry-after": "0"}, json={"error": {"message": "slow down"}}),
        httpx.Response(503, json={"error": {"message": "overloaded"}}),
        httpx.Response(200, json=completion('{"answers": ["1"]}')),
    )
    s = SummarizationScorer(
        llm=client(server),
        model="judge-model",
        preset="ragas",
        prompts="own",
        backoff=0,
        max_backoff=0,
    )
    result = s.score(FITNESS_SOURCE, FITNESS_SUMMARY, assessment_questions=["Q?"])
    assert result.score == pytest.approx(0.5 + 0.5 * result.conciseness_score)
    assert result.usage.retries == 2
    assert len(server.bodies) == 3  # the client's own retries are off: ours are the only ones


def test_bad_credentials_fail_fast_and_the_key_never_appears() -> None:
    server = Server(
        lambda body: httpx.Response(
            401, json={"error": {"message": f"Incorrect API key provided: {API_KEY}"}}
        )
    )
    s = SummarizationScorer(llm=client(server), model="judge-model", preset="ragas", prompts="own")
    with pytest.raises(JudgeError) as info:
        s.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert API_KEY not in str(info.value)
    assert "credentials" in str(info.value)
    assert len(server.bodies) == 1
    [row] = s.score_many([(FITNESS_SOURCE, FITNESS_SUMMARY)], progress=False)
    assert row.error and API_KEY not in row.error


def test_an_echoed_key_in_another_error_is_masked() -> None:
    server = Server(
        lambda body: httpx.Response(
            400, json={"error": {"message": f"bad request from key {API_KEY}"}}
        )
    )
    s = SummarizationScorer(llm=client(server), model="judge-model", prompts="own")
    [row] = s.score_many([(FITNESS_SOURCE, FITNESS_SUMMARY)], progress=False)
    assert row.error and "bad request" in row.error and API_KEY not in row.error


def test_usage_and_cost_are_accounted() -> None:
    def reply(body: dict[str, Any]) -> httpx.Response:
        prompt = body["messages"][-1]["content"]
        if "task: keyphrases" in prompt:
            return httpx.Response(200, json=completion('{"keyphrases": ["app"]}', 100, 10))
        if "task: questions" in prompt:
            return httpx.Response(200, json=completion('{"questions": ["Q1?", "Q2?"]}', 100, 10))
        return httpx.Response(
            200, json=completion('```json\n{"answers": ["1", "0"]}\n```', 100, 10)
        )

    s = SummarizationScorer(
        llm=client(Server(reply)),
        model="judge-model",
        preset="ragas",
        prompts="own",
        cost_per_input_token=1e-6,
        cost_per_output_token=2e-6,
    )
    result = s.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.qa_score == 0.5
    assert result.usage.judge_calls == 3
    assert (result.usage.input_tokens, result.usage.output_tokens) == (300, 30)
    assert result.usage.cost == pytest.approx(3 * (100e-6 + 20e-6))
    assert s.usage.cost == pytest.approx(result.usage.cost)


def test_resolve_judge_needs_a_model_name_for_a_client() -> None:
    server = Server(lambda body: httpx.Response(200, json=completion("{}")))
    with pytest.raises(TypeError, match="model is required"):
        resolve_judge(client(server))
    assert isinstance(resolve_judge(client(server), "m"), OpenAIJudge)
