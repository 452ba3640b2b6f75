"""summscore serve under uvicorn on loopback, and with the compat judge server behind it.

The load tests are bounded in request count and in time (each stops itself with a deadline), and
check what matters under load: every request is answered, none is lost or answered twice, and a
refused request (503) says when to come back.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
import httpx
import uvicorn
from compat.clients import MODEL, PARITY, async_client
from compat.judge_server import JudgeServer

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.serve import ServeConfig, create_app

DEADLINE = 120  # seconds; a load test that has not finished by then has lost requests


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """Run ``app`` under uvicorn on a free port of 127.0.0.1 in a thread; yield its URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    # The client runs in this process, its loop sharing the interpreter with the server's: on a
    # loaded machine it can take longer than uvicorn's keep-alive (5 s) to send its next request
    # on a connection, which the server then closes as the request arrives (the client reads a
    # reset: httpcore.ReadError). Keep-alive connections stay open as long as a test may run.
    config = uvicorn.Config(
        app, log_level="warning", lifespan="off", backlog=512, timeout_keep_alive=DEADLINE
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(600):
            if server.started:
                break
            thread.join(0.05)
        assert server.started, "uvicorn did not start"
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


def _case(i: int) -> dict[str, Any]:
    doc = PARITY[i % len(PARITY)]
    return {"source": list(doc.contexts), "summary": doc.summary, "id": f"r{i}"}


async def _post_until_taken(
    client: httpx.AsyncClient, path: str, body: dict[str, Any], refusals: list[float]
) -> httpx.Response:
    """POST, and on 503 come back later (sooner than Retry-After, to keep the test short)."""
    for _ in range(2000):
        response = await client.post(path, json=body)
        if response.status_code != 503:
            return response
        refusals.append(float(response.headers["retry-after"]))
        await asyncio.sleep(0.02)
    raise AssertionError(f"{path} was refused 2000 times")


async def _load(url: str, requests: int, parallel: int, refusals: list[float]) -> list[Any]:
    """``requests`` calls, singles and batches of 3 mixed, ``parallel`` at a time."""
    limits = httpx.Limits(max_connections=parallel, max_keepalive_connections=parallel)
    slots = asyncio.Semaphore(parallel)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as client:

        async def one(i: int) -> Any:
            async with slots:
                if i % 4 == 3:
                    cases = [_case(i * 10 + k) for k in range(3)]
                    response = await _post_until_taken(
                        client, "/v1/score:batch", {"cases": cases}, refusals
                    )
                    assert response.status_code == 200, response.text
                    return [r["id"] for r in response.json()["results"]]
                response = await _post_until_taken(client, "/v1/score", _case(i), refusals)
                assert response.status_code == 200, response.text
                return response.json()["id"]

        return await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(requests))), DEADLINE)


def _expected_ids(requests: int) -> list[Any]:
    return [
        [f"r{i * 10 + k}" for k in range(3)] if i % 4 == 3 else f"r{i}" for i in range(requests)
    ]


async def test_under_load_on_loopback_every_request_is_answered_once() -> None:
    scorer = SummarizationScorer(LexicalJudge(), preset="mastra", max_concurrency=8)
    with serving(create_app(scorer)) as url:
        refusals: list[float] = []
        ids = await _load(url, requests=200, parallel=32, refusals=refusals)
        async with httpx.AsyncClient(base_url=url) as client:
            health = (await client.get("/healthz")).json()
    assert ids == _expected_ids(200)  # every answer belongs to its own request
    assert refusals == []  # the queue had room for everything
    assert health["in_flight"] == 0 and health["queued"] == 0


async def test_over_capacity_requests_get_503_and_all_are_scored_when_retried(
    make_judge_server: Any,
) -> None:
    judge = make_judge_server(latency=0.02)
    scorer = SummarizationScorer(
        async_client(judge), model=MODEL, preset="mastra", max_concurrency=2
    )
    with serving(create_app(scorer, ServeConfig(max_queue=3, max_batch=3))) as url:
        refusals: list[float] = []
        ids = await _load(url, requests=24, parallel=12, refusals=refusals)
    assert ids == _expected_ids(24)
    assert refusals and min(refusals) >= 1  # refused, and told when to come back
    assert judge.stats.statuses[200] == judge.stats.requests  # no judge call failed


async def test_with_the_compat_judge_behind_it_the_service_gives_score_manys_numbers(
    judge_server: JudgeServer,
) -> None:
    cases = [_case(i) for i in range(len(PARITY))]
    direct = SummarizationScorer(async_client(judge_server), model=MODEL, preset="deepeval")
    expected = await direct.ascore_many(
        [(c["source"], c["summary"]) for c in cases], max_concurrency=4
    )
    served = SummarizationScorer(async_client(judge_server), model=MODEL, preset="deepeval")
    app = create_app(served)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://serve") as client:
        batch = (await client.post("/v1/score:batch", json={"cases": cases})).json()["results"]
        asked = judge_server.stats.requests
        again = (await client.post("/v1/score", json={**cases[0], "id": "again"})).json()
        answered_again = judge_server.stats.requests - asked
        other = {**cases[0], "summary": cases[0]["summary"] + " It was noted."}
        one = (await client.post("/v1/score", json=other)).json()
    assert [r["id"] for r in batch] == [c["id"] for c in cases]
    assert [r["score"] for r in batch] == [r.score for r in expected]
    assert [r["alignment_score"] for r in batch] == [r.alignment_score for r in expected]
    # The same case again is the same result, with its own id, and costs the judge nothing.
    assert again == {**batch[0], "id": "again"} and answered_again == 0
    assert one["usage"]["reused_calls"] > 0  # another summary: the source work was cached
    assert batch[0]["judge"] == f"openai:{MODEL}"  # the model, not the judge server's address


async def test_a_judge_failure_is_a_200_with_the_error_and_no_key_anywhere(
    make_judge_server: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    key = "sk-live-serve-test-0123456789abcdef"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    import openai

    judge = make_judge_server(error_rate=1.0)
    client = openai.AsyncOpenAI(base_url=judge.url, api_key=key, max_retries=0)
    scorer = SummarizationScorer(client, model=MODEL, preset="mastra", max_retries=0)
    caplog.set_level(logging.DEBUG)
    app = create_app(scorer)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://serve") as http:
        one = await http.post("/v1/score", json=_case(0))
        batch = await http.post("/v1/score:batch", json={"cases": [_case(1), _case(2)]})
        health = await http.get("/healthz")
    assert one.status_code == 200 and batch.status_code == 200
    body = one.json()
    assert body["score"] is None and body["error"] and body["id"] == "r0"
    assert all(r["score"] is None and r["error"] for r in batch.json()["results"])
    for text in (one.text, batch.text, health.text, caplog.text):
        assert key not in text


def test_the_serve_command_runs_the_service_with_a_token() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    token = "cli-token-abcdef123456"
    env = {**os.environ, "SUMMSCORE_TEST_TOKEN": token}
    command = [sys.executable, "-m", "summscore.cli", "serve", "--preset", "mastra"]
    command += ["--port", str(port), "--token-env", "SUMMSCORE_TEST_TOKEN", "--scale", "10"]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        health = None
        deadline = time.monotonic() + 90
        while health is None and time.monotonic() < deadline and process.poll() is None:
            try:
                health = httpx.get(f"{url}/healthz", timeout=2).json()
            except httpx.TransportError:
                time.sleep(0.2)
        assert health is not None, "summscore serve did not come up"
        assert health["preset"] == "mastra" and health["options"]["scale"] == 10
        refused = httpx.post(f"{url}/v1/score", json=_case(0), timeout=30)
        scored = httpx.post(
            f"{url}/v1/score",
            json=_case(0),
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
    assert refused.status_code == 401
    assert scored.status_code == 200 and scored.json()["id"] == "r0"
    assert "summscore serve: mastra preset, judge lexical" in err
    assert token not in err
