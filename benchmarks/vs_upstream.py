"""summscore against the frameworks' own metrics, side by side in one process, on one judge.

    python benchmarks/vs_upstream.py [--sources 8] [--summaries 5] [--latency 0.05] [--figures]

Starts the compat judge server with a fixed latency per answer (a stand-in for an LLM API), then
scores the same cases (several summaries of each source, as when comparing models) with:

* ragas's collections ``SummaryScore.abatch_score`` and ``summscore.ragas.SummaryScore``;
* deepeval's ``SummarizationMetric.a_measure`` (one instance per case, all at once, as
  ``deepeval.evaluate`` runs them) and ``summscore.deepeval.SummarizationMetric``.

and prints judge calls, wall time, peak Python memory (tracemalloc, in a separate run) and the
ratios (``--figures`` also writes them to ``docs/figures/vs_upstream.md`` for the docs). Each side
scores one case first, untimed. Both sides get the same judge answers, so the
numbers agree; the cost does not. Needs the ragas and deepeval extras.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "YES")
os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")

from compat.clients import deepeval_model, llm_test_case, ragas_llm
from compat.corpus import CASES, Case
from compat.judge_server import Faults, JudgeServer


@dataclass
class Run:
    calls: int
    seconds: float
    peak_mb: float
    scores: list[float]


Job = Callable[[list[Case]], Awaitable[list[float]]]


async def _measure(server: JudgeServer, job: Job, cases: list[Case]) -> Run:
    # One untimed case first, so that imports and set-up done on first use are not measured.
    await job(cases[:1])
    before = server.stats.requests
    start = time.perf_counter()
    scores = await job(cases)
    seconds = time.perf_counter() - start
    calls = server.stats.requests - before
    # Memory in a run of its own: tracemalloc slows allocation-heavy code several times over,
    # which would distort the timing above.
    tracemalloc.start()
    await job(cases)
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    return Run(calls, seconds, peak, scores)


def _value(score: float | None) -> float:
    return float("nan") if score is None else float(score)


def _cases(sources: int, summaries: int) -> list[Case]:
    """``summaries`` summaries of each of ``sources`` sources (the corpus's, cycled)."""
    by_source: dict[str, list[Case]] = {}
    for c in CASES:
        by_source.setdefault(c.source, []).append(c)
    picked: list[Case] = []
    for group in list(by_source.values())[:sources]:
        for i in range(summaries):
            base = group[i % len(group)]
            picked.append(
                Case(f"{base.id}-{i}", base.contexts, f"{base.summary} ({i + 1})", base.kind)
            )
    return picked


async def ragas_side_by_side(server: JudgeServer, cases: list[Case]) -> tuple[Run, Run]:
    from ragas.metrics.collections import SummaryScore as Upstream

    from summscore.ragas import SummaryScore

    def inputs(cases: list[Case]) -> list[dict[str, Any]]:
        return [{"reference_contexts": list(c.contexts), "response": c.summary} for c in cases]

    async def upstream(cases: list[Case]) -> list[float]:
        results = await Upstream(llm=ragas_llm(server)).abatch_score(inputs(cases))
        return [r.value for r in results]

    async def ours(cases: list[Case]) -> list[float]:
        results = await SummaryScore(llm=ragas_llm(server)).abatch_score(inputs(cases))
        return [r.value for r in results]

    return await _measure(server, upstream, cases), await _measure(server, ours, cases)


async def deepeval_side_by_side(server: JudgeServer, cases: list[Case]) -> tuple[Run, Run]:
    from deepeval.metrics import SummarizationMetric as Upstream

    from summscore.deepeval import SummarizationMetric

    model = deepeval_model(server)

    async def upstream(cases: list[Case]) -> list[float]:
        metrics = [Upstream(model=model) for _ in cases]
        await asyncio.gather(
            *(m.a_measure(llm_test_case(c), _show_indicator=False) for m, c in zip(metrics, cases))
        )
        return [_value(m.score) for m in metrics]

    async def ours(cases: list[Case]) -> list[float]:
        # As deepeval.evaluate() runs it: copies of one metric, which share its scorer.
        first = SummarizationMetric(model=model)
        metrics = [first] + [
            SummarizationMetric(model=model, scorer=first.scorer) for _ in cases[1:]
        ]
        await asyncio.gather(
            *(m.a_measure(llm_test_case(c), _show_indicator=False) for m, c in zip(metrics, cases))
        )
        return [_value(m.score) for m in metrics]

    return await _measure(server, upstream, cases), await _measure(server, ours, cases)


def _report(name: str, upstream: Run, ours: Run, rows_out: list[list[str]]) -> bool:
    """Print one comparison (and add it to ``rows_out``); True when both sides agree."""
    same = upstream.scores == ours.scores
    print(f"\n{name}: {len(ours.scores)} cases, numbers {'identical' if same else 'DIFFERENT'}")
    print(f"  {'':12} {'upstream':>10} {'summscore':>10} {'ratio':>8}")
    rows = (
        ("judge calls", upstream.calls, ours.calls, "{:10d}"),
        ("wall time s", upstream.seconds, ours.seconds, "{:10.2f}"),
        ("peak MB", upstream.peak_mb, ours.peak_mb, "{:10.1f}"),
    )
    for label, theirs, mine, fmt in rows:
        ratio = theirs / mine if mine else float("inf")
        print(f"  {label:12} {fmt.format(theirs)} {fmt.format(mine)} {ratio:7.2f}x")
    cells = [
        f"{fmt.format(t).strip()} vs {fmt.format(m).strip()} ({t / m if m else 0:.1f}x)"
        for _, t, m, fmt in rows
    ]
    rows_out.append([name, *cells, "identical" if same else "DIFFERENT"])
    return same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=8)
    parser.add_argument("--summaries", type=int, default=5, help="summaries per source")
    parser.add_argument("--latency", type=float, default=0.05, help="seconds per judge answer")
    parser.add_argument(
        "--figures", action="store_true", help="write the table to docs/figures/vs_upstream.md"
    )
    args = parser.parse_args()
    cases = _cases(args.sources, args.summaries)
    with JudgeServer(Faults(latency=args.latency)) as server:
        print(
            f"compat judge server, {args.latency * 1000:.0f} ms per answer; "
            f"{args.sources} sources x {args.summaries} summaries"
        )
        rows: list[list[str]] = []
        same = asyncio.run(_both(server, cases, rows))
    if args.figures:
        import figures

        header = ["upstream vs summscore", "judge calls", "wall time s", "peak MB", "numbers"]
        setting = (
            f"{args.sources} sources x {args.summaries} summaries, "
            f"{args.latency * 1000:.0f} ms per judge answer"
        )
        command = "python benchmarks/vs_upstream.py --figures"
        print(
            figures.write(
                "vs_upstream", figures.table(header, rows), command=command, setting=setting
            )
        )
    if not same:
        sys.exit("the two sides gave different numbers")


async def _both(server: JudgeServer, cases: list[Case], rows: list[list[str]]) -> bool:
    # One event loop for everything: the frameworks' HTTP clients close themselves when they
    # are garbage-collected, which needs the loop they were opened on to still be running.
    ragas_same = _report("ragas `SummaryScore`", *await ragas_side_by_side(server, cases), rows)
    deepeval_same = _report(
        "deepeval `SummarizationMetric`", *await deepeval_side_by_side(server, cases), rows
    )
    gc.collect()
    await asyncio.sleep(0.1)
    return ragas_same and deepeval_same


if __name__ == "__main__":
    main()
