"""Client CPU per judge call, broken into its parts, for summscore and the upstream paths, in one run.

    python benchmarks/client_cpu.py [--shape 200x1] [--latency 0.2] [--cap 32]
                                    [--only summscore] [--interval 0.002]

The compat judge server runs in a process of its own, so the client's process CPU
(``time.process_time``, every thread) is the client's alone. Each system scores the same cases
twice: once plainly, for the CPU per judge call (process CPU / answered calls), and once under a
sampling profiler (a thread reading every other thread's stack every ``--interval`` seconds), for
the share of that CPU each part takes. The parts are printed in milliseconds per call (share x the
plain run's figure). Systems:

* summscore, ragas and deepeval rules, on ``AsyncOpenAI(base_url=..., api_key=...)`` as most
  users build it (openai's own httpx pool), and, when ``httpx-aiohttp`` is installed, on
  ``AsyncOpenAI(http_client=openai.DefaultAioHttpClient())`` (openai's aiohttp transport);
* ragas ``evaluate()`` with the legacy ``SummarizationScore``, and deepeval ``evaluate()`` with
  ``SummarizationMetric`` (needs the ragas and deepeval extras; ``--only summscore`` skips them).

The figures are ratios of one run on one machine: compare rows with each other, not with another
machine's. A busy machine inflates every row.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import re
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "YES")
os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")

from compat.corpus import Case
from compat.judge_server import Faults

sys.path.insert(0, str(Path(__file__).resolve().parent))
from throughput import Server, make_cases, settle_gc  # the same out-of-process server and cases

MODEL = "gpt-4o-mini"
KEY = "sk-benchmark-not-a-real-key"

# The parts, in the order they claim a stack: a sample belongs to the first part any of its frames
# matches (so JSON parsing inside the prompt renderer counts as prompt rendering).
PARTS: list[tuple[str, str]] = [
    ("cost lookup", r"summscore/judges/pricing|genai_prices"),
    (
        "prompt rendering",
        r"summscore/prompts/|ragas/prompt/|deepeval/metrics/summarization/template",
    ),
    ("reply JSON parse/repair", r"summscore/calls/reply_json|summscore/calls/checks"),
    ("key masking", r"summscore/masking/|summscore/judges/_secrets"),
    ("reply cache", r"summscore/calls/reply_cache"),
    ("SDK request building", r"openai/_base_client.py:_build_request|openai/_utils/_transform"),
    ("SDK response model", r"openai/_response|openai/_models|openai/_legacy_response"),
    ("HTTP pool + transport", r"httpcore/|httpx/|aiohttp/|httpx_aiohttp/|h11/"),
    ("SDK other", r"openai/"),
    ("framework other", r"ragas/|deepeval/|instructor/|langchain"),
    ("pydantic", r"pydantic"),
    ("summscore core", r"summscore/"),
    ("event loop", r"asyncio/|anyio/|selectors|concurrent/"),
]
_IDLE_LEAVES = {"select", "wait", "acquire", "sleep", "poll", "_recv_bytes", "recv", "get"}


# ------------------------------------------------------------------- the sampling profiler


class Sampler:
    """Reads the stacks of every other thread every ``interval`` seconds and counts, by part, the
    samples of event-loop threads at work (every system measured here is async). Threads parked
    in a pool, a sleep or a lock, and a loop waiting in ``select``, are not counted."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.parts: collections.Counter[str] = collections.Counter()
        self._patterns = [(name, re.compile(pattern)) for name, pattern in PARTS]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        me = threading.get_ident()
        while not self._stop.wait(self.interval):
            for ident, frame in sys._current_frames().items():
                if ident != me and frame.f_code.co_name not in _IDLE_LEAVES:
                    part = self._part(frame)
                    if part is not None:
                        self.parts[part] += 1

    def _part(self, frame: Any) -> str | None:
        keys = []
        while frame is not None:
            code = frame.f_code
            keys.append(f"{code.co_filename}:{code.co_name}")
            frame = frame.f_back
        stack = ";".join(keys).replace(os.sep, "/")
        if "base_events.py:_run_once" not in stack:
            return None  # not an event loop's work
        for name, pattern in self._patterns:
            if pattern.search(stack):
                return name
        return "other"


# ------------------------------------------------------------------- the systems

Runner = Callable[[str, list[Case]], None]


def summscore_runner(preset: str, cap: int, *, aiohttp: bool) -> Runner:
    def run(url: str, cases: list[Case]) -> None:
        import openai

        from summscore import SummarizationScorer

        async def score() -> None:
            extra: dict[str, Any] = {}
            if aiohttp:
                extra["http_client"] = openai.DefaultAioHttpClient()
            async with openai.AsyncOpenAI(base_url=url, api_key=KEY, **extra) as client:
                scorer = SummarizationScorer(
                    client, model=MODEL, preset=preset, max_concurrency=cap
                )
                items = [(list(c.contexts), c.summary) for c in cases]
                results = await scorer.ascore_many(items, progress=False)
                failed = [r.error for r in results if not r.ok]
                assert not failed, failed[:1]

        asyncio.run(score())

    return run


def ragas_evaluate(url: str, cases: list[Case]) -> None:
    import openai
    from ragas import EvaluationDataset, SingleTurnSample, evaluate
    from ragas.llms import llm_factory
    from ragas.metrics._summarization import SummarizationScore

    llm = llm_factory(MODEL, client=openai.AsyncOpenAI(base_url=url, api_key=KEY))
    samples = [
        SingleTurnSample(reference_contexts=list(c.contexts), response=c.summary) for c in cases
    ]
    evaluate(
        EvaluationDataset(samples=samples),
        metrics=[SummarizationScore()],
        llm=llm,
        show_progress=False,
    )


def deepeval_evaluate(url: str, cases: list[Case]) -> None:
    from deepeval import evaluate
    from deepeval.evaluate.configs import DisplayConfig, ErrorConfig
    from deepeval.metrics import SummarizationMetric
    from deepeval.models import GPTModel
    from deepeval.test_case import LLMTestCase

    evaluate(
        test_cases=[LLMTestCase(input=c.source, actual_output=c.summary) for c in cases],
        metrics=[SummarizationMetric(model=GPTModel(model=MODEL, base_url=url, api_key=KEY))],
        display_config=DisplayConfig(print_results=False, show_indicator=False),
        error_config=ErrorConfig(ignore_errors=True),
    )


def _has_aiohttp_transport() -> bool:
    try:
        import httpx_aiohttp  # noqa: F401
    except ImportError:
        return False
    return True


# ------------------------------------------------------------------- measuring


def _answered(server: Server) -> int:
    """Answers given so far, 429s left out."""
    requests, rejected = server.stats()
    return requests - rejected


def cpu_per_call(server: Server, run: Runner, cases: list[Case]) -> tuple[float, int]:
    before = _answered(server)
    cpu = time.process_time()
    run(server.url, cases)
    cpu = time.process_time() - cpu
    calls = _answered(server) - before
    return 1000 * cpu / max(calls, 1), calls


def measure(
    server: Server, name: str, run: Runner, cases: list[Case], interval: float
) -> tuple[str, float, int, dict[str, float]]:
    run(server.url, cases[:2])  # imports and first-use set-up, unmeasured
    settle_gc()
    ms, calls = cpu_per_call(server, run, cases)
    with Sampler(interval) as sampler:
        run(server.url, cases)
    total = sum(sampler.parts.values()) or 1
    parts = {part: ms * count / total for part, count in sampler.parts.items()}
    print(f"measured: {name}: {ms:.2f} ms/call over {calls} calls", file=sys.stderr, flush=True)
    return name, ms, calls, parts


def report(rows: list[tuple[str, float, int, dict[str, float]]], title: str) -> None:
    names = [name for name, _ in PARTS] + ["other"]
    shown = [n for n in names if any(parts.get(n, 0) >= 0.05 for *_, parts in rows)]
    print(f"\n{title}")
    header = "| system | CPU ms/call | calls | " + " | ".join(shown) + " |"
    print(header)
    print("|" + " --- |" * (header.count("|") - 1))
    for name, ms, calls, parts in rows:
        cells = " | ".join(f"{parts.get(n, 0.0):.2f}" for n in shown)
        print(f"| {name} | {ms:.2f} | {calls} | {cells} |")
    base = rows[0][1]
    ratios = ", ".join(f"{name}: {ms / base:.2f}x" for name, ms, _, _ in rows[1:])
    if ratios:
        print(f"CPU per call relative to {rows[0][0]}: {ratios}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", default="200x1", help="sources x summaries per source")
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--cap", type=int, default=32, help="server's concurrency before 429")
    parser.add_argument("--interval", type=float, default=0.002, help="sampling interval, s")
    parser.add_argument("--only", choices=("summscore", "all"), default="all")
    args = parser.parse_args()
    sources, summaries = (int(x) for x in args.shape.lower().split("x"))
    cases = make_cases(sources, summaries)
    systems: list[tuple[str, Runner]] = [
        ("summscore ragas", summscore_runner("ragas", args.cap, aiohttp=False)),
    ]
    if _has_aiohttp_transport():
        systems.append(
            ("summscore ragas, aiohttp", summscore_runner("ragas", args.cap, aiohttp=True))
        )
    systems.append(("summscore deepeval", summscore_runner("deepeval", args.cap, aiohttp=False)))
    if _has_aiohttp_transport():
        systems.append(
            ("summscore deepeval, aiohttp", summscore_runner("deepeval", args.cap, aiohttp=True))
        )
    if args.only == "all":
        systems += [
            ("ragas evaluate()", ragas_evaluate),
            ("deepeval evaluate()", deepeval_evaluate),
        ]
    faults = Faults(latency=args.latency, paced=True, max_concurrency=args.cap, retry_after=1.0)
    server = Server(faults)
    workdir = os.getcwd()
    try:
        with tempfile.TemporaryDirectory() as scratch:
            os.chdir(scratch)  # deepeval writes its run cache to the working directory
            rows = [measure(server, name, run, cases, args.interval) for name, run in systems]
    finally:
        os.chdir(workdir)
        server.close()
    report(
        rows,
        f"client CPU per judge call, ms ({sources} sources x {summaries} summaries, "
        f"{args.latency * 1000:.0f} ms per answer, {args.cap} concurrent; {os.cpu_count()} cores)",
    )


if __name__ == "__main__":
    main()
