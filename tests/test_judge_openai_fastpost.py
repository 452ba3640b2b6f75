"""The OpenAI judge's lean HTTP path (aiohttp) for clients on the SDK's default HTTP client.

It must put on the wire what the SDK puts there and leave no unclosed session behind. How it
fails (the SDK's own exceptions, time-outs, dropped connections, clients it steps aside for,
HTTPS): tests/test_judge_openai_fastpost_failures.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from typing import Any

import pytest

from summscore.judges import OpenAIJudge

from .fastpost_support import _TRANSPORT_HEADERS, KEY, Recorder, _client, _complete
from .test_judge_openai import completion


@pytest.fixture
def answering() -> Iterator[Recorder]:
    ok = json.dumps(completion('{"answers": ["1"]}')).encode()
    server = Recorder(lambda path, headers, body: (200, {"content-type": "application/json"}, ok))
    yield server
    server.close()


def _sent(server: Recorder, monkeypatch: Any, *, sdk: bool, **judge_options: Any) -> Any:
    if sdk:
        monkeypatch.setenv("SUMMSCORE_OPENAI_SDK_PATH", "1")
    else:
        monkeypatch.delenv("SUMMSCORE_OPENAI_SDK_PATH", raising=False)
    client = _client(
        server.url,
        default_headers={"X-Team": "evals"},
        default_query={"tenant": "t1"},
        organization="org-7",
        project="proj-3",
    )
    judge = OpenAIJudge(client, "judge-model", **judge_options)
    reply = _complete(judge)
    assert (judge._fast is None) is sdk
    method, path, headers, body = server.seen.pop()
    kept = {k: v for k, v in headers.items() if k not in _TRANSPORT_HEADERS}
    return reply, (method, path, kept, json.loads(body))


@pytest.mark.parametrize(
    "options",
    [{}, {"timeout": 7.0, "max_tokens": 64, "system_prompt": "Be terse."}, {"temperature": None}],
)
def test_puts_on_the_wire_what_the_sdk_puts(
    answering: Recorder, monkeypatch: Any, options: dict[str, Any]
) -> None:
    lean_reply, lean = _sent(answering, monkeypatch, sdk=False, **options)
    sdk_reply, through_sdk = _sent(answering, monkeypatch, sdk=True, **options)
    assert lean == through_sdk
    assert lean_reply == sdk_reply
    _, path, headers, _ = lean
    assert path == "/v1/chat/completions?tenant=t1"
    assert headers["authorization"] == f"Bearer {KEY}"
    assert headers["x-team"] == "evals" and headers["openai-organization"] == "org-7"
    assert headers["x-stainless-async"] == "async:asyncio"


_LOOPS = {
    "asyncio.run, twice": "asyncio.run(judge.complete(request))\nasyncio.run(judge.complete(request))",
    "a loop closed without shutting down its async generators, then another loop": (
        "loop = asyncio.new_event_loop()\n"
        "loop.run_until_complete(judge.complete(request))\n"
        "loop.close()\n"
        "asyncio.run(judge.complete(request))"
    ),
    "a loop never closed (a notebook's)": (
        "kept = asyncio.new_event_loop()\nkept.run_until_complete(judge.complete(request))"
    ),
    "summscore's own background loop": (
        "from summscore import SummarizationScorer\n"
        "SummarizationScorer(judge, preset='ragas').score('The cat sat.', 'A cat sat.')"
    ),
}
_SCRIPT = """
import asyncio, openai
from summscore.judges import OpenAIJudge
from summscore.judges.base import JudgeRequest
from summscore.prompts.replies import AnswersReply

judge = OpenAIJudge(openai.AsyncOpenAI(base_url={url!r}, api_key="sk-x"), "judge-model")
request = JudgeRequest("answers", "Answer. Reply with JSON.", AnswersReply, {{}})
{steps}
print("done")
"""


@pytest.mark.parametrize("loops", list(_LOOPS))
@pytest.mark.parametrize("dev_mode", [False, True])
def test_leaves_no_unclosed_session_behind(answering: Recorder, loops: str, dev_mode: bool) -> None:
    """aiohttp logs "Unclosed client session" as an error when a session is collected open; in
    development mode every unclosed socket is reported too (except those of a loop its owner
    closed without shutting down: asyncio itself reports its own transports there)."""
    script = _SCRIPT.format(url=answering.url, steps=_LOOPS[loops])
    env = {k: v for k, v in os.environ.items() if k != "SUMMSCORE_OPENAI_SDK_PATH"}
    if dev_mode:
        env.update(PYTHONWARNINGS="always", PYTHONDEVMODE="1")
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "done"
    assert "Unclosed" not in done.stderr, done.stderr
    if dev_mode and "without shutting down" not in loops:
        ours = [line for line in done.stderr.splitlines() if "unclosed" in line]
        assert all("unclosed event loop" in line for line in ours), done.stderr  # the script's
    assert answering.seen
