"""SIGTERM sent to summscore serve's whole process group, as systemd (KillMode=control-group, its
default), `timeout` or a CI runner send it, is answered as SIGTERM to the server alone: the
request in flight finishes within the grace (--shutdown-timeout), then the server stops its
offline judge's worker processes itself. The workers live in a session of their own, so the
signal no longer kills them under the request: it answered 200 with its row failed
("BrokenProcessPool: A process in the process pool was terminated abruptly")."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from .test_serve_slow_clients import news, sigterm_with_a_request_in_flight

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc (Linux)")


def test_sigterm_to_the_group_lets_the_request_in_flight_finish() -> None:
    case = {"source": news(7, 300_000), "summary": news(8, 20_000)}
    answer, workers, left = sigterm_with_a_request_in_flight(case, 120, group=True)
    assert answer["status"] == 200, answer
    assert answer["body"]["error"] is None, answer["body"]["error"]
    assert answer["body"]["score"] is not None
    assert workers and left == []  # the worker processes went with the server
