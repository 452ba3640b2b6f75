"""Slow clients are timed out, and SIGTERM answers what is in flight: summscore serve's protocol
under uvicorn on 127.0.0.1, and the ``serve`` command in a child process.

Deadlines here are short (headers 0.5 s, body 1 s) so that the tests are quick; every socket
wait is bounded (a client the server never closes fails the test after 20 s, it does not hang).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
import httpx
import uvicorn

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.serve import ServeConfig, create_app
from summscore.serve.protocol import timed_protocol

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from serve_memory import news

HEADERS, BODY = 0.5, 1.0
WAIT = 20.0  # seconds: longer than any deadline here; a connection still open then was never closed


def _app() -> Any:
    return create_app(
        SummarizationScorer(LexicalJudge(), preset="mastra"), ServeConfig(body_timeout=BODY)
    )


@contextmanager
def serving(
    closed: list[str] | Callable[[str], None], app: Any = None
) -> Iterator[tuple[str, int]]:
    """The app (by default a fresh one) under uvicorn with the timed protocol; each connection
    the protocol closes for a deadline is appended to ``closed`` (or passed to it)."""
    app = app if app is not None else _app()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(
        app,
        log_level="warning",
        lifespan="off",
        http=timed_protocol(HEADERS, BODY, closed if callable(closed) else closed.append),
        backlog=512,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(600):
            if server.started:
                break
            thread.join(0.05)
        assert server.started
        yield sock.getsockname()
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


def _connect(address: tuple[str, int]) -> socket.socket:
    client = socket.create_connection(address, timeout=WAIT)
    return client


def _read_until_closed(client: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (bounded by WAIT)."""
    received = b""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            chunk = client.recv(65536)
        except (ConnectionResetError, BrokenPipeError):
            break
        except TimeoutError:
            raise AssertionError("the server never closed the connection") from None
        if not chunk:
            break
        received += chunk
    return received


def _trickle(client: socket.socket, data: bytes, every: float = 0.2) -> None:
    """Send ``data`` a byte at a time until the server closes the connection."""
    for byte in data:
        try:
            client.sendall(bytes([byte]))
        except OSError:
            return
        time.sleep(every)


def test_a_connection_that_sends_nothing_is_answered_408_and_closed() -> None:
    closed: list[str] = []
    with serving(closed) as address:
        client = _connect(address)
        answer = _read_until_closed(client)
        client.close()
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]["type"] == "request_timeout"
    assert closed == ["headers"]


def test_headers_sent_a_byte_at_a_time_are_cut_off() -> None:
    closed: list[str] = []
    head = b"POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" * 4
    with serving(closed) as address:
        client = _connect(address)
        sender = threading.Thread(target=_trickle, args=(client, head), daemon=True)
        sender.start()
        answer = _read_until_closed(client)
        client.close()
        sender.join(WAIT)
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert closed == ["headers"]


@pytest.mark.parametrize(("path", "answered"), [("/v1/score", True), ("/nowhere", False)])
def test_a_body_sent_a_byte_at_a_time_is_cut_off(path: str, answered: bool) -> None:
    closed: list[str] = []
    body = json.dumps({"source": "The council met.", "summary": "It met."}).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    with serving(closed) as address:
        client = _connect(address)
        client.sendall(head)
        sender = threading.Thread(target=_trickle, args=(client, body), daemon=True)
        sender.start()
        answer = _read_until_closed(client)
        client.close()
        sender.join(WAIT)
    if answered:  # the scoring endpoint says why, in its error shape
        assert answer.startswith(b"HTTP/1.1 408 ")
        assert b'"request_timeout"' in answer and b"connection: close" in answer.lower()
    else:  # answered 404 at once; the connection still trickling is closed at the deadline
        assert answer.startswith(b"HTTP/1.1 404 ")
        assert closed == ["body"]


def _slow_client_count(url: str, phase: str) -> float:
    text = httpx.get(f"{url}/metrics", timeout=WAIT).text
    line = f'summscore_slow_clients_total{{phase="{phase}"}} '
    return float(next(row for row in text.splitlines() if row.startswith(line)).split()[-1])


def test_body_timeouts_are_counted_in_the_metrics_once_each() -> None:
    """Five bodies trickled to /v1/score (each answered 408 by the app) and one to a path with
    no route (closed by the protocol): six body timeouts in the metrics, wired as ``summscore
    serve`` wires them, none counted twice."""
    app = _app()
    closed: list[str] = []

    def on_timeout(phase: str) -> None:  # what ``summscore serve`` passes to the protocol
        closed.append(phase)
        app.state.metrics.slow_clients.labels(phase).inc()

    body = json.dumps({"source": "The council met.", "summary": "It met."}).encode()
    answers = []
    with serving(on_timeout, app) as address:
        url = f"http://{address[0]}:{address[1]}"
        for path in ["/v1/score"] * 5 + ["/nowhere"]:
            head = (
                f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n"
            ).encode()
            client = _connect(address)
            client.sendall(head + body[:3])
            answers.append(_read_until_closed(client)[:12])
            client.close()
        body_count = _slow_client_count(url, "body")
        headers_count = _slow_client_count(url, "headers")
    assert answers == [b"HTTP/1.1 408"] * 5 + [b"HTTP/1.1 404"]
    assert closed == ["body"]  # the protocol closed the one the app did not answer
    assert body_count == 6 and headers_count == 0


def test_many_slow_clients_are_all_closed_and_others_are_served_meanwhile() -> None:
    closed: list[str] = []
    body = json.dumps({"source": "The council met.", "summary": "It met."}).encode()
    head = (
        "POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    with serving(closed) as address:
        clients = [_connect(address) for _ in range(40)]
        for client in clients:
            client.sendall(head + body[:5])
        url = f"http://{address[0]}:{address[1]}"
        served = httpx.post(f"{url}/v1/score", json={"source": "Rain fell.", "summary": "Rain."})
        answers = [_read_until_closed(client) for client in clients]
        for client in clients:
            client.close()
    assert served.status_code == 200
    assert [a[:40] for a in answers if not a.startswith(b"HTTP/1.1 408 ")] == []


# ------------------------------------------------------------------ SIGTERM


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    if int(handle.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    return found


def sigterm_with_a_request_in_flight(
    case: dict[str, str], shutdown_timeout: float, *, group: bool = False
) -> tuple[dict[str, Any], list[int], list[int]]:
    """Start ``summscore serve`` (its own process group when ``group``), send ``case``, and send
    SIGTERM (to the whole group when ``group``: systemd's default kill mode, `timeout`) once it
    is in flight. Returns the answer (status, body), the worker processes the server had, and
    those still running once it is gone."""
    port = _free_port()
    command = [sys.executable, "-m", "summscore.cli", "serve", "--preset", "mastra", "--port"]
    command += [str(port), "--shutdown-timeout", f"{shutdown_timeout:g}", "--no-access-log"]
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=group,
    )
    url = f"http://127.0.0.1:{port}"
    answer: dict[str, Any] = {}
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and process.poll() is None:
            try:
                httpx.get(f"{url}/healthz", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.2)

        def send() -> None:
            response = httpx.post(f"{url}/v1/score", json=case, timeout=300)
            answer["status"], answer["body"] = response.status_code, response.json()

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        while time.monotonic() < deadline:
            if httpx.get(f"{url}/healthz", timeout=5).json()["in_flight"]:
                break
            time.sleep(0.05)
        workers = _children(process.pid)
        if group:
            os.killpg(process.pid, signal.SIGTERM)
        else:
            process.send_signal(signal.SIGTERM)
        process.wait(timeout=240)
        sender.join(60)
    finally:
        if process.poll() is None:
            if group:
                os.killpg(process.pid, signal.SIGKILL)
            else:
                process.kill()
            process.wait()
    return answer, workers, _still_running(workers)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc (Linux)")
def test_sigterm_answers_the_request_in_flight_503_and_stops_the_workers() -> None:
    large = {"source": news(7, 600_000), "summary": news(8, 50_000)}
    answer, workers, left = sigterm_with_a_request_in_flight(large, 1)
    assert answer["status"] == 503
    assert answer["body"]["error"]["type"] == "shutting_down"
    assert workers and left == []  # the worker processes went with the server


def _still_running(pids: list[int], wait: float = 15.0) -> list[int]:
    """The processes among ``pids`` still running after at most ``wait`` seconds (zombies
    awaiting their reaping count as gone)."""
    deadline = time.monotonic() + wait
    while True:
        running = []
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat") as handle:
                    if handle.read().rsplit(")", 1)[1].split()[0] != "Z":
                        running.append(pid)
            except OSError:
                continue
        if not running or time.monotonic() > deadline:
            return running
        time.sleep(0.1)


def test_summscore_serve_with_its_defaults_closes_a_connection_that_sends_nothing() -> None:
    """The command runs uvicorn with the timed protocol: with no option given, a client that
    opens a connection and sends nothing is answered 408 and closed (--header-timeout 10)."""
    port = _free_port()
    command = [sys.executable, "-m", "summscore.cli", "serve", "--preset", "mastra"]
    command += ["--port", str(port), "--no-access-log"]
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True
    )
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and process.poll() is None:
            try:
                httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.2)
        client = _connect(("127.0.0.1", port))
        answer = _read_until_closed(client)
        client.close()
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    assert answer.startswith(b"HTTP/1.1 408 ")
