"""How much memory does the offline judge keep between requests? Scores distinct large sources one
after the other in one process and prints, after each, the process's resident memory, its peak,
and what the judge's memos account for (``summscore.judges.lexical._memo.memo_bytes``) against
their bound (``memo_limit``).

    python benchmarks/lexical_memory.py                          # 10 sources of 600 kB, deepeval
    python benchmarks/lexical_memory.py --sources 35 --chars 600000 --preset ragas
    python benchmarks/lexical_memory.py --figures     # also docs/figures/offline-judge-memory.md

Each source is distinct generated news-style prose (``lexical_speed.make_pair``'s paragraphs) with
a summary of about 60 words; nothing is shared between them, so a memo that is not bounded in
bytes grows with every source (issue #43: about 150 MB per 600 kB source in ``summscore serve``).
Resident memory is read from /proc (Linux); Python's allocator keeps some freed memory, so the
figure to read is where it levels off, not the account.
"""

from __future__ import annotations

import argparse
import gc
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import table, write
from lexical_speed import make_pair

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.judges.lexical._memo import memo_bytes, memo_limit

MB = 1 << 20


def source(seed: int, chars: int) -> tuple[str, str]:
    """A distinct source of ``chars`` characters and a summary of its first paragraph."""
    rng = random.Random(seed)
    parts: list[str] = []
    summary = ""
    while sum(map(len, parts)) < chars:
        text, about = make_pair(rng, 500)
        parts.append(text)
        summary = summary or about
    return "\n\n".join(parts)[:chars], summary


def resident() -> float:
    """The process's resident memory now, in MiB."""
    with open("/proc/self/statm", encoding="ascii") as handle:
        return int(handle.read().split()[1]) * resource.getpagesize() / MB


def peak() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def figure_rows(rows: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """The rows the docs' figure shows: the start, the first five sources, then every fifth and
    the last (the whole table is printed)."""
    return [row for i, row in enumerate(rows) if i <= 5 or i % 5 == 0 or i == len(rows) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=10)
    parser.add_argument("--chars", type=int, default=600_000)
    parser.add_argument("--preset", default="deepeval", choices=("ragas", "deepeval", "mastra"))
    parser.add_argument(
        "--figures", action="store_true", help="also write docs/figures/offline-judge-memory.md"
    )
    args = parser.parse_args()
    start_resident = resident()
    print(
        f"{args.sources} distinct sources of {args.chars:,} characters, {args.preset} rule; the "
        f"memos' bound {memo_limit() / MB:.0f} MiB; resident at start {start_resident:.0f} MiB"
    )
    header = ("sources scored", "seconds", "resident MiB", "peak MiB", "memos' account MiB")
    print("| " + " | ".join(header) + " |")
    rows: list[tuple[object, ...]] = [("0 (started)", "", f"{start_resident:.0f}", "", "0.0")]
    judge = LexicalJudge()
    for seed in range(args.sources):
        text, summary = source(seed, args.chars)
        start = time.perf_counter()
        result = SummarizationScorer(llm=judge, preset=args.preset).score(text, summary)
        spent = time.perf_counter() - start
        assert result.ok, result.error
        del text, result
        gc.collect()
        row = (seed + 1, f"{spent:.1f}", f"{resident():.0f}", f"{peak():.0f}")
        rows.append((*row, f"{memo_bytes() / MB:.1f}"))
        print("| " + " | ".join(map(str, rows[-1])) + " |", flush=True)
    if args.figures:
        path = write(
            "offline-judge-memory",
            table(header, figure_rows(rows)),
            command=f"python benchmarks/lexical_memory.py --sources {args.sources} --figures",
            setting=f"distinct sources of {args.chars:,} characters, {args.preset} rule, one "
            f"process; the memos' bound {memo_limit() / MB:.0f} MiB",
        )
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
