"""summscore's deepeval face against deepeval's own ``SummarizationMetric`` under ``assert_test``.

    python benchmarks/deepeval_test_run.py [--shapes 20x1,4x5] [--repeats 3] [--latency 0.2]
                                           [--cap 32] [--retry-after 1] [--runners ...]

What a user of ``deepeval test run`` meets: a pytest file with one test per case, parametrized,
each calling ``assert_test(LLMTestCase(input=source, actual_output=summary), [metric])``, where
the metric is deepeval's or the face, over ``GPTModel`` pointed at the compat judge server (in
its own process, as ``throughput.py`` runs it: a fixed latency per answer counted from arrival,
429 + Retry-After beyond ``--cap`` at once). The metric is built in each test, as users write it,
or once at module level. Each run is a subprocess in a fresh directory (deepeval writes its
test-run cache there; ``DEEPEVAL_HOME`` and ``HOME`` point into it, telemetry is off and no
Confident AI key is passed): ``deepeval test run FILE``, ``deepeval test run FILE -n 2`` where
pytest-xdist is installed, and plain ``pytest FILE``. The two metrics of a runner and placement
run ``--repeats`` times, interleaved, the order rotating each repeat; the table gives the median
(min-max) of the per-repeat ratios upstream seconds / face seconds (above 1: the face is faster),
for the whole command (wall, imports included) and for the tests alone (the sum of the test
durations in pytest's JUnit XML), the judge calls and 429s the server counted, the failed tests,
and how many tests had the same outcome under both metrics in the same repeat.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from compat.judge_server import Faults  # noqa: E402
from throughput import KEY, MODEL, Server, load_average, load_note, make_cases  # noqa: E402

METRICS = {"upstream": "deepeval.metrics", "face": "summscore.deepeval"}
PLACEMENTS = ("per test", "module")

TEST_FILE = '''"""Written by benchmarks/deepeval_test_run.py: one test per case."""
import json
from pathlib import Path

import pytest
from deepeval import assert_test
from deepeval.models import GPTModel
from deepeval.test_case import LLMTestCase
from {module} import SummarizationMetric

CASES = json.loads((Path(__file__).parent / "cases.json").read_text(encoding="utf-8"))


def make_metric():
    return SummarizationMetric(model=GPTModel(model={model!r}, base_url={url!r}, api_key={key!r}))


{shared}
@pytest.mark.parametrize("source, summary", CASES)
def test_summary(source, summary):
    assert_test(LLMTestCase(input=source, actual_output=summary), [{metric}])
'''


@dataclass
class Run:
    seconds: float  # the whole command, start-up and imports included
    test_seconds: float  # the sum of the tests' durations (JUnit XML)
    calls: int
    rejected: int
    exit_code: int
    outcomes: dict[str, str] = field(default_factory=dict)  # test id -> passed / failed / error

    @property
    def failed(self) -> int:
        return sum(o != "passed" for o in self.outcomes.values())


def runners(cli: str) -> dict[str, list[str]]:
    """The commands a test file runs under: ``FILE`` stands for its path."""
    found = {"deepeval test run": [cli, "test", "run", "FILE"]}
    if importlib.util.find_spec("xdist") is not None:  # deepeval's -n is pytest-xdist's
        found["deepeval test run -n 2"] = [cli, "test", "run", "FILE", "-n", "2", "-p", "xdist"]
    found["pytest"] = [sys.executable, "-m", "pytest", "FILE", "-q", "-p", "deepeval"]
    return found


def write_tests(
    directory: Path, metric: str, placement: str, url: str, pairs: list[list[str]]
) -> Path:
    (directory / "cases.json").write_text(json.dumps(pairs), encoding="utf-8")
    shared = "METRIC = make_metric()\n" if placement == "module" else ""
    text = TEST_FILE.format(
        module=METRICS[metric],
        model=MODEL,
        url=url,
        key=KEY,
        shared=shared,
        metric="METRIC" if placement == "module" else "make_metric()",
    )
    path = directory / "test_summaries.py"
    path.write_text(text, encoding="utf-8")
    return path


def environment(home: Path, bytecode: Path) -> dict[str, str]:
    """The subprocess's environment: the worktree's summscore first on the path, deepeval's
    telemetry off, its home and the user's home in the scratch directory, no .env read, and no
    Confident AI key or endpoint (nothing may leave the machine). Of the pytest plugins only
    deepeval's (and xdist's for ``-n``) load, as where deepeval is installed alone (the plugins of
    this project's dev environment cost some 4 s of start-up), and the bytecode, pytest's
    assertion-rewritten deepeval included, is cached in ``bytecode`` (without a cache pytest
    rewrites the whole deepeval package at every start, some 10 s)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CONFIDENT_", "DEEPEVAL_", "OPENAI_", "PYTEST_"))
        and k != "PYTHONDONTWRITEBYTECODE"
    }
    path = [str(HERE.parent / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
    env.update(
        PYTHONPATH=os.pathsep.join(path),
        DEEPEVAL_TELEMETRY_OPT_OUT="1",
        DEEPEVAL_HOME=str(home / ".deepeval"),
        DEEPEVAL_DISABLE_DOTENV="1",
        HOME=str(home),
        XDG_CACHE_HOME=str(home / ".cache"),
        NO_COLOR="1",
        PYTEST_DISABLE_PLUGIN_AUTOLOAD="1",
        PYTHONPYCACHEPREFIX=str(bytecode),
    )
    return env


def outcomes(report: Path) -> tuple[dict[str, str], float]:
    """Each test's outcome and the sum of the tests' durations, from pytest's JUnit XML."""
    found: dict[str, str] = {}
    seconds = 0.0
    if not report.exists():
        return found, float("nan")
    for case in ElementTree.parse(report).iter("testcase"):
        seconds += float(case.get("time", "0"))
        kinds = {child.tag for child in case}
        outcome = "error" if "error" in kinds else "failed" if "failure" in kinds else "passed"
        if "skipped" in kinds:
            outcome = "skipped"
        found[case.get("name", "?")] = outcome
    return found, seconds


BYTECODE = Path(tempfile.gettempdir()) / "summscore-bench-testrun-bytecode"


def run_once(
    server: Server, command: list[str], metric: str, placement: str, pairs: list[list[str]]
) -> Run:
    with tempfile.TemporaryDirectory(prefix="summscore-bench-testrun-") as scratch:
        directory = Path(scratch)
        path = write_tests(directory, metric, placement, server.url, pairs)
        report = directory / "junit.xml"
        argv = [str(path) if a == "FILE" else a for a in command] + [f"--junitxml={report}"]
        requests, rejected = server.stats()
        start = time.perf_counter()
        done = subprocess.run(
            argv,
            cwd=directory,
            env=environment(directory, BYTECODE),
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - start
        after_requests, after_rejected = server.stats()
        found, test_seconds = outcomes(report)
        if not found:
            print(done.stdout[-3000:], done.stderr[-3000:], file=sys.stderr)
    rejected = after_rejected - rejected
    run = Run(
        seconds,
        test_seconds,
        after_requests - requests - rejected,
        rejected,
        done.returncode,
        found,
    )
    print(
        f"measured: {metric} {placement} {' '.join(command[1:4])}: {seconds:.2f} s, tests "
        f"{test_seconds:.2f} s, {run.calls} calls, {rejected} 429s, {run.failed} failed, "
        f"exit {done.returncode}",
        file=sys.stderr,
        flush=True,
    )
    return run


HEADER = (
    "| shape | command | metric built | ratio wall: upstream s / face s | ratio tests only "
    "| s per case: upstream / face | judge calls: upstream / face | 429s: upstream / face "
    "| failed tests: upstream / face | same outcome |"
)


def table_row(shape: str, command: str, placement: str, pairs: list[tuple[Run, Run]]) -> str:
    """One line: (upstream, face) runs of the same repeats."""

    def ratio(values: list[float]) -> str:
        return f"{statistics.median(values):.2f}x ({min(values):.2f}-{max(values):.2f})"

    def med(runs: list[Run], name: str) -> float:
        return float(statistics.median(getattr(r, name) for r in runs))

    up, face = [u for u, _ in pairs], [f for _, f in pairs]
    cases = max(len(r.outcomes) for r in (*up, *face)) or 1
    same = sum(  # pass / fail: an error and a failure both fail the test
        (u.outcomes.get(name) == "passed") == (outcome == "passed")
        for u, f in pairs
        for name, outcome in f.outcomes.items()
        if name in u.outcomes
    )
    total = sum(max(len(u.outcomes), len(f.outcomes)) for u, f in pairs)
    return (
        f"| {shape} | {command} | {placement} | "
        f"{ratio([u.seconds / f.seconds for u, f in pairs])} | "
        f"{ratio([u.test_seconds / f.test_seconds for u, f in pairs])} | "
        f"{med(up, 'seconds') / cases:.3f} / {med(face, 'seconds') / cases:.3f} | "
        f"{med(up, 'calls'):.0f} / {med(face, 'calls'):.0f} | "
        f"{med(up, 'rejected'):.0f} / {med(face, 'rejected'):.0f} | "
        f"{sum(r.failed for r in up)} / {sum(r.failed for r in face)} | {same} of {total} |"
    )


def systems(names: list[str]) -> list[tuple[str, str]]:
    """(command, placement) of each comparison: every command with a metric per test, and the
    module-level metric under ``deepeval test run`` alone."""
    return [(n, "per test") for n in names] + [("deepeval test run", "module")] * (
        "deepeval test run" in names
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default="20x1,4x5", help="sources x summaries, comma-separated")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--cap", type=int, default=32)
    parser.add_argument("--retry-after", type=float, default=1.0)
    parser.add_argument("--runners", default="", help="a comma-separated subset of the commands")
    args = parser.parse_args()
    cli = shutil.which("deepeval", path=str(Path(sys.executable).parent)) or "deepeval"
    commands = runners(cli)
    if args.runners:
        commands = {n: c for n, c in commands.items() if n in args.runners.split(",")}
    start_load = load_average()
    server = Server(
        Faults(
            latency=args.latency, paced=True, max_concurrency=args.cap, retry_after=args.retry_after
        )
    )
    lines = [HEADER, "|" + " --- |" * (HEADER.count("|") - 1)]
    try:
        for command in commands.values():  # untimed: the bytecode cache warm for every system
            for metric in METRICS:
                run_once(server, command, metric, "per test", [["A source.", "A summary."]])
        for shape in args.shapes.split(","):
            sources, summaries = (int(x) for x in shape.split("x"))
            pairs = [[c.source, c.summary] for c in make_cases(sources, summaries)]
            order = systems(list(commands))
            runs: dict[tuple[str, str, str], list[Run]] = {
                (name, placement, metric): [] for name, placement in order for metric in METRICS
            }
            for repeat in range(args.repeats):
                turn = repeat % len(order)
                metrics = list(METRICS)[:: 1 if repeat % 2 == 0 else -1]  # each goes first
                for name, placement in order[turn:] + order[:turn]:
                    for metric in metrics:
                        runs[name, placement, metric].append(
                            run_once(server, commands[name], metric, placement, pairs)
                        )
            for name, placement in systems(list(commands)):
                together = list(
                    zip(runs[name, placement, "upstream"], runs[name, placement, "face"])
                )
                lines.append(table_row(f"{sources} x {summaries}", name, placement, together))
                print(lines[-1], file=sys.stderr, flush=True)
    finally:
        server.close()
    print(
        f"{args.repeats} interleaved repeats (the order rotates each repeat); judge "
        f"{args.latency * 1000:.0f} ms per answer, 429 + Retry-After {args.retry_after:g}s beyond "
        f"{args.cap} at once; {os.cpu_count()} cores, {load_note(start_load, load_average())}.\n"
    )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
