"""summscore serve: the endpoints, their errors, options, auth and limits (in process, offline)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
import httpx

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.serve import ServeConfig, create_app

SOURCE = (
    "The city council approved the 2025 budget on Monday. Property taxes stay flat. "
    "Spending on parks rises by 4 percent."
)
SUMMARY = "The council approved the budget; taxes stay flat."


def _client(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://serve")


@pytest.fixture
def scorer() -> SummarizationScorer:
    return SummarizationScorer(LexicalJudge(), preset="mastra", max_concurrency=8)


@pytest.fixture
async def client(scorer: SummarizationScorer) -> AsyncIterator[httpx.AsyncClient]:
    async with _client(create_app(scorer)) as c:
        yield c


async def test_one_case_returns_the_scorers_result_and_the_id(
    client: httpx.AsyncClient, scorer: SummarizationScorer
) -> None:
    response = await client.post(
        "/v1/score", json={"source": SOURCE, "summary": SUMMARY, "id": {"run": 3}}
    )
    assert response.status_code == 200
    body = response.json()
    expected = SummarizationScorer(LexicalJudge(), preset="mastra").score(SOURCE, SUMMARY)
    assert body["id"] == {"run": 3}
    assert body["score"] == expected.score and body["error"] is None
    assert body["alignment_score"] == expected.alignment_score
    assert body["claims"] and {"claim", "verdict", "reason", "supported"} <= set(body["claims"][0])
    assert {"question", "source_answer", "summary_answer", "covered"} <= set(body["assessment"][0])
    assert body["preset"] == "mastra" and body["judge"] == "lexical"
    assert "judge_calls" in body["usage"]


async def test_a_batch_keeps_input_order_and_a_bad_case_does_not_stop_the_others(
    client: httpx.AsyncClient,
) -> None:
    cases = [
        {"source": SOURCE, "summary": SUMMARY, "id": "a"},
        {"source": SOURCE, "id": "no-summary"},
        {"source": "Rain fell all day in Oslo.", "summary": "It rained in Oslo."},
        {"source": SOURCE, "summary": "   ", "id": "blank"},
        "not an object",
    ]
    response = await client.post("/v1/score:batch", json={"cases": cases})
    assert response.status_code == 200
    results = response.json()["results"]
    assert [r["id"] for r in results] == ["a", "no-summary", 2, "blank", 4]
    assert results[0]["error"] is None and results[2]["error"] is None
    assert results[1]["score"] is None and "cases[1].summary" in results[1]["error"]
    assert "cases[3].summary cannot be empty" in results[3]["error"]
    assert results[4]["score"] is None and "cases[4]" in results[4]["error"]


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"summary": SUMMARY}, "source", "Field required"),
        ({"source": SOURCE, "summary": 5}, "summary", "valid string"),
        ({"source": "  ", "summary": SUMMARY}, "source", "source cannot be empty"),
        ({"source": SOURCE, "summary": SUMMARY, "sumary": "x"}, "sumary", "Extra inputs"),
        ({"source": SOURCE, "summary": SUMMARY, "assessment_questions": [""]}, None, "cannot"),
        ({"source": SOURCE, "summary": SUMMARY, "options": {"scale": -1}}, "options.scale", ""),
        (
            {"source": SOURCE, "summary": SUMMARY, "options": {"n": 1000}},
            "options.n",
            "less than or equal to 20",
        ),
        ({"source": SOURCE, "summary": SUMMARY, "options": {"coeff": 0.3}}, "options.coeff", ""),
        (
            {"source": SOURCE, "summary": SUMMARY, "options": {"n": 2, "maxQuestions": 2}},
            "",
            "not both",
        ),
    ],
)
async def test_bad_input_is_a_422_json_error_naming_the_field(
    client: httpx.AsyncClient, body: dict[str, Any], field: str | None, words: str
) -> None:
    response = await client.post("/v1/score", json=body)
    assert response.status_code == 422
    error = response.json()["error"]
    assert set(error) == {"type", "message", "field"}
    if field is not None:
        assert (error["field"] or "").startswith(field or "options")
    assert words in error["message"]


async def test_a_body_that_is_not_json_is_a_400(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/score", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["error"]["type"] == "invalid_json"


async def test_request_options_change_the_rule_and_are_limited_by_the_server(
    scorer: SummarizationScorer,
) -> None:
    app = create_app(scorer, ServeConfig(max_questions=3, request_options=frozenset({"scale"})))
    async with _client(app) as client:
        plain = (await client.post("/v1/score", json={"source": SOURCE, "summary": SUMMARY})).json()
        scaled = await client.post(
            "/v1/score", json={"source": SOURCE, "summary": SUMMARY, "options": {"scale": 10}}
        )
        refused = await client.post(
            "/v1/score", json={"source": SOURCE, "summary": SUMMARY, "options": {"n": 2}}
        )
    assert scaled.status_code == 200
    assert scaled.json()["alignment_score"] == pytest.approx(plain["alignment_score"] * 10)
    assert refused.status_code == 422
    assert refused.json()["error"]["field"] == "options.n"
    assert "does not let a request set n" in refused.json()["error"]["message"]


async def test_mastras_max_questions_is_n_and_requests_share_the_servers_caches(
    scorer: SummarizationScorer,
) -> None:
    body = {"source": SOURCE, "summary": SUMMARY, "options": {"maxQuestions": 2}}
    async with _client(create_app(scorer)) as client:
        first = (await client.post("/v1/score", json=body)).json()
        second = await client.post("/v1/score", json={**body, "summary": "Parks get 4% more."})
    assert len(first["assessment"]) <= 2
    assert second.json()["usage"]["reused_calls"] > 0  # the source's questions came from cache
    assert scorer.usage.judge_calls > 0  # every request spent through the one scorer


async def test_healthz_describes_the_server_without_secrets(client: httpx.AsyncClient) -> None:
    body = (await client.get("/healthz")).json()
    assert body["status"] == "ok" and body["preset"] == "mastra" and body["judge"] == "lexical"
    assert "scale" in body["request_options"] and body["max_concurrency"] == 8


async def test_a_token_is_required_when_configured_and_never_echoed(
    scorer: SummarizationScorer,
) -> None:
    token = "s3cret-token-value"
    app = create_app(scorer, ServeConfig(token=token))
    case = {"source": SOURCE, "summary": SUMMARY}
    async with _client(app) as client:
        missing = await client.post("/v1/score", json=case)
        wrong = await client.post("/v1/score", json=case, headers={"Authorization": "Bearer no"})
        right = await client.post(
            "/v1/score", json=case, headers={"Authorization": f"Bearer {token}"}
        )
        health = await client.get("/healthz")
    assert missing.status_code == wrong.status_code == 401
    assert missing.headers["www-authenticate"] == "Bearer"
    assert missing.json()["error"]["type"] == "unauthorized"
    assert right.status_code == 200 and health.status_code == 200
    assert all(token not in r.text for r in (missing, wrong, right, health))


async def test_a_body_over_the_limit_is_a_413(scorer: SummarizationScorer) -> None:
    app = create_app(scorer, ServeConfig(max_body_bytes=200))
    async with _client(app) as client:
        big = await client.post("/v1/score", json={"source": "x" * 500, "summary": "x"})
        small = await client.post("/v1/score", json={"source": SOURCE[:80], "summary": "Budget."})
    assert big.status_code == 413 and big.json()["error"]["type"] == "too_large"
    assert small.status_code == 200


async def test_a_batch_over_the_limit_is_refused_naming_cases(scorer: SummarizationScorer) -> None:
    app = create_app(scorer, ServeConfig(max_batch=2))
    cases = [{"source": SOURCE, "summary": SUMMARY}] * 3
    async with _client(app) as client:
        response = await client.post("/v1/score:batch", json={"cases": cases})
    assert response.status_code == 422 and response.json()["error"]["field"] == "cases"


class _GatedJudge(LexicalJudge):
    """The offline judge, held at a gate so the test decides when answers come."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.waiting = 0

    async def complete(self, request: Any) -> Any:
        self.waiting += 1
        await self.gate.wait()
        return await super().complete(request)


async def test_a_full_judge_queue_is_a_503_with_retry_after_and_nothing_is_lost() -> None:
    judge = _GatedJudge()
    scorer = SummarizationScorer(judge, preset="mastra", max_concurrency=1)
    app = create_app(scorer, ServeConfig(max_queue=1, max_batch=2))
    case = {"source": SOURCE, "summary": SUMMARY}
    async with _client(app) as client:
        first = asyncio.create_task(client.post("/v1/score", json={**case, "id": 1}))
        second = asyncio.create_task(client.post("/v1/score", json={**case, "id": 2}))
        for _ in range(3000):  # the first case takes the only judge slot (bounded wait)
            if judge.waiting:
                break
            await asyncio.sleep(0.01)
        assert judge.waiting, "the first case never reached the judge"
        await asyncio.sleep(0.05)  # let the second reach the queue
        refused = await client.post("/v1/score", json={**case, "id": 3})
        health = (await client.get("/healthz")).json()
        judge.gate.set()
        done = await asyncio.wait_for(asyncio.gather(first, second), timeout=60)
    assert refused.status_code == 503
    assert int(refused.headers["retry-after"]) >= 1
    assert refused.json()["error"]["type"] == "overloaded"
    assert health["in_flight"] == 1 and health["queued"] == 1
    assert [r.status_code for r in done] == [200, 200]
    assert [r.json()["id"] for r in done] == [1, 2]


def test_the_openapi_document_describes_the_contract(scorer: SummarizationScorer) -> None:
    from fastapi.testclient import TestClient

    spec = TestClient(create_app(scorer)).get("/openapi.json").json()
    assert {"/v1/score", "/v1/score:batch", "/healthz"} <= set(spec["paths"])
    score = spec["paths"]["/v1/score"]["post"]
    assert {"200", "401", "413", "422", "503"} <= set(score["responses"])
    schemas = spec["components"]["schemas"]
    assert {"source", "summary", "assessment_questions", "id", "options"} <= set(
        schemas["ScoreRequest"]["properties"]
    )
    items = schemas["BatchRequest"]["properties"]["cases"]["items"]
    assert items == {"$ref": "#/components/schemas/ScoreRequest"}
    assert set(schemas["ScoreOptions"]["properties"]) == {
        "scale",
        "n",
        "maxQuestions",
        "version",
        "include_reason",
    }


async def test_a_deepeval_server_names_its_own_options_in_errors() -> None:
    app = create_app(SummarizationScorer(LexicalJudge(), preset="deepeval"))
    case = {"source": SOURCE, "summary": SUMMARY}
    async with _client(app) as client:
        typed = await client.post("/v1/score", json={**case, "options": {"strict_mode": "yes"}})
        scale = await client.post("/v1/score", json={**case, "options": {"scale": 10}})
        source = await client.post("/v1/score", json={**case, "source": [SOURCE, 3]})
        strict = await client.post("/v1/score", json={**case, "options": {"strict_mode": True}})
        text = await client.post("/v1/score", json={**case, "options": {"n": "3"}})
        whole = await client.post("/v1/score", json={**case, "options": {"n": 3.0}})
    assert typed.status_code == 422 and typed.json()["error"]["field"] == "options.strict_mode"
    assert scale.json()["error"]["field"] == "options.scale"
    assert "not an option of the deepeval preset" in scale.json()["error"]["message"]
    assert source.status_code == 422 and source.json()["error"]["field"].startswith("source")
    assert strict.status_code == 200 and strict.json()["threshold"] == 1.0
    assert text.status_code == 422 and "not text" in text.json()["error"]["message"]
    assert whole.status_code == 200  # JSON Schema's integer: 3.0 is 3


@pytest.mark.parametrize(
    ("preset", "option"),
    [
        ("deepeval", "n"),
        ("deepeval", "threshold"),
        ("mastra", "n"),
        ("mastra", "maxQuestions"),
        ("mastra", "scale"),
        ("ragas", "coeff"),
    ],
)
async def test_a_boolean_is_not_a_number_for_a_numeric_option(preset: str, option: str) -> None:
    """JSON true/false for a numeric option is refused as text is (the core refuses a bool for a
    number too), in a single request and in a batch's case; the flags still take booleans."""
    app = create_app(SummarizationScorer(LexicalJudge(), preset=preset))
    case = {"source": SOURCE, "summary": SUMMARY}
    async with _client(app) as client:
        answers = [
            await client.post("/v1/score", json={**case, "options": {option: value}})
            for value in (True, False)
        ]
        batch = await client.post(
            "/v1/score:batch", json={"cases": [{**case, "options": {option: True}}, case]}
        )
    for answer in answers:
        error = answer.json()["error"]
        assert answer.status_code == 422 and error["field"] == f"options.{option}"
        assert error["message"] == f"options.{option}: must be a number, not true or false"
    first, second = batch.json()["results"]
    assert first["score"] is None and f"cases[0].options.{option}" in first["error"]
    assert "not true or false" in first["error"] and second["error"] is None


class _PeakJudge(LexicalJudge):
    """The offline judge, slowed a little, counting the requests in flight."""

    def __init__(self) -> None:
        super().__init__()
        self.active = 0
        self.peak = 0

    async def complete(self, request: Any) -> Any:
        self.active += 1
        self.peak = max(self.peak, self.active)
        try:
            await asyncio.sleep(0.005)
            return await super().complete(request)
        finally:
            self.active -= 1


async def test_a_request_with_other_options_leaves_the_scorer_as_it_was_and_shares_its_limit() -> (
    None
):
    judge = _PeakJudge()
    scorer = SummarizationScorer(judge, preset="mastra", max_concurrency=2)
    # The server lets 8 cases run at once; the scorer's limit of 2 judge requests still holds.
    app = create_app(scorer, ServeConfig(max_concurrency=8))
    cases = [{"source": f"{SOURCE} Case {i}.", "summary": SUMMARY, "id": i} for i in range(4)]
    async with _client(app) as client:
        plain, scaled = await asyncio.gather(
            client.post("/v1/score:batch", json={"cases": cases}),
            client.post(
                "/v1/score:batch", json={"cases": [{**c, "options": {"scale": 10}} for c in cases]}
            ),
        )
    assert plain.status_code == scaled.status_code == 200
    assert judge.peak <= 2
    assert scorer.options["scale"] == 1 and scorer.preset == "mastra"
    plain_scores = [r["alignment_score"] for r in plain.json()["results"]]
    scaled_scores = [r["alignment_score"] for r in scaled.json()["results"]]
    assert scaled_scores == [pytest.approx(10 * s) for s in plain_scores]
    spent = sum(
        r["usage"]["judge_calls"] for r in plain.json()["results"] + scaled.json()["results"]
    )
    assert scorer.usage.judge_calls == spent  # one spend, whoever asked


@pytest.mark.parametrize("preset", ["ragas", "deepeval", "mastra"])
async def test_the_options_an_error_names_are_ones_a_request_may_send(preset: str) -> None:
    """An option of another preset is refused with the list of this preset's options, under the
    names a request uses (``n``, not the scorer's ``max_questions``): each one listed is accepted."""
    app = create_app(SummarizationScorer(LexicalJudge(), preset=preset))
    case = {"source": SOURCE, "summary": SUMMARY}
    values = {"scale": 10, "n": 3, "version": "1.x", "threshold": 0.5, "strict_mode": False}
    values |= {"coeff": 0.3, "length_penalty": True, "include_reason": True}
    foreign = {"ragas": "scale", "deepeval": "coeff", "mastra": "coeff"}[preset]
    async with _client(app) as client:
        refused = await client.post("/v1/score", json={**case, "options": {foreign: 1}})
        message = refused.json()["error"]["message"]
        assert refused.status_code == 422 and f"not an option of the {preset} preset" in message
        listed = message.rsplit("(", 1)[1].rstrip(")").split(": ", 1)[1].split(", ")
        assert listed
        for name in listed:
            sent = await client.post("/v1/score", json={**case, "options": {name: values[name]}})
            assert sent.status_code == 200, (name, sent.json())
