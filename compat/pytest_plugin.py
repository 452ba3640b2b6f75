"""pytest fixtures for the compat judge server (registered by the root conftest.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from compat.judge_server import Faults, JudgeServer


@pytest.fixture(scope="session")
def _shared_judge_server() -> Iterator[JudgeServer]:
    with JudgeServer() as server:
        yield server


@pytest.fixture
def judge_server(_shared_judge_server: JudgeServer) -> Iterator[JudgeServer]:
    """A running judge server with no faults and fresh statistics (shared by the session)."""
    _shared_judge_server.reset()
    yield _shared_judge_server
    _shared_judge_server.reset()


@pytest.fixture
def make_judge_server() -> Iterator[Callable[..., JudgeServer]]:
    """A factory of dedicated servers with faults: ``make_judge_server(error_rate=0.2)``."""
    started: list[JudgeServer] = []

    def make(**faults: Any) -> JudgeServer:
        server = JudgeServer(Faults(**faults)).start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()
