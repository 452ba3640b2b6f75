"""No output of any kind holds any 12-character piece of a key, whatever the judge sends back.

A local gateway (compat/echo_gateway.py) quotes the caller's key in its error bodies, in its
response headers and inside 200 replies. Keys enter as ``api_key=``, through ``OPENAI_API_KEY``, as
plain gateway tokens that do not look like ``sk-...``, through the CLI's ``--api-key-env``, and
through every judge backend. Searched: exceptions (str, repr, traceback), ``result.error``,
``to_dict()``, reprs, warnings, DEBUG log records, the CLI's stdout/stderr, ``--out``,
``--report`` and every file under the reply cache.
"""

from __future__ import annotations

import json
import logging
import secrets
import traceback
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

from compat.echo_gateway import EchoGateway
from summscore import SummarizationScorer
from summscore.cli import main as cli_main
from summscore.judges import FunctionJudge

MODEL = "gpt-4o-mini"
WINDOW = 12  # any run of this many characters of a key counts as the key
SOURCE = (
    "The city council approved a budget of 12 million dollars for the new library on Monday. "
    "Construction starts in March and the library opens in 2027 with 40,000 books."
)
SUMMARY = "The council approved 12 million dollars for a library that opens in 2027."
FAST = {"max_retries": 1, "backoff": 0, "max_backoff": 0, "timeout": 20}


def new_key(style: str) -> str:
    token = secrets.token_hex(20)
    mixed = "".join(c.upper() if i % 3 == 0 else c for i, c in enumerate(token))
    return {"sk": f"sk-proj-{token}", "plain": f"gw{token}", "mixed": f"Gw{mixed}"}[style]


def pieces(key: str) -> list[str]:
    return [key[i : i + WINDOW] for i in range(len(key) - WINDOW + 1)]


def assert_clean(outputs: dict[str, str], key: str) -> None:
    """No WINDOW-long piece of ``key``, in any letter case, in any output."""
    folded = [p.lower() for p in pieces(key)]
    leaked = {
        name: next(p for p in folded if p in text.lower())
        for name, text in outputs.items()
        if any(p in text.lower() for p in folded)
    }
    assert not leaked, f"key pieces leaked in: {leaked}"


# ---------------------------------------------------------------------------------- backends


def openai_async(url: str, key: str | None) -> Any:
    return openai.AsyncOpenAI(base_url=url, api_key=key)


def openai_sync(url: str, key: str | None) -> Any:
    return openai.OpenAI(base_url=url, api_key=key)


def langchain(url: str, key: str | None) -> Any:
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(model=MODEL, base_url=url, api_key=key, max_retries=0)  # type: ignore[arg-type]


def ragas(url: str, key: str | None) -> Any:
    from ragas.llms import llm_factory

    return llm_factory(MODEL, client=openai.AsyncOpenAI(base_url=url, api_key=key, max_retries=0))


def deepeval(url: str, key: str | None) -> Any:
    from deepeval.models import GPTModel

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return GPTModel(model=MODEL, base_url=url, api_key=key)


def function(url: str, key: str | None) -> Any:
    client = openai.OpenAI(base_url=url, api_key=key, max_retries=0)

    def ask_gateway(prompt: str, schema: type) -> str:
        reply = client.chat.completions.create(
            model=MODEL,
            messages=[{"role": "user", "content": prompt}],
            response_format={"type": "json_object"},
        )
        return reply.choices[0].message.content or ""

    return FunctionJudge(ask_gateway)


BACKENDS: dict[str, Callable[[str, str | None], Any]] = {
    "openai-async": openai_async,
    "openai-sync": openai_sync,
    "langchain": langchain,
    "ragas": ragas,
    "deepeval": deepeval,
    "function": function,
}
OPENAI_CLIENTS = ("openai-async", "openai-sync")


def run_everything(
    llm: Any, backend: str, preset: str, cache: Path, caplog: pytest.LogCaptureFixture
) -> dict[str, str]:
    """Score through ``llm`` and return every text summscore produced, by where it came from."""
    outputs: dict[str, str] = {}
    model = MODEL if backend in OPENAI_CLIENTS else None
    with warnings.catch_warnings(record=True) as caught, caplog.at_level(logging.DEBUG):
        warnings.simplefilter("always")
        options = dict(FAST, include_reason=True) if preset == "deepeval" else FAST
        scorer = SummarizationScorer(
            llm=llm, model=model, preset=preset, reply_cache=cache, **options
        )
        rows = scorer.score_many([{"source": SOURCE, "summary": SUMMARY}])
        for i, row in enumerate(rows):
            outputs[f"row{i}.str"] = str(row)
            outputs[f"row{i}.repr"] = repr(row)
            outputs[f"row{i}.to_dict"] = json.dumps(row.to_dict(), ensure_ascii=False)
            outputs[f"row{i}.error"] = row.error or ""
            outputs[f"row{i}.warnings"] = "\n".join(row.warnings)
        try:
            scorer.score(SOURCE, SUMMARY + " Again.")
        except Exception as exc:
            outputs["exception.str"] = str(exc)
            outputs["exception.repr"] = repr(exc)
            outputs["exception.traceback"] = "".join(traceback.format_exception(exc))
        outputs["scorer.repr"] = repr(scorer)
        outputs["judge.repr"] = repr(scorer.judge)
        outputs["usage"] = repr(scorer.usage)
    outputs["warnings"] = "\n".join(f"{w.category.__name__}: {w.message}" for w in caught)
    outputs["logs"] = caplog.text + "\n".join(r.getMessage() for r in caplog.records)
    for path in sorted(cache.rglob("*")):
        if path.is_file():
            outputs[f"cache:{path.name}"] = path.read_bytes().decode("latin-1")
    return outputs


@pytest.fixture(scope="module")
def gateway() -> Iterator[EchoGateway]:
    with EchoGateway() as started:
        yield started


@pytest.fixture(autouse=True)
def _no_ambient_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    # Keys from the developer's environment would be masked for a reason other than the one tested.
    for name in ("OPENAI_API_KEY", "JUDGE_CREDS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DEEPEVAL_TELEMETRY_OPT_OUT", "YES")


# (error_lower / echo_upper: the key quoted in another letter case, a mixed-case key without the
# sk- prefix, so that only the registered key itself can mask it.)
@pytest.mark.parametrize("mode", ["error", "echo", "unusable", "error_lower", "echo_upper"])
@pytest.mark.parametrize("backend", list(BACKENDS))
def test_no_backend_leaks_an_echoed_key(
    backend: str,
    mode: str,
    gateway: EchoGateway,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    if backend in ("langchain", "ragas"):
        pytest.importorskip(backend if backend == "ragas" else "langchain_openai")
    if backend == "deepeval":
        pytest.importorskip("deepeval")
    key = new_key("plain" if backend in ("langchain", "function", "openai-sync") else "sk")
    if mode in ("error_lower", "echo_upper"):
        key = new_key("mixed")
    preset = "deepeval" if backend in ("deepeval", "openai-async", "function") else "ragas"
    gateway.switch(mode)
    llm = BACKENDS[backend](gateway.url, key)
    outputs = run_everything(llm, backend, preset, tmp_path / "cache", caplog)
    assert key in gateway.keys_seen  # the key really went out and came back
    assert_clean(outputs, key)
    if mode in ("echo", "echo_upper"):  # the echoed replies were kept, masked
        assert "***" in outputs["row0.to_dict"] or "***" in outputs["row0.error"]


def test_a_key_from_openai_api_key_and_a_transient_echo_do_not_leak(
    gateway: EchoGateway,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    key = new_key("plain")
    monkeypatch.setenv("OPENAI_API_KEY", key)
    gateway.switch("server_error")
    outputs = run_everything(
        openai.AsyncOpenAI(base_url=gateway.url), "openai-async", "ragas", tmp_path, caplog
    )
    assert key in gateway.keys_seen and len(gateway.keys_seen) >= 2  # retried
    monkeypatch.delenv("OPENAI_API_KEY")  # masked because the client held it, not the env var
    assert_clean(outputs, key)


@pytest.mark.parametrize("mode", ["error", "echo"])
def test_the_cli_leaks_no_key_given_by_api_key_env(
    mode: str,
    gateway: EchoGateway,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    key = new_key("plain")
    monkeypatch.setenv("JUDGE_CREDS", key)  # a name that does not look like a credential
    data = tmp_path / "in.jsonl"
    rows = [{"id": f"r{i}", "source": SOURCE, "summary": SUMMARY} for i in range(2)]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out, report, cache = tmp_path / "out.jsonl", tmp_path / "report.html", tmp_path / "cache"
    gateway.switch(mode)
    with caplog.at_level(logging.DEBUG):
        code = cli_main(
            [
                "score", str(data), "--preset", "deepeval", "--judge", "openai",
                "--model", MODEL, "--base-url", gateway.url, "--api-key-env", "JUDGE_CREDS",
                "--max-retries", "0", "--out", str(out), "--report", str(report),
                "--cache", str(cache), "--no-progress",
            ]
        )  # fmt: skip
    assert key in gateway.keys_seen
    assert code == (3 if mode == "error" else 0)  # 3: the rows failed
    captured = capsys.readouterr()
    outputs = {
        "stdout": captured.out,
        "stderr": captured.err,
        "out": out.read_text(encoding="utf-8"),
        "report": report.read_text(encoding="utf-8"),
        "logs": caplog.text,
    }
    for path in cache.rglob("*"):
        if path.is_file():
            outputs[f"cache:{path.name}"] = path.read_bytes().decode("latin-1")
    monkeypatch.delenv("JUDGE_CREDS")
    assert_clean(outputs, key)


def test_the_check_finds_a_leak_when_there_is_one() -> None:
    key = new_key("plain")
    with pytest.raises(AssertionError, match="leaked"):
        assert_clean({"raw": f"... {key[3 : 3 + WINDOW]} ..."}, key)
