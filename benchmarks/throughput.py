"""Throughput against the physical bound and against the frameworks' own paths, in one run.

    python benchmarks/throughput.py [--latency 0.2] [--cap 32] [--retry-after 1]
                                    [--shapes 40x5,200x1] [--only summscore] [--added-latency]
    python benchmarks/throughput.py --faces [--repeats 3] [--figures]
    python benchmarks/throughput.py --plots     # also docs/images/throughput-bound.svg

The compat judge server runs in a process of its own (so that its work does not share the
client's interpreter) with a fixed latency per answer, counted from each request's arrival with
the server's own work inside it (``Faults(paced=True)``), and 429 + Retry-After beyond ``--cap``
concurrent requests. Each system first scores two cases untimed (imports, first-use set-up), then
the garbage left by that set-up is collected, so that no system pays for another's imports. For each shape (sources x summaries per source) it scores the same cases with:

* ``SummarizationScorer(AsyncOpenAI, preset="ragas", max_concurrency=cap).score_many``,
  ``ragas.evaluate()`` with the legacy ``SummarizationScore``, and collections
  ``SummaryScore.abatch_score``;
* ``SummarizationScorer(..., preset="deepeval").score_many`` and ``deepeval.evaluate()`` with
  ``SummarizationMetric``;

and prints one table per shape: wall seconds, judge calls, 429s seen, client CPU per judge call,
the ratio to the bound and the speed-up over each upstream path. The bound is what no client can
beat: max(dependent rounds x latency, fewest calls x latency / cap). Upstream paths run with
their defaults (ragas: 16 workers; deepeval: 20 test cases at once). Needs the ragas and deepeval
extras; takes a few minutes.

``--faces`` times each face inside its framework's own evaluation loop (benchmarks/loop_plan.py,
loop_runners.py, loop_judges.py). ragas and deepeval: the face against the framework's own
summarization metric in the same loop. MLflow, Opik, Inspect, LangSmith, Braintrust and Phoenix
(no summarization metric): the face at the loop's default concurrency and with the loop's own
knob raised to every row at once, both against the core's ``score_many``, and (knob raised)
against the framework's own LLM-judge metric in the same loop where it has one. Every row counts
the 429s beside ``score_many``'s (the adaptive limit, as the faces use it). One run cannot tell
a regression from noise, so each loop's systems run ``--repeats`` times (at least 3),
interleaved (the order rotates each repeat), and the table gives the median of the per-repeat
ratios (the other system's seconds / the face's seconds: above 1, the face is faster) with their
spread. ``--figures`` writes it to docs/figures/faces_in_loops.md.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "YES")
os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # LiteLLM: no price-map download

import loop_figure
import loop_plan
import loop_runners
from compat.corpus import CASES, Case
from compat.judge_server import Faults, JudgeServer

MODEL = "gpt-4o-mini"
KEY = "sk-benchmark-not-a-real-key"
# Dependent rounds per case and judge calls per source / per summary, by rule.
ROUNDS = {"ragas": 3, "deepeval": 3}
CALLS = {"ragas": (2, 1), "deepeval": (3, 4)}


# ------------------------------------------------------------------- the server, out of process


def _serve(conn: Connection, faults: Faults) -> None:
    with JudgeServer(faults) as server:
        conn.send(server.url)
        while True:
            command = conn.recv()
            if command == "stats":
                conn.send((server.stats.requests, server.stats.statuses[429]))
            elif command == "times":
                stats = server.stats
                conn.send((stats.answered, stats.answer_seconds, stats.slowest_answer))
            else:
                return


class Server:
    """The compat judge server in a child process; ``stats()`` is (requests, 429s) so far."""

    def __init__(self, faults: Faults) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child, faults), daemon=True)
        self._process.start()
        self.url: str = self._conn.recv()

    def stats(self) -> tuple[int, int]:
        self._conn.send("stats")
        requests, rejected = self._conn.recv()
        return int(requests), int(rejected)

    def answer_times(self) -> tuple[int, float, float]:
        """(answers, total seconds from arrival to answer, slowest answer) so far."""
        self._conn.send("times")
        answered, total, slowest = self._conn.recv()
        return int(answered), float(total), float(slowest)

    def close(self) -> None:
        self._conn.send("stop")
        self._process.join(10)


# ------------------------------------------------------------------- cases


def make_cases(sources: int, summaries: int) -> list[Case]:
    """``summaries`` summaries of each of ``sources`` distinct sources (corpus texts, numbered)."""
    bases = list({c.source: c for c in CASES if c.kind != "injection"}.values())
    picked = []
    for s in range(sources):
        base = bases[s % len(bases)]
        contexts = (*base.contexts, f"This is bulletin number {s + 1}.")
        for k in range(summaries):
            picked.append(Case(f"{base.id}-{s}-{k}", contexts, f"{base.summary} ({k + 1})", "x"))
    return picked


# ------------------------------------------------------------------- the systems


@dataclass
class Row:
    system: str
    rule: str
    seconds: float
    calls: int
    rejected: int
    cpu_ms: float
    failed: int
    error: str | None = None  # the exception that stopped the whole run (no figure then)
    cpu_seconds: float = 0.0  # the process's CPU time in the run, every thread


Runner = Callable[[str, list[Case]], int]  # (url, cases) -> failed rows


def summscore_runner(preset: str, cap: int) -> Runner:
    def run(url: str, cases: list[Case]) -> int:
        import openai

        from summscore import SummarizationScorer

        client = openai.AsyncOpenAI(base_url=url, api_key=KEY)
        scorer = SummarizationScorer(client, model=MODEL, preset=preset, max_concurrency=cap)
        results = scorer.score_many([(list(c.contexts), c.summary) for c in cases], progress=False)
        return sum(not r.ok for r in results)

    return run


def ragas_abatch_score(url: str, cases: list[Case]) -> int:
    import openai
    from ragas.llms import llm_factory
    from ragas.metrics.collections import SummaryScore

    llm = llm_factory(MODEL, client=openai.AsyncOpenAI(base_url=url, api_key=KEY))
    inputs = [{"reference_contexts": list(c.contexts), "response": c.summary} for c in cases]

    async def run() -> list[Any]:
        return list(await SummaryScore(llm=llm).abatch_score(inputs))

    results = asyncio.run(run())
    return sum(r.value is None for r in results)


HEADER = (
    "| shape | loop | face's loop concurrency | face compared with | ratio: its s / face s "
    "| s per case: it / face | 429s: it / face / score_many | judge calls: it / face "
    "| failed rows: it / face | loop alone: s per case | floor / face |"
)


def faces_in_loops(
    server: Server, shapes: list[tuple[int, int]], repeats: int, loops: tuple[str, ...] = ()
) -> str:
    """Each face in its framework's loop, at the loop's default concurrency and with its knob
    raised, against the framework's own metric in the same loop or ``score_many``; the systems of
    a loop run interleaved (those of ``loops``, a prefix of the loop's name; every loop when
    empty). A markdown table."""
    lines = [
        f"{repeats} interleaved repeats of each loop's systems (the order rotates each repeat). "
        "Ratio = seconds of what the face is compared with / seconds of the face (above 1: the "
        "face is faster), median (min-max) of the per-repeat ratios. score_many is the core "
        f"alone (preset {loop_plan.PRESET!r}, every row at once), outside any loop. The "
        "face's loop concurrency is the framework's default (what a user who sets nothing "
        "meets) or its knob raised to every row at once, as score_many has them; the "
        "framework's own metric runs in the same loop with the same knob. 429s = median "
        "rate-limited answers per run. Loop alone = the same loop and knob with a scorer that "
        "calls no judge (what the loop itself costs); core = the core given the loop's rows at "
        "once (score_many with the knob raised; at the default, ascore on as many rows at a "
        "time as the loop holds where it has a fixed number: MLflow 10, Opik 16, LangSmith 1, "
        "Phoenix 3); floor = the largest of the loop alone's seconds, the core's seconds and "
        "the sum of their CPU seconds (Python runs one thread at a time: the loop's and the "
        "scorer's work do not overlap), per repeat: no face can be much faster in that loop, "
        "and floor / face near 1 means the face adds nothing to what the loop and the judge "
        "cost.",
        "",
        HEADER,
        "|" + " --- |" * (HEADER.count("|") - 1),
    ]
    for sources, summaries in shapes:
        cases = make_cases(sources, summaries)
        for group in loop_plan.groups(len(cases)):
            if loops and not group.loop.lower().startswith(loops):
                continue
            runs = run_group(server, group, cases, repeats)
            for pair in group.pairs:
                lines.append(table_row(f"{sources} x {summaries}", group, pair, runs, len(cases)))
                print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines)


def run_group(
    server: Server, group: loop_plan.Group, cases: list[Case], repeats: int
) -> dict[str, list[Row]]:
    """Every system of ``group`` ``repeats`` times, interleaved: the order rotates each repeat."""
    names = list(group.systems)
    runs: dict[str, list[Row]] = {name: [] for name in names}
    for repeat in range(repeats):
        order = names[repeat % len(names) :] + names[: repeat % len(names)]
        for name in order:
            runs[name].append(
                measure(server, f"{name} in {group.loop}", "", group.systems[name], cases)
            )
    return runs


def table_row(
    shape: str,
    group: loop_plan.Group,
    pair: loop_plan.Pair,
    runs: dict[str, list[Row]],
    cases: int,
) -> str:
    """One line of the table: ``pair.face`` against ``pair.other`` over the same repeats."""
    import statistics

    face, other, many = runs[pair.face], runs[pair.other], runs["score_many"]
    core = runs[pair.core]
    ratios = [o.seconds / f.seconds for o, f in zip(other, face)]
    if pair.knob == loop_plan.RAISED:
        knob = f"{group.knob}{loop_plan.rows_at_once(cases)}"
    else:
        knob = pair.knob

    def med(rows: list[Row], field: str) -> float:
        return float(statistics.median(getattr(r, field) for r in rows))

    errors = {r.error for r in (*face, *other) if r.error}
    if pair.alone is None:
        floor = " - | - |"
    else:
        alone = runs[pair.alone]
        floors = [
            max(a.seconds, c.seconds, a.cpu_seconds + c.cpu_seconds) / f.seconds
            for a, c, f in zip(alone, core, face)
        ]
        floor = (
            f" {med(alone, 'seconds') / cases:.3f} | {statistics.median(floors):.2f}x "
            f"({min(floors):.2f}-{max(floors):.2f}) |"
        )
        errors |= {r.error for r in alone if r.error}
    return (
        f"| {shape} | {group.loop} | {knob} | {pair.against} | "
        f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f}) | "
        f"{med(other, 'seconds') / cases:.3f} / {med(face, 'seconds') / cases:.3f} | "
        f"{med(other, 'rejected'):.0f} / {med(face, 'rejected'):.0f} / "
        f"{med(many, 'rejected'):.0f} | {med(other, 'calls'):.0f} / {med(face, 'calls'):.0f} | "
        f"{sum(r.failed for r in other)} / {sum(r.failed for r in face)}"
        + (f" (stopped: {', '.join(sorted(errors))})" if errors else "")
        + " |"
        + floor
    )


def settle_gc() -> None:
    """Collect what set-up left behind, untimed. Importing a framework (ragas brings pandas,
    datasets, langchain) leaves some 350,000 new objects that the first full collection after
    it must scan (about 0.3 s here): without this, whichever system runs first after an import
    pays for the import."""
    gc.collect()


def measure(server: Server, system: str, rule: str, run: Runner, cases: list[Case]) -> Row:
    """One timed run. A system whose run raises (upstream ragas' ``abatch_score`` gives up on
    429s with instructor's ``InstructorRetryException``) is recorded as failed, with the
    exception's type, and the next system runs."""
    error: str | None = None
    try:
        run(server.url, cases[:2])  # imports and first-use set-up, untimed
    except Exception as exc:
        error = f"{type(exc).__name__} in set-up"
    settle_gc()
    requests, rejected = server.stats()
    cpu, start = time.process_time(), time.perf_counter()
    failed = len(cases)
    if error is None:
        try:
            failed = run(server.url, cases)
        except Exception as exc:
            error = type(exc).__name__
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    after_requests, after_rejected = server.stats()
    calls = after_requests - requests - (after_rejected - rejected)
    row = Row(
        system,
        rule,
        seconds,
        calls,
        after_rejected - rejected,
        1000 * cpu / max(calls, 1),
        failed,
        error,
        cpu,
    )
    print(f"measured: {row}", file=sys.stderr, flush=True)  # survives a later system's crash
    return row


# ------------------------------------------------------------------- the table


def bound(rule: str, sources: int, cases: int, latency: float, cap: int) -> float:
    per_source, per_summary = CALLS[rule]
    calls = per_source * sources + per_summary * cases
    return max(ROUNDS[rule] * latency, calls * latency / cap)


def report(rows: list[Row], sources: int, cases: int, latency: float, cap: int) -> None:
    print(f"\n{sources} sources x {cases // sources} summaries ({cases} cases)")
    upstream = {r.system: r for r in rows if not r.system.startswith("summscore")}
    versus = "".join(f" vs {name} |" for name in upstream)  # none with --only summscore
    header = f"| system | wall s | judge calls | 429s | CPU ms/call | x bound |{versus} failed |"
    print(header)
    print("|" + " --- |" * (header.count("|") - 1))
    for r in rows:
        b = bound(r.rule, sources, cases, latency, cap)
        speedups = "".join(  # against the upstream paths of the same rule only
            _speedup(u, r)
            if r.system.startswith("summscore") and u.rule == r.rule and r.error is None
            else "  |"
            for u in upstream.values()
        )
        ratio = f"{r.seconds / b:.2f}" if b and r.error is None else "n/a"
        failed = f"{r.failed} (stopped: {r.error})" if r.error else str(r.failed)
        print(
            f"| {r.system} | {r.seconds:.2f} | {r.calls} | {r.rejected} | {r.cpu_ms:.1f} | "
            f"{ratio} |{speedups} {failed} |"
        )
    for rule in ROUNDS:
        print(f"bound ({rule} rule): {bound(rule, sources, cases, latency, cap):.2f} s")


def _speedup(upstream: Row, ours: Row) -> str:
    """How many times faster than an upstream path; none against a run that stopped (its time
    is the time to its failure, not to a result)."""
    if upstream.error is not None:
        return " n/a (it stopped) |"
    return f" {upstream.seconds / ours.seconds:.2f}x |"


def machine() -> str:
    """The CPU, its cores and the load when the run started (other work skews the figures)."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        load = f"load average {os.getloadavg()[0]:.2f} at start"
    except OSError:
        load = "load unknown"
    return f"{model}, {os.cpu_count()} cores, {load}, Python {sys.version.split()[0]}"


def load_average() -> float | None:
    """The machine's one-minute load average, or None where the system has none."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def shapes_note(shapes: list[tuple[int, int]]) -> str:
    """The figure's last line: the cases per shape and the machine's cores. The load while it
    ran is no part of the figure (the docs include it): ``load_note`` prints it, for
    benchmarks/README.md's account of the run."""
    cases = ", ".join(f"{s} x {k} ({s * k} cases)" for s, k in shapes)
    return f"Shapes: {cases}. Machine: {os.cpu_count()} cores."


def load_note(start: float | None, end: float | None) -> str:
    """The machine's load while the run went (other work skews the ratios)."""
    if start is None or end is None:
        return "load average unknown"
    return f"load average {start:.1f} at the start and {end:.1f} at the end"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--cap", type=int, default=32, help="server's concurrency before 429")
    parser.add_argument("--retry-after", type=float, default=1.0)
    parser.add_argument(
        "--shapes", default="40x5,200x1", help="sources x summaries, comma-separated"
    )
    parser.add_argument("--only", choices=("summscore", "all"), default="all")
    parser.add_argument(
        "--faces", action="store_true", help="summscore's faces in upstream's loops, repeated"
    )
    parser.add_argument("--repeats", type=int, default=3, help="runs of each pair (--faces)")
    parser.add_argument(
        "--loops",
        nargs="*",
        choices=(
            "ragas",
            "deepeval",
            "mlflow",
            "opik",
            "inspect",
            "langsmith",
            "braintrust",
            "phoenix",
        ),
        default=[],
        help="(--faces) only these frameworks' loops (default: every one)",
    )
    parser.add_argument(
        "--figures",
        action="store_true",
        help="(--faces) the table to docs; with --loops or --shapes, only those rows replaced",
    )
    parser.add_argument(
        "--plots",
        action="store_true",
        help="draw wall time against the bound to docs/images/throughput-bound.svg (matplotlib)",
    )
    parser.add_argument(
        "--added-latency",
        action="store_true",
        help="add the latency to the server's own work (the rig before paced answers)",
    )
    args = parser.parse_args()
    # paced: an answer takes ``latency`` from arrival, the server's own work included, as a
    # hosted model's does; the server's Python work must not count against the client.
    faults = Faults(
        latency=args.latency,
        paced=not args.added_latency,
        max_concurrency=args.cap,
        retry_after=args.retry_after,
    )
    systems: list[tuple[str, str, Runner]] = [
        ("summscore ragas", "ragas", summscore_runner("ragas", args.cap)),
        ("summscore deepeval", "deepeval", summscore_runner("deepeval", args.cap)),
    ]
    if args.only == "all":
        systems += [
            ("ragas evaluate()", "ragas", loop_runners.ragas_evaluate(face=False)),
            ("ragas abatch_score", "ragas", ragas_abatch_score),
            ("deepeval evaluate()", "deepeval", loop_runners.deepeval_evaluate(face=False)),
        ]
    print(
        f"compat judge server (own process): {args.latency * 1000:.0f} ms per answer "
        f"({'added to' if args.added_latency else 'including'} its own work), 429 + "
        f"Retry-After {args.retry_after:g}s beyond {args.cap} concurrent"
    )
    print(f"machine: {machine()}")
    server = Server(faults)
    workdir = os.getcwd()
    try:
        with tempfile.TemporaryDirectory() as scratch:
            os.chdir(scratch)  # deepeval writes its run cache to the working directory
            if args.faces:
                if args.repeats < 3:
                    parser.error("--repeats: at least 3 (one run cannot tell noise from a change)")
                shapes = [
                    tuple(int(x) for x in s.lower().split("x")) for s in args.shapes.split(",")
                ]
                started = load_average()
                table = faces_in_loops(
                    server,
                    shapes,  # type: ignore[arg-type]
                    args.repeats,
                    tuple(args.loops),
                )
                table += "\n\n" + shapes_note(shapes)  # type: ignore[arg-type]
                print(f"\nmachine: {machine()}\n{table}")
                print(f"{load_note(started, load_average())} (for benchmarks/README.md)")
                if args.figures:  # with --loops / --shapes: those rows replaced, the others kept
                    figure = Path(workdir) / "docs" / "figures" / "faces_in_loops.md"
                    figure.parent.mkdir(parents=True, exist_ok=True)
                    whole = not args.loops and args.shapes == parser.get_default("shapes")
                    old = None if whole or not figure.exists() else figure.read_text("utf-8")
                    ran = tuple(f"{s} x {k}" for s, k in shapes)
                    merged = loop_figure.merge(old, table, tuple(args.loops), ran)
                    figure.write_text(merged, encoding="utf-8")
                return
            drawn = []
            for shape in args.shapes.split(","):
                sources, summaries = (int(x) for x in shape.lower().split("x"))
                cases = make_cases(sources, summaries)
                rows = [measure(server, *system, cases) for system in systems]
                report(rows, sources, len(cases), args.latency, args.cap)
                drawn.append(
                    (
                        f"{sources} sources x {summaries} summaries ({len(cases)} cases)",
                        [(r.system, r.rule, r.seconds) for r in rows if r.error is None],
                        {
                            rule: bound(rule, sources, len(cases), args.latency, args.cap)
                            for rule in ROUNDS
                        },
                    )
                )
            if args.plots:
                sys.path.insert(0, str(Path(__file__).resolve().parent))
                import plots

                plots.throughput_bound(
                    drawn,
                    note=f"Measured by python benchmarks/throughput.py --plots "
                    f"({args.latency * 1000:.0f} ms per answer, 429 beyond {args.cap} at once) "
                    f"on {plots.machine()}.",
                )
        answered, total, slowest = server.answer_times()
        print(
            f"\nserver side, arrival to answer: mean {1000 * total / max(answered, 1):.0f} ms, "
            f"slowest {1000 * slowest:.0f} ms over {answered} answers"
        )
    finally:
        os.chdir(workdir)
        server.close()


if __name__ == "__main__":
    main()
