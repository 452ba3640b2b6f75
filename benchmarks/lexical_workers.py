"""The offline judge on one core and on every core: rows per second, and the same numbers.

    python benchmarks/lexical_workers.py [--rows 400] [--workers N] [--preset ragas]

Scores distinct generated pairs (lexical_speed.py's: a ~500-word source and a ~60-word summary
each, so that no memo of the judge carries from one row to the next) with ``LexicalJudge`` in this process, then with
``ProcessPoolJudge(LexicalJudge, N)`` (what ``summscore score --workers N`` uses), and prints the
rates, the scaling ratio (pool rate / (N x one-core rate)) and whether the numbers agree.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from summscore import SummarizationScorer
from summscore.calls.pool import ProcessPoolJudge
from summscore.judges import LexicalJudge


def cases(n: int) -> list[tuple[str, str]]:
    # Distinct texts: repeated example rows let the judge's per-sentence memos answer most of the
    # in-process run (948 rows/s against ~75 for distinct pairs), which no pool can match.
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from lexical_speed import make_pair

    rng = random.Random(7)
    return [make_pair(rng) for _ in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=400)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--preset", default="ragas", choices=("ragas", "deepeval", "mastra"))
    args = parser.parse_args()
    work = cases(args.rows)

    start = time.perf_counter()
    one = SummarizationScorer(LexicalJudge(), preset=args.preset).score_many(work, progress=False)
    single = args.rows / (time.perf_counter() - start)

    judge = ProcessPoolJudge(LexicalJudge, args.workers)
    # As `summscore score --workers N` does: 4 cases per worker in flight.
    scorer = SummarizationScorer(judge, preset=args.preset, max_concurrency=4 * args.workers)
    scorer.score_many(work[: args.workers * 2], progress=False)  # start the workers, untimed
    scorer.clear_cache()
    start = time.perf_counter()
    pooled = scorer.score_many(work, progress=False)
    rate = args.rows / (time.perf_counter() - start)
    judge.close()

    same = [r.score for r in one] == [r.score for r in pooled]
    print(f"{args.rows} rows, {args.preset} rule, {os.cpu_count()} cores")
    print("| workers | rows/s | scaling (rate / (workers x one-core rate)) | same numbers |")
    print("| --- | --- | --- | --- |")
    print(f"| 1 (in process) | {single:.0f} | 1.00 | yes |")
    print(
        f"| {args.workers} | {rate:.0f} | {rate / (args.workers * single):.2f} | "
        f"{'yes' if same else 'NO'} |"
    )
    if not same:
        sys.exit("the pool gave different numbers")


if __name__ == "__main__":
    main()
