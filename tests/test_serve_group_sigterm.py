"""SIGTERM sent to summscore serve's whole process group, as systemd (KillMode=control-group, its
default), `timeout` or a CI runner send it, is answered as SIGTERM to the server alone: the
request in flight finishes within the grace (--shutdown-timeout), then the server stops its
offline judge's worker processes itself. The workers live in a session of their own, so the
signal no longer kills them under the request: it answered 200 with its row failed
("BrokenProcessPool: A process in the process pool was terminated abruptly")."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
import httpx

from .test_serve_slow_clients import _children, _free_port, _still_running, news

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc (Linux)")


def test_sigterm_to_the_group_lets_the_request_in_flight_finish() -> None:
    port = _free_port()
    command = [sys.executable, "-m", "summscore.cli", "serve", "--preset", "mastra"]
    command += ["--port", str(port), "--shutdown-timeout", "120", "--no-access-log"]
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a service manager starts it
    )
    url = f"http://127.0.0.1:{port}"
    answer: dict[str, Any] = {}
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and process.poll() is None:
            try:
                httpx.get(f"{url}/healthz", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.2)
        case = {"source": news(7, 300_000), "summary": news(8, 20_000)}

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
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=240)
        sender.join(60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    left = _still_running(workers)
    assert answer["status"] == 200, answer
    assert answer["body"]["error"] is None, answer["body"]["error"]
    assert answer["body"]["score"] is not None
    assert workers and left == []  # the worker processes went with the server
