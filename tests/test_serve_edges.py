"""summscore serve at its edges (in process, offline): text UTF-8 cannot hold, bodies that are
not JSON in every way, the token before the body, the judge named by its model, bounded logs."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest

pytest.importorskip("fastapi")
import httpx

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.serve import ServeConfig, create_app

SOURCE = "The city council approved the 2025 budget on Monday. Property taxes stay flat."
SUMMARY = "The council approved the budget."
JSON = {"content-type": "application/json"}


def _client(app: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://serve")


def _app(preset: str = "mastra", **config: Any) -> Any:
    return create_app(SummarizationScorer(LexicalJudge(), preset=preset), ServeConfig(**config))


# ------------------------------------------------------------------ text UTF-8 cannot encode


@pytest.mark.parametrize("field", ["source", "summary", "id"])
async def test_a_lone_surrogate_in_any_field_is_scored_and_sent_back_as_a_json_escape(
    field: str,
) -> None:
    case = {"source": SOURCE, "summary": SUMMARY, "id": "case-approved"}
    case[field] = case[field].replace("approved", "approved \udfff")
    body = json.dumps(case)  # ensure_ascii: the surrogate travels as the escape \udfff
    async with _client(_app("deepeval")) as client:  # its truths and claims quote the texts
        response = await client.post("/v1/score", content=body, headers=JSON)
    assert response.status_code == 200, response.text
    result = json.loads(response.content)  # strict UTF-8 on the wire, the escape inside
    assert b"\\udfff" in response.content  # the result quotes the text (or the id) as sent
    assert result["error"] is None and result["score"] is not None
    assert result["id"] == case["id"]  # the same string again, surrogate and all


async def test_in_a_batch_a_case_with_a_lone_surrogate_costs_the_others_nothing() -> None:
    cases = [
        {"source": SOURCE, "summary": SUMMARY, "id": "plain"},
        {"source": SOURCE, "summary": "Taxes stay flat \udfff.", "id": "odd \udfff"},
        {"source": "Rain fell all day in Oslo.", "summary": "It rained in Oslo.", "id": "rain"},
    ]
    async with _client(_app()) as client:
        response = await client.post(
            "/v1/score:batch", content=json.dumps({"cases": cases}), headers=JSON
        )
    assert response.status_code == 200, response.text
    results = json.loads(response.content)["results"]
    assert [r["id"] for r in results] == ["plain", "odd \udfff", "rain"]
    assert all(r["error"] is None and r["score"] is not None for r in results)
    # The claims quote the summary as sent.
    assert any("\udfff" in claim["claim"] for claim in results[1]["claims"])


@pytest.mark.parametrize("where", ["source", "sources", "output"])
async def test_promptfoo_grades_a_case_with_a_lone_surrogate_as_score_does(where: str) -> None:
    # The grading result's reason and missed questions quote the source: a plain JSONResponse
    # could not encode the surrogate and answered 500 "internal error".
    source = SOURCE.replace("approved", "approved \ud800")
    output = SUMMARY.replace("budget", "budget \udfff") if where == "output" else SUMMARY
    given: Any = source if where == "source" else [source] if where == "sources" else SOURCE
    body = json.dumps({"output": output, "context": {"vars": {"source": given}}})
    async with _client(_app("deepeval")) as client:
        response = await client.post("/v1/promptfoo", content=body, headers=JSON)
    assert response.status_code == 200, response.text
    graded = json.loads(response.content)  # strict UTF-8 on the wire, the escape inside
    assert isinstance(graded["score"], float) and isinstance(graded["pass"], bool)
    if where != "output":  # the missed question quotes the source as sent
        assert "\ud800" in json.dumps(graded["metadata"], ensure_ascii=False)


async def test_an_internal_error_is_logged_bounded_without_the_body(
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = _app()
    huge = "x" * 1_000_000

    async def broken(*args: Any) -> Any:  # an error whose repr carries a whole text
        raise UnicodeEncodeError("utf-8", huge, 0, 1, "surrogates not allowed")

    app.state.runner.score = broken
    caplog.set_level(logging.ERROR, logger="summscore.serve")
    async with _client(app) as client:
        response = await client.post("/v1/score", json={"source": SOURCE, "summary": SUMMARY})
    assert response.status_code == 500
    assert response.json()["error"]["type"] == "internal"
    messages = [r.getMessage() for r in caplog.records if r.name == "summscore.serve"]
    assert messages and all(len(m) < 1_000 for m in messages)
    assert "UnicodeEncodeError" in messages[0]


def test_every_server_log_line_is_bounded_and_masked() -> None:
    from summscore.serve.observe import MAX_MESSAGE_CHARS, BoundedFormatter, JsonFormatter

    record = logging.LogRecord(
        "uvicorn.error", logging.ERROR, __file__, 1, "%s", ("y" * 10**6,), None
    )
    try:
        raise ValueError("z" * 10**6)
    except ValueError:
        import sys

        record.exc_info = sys.exc_info()
    for formatter in (BoundedFormatter("%(levelname)s: %(message)s"), JsonFormatter()):
        line = formatter.format(record)
        assert len(line) < 4 * MAX_MESSAGE_CHARS + 10_000
        assert "characters left out" in line


# ------------------------------------------------------------------ bodies that are not JSON


@pytest.mark.parametrize(
    ("body", "why", "where"),
    [
        (b'{"source": "ok", "summary": "\xff\xfe"}', "not UTF-8 text", "line 1, column 30"),
        (
            b'{"source": "ok",\n "id": ' + b"[" * 1000 + b"]" * 1000 + b', "summary": "x"}',
            "nest more than 64 levels",
            "line 2, column 71",
        ),
        (b'{"source": "ok", "id": ' + b"7" * 5000 + b', "summary": "x"}', "5,000 digits", ""),
        (b'{"source": "ok", "summary": "x", "options": {"scale": NaN}}', "NaN is not JSON", ""),
        (b'{"source": "ok", "summary": "x", "options": {"scale": 1e999}}', "too large", ""),
        (b'{"source": "ok", "summary": "x", "options": {"scale": -Infinity}}', "Infinity", ""),
        (b'{"source": "ok", "summary": "x",}', "Expecting property name", "line 1, column 33"),
    ],
)
async def test_every_malformed_body_is_invalid_json_with_its_line_and_column(
    body: bytes, why: str, where: str
) -> None:
    async with _client(_app()) as client:
        response = await client.post("/v1/score", content=body, headers=JSON)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["type"] == "invalid_json" and set(error) == {"type", "message", "field"}
    assert why in error["message"] and where in error["message"]
    assert ", column " in error["message"]


async def test_a_large_id_nested_within_the_limit_and_a_bom_are_read() -> None:
    nested: Any = "leaf"
    for _ in range(60):
        nested = [nested]
    body = (
        b"\xef\xbb\xbf" + json.dumps({"source": SOURCE, "summary": SUMMARY, "id": nested}).encode()
    )
    async with _client(_app()) as client:
        response = await client.post("/v1/score", content=body, headers=JSON)
    assert response.status_code == 200 and response.json()["id"] == nested


# ------------------------------------------------------------------ the token before the body


def _never_read() -> Any:
    async def receive() -> dict[str, Any]:
        raise AssertionError("the body was read before the caller was known")

    return receive


@pytest.mark.parametrize(
    "headers",
    [
        [(b"content-type", b"application/json"), (b"content-length", b"12")],
        [(b"content-type", b"text/plain"), (b"content-length", b"12")],
        [(b"content-type", b"application/json"), (b"content-length", b"999999999")],
        [(b"content-type", b"application/json"), (b"authorization", b"Bearer wrong")],
    ],
)
async def test_with_a_token_an_unknown_caller_is_refused_before_its_body_is_read(
    headers: list[tuple[bytes, bytes]],
) -> None:
    app = _app(token="right-token-123456")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/score",
        "raw_path": b"/v1/score",
        "query_string": b"",
        "headers": headers,
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, _never_read(), send)
    assert sent[0]["status"] == 401
    assert json.loads(sent[1]["body"])["error"]["type"] == "unauthorized"


# ------------------------------------------------------------------ the judge, named by its model


async def test_results_and_healthz_name_the_judges_model_not_its_address() -> None:
    import openai

    client = openai.AsyncOpenAI(
        base_url="http://127.0.0.1:9/v1", api_key="sk-test-not-used-000000", max_retries=0
    )
    scorer = SummarizationScorer(client, model="gpt-4o-mini", preset="mastra", max_retries=0)
    assert "127.0.0.1" in scorer.judge.name  # the core's name keeps it, for results files
    app = create_app(scorer)
    async with _client(app) as http:
        result = (await http.post("/v1/score", json={"source": SOURCE, "summary": SUMMARY})).json()
        batch = (await http.post("/v1/score:batch", json={"cases": [{"summary": "x"}]})).json()
        health = (await http.get("/healthz")).json()
        metrics = (await http.get("/metrics")).text
    assert result["judge"] == health["judge"] == "openai:gpt-4o-mini"
    assert batch["results"][0]["judge"] == "openai:gpt-4o-mini"
    assert result["error"]  # nothing listens on port 9
    for text in (json.dumps(result), json.dumps(health), json.dumps(batch), metrics):
        assert "127.0.0.1" not in text and ":9/v1" not in text


async def test_metrics_need_the_token_unless_the_operator_opens_them() -> None:
    token = "metrics-token-123456"
    bearer = {"Authorization": f"Bearer {token}"}
    async with (
        _client(_app(token=token)) as guarded,
        _client(_app(token=token, public_metrics=True)) as public,
    ):
        refused = await guarded.get("/metrics")
        allowed = await guarded.get("/metrics", headers=bearer)
        health = await guarded.get("/healthz")  # probes carry no token
        open_ = await public.get("/metrics")
    assert refused.status_code == 401 and refused.json()["error"]["type"] == "unauthorized"
    assert allowed.status_code == 200 and "summscore_http_requests_total" in allowed.text
    assert health.status_code == 200 and open_.status_code == 200


# ------------------------------------------------------------------ bodies held at once


class _GatedJudge(LexicalJudge):
    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.waiting = 0

    async def complete(self, request: Any) -> Any:
        self.waiting += 1
        await self.gate.wait()
        return await super().complete(request)


async def test_bodies_held_at_once_stay_within_their_budget_and_one_alone_always_fits() -> None:
    judge = _GatedJudge()
    scorer = SummarizationScorer(judge, preset="mastra")
    app = create_app(scorer, ServeConfig(max_body_memory=60_000))
    big = {"source": SOURCE + " " + "Parks get more money. " * 2000, "summary": SUMMARY}
    assert len(json.dumps(big)) > 40_000  # two of them are past the budget, one alone is not
    async with _client(app) as client:
        first = asyncio.create_task(client.post("/v1/score", json=big))
        for _ in range(3000):
            if judge.waiting:
                break
            await asyncio.sleep(0.01)
        refused = await client.post("/v1/score", json={**big, "id": 2})
        small = asyncio.create_task(
            client.post("/v1/score", json={"source": SOURCE, "summary": SUMMARY})
        )
        await asyncio.sleep(0.1)
        judge.gate.set()
        done, answered = await asyncio.wait_for(asyncio.gather(first, small), 60)
        again = await client.post("/v1/score", json={**big, "id": 3})
    assert refused.status_code == 503 and refused.headers["retry-after"] == "1"
    assert refused.json()["error"]["type"] == "overloaded"
    assert done.status_code == answered.status_code == again.status_code == 200


async def test_when_the_server_stops_work_still_running_is_answered_503_and_cancelled() -> None:
    judge = _GatedJudge()
    app = create_app(SummarizationScorer(judge, preset="mastra"))
    async with _client(app) as client:
        running = asyncio.create_task(
            client.post("/v1/score", json={"source": SOURCE, "summary": SUMMARY})
        )
        for _ in range(3000):
            if judge.waiting:
                break
            await asyncio.sleep(0.01)
        app.state.runner.stop()  # what the server does when its --shutdown-timeout is over
        answer = await asyncio.wait_for(running, 60)
        health = (await client.get("/healthz")).json()
    assert answer.status_code == 503 and answer.headers["retry-after"] == "1"
    assert answer.json()["error"]["type"] == "shutting_down"
    assert health["in_flight"] == 0 and health["queued"] == 0  # its judge slot is free


# ------------------------------------------------------------------ keys in ids


async def test_a_key_in_an_id_is_masked_in_results_and_scores_are_unchanged() -> None:
    """An id is only ever shown, never scored: a key in it (an ``sk-`` key here, any shape of
    JSON id) comes back masked, as the CLI masks row ids, in a single result, in batch results
    and in a batch case refused for bad input; the scores are those of the texts alone."""
    key = "sk-proj-Qm5W" + "abcdefghijklmnopqrstuvwxyz0123456789"
    source = f"{SOURCE} The vendor's key {key} was leaked."
    case = {"source": source, "summary": SUMMARY}
    async with _client(_app()) as client:
        one = await client.post("/v1/score", json={**case, "id": f"job-{key}"})
        batch = await client.post(
            "/v1/score:batch",
            json={
                "cases": [
                    {**case, "summary": "Taxes stay flat.", "id": {"run": key, key: [key, 3]}},
                    {**case, "id": "plain-id"},
                    {"source": source, "id": key},  # no summary: refused, id still masked
                ]
            },
        )
    assert one.status_code == 200 and batch.status_code == 200
    assert key not in one.text and key not in batch.text
    assert one.json()["id"] == "job-***"
    nested, plain, refused = batch.json()["results"]
    assert nested["id"] == {"run": "***", "***": ["***", 3]}
    assert plain["id"] == "plain-id" and refused["id"] == "***" and refused["error"]
    alone = SummarizationScorer(LexicalJudge(), preset="mastra")
    for got, summary in ((one.json(), SUMMARY), (nested, "Taxes stay flat."), (plain, SUMMARY)):
        expected = alone.score(source, summary)
        assert got["score"] == expected.score and got["error"] is None
        assert got["alignment_score"] == expected.alignment_score
        assert got["coverage_score"] == expected.coverage_score
