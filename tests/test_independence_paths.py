"""A row scores the same alone and among any siblings through the CLI (``summscore score``, one
process or ``--workers 2``) and the service (``summscore serve`` on 127.0.0.1, two clients
interleaving), under the three presets with the offline judge (issue #44, "Independence").

"Alone" is the row scored by a scorer of its own through the API; the CLI's results file and
the service's replies must carry the same score and evidence.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from summscore import SummarizationScorer
from summscore.cli import main
from summscore.files.provenance import RUN_FIELDS
from summscore.files.writer import output_row
from summscore.judges import LexicalJudge
from tests.independence_rows import (
    ISSUE_SIBLING,
    Row,
    batches,
    differences,
    evidence,
    row_evidence,
)

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
import httpx
import uvicorn

from summscore.serve import create_app

PRESETS = ("ragas", "deepeval", "mastra")
SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]
BODY = "QX7F9K2LM4PB8RT6WZ3HD5NA"
# Unique to this file, so no earlier request to a server filled its caches with this source.
SOURCE = (
    f"The password was {BODY}. The code {BODY} opened the billing system of Omnimart for 36 "
    f"hours. Engineers replaced {BODY} on Friday, the service said."
)
SUMMARY = f"Engineers replaced {BODY} on Friday."

_alone: dict[tuple[str, Row], Any] = {}


def alone(preset: str, row: Row) -> Any:
    """The row's ``SummaryResult`` from a scorer of its own (computed once per preset and row)."""
    key = (preset, row)
    if key not in _alone:
        scorer = SummarizationScorer(LexicalJudge(), preset=preset)
        _alone[key] = scorer.score(row.source, row.summary, row.questions)
    return _alone[key]


# ---------------------------------------------------------------------------------- the CLI


def _file_evidence(row: dict[str, Any]) -> str:
    # What the row found, not what it was scored from and with (the file's run columns: a row
    # scored alone in Python has none).
    run = {"fingerprint", "model", *RUN_FIELDS}
    return evidence({k: v for k, v in row.items() if k not in run})


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=3, deadline=None, suppress_health_check=SLOW)
@given(batch=batches(min_size=3, max_size=12))
def test_the_cli_writes_each_row_of_a_file_as_it_scores_alone(
    preset: str, batch: list[Row], tmp_path_factory: pytest.TempPathFactory
) -> None:
    _cli_matches_alone(preset, 1, batch, tmp_path_factory.mktemp("cli"))


@settings(max_examples=2, deadline=None, suppress_health_check=SLOW)
@given(preset=st.sampled_from(PRESETS), batch=batches(min_size=3, max_size=12))
def test_the_cli_on_two_workers_writes_each_row_of_a_file_as_it_scores_alone(
    preset: str, batch: list[Row], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Rows of one source go to one worker process, each with its own scorer and caches."""
    _cli_matches_alone(preset, 2, batch, tmp_path_factory.mktemp("cli"))


def _cli_matches_alone(preset: str, workers: int, batch: list[Row], folder: Path) -> None:
    data, out = folder / "rows.jsonl", folder / "results.jsonl"
    cases = [row.as_case(id=f"r{i}", every_field=True) for i, row in enumerate(batch)]
    data.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    args = ["score", str(data), "--preset", preset, "--out", str(out), "--no-progress"]
    assert main([*args, "--workers", str(workers)]) == 0
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in written] == [c["id"] for c in cases]
    expected = [
        _file_evidence(output_row(f"r{i}", alone(preset, row))) for i, row in enumerate(batch)
    ]
    assert not differences(expected, map(_file_evidence, written))


def test_a_jsonl_rows_questions_are_read_whatever_the_first_row_holds(tmp_path: Path) -> None:
    asked = ("Does the text say that engineers replaced the code on Friday?",)
    rows = [Row(SOURCE, SUMMARY), Row(SOURCE, SUMMARY, asked)]
    data, out = tmp_path / "rows.jsonl", tmp_path / "results.jsonl"
    data.write_text("".join(json.dumps(r.as_case(id=i)) + "\n" for i, r in enumerate(rows)))
    args = ["score", str(data), "--preset", "deepeval", "--out", str(out), "--no-progress"]
    assert main([*args, "--workers", "1"]) == 0
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    expected = [_file_evidence(output_row(i, alone("deepeval", r))) for i, r in enumerate(rows)]
    assert not differences(expected, map(_file_evidence, written))


def test_a_jsonl_rows_id_is_read_whatever_the_first_row_holds(tmp_path: Path) -> None:
    data, out = tmp_path / "rows.jsonl", tmp_path / "results.jsonl"
    lines = [
        {"source": SOURCE, "summary": SUMMARY},
        {"ID": "b7", "source": SOURCE, "summary": SUMMARY},
    ]
    data.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    args = ["score", str(data), "--out", str(out), "--no-progress", "--workers", "1"]
    assert main(args) == 0
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [row["id"] for row in written] == [1, "b7"]


def test_a_file_of_many_rows_of_two_sources_on_two_workers_scores_each_row_as_alone(
    tmp_path: Path,
) -> None:
    """More rows of one source than a worker's share: an idle worker takes some of them and does
    their source's work again; the numbers are the ones each row gets alone."""
    rows = [Row(SOURCE, SUMMARY), Row(SOURCE, ISSUE_SIBLING)] * 12 + [
        Row("The board meeting moved from Tuesday to Friday at 3 pm.", "The meeting moved.")
    ] * 4
    data, out = tmp_path / "rows.jsonl", tmp_path / "results.jsonl"
    data.write_text(
        "".join(json.dumps(r.as_case(id=i)) + "\n" for i, r in enumerate(rows)), encoding="utf-8"
    )
    args = ["score", str(data), "--preset", "deepeval", "--out", str(out), "--no-progress"]
    assert main([*args, "--workers", "2"]) == 0
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    expected = [_file_evidence(output_row(i, alone("deepeval", r))) for i, r in enumerate(rows)]
    assert not differences(expected, map(_file_evidence, written))


# ---------------------------------------------------------------------------------- the service

# A request option per preset (the service lets a request set these by default): rows with and
# without it share the server's judge and caches.
OPTIONS = {"ragas": {"coeff": 0.3}, "deepeval": {"n": 3}, "mastra": {"scale": 10}}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def _in_thread(app: Any) -> Iterator[str]:
    """``app`` under uvicorn on 127.0.0.1 in a thread of this process; yields its URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
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


@contextmanager
def _serve_command(preset: str) -> Iterator[str]:
    """``summscore serve --preset PRESET --workers 2`` on 127.0.0.1 (the offline judge in two
    processes, each request sent to the one its source hashes to unless that one is busier:
    see summscore.calls.pool); yields its URL."""
    port = _free_port()
    command = [sys.executable, "-m", "summscore.cli", "serve", "--preset", preset]
    command += ["--host", "127.0.0.1", "--port", str(port), "--no-access-log", "--workers", "2"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert process.poll() is None, f"summscore serve exited: {process.stderr.read()}"
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "summscore serve did not come up"
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.communicate(timeout=30)


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, str]]:
    """The servers of this file's tests, each serving many clients' rows: the ``summscore serve``
    command with the deepeval preset, and the service's app under uvicorn in a thread for each
    preset (the same app, with the offline judge in this process)."""
    with ExitStack() as stack:
        urls = {"serve-deepeval": stack.enter_context(_serve_command("deepeval"))}
        for preset in PRESETS:
            scorer = SummarizationScorer(LexicalJudge(), preset=preset)
            urls[preset] = stack.enter_context(_in_thread(create_app(scorer)))
        yield urls


def _preset(server: str) -> str:
    return server.removeprefix("serve-")


async def _two_clients(
    url: str, first: list[dict[str, Any]], second: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The first client sends its cases as batches of two, the second one case at a time, both
    at once; the replies in the order of ``first + second``."""

    async def batches_of_two(client: httpx.AsyncClient) -> list[dict[str, Any]]:
        replies = []
        for start in range(0, len(first), 2):
            response = await client.post(
                f"{url}/v1/score:batch", json={"cases": first[start : start + 2]}
            )
            assert response.status_code == 200, response.text
            replies.extend(response.json()["results"])
        return replies

    async def one_by_one(client: httpx.AsyncClient) -> list[dict[str, Any]]:
        replies = []
        for case in second:
            response = await client.post(f"{url}/v1/score", json=case)
            assert response.status_code == 200, response.text
            replies.append(response.json())
        return replies

    async with httpx.AsyncClient(timeout=60) as one, httpx.AsyncClient(timeout=60) as two:
        a, b = await asyncio.gather(batches_of_two(one), one_by_one(two))
    return [*a, *b]


@pytest.mark.parametrize("server", ["serve-deepeval", *PRESETS])
def test_one_clients_request_changes_nothing_in_another_clients_score(
    servers: dict[str, str], server: str
) -> None:
    """Before: the first client's summary quoting the code as a key blanked the code in the
    source-side work the server keeps, and the second client got a lower score and questions
    with ``***`` in place of its source's text."""
    url = servers[server]
    source = f"{SOURCE} ({server})"  # a source no earlier request to this server sent
    sibling = httpx.post(
        f"{url}/v1/score", json={"source": source, "summary": ISSUE_SIBLING}, timeout=60
    )
    assert sibling.status_code == 200 and BODY not in sibling.text
    reply = httpx.post(f"{url}/v1/score", json={"source": source, "summary": SUMMARY}, timeout=60)
    assert reply.status_code == 200
    expected = alone(_preset(server), Row(source, SUMMARY)).to_dict()
    assert evidence(reply.json()) == evidence(expected)
    assert "***" not in reply.text and BODY in reply.text


@pytest.mark.parametrize("server", ["serve-deepeval", *PRESETS])
@settings(max_examples=3, deadline=None, suppress_health_check=SLOW)
@given(batch=batches(min_size=2, max_size=8), data=st.data())
def test_two_clients_of_one_server_get_each_row_scored_as_alone(
    servers: dict[str, str], server: str, batch: list[Row], data: st.DataObject
) -> None:
    preset = _preset(server)
    options = [data.draw(st.sampled_from([{}, OPTIONS[preset]]), label="options") for _ in batch]
    cases = [{**row.as_case(), **({"options": o} if o else {})} for row, o in zip(batch, options)]
    cut = data.draw(st.integers(0, len(batch)), label="cut")
    replies = asyncio.run(_two_clients(servers[server], cases[:cut], cases[cut:]))
    expected = [
        row_evidence(_alone_with(preset, row, option)) for row, option in zip(batch, options)
    ]
    assert not differences(expected, map(evidence, replies))


def _alone_with(preset: str, row: Row, options: dict[str, Any]) -> Any:
    if not options:
        return alone(preset, row)
    scorer = SummarizationScorer(LexicalJudge(), preset=preset, **options)
    return scorer.score(row.source, row.summary, row.questions)
