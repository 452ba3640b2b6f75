"""summscore serve in production: metrics, offline docs, the request deadline, errors a curl user
understands, access logs (in process, offline)."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from typing import Any

import pytest

pytest.importorskip("fastapi")
import httpx

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.serve import ServeConfig, create_app
from summscore.serve.observe import JsonFormatter

SOURCE = "The city council approved the 2025 budget on Monday. Property taxes stay flat."
SUMMARY = "The council approved the budget."
STUCK = "A text the judge never finishes reading."


def _client(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://serve")


def _sample(text: str, name: str, **labels: str) -> float | None:
    """The value of one sample of a Prometheus exposition, None when it is absent."""
    for line in text.splitlines():
        if line.startswith("#") or not line.startswith(name):
            continue
        head, value = line.rsplit(" ", 1)
        found = dict(re.findall(r'(\w+)="([^"]*)"', head))
        if head.split("{")[0] == name and found == labels:
            return float(value)
    return None


async def test_metrics_count_requests_cases_and_judge_calls_in_prometheus_format() -> None:
    app = create_app(SummarizationScorer(LexicalJudge(), preset="ragas"))
    async with _client(app) as client:
        one = await client.post("/v1/score", json={"source": SOURCE, "summary": SUMMARY})
        batch = await client.post(
            "/v1/score:batch",
            json={"cases": [{"source": SOURCE, "summary": SUMMARY}, {"source": SOURCE}]},
        )
        await client.post("/v1/score", content=b"{}", headers={"content-type": "text/plain"})
        await client.get("/nowhere")
        scraped = await client.get("/metrics")
    assert one.status_code == 200 and batch.status_code == 200
    assert scraped.status_code == 200
    assert scraped.headers["content-type"].startswith("text/plain; version=")
    text = scraped.text
    requests = "summscore_http_requests_total"
    assert _sample(text, requests, route="/v1/score", method="POST", status="200") == 1
    assert _sample(text, requests, route="/v1/score:batch", method="POST", status="200") == 1
    assert _sample(text, requests, route="/v1/score", method="POST", status="415") == 1
    assert _sample(text, requests, route="unmatched", method="GET", status="404") == 1
    latency = "summscore_http_request_duration_seconds_count"
    assert _sample(text, latency, route="/v1/score", method="POST") == 2
    # The batch's first case is the single request's case again: judged once, answered twice.
    assert _sample(text, "summscore_cases_total", outcome="scored") == 1
    assert _sample(text, "summscore_reused_results_total", how="cached") == 1
    assert _sample(text, "summscore_cases_total", outcome="invalid") == 1
    assert batch.json()["results"][0]["usage"] == one.json()["usage"]
    assert _sample(text, "summscore_judge_calls_total") == one.json()["usage"]["judge_calls"] > 0
    assert _sample(text, "summscore_queue_depth") == 0
    assert _sample(text, "summscore_cases_in_flight") == 0
    assert _sample(text, "summscore_rejected_requests_total") == 0
    build = [line for line in text.splitlines() if line.startswith("summscore_build_info{")]
    assert build and 'preset="ragas"' in build[0] and 'judge="lexical"' in build[0]


async def test_two_apps_in_one_process_keep_their_own_counters() -> None:
    first = create_app(SummarizationScorer(LexicalJudge()))
    second = create_app(SummarizationScorer(LexicalJudge()))
    async with _client(first) as a, _client(second) as b:
        await a.post("/v1/score", json={"source": SOURCE, "summary": SUMMARY})
        text = (await b.get("/metrics")).text
    assert _sample(text, "summscore_cases_total", outcome="scored") == 0


async def test_the_docs_page_loads_its_script_and_style_from_the_server_itself() -> None:
    app = create_app(SummarizationScorer(LexicalJudge()))
    async with _client(app) as client:
        page = await client.get("/docs")
        assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
        # Swagger UI's own page also names its scripts inside a JS string.
        assets += re.findall(r"""url: ?["']([^"']+)["']""", page.text)
        fetched = {url: await client.get(url) for url in assets}
        schema = await client.get("/openapi.json")
    assert page.status_code == 200 and "SwaggerUIBundle" in page.text
    assert '"validatorUrl": null' in page.text  # the schema is sent nowhere
    scripts = [url for url in assets if url.endswith(".js")]
    assert scripts and any(url.endswith(".css") for url in assets)
    for url, response in fetched.items():
        assert url.startswith("/"), f"{url} is not served by this server"
        assert response.status_code == 200, url
    assert all(len(fetched[url].content) > 100_000 for url in scripts)  # the real bundle
    assert schema.status_code == 200


async def test_docs_can_be_left_out_and_the_openapi_document_stays() -> None:
    app = create_app(SummarizationScorer(LexicalJudge()), ServeConfig(docs=False))
    async with _client(app) as client:
        page = await client.get("/docs")
        schema = await client.get("/openapi.json")
    assert page.status_code == 404 and page.json()["error"]["type"] == "not_found"
    assert schema.status_code == 200 and "/v1/score" in schema.json()["paths"]


class _StuckJudge(LexicalJudge):
    """The offline judge, except that it never answers about ``STUCK``."""

    async def complete(self, request: Any) -> Any:
        if STUCK in json.dumps(dict(request.inputs)):
            await asyncio.Event().wait()
        return await super().complete(request)


async def test_a_request_past_the_deadline_is_a_504_and_frees_its_judge_slot() -> None:
    scorer = SummarizationScorer(_StuckJudge(), preset="ragas", max_concurrency=1)
    app = create_app(scorer, ServeConfig(request_timeout=0.5, max_queue=4, max_batch=2))
    async with _client(app) as client:
        stuck = await asyncio.wait_for(
            client.post("/v1/score", json={"source": STUCK, "summary": "It never ends."}), 30
        )
        health = (await client.get("/healthz")).json()
        after = await asyncio.wait_for(
            client.post("/v1/score", json={"source": SOURCE, "summary": SUMMARY}), 30
        )
        batch = await asyncio.wait_for(
            client.post(
                "/v1/score:batch",
                json={
                    "cases": [
                        {"source": SOURCE, "summary": SUMMARY},
                        {"source": STUCK, "summary": "x"},
                    ]
                },
            ),
            30,
        )
        text = (await client.get("/metrics")).text
    assert stuck.status_code == 504
    error = stuck.json()["error"]
    assert error["type"] == "timeout" and "deadline of 0.5 s" in error["message"]
    assert "--request-timeout" in error["message"]
    assert health["in_flight"] == 0 and health["queued"] == 0 and health["request_timeout"] == 0.5
    assert after.status_code == 200 and after.json()["error"] is None  # the only slot is free
    assert batch.status_code == 504
    assert _sample(text, "summscore_request_timeouts_total") == 2
    assert _sample(text, "summscore_cases_total", outcome="timeout") == 3


@pytest.mark.parametrize(
    ("headers", "sent"),
    [
        ({"content-type": "application/x-www-form-urlencoded"}, "x-www-form-urlencoded"),
        ({}, "no Content-Type"),
        ({"content-type": "text/plain"}, "text/plain"),
    ],
)
async def test_a_body_not_sent_as_json_is_a_415_saying_which_header_to_send(
    headers: dict[str, str], sent: str
) -> None:
    app = create_app(SummarizationScorer(LexicalJudge()))
    body = json.dumps({"source": SOURCE, "summary": SUMMARY}).encode()
    async with _client(app) as client:
        response = await client.post("/v1/score", content=body, headers=headers)
    assert response.status_code == 415
    error = response.json()["error"]
    assert error["type"] == "unsupported_media_type" and error["field"] == "Content-Type"
    assert "'Content-Type: application/json'" in error["message"] and sent in error["message"]


async def test_an_empty_body_is_a_400_and_malformed_json_names_its_line_and_column() -> None:
    app = create_app(SummarizationScorer(LexicalJudge()))
    json_header = {"content-type": "application/json; charset=utf-8"}
    broken = b'{\n  "source": "a text",\n  "summary": "b" "c"\n}'
    async with _client(app) as client:
        empty = await client.post("/v1/score", content=b"", headers=json_header)
        spaces = await client.post("/v1/score:batch", content=b"  \n", headers=json_header)
        malformed = await client.post("/v1/score", content=broken, headers=json_header)
        vendor = await client.post(
            "/v1/score",
            content=json.dumps({"source": SOURCE, "summary": SUMMARY}).encode(),
            headers={"content-type": "application/vnd.api+json"},
        )
    for response in (empty, spaces):
        assert response.status_code == 400
        assert response.json()["error"]["type"] == "empty_body"
    assert malformed.status_code == 400
    error = malformed.json()["error"]
    assert error["type"] == "invalid_json"
    assert "line 3, column 18" in error["message"] and "delimiter" in error["message"]
    assert vendor.status_code == 200
    for response in (empty, malformed):
        assert set(response.json()) == {"error"}
        assert set(response.json()["error"]) == {"type", "message", "field"}


async def test_the_access_log_shows_the_path_as_sent_and_can_be_json(
    caplog: pytest.LogCaptureFixture,
) -> None:
    token = "serve-token-0123456789abcdef"
    app = create_app(SummarizationScorer(LexicalJudge()), ServeConfig(token=token))
    caplog.set_level(logging.INFO, logger="summscore.serve.access")
    async with _client(app) as client:
        await client.post(
            "/v1/score:batch?token=" + token,
            json={"cases": [{"source": SOURCE, "summary": SUMMARY}]},
            headers={"Authorization": f"Bearer {token}"},
        )
    records = [r for r in caplog.records if r.name == "summscore.serve.access"]
    assert len(records) == 1
    line = records[0].getMessage()
    assert '"POST /v1/score:batch?token=' in line and " 200 " in line
    assert "%3A" not in line and token not in line
    entry = json.loads(JsonFormatter().format(records[0]))
    assert entry["path"].startswith("/v1/score:batch?token=") and token not in entry["path"]
    assert entry["status"] == 200 and entry["method"] == "POST" and entry["duration_ms"] >= 0
    assert entry["logger"] == "summscore.serve.access" and entry["level"] == "info"


def test_a_json_log_line_is_one_line_whatever_the_message_holds() -> None:
    """U+2028, U+2029 and U+0085 in a logged message (an id, a path) are escaped: a log shipper
    or ``str.splitlines`` sees one record, which reads back as the same text."""
    message = "case a\u2028b\u2029c\x85d failed"
    record = logging.LogRecord("summscore.serve", logging.WARNING, __file__, 1, message, None, None)
    line = JsonFormatter().format(record)
    assert len(line.splitlines()) == 1
    assert json.loads(line)["message"] == message
