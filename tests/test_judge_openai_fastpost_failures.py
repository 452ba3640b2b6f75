"""The OpenAI judge's lean HTTP path (aiohttp) when things go wrong: it fails with the SDK's own
exceptions (so retries, Retry-After and key masking behave as on the SDK path) and never quotes
the key, times out as the SDK does, survives a server that drops kept-alive connections, steps
aside for clients it cannot speak for, and trusts for HTTPS what httpx trusts. What it puts on
the wire and the sessions it leaves: tests/test_judge_openai_fastpost.py.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import threading
import time
from typing import Any

import httpx
import openai
import pytest

from summscore.errors import JudgeError, TransientJudgeError
from summscore.judges import OpenAIJudge
from summscore.judges._fastpost import fast_post_for

from .fastpost_support import KEY, REQUEST, Recorder, Reply, _client, _complete
from .test_judge_openai import completion


def _error_of(server: Recorder, monkeypatch: Any, *, sdk: bool, **options: Any) -> JudgeError:
    if sdk:
        monkeypatch.setenv("SUMMSCORE_OPENAI_SDK_PATH", "1")
    else:
        monkeypatch.delenv("SUMMSCORE_OPENAI_SDK_PATH", raising=False)
    judge = OpenAIJudge(_client(server.url), "judge-model", **options)
    with pytest.raises(JudgeError) as caught:
        _complete(judge)
    assert (judge._fast is None) is sdk
    assert caught.value.__context__ is None and caught.value.__cause__ is None
    return caught.value


@pytest.mark.parametrize(
    ("status", "headers"),
    [(429, {"retry-after": "3"}), (503, {}), (401, {}), (400, {})],
)
def test_fails_as_the_sdk_fails_and_never_quotes_the_key(
    monkeypatch: Any, status: int, headers: dict[str, str]
) -> None:
    echo = json.dumps({"error": {"message": f"bad key {KEY} for you"}}).encode()
    server = Recorder(lambda path, h, body: (status, {**headers, "content-type": "x/json"}, echo))
    try:
        lean = _error_of(server, monkeypatch, sdk=False)
        through_sdk = _error_of(server, monkeypatch, sdk=True)
    finally:
        server.close()
    assert type(lean) is type(through_sdk)
    assert str(lean) == str(through_sdk)
    assert KEY not in str(lean) and KEY not in repr(lean.args)
    if status == 429:
        assert isinstance(lean, TransientJudgeError) and lean.retry_after == 3.0


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_server_is_a_transient_error_naming_it(monkeypatch: Any) -> None:
    monkeypatch.delenv("SUMMSCORE_OPENAI_SDK_PATH", raising=False)
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    judge = OpenAIJudge(_client(url), "judge-model", timeout=5)
    with pytest.raises(TransientJudgeError) as caught:
        _complete(judge)
    assert judge._fast is not None
    assert url in str(caught.value) and "APIConnectionError" in str(caught.value)


def test_a_slow_server_times_out_as_on_the_sdk_path(monkeypatch: Any) -> None:
    ok = json.dumps(completion('{"answers": ["1"]}')).encode()

    def slow(path: str, headers: dict[str, str], body: bytes) -> Reply:
        time.sleep(1.5)
        return 200, {}, ok

    server = Recorder(slow)
    try:
        lean = _error_of(server, monkeypatch, sdk=False, timeout=0.3)
        through_sdk = _error_of(server, monkeypatch, sdk=True, timeout=0.3)
    finally:
        server.close()
    assert isinstance(lean, TransientJudgeError) and type(lean) is type(through_sdk)
    assert "Timeout" in str(lean) and "Timeout" in str(through_sdk)


def test_a_dropped_keep_alive_connection_is_retried_on_a_fresh_one(monkeypatch: Any) -> None:
    """A server that closes each connection after one answer without saying so."""
    monkeypatch.delenv("SUMMSCORE_OPENAI_SDK_PATH", raising=False)
    payload = json.dumps(completion('{"answers": ["1"]}')).encode()
    reply = (
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
        + f"content-length: {len(payload)}\r\n\r\n".encode()
        + payload
    )
    listener = socket.create_server(("127.0.0.1", 0))
    connections = []

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            connections.append(conn)
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn.recv(65536)
            head, _, rest = data.partition(b"\r\n\r\n")
            length = next(
                int(line.split(b":")[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length")
            )
            while len(rest) < length:
                rest += conn.recv(65536)
            conn.sendall(reply)
            time.sleep(0.05)
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    judge = OpenAIJudge(_client(url), "judge-model", timeout=5)

    async def three_in_a_row() -> list[Any]:
        replies = []
        for _ in range(3):
            replies.append(await judge.complete(REQUEST))
            await asyncio.sleep(0.2)  # the server has closed the kept-alive connection by now
        return replies

    try:
        replies = asyncio.run(three_in_a_row())
    finally:
        listener.close()
    assert [r.output for r in replies] == ['{"answers": ["1"]}'] * 3
    assert len(connections) == 3


def test_steps_aside_for_clients_it_cannot_speak_for(monkeypatch: Any) -> None:
    monkeypatch.delenv("SUMMSCORE_OPENAI_SDK_PATH", raising=False)
    url = "http://127.0.0.1:9/v1"
    options = {"security": {"bearer_auth": True}}
    assert fast_post_for(_client(url), options) is not None
    assert fast_post_for(openai.OpenAI(base_url=url, api_key=KEY), options) is not None
    own_http = _client(url, http_client=httpx.AsyncClient())
    assert fast_post_for(own_http, options) is None
    azure = openai.AsyncAzureOpenAI(
        api_key=KEY, api_version="2024-06-01", azure_endpoint="https://x.openai.azure.com"
    )
    assert fast_post_for(azure, options) is None

    async def key() -> str:
        return KEY

    try:
        with_provider = openai.AsyncOpenAI(base_url=url, api_key=key)
    except Exception:  # an SDK without key providers
        with_provider = None
    if with_provider is not None:
        assert fast_post_for(with_provider, options) is None
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:3128")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    assert fast_post_for(_client(url), options) is None
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    assert fast_post_for(_client(url), options) is not None
    monkeypatch.setenv("SUMMSCORE_OPENAI_SDK_PATH", "1")
    assert fast_post_for(_client(url), options) is None


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory: Any) -> dict[str, str]:
    """A throwaway CA and a certificate for localhost / 127.0.0.1 that it signed (openssl CLI)."""
    import shutil

    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command")
    folder = tmp_path_factory.mktemp("tls")
    ext = folder / "server.ext"
    ext.write_text(
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
        "authorityKeyIdentifier=keyid,issuer\nkeyUsage=digitalSignature,keyEncipherment\n"
        "extendedKeyUsage=serverAuth\n"
    )
    steps = [
        "req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=test-ca "
        "-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign",
        "req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=localhost",
        "x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem "
        "-days 2 -extfile server.ext",
    ]
    for step in steps:
        subprocess.run(["openssl", *step.split()], cwd=folder, check=True, capture_output=True)
    return {name: str(folder / name) for name in ("ca.pem", "server.pem", "server.key")}


def _tls_recorder(tls_files: dict[str, str]) -> Recorder:
    import ssl

    ok = json.dumps(completion('{"answers": ["1"]}')).encode()
    server = Recorder(lambda path, headers, body: (200, {}, ok))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tls_files["server.pem"], tls_files["server.key"])
    server._server.socket = context.wrap_socket(server._server.socket, server_side=True)
    server.url = server.url.replace("http://127.0.0.1", "https://localhost")
    return server


@pytest.mark.parametrize("sdk", [False, True])
def test_https_trusts_what_httpx_trusts(
    tls_files: dict[str, str], monkeypatch: Any, sdk: bool
) -> None:
    """The CA bundle is httpx's (certifi, or SSL_CERT_FILE): a server whose CA is named there is
    reached, on both paths; without it the certificate is refused."""
    from summscore.judges import _fastpost

    server = _tls_recorder(tls_files)
    try:
        monkeypatch.setattr(_fastpost, "_ssl", None)
        monkeypatch.setenv("SSL_CERT_FILE", tls_files["ca.pem"])
        if sdk:
            monkeypatch.setenv("SUMMSCORE_OPENAI_SDK_PATH", "1")
        else:
            monkeypatch.delenv("SUMMSCORE_OPENAI_SDK_PATH", raising=False)
        judge = OpenAIJudge(_client(server.url), "judge-model", timeout=10)
        assert _complete(judge).output == '{"answers": ["1"]}'
        assert (judge._fast is None) is sdk
        assert len(server.seen) == 1

        monkeypatch.setattr(_fastpost, "_ssl", None)
        monkeypatch.delenv("SSL_CERT_FILE")
        untrusting = OpenAIJudge(_client(server.url), "judge-model", timeout=10)
        with pytest.raises(TransientJudgeError, match="APIConnectionError"):
            _complete(untrusting)
        assert len(server.seen) == 1
    finally:
        server.close()
        monkeypatch.setattr(_fastpost, "_ssl", None)
