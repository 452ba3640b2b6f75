"""pytest fixtures for the compat judge server, and Ctrl-C as a terminal sends it (registered by
the root conftest.py)."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from pathlib import Path
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


@pytest.fixture
def openai_env(
    judge_server: JudgeServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> JudgeServer:
    """The environment a user's code reads, pointed at the judge server: ``OPENAI_BASE_URL`` and
    ``OPENAI_API_KEY``, so that ``AsyncOpenAI()`` with no arguments and deepeval model names
    (``model="gpt-4o-mini"``) reach it. The working directory is a fresh temporary one (deepeval
    keeps a run cache there)."""
    from compat.clients import KEY

    monkeypatch.setenv("OPENAI_BASE_URL", judge_server.url)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".deepeval").mkdir()  # deepeval 3.3 does not create it
    return judge_server


class RecordingJudgeServer(JudgeServer):
    """A judge server that also keeps every prompt it was sent, in arrival order."""

    def __init__(self) -> None:
        super().__init__()
        self.prompts: list[str] = []

    def completion(
        self, body: dict[str, Any], arrived: float | None = None
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        messages = body.get("messages") or []
        self.prompts.append("\n".join(str(m.get("content")) for m in messages))
        return super().completion(body, arrived)


@pytest.fixture
def recording_judge_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[RecordingJudgeServer]:
    """A dedicated judge server that records prompts, with ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``
    pointed at it as :func:`openai_env` does."""
    from compat.clients import KEY

    with RecordingJudgeServer() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        monkeypatch.chdir(tmp_path)
        (tmp_path / ".deepeval").mkdir()
        yield server


@pytest.fixture
def ctrl_c() -> Iterator[None]:
    """SIGINT handled as Python handles it by default, for a test that sends it, whatever the
    session was started under. A shell starts a background job (``cmd &`` in a script, without
    job control) and ``nohup`` starts it with SIGINT ignored; Python then installs no handler of
    its own and its children inherit the ignored signal, so a test's Ctrl-C would be lost and
    the run it interrupts would finish (exit 0 where 130 is expected). A Python handler in this
    process is reset to the default in the processes it starts."""
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
