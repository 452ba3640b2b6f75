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
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "YES")
os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # LiteLLM: no price-map download

import loop_figure
import loop_runners
from compat.corpus import Case
from compat.judge_server import Faults

# The set-up (server, cases, notes) and the timed runs (--faces included) live in
# throughput_setup and throughput_faces; their names are importable from here, as before the
# split (client_cpu.py, deepeval_test_run.py and the tests import them).
from throughput_faces import (  # noqa: F401
    HEADER,
    Row,
    Runner,
    faces_in_loops,
    measure,
    run_group,
    table_row,
)
from throughput_setup import (  # noqa: F401
    KEY,
    MODEL,
    Server,
    load_average,
    load_note,
    machine,
    make_cases,
    settle_gc,
    shapes_note,
)

# Dependent rounds per case and judge calls per source / per summary, by rule.
ROUNDS = {"ragas": 3, "deepeval": 3}
CALLS = {"ragas": (2, 1), "deepeval": (3, 4)}


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
