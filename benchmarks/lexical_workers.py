"""``summscore score --workers N`` against ``--workers 1``: does the pool pay, and is the default
never slower than one worker?

    python benchmarks/lexical_workers.py [--rows 4000] [--shape short|long] [--repeats 3]
                                         [--workers N] [--preset ragas] [--figures]

Runs the command itself (``python -m summscore score FILE --out OUT --no-progress --workers N``),
a fresh process each time, as a user does: the wall time includes starting the workers. One worker
and N workers (default: the machine's cores) alternate, ``--repeats`` times each, so that both
see the same load; the median of each is compared. Then the command with no ``--workers`` (the
default) is timed the same way. Shapes: ``news`` (the default), examples/news.jsonl's rows over
and over (the issue's "4,000 rows of the example kind"); ``short``, the short news-like rows of cli_memory.py (64
sources with many summaries each: the issue's 4,000 short rows); ``long``, distinct ~500-word
sources with a ~60-word summary each (lexical_speed.py's pairs). The scores of every run must be
the same. ``--figures`` writes the table to docs/figures/lexical_workers_<shape>.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _write(path: Path, rows: int, shape: str) -> None:
    sys.path.insert(0, str(HERE))
    if shape == "news":  # examples/news.jsonl's rows, over and over, each with an id of its own
        examples = [
            json.loads(line)
            for line in (ROOT / "examples" / "news.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
        with path.open("w", encoding="utf-8") as handle:
            for i in range(rows):
                row = dict(examples[i % len(examples)], id=f"row-{i}")
                handle.write(json.dumps(row) + "\n")
        return
    if shape == "short":
        from cli_memory import _write_input

        _write_input(path, rows)
        return
    from lexical_speed import make_pair

    rng = random.Random(7)
    with path.open("w", encoding="utf-8") as handle:
        for i in range(rows):
            source, summary = make_pair(rng)
            handle.write(json.dumps({"id": i, "source": source, "summary": summary}) + "\n")


def _run(data: Path, out: Path, preset: str, workers: int | None) -> float:
    command = [sys.executable, "-m", "summscore", "score", str(data), "--out", str(out)]
    command += ["--no-progress", "--preset", preset]
    if workers is not None:
        command += ["--workers", str(workers)]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 3):  # 3: some rows failed, which the timing counts too
        raise SystemExit(f"summscore score exited {done.returncode}:\n{done.stderr}")
    return seconds


def _scores(out: Path) -> list[float | None]:
    with out.open(encoding="utf-8") as handle:
        return [json.loads(line)["score"] for line in handle]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=4000)
    parser.add_argument("--shape", choices=("news", "short", "long"), default="news")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--preset", default="ragas", choices=("ragas", "deepeval", "mastra"))
    parser.add_argument("--figures", action="store_true")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    times: dict[str, list[float]] = {"1": [], str(args.workers): [], "default": []}
    with tempfile.TemporaryDirectory(prefix="summscore-workers-") as tmp:
        data = Path(tmp) / "rows.jsonl"
        _write(data, args.rows, args.shape)
        reference: list[float | None] | None = None
        for _ in range(args.repeats):
            for label, workers in (("1", 1), (str(args.workers), args.workers), ("default", None)):
                out = Path(tmp) / f"out-{label}.jsonl"
                times[label].append(_run(data, out, args.preset, workers))
                scores = _scores(out)
                reference = reference or scores
                if scores != reference:
                    raise SystemExit(f"--workers {label} gave different scores")
    one = statistics.median(times["1"])
    lines = [
        f"{args.rows} {args.shape} rows, {args.preset} rule, {os.cpu_count()} cores, "
        f"{args.repeats} alternating runs of each (median, min-max); the same scores in every run",
        "",
        "| --workers | wall s | rows/s | vs --workers 1 |",
        "| --- | --- | --- | --- |",
    ]
    for label, runs in times.items():
        median = statistics.median(runs)
        lines.append(
            f"| {label} | {median:.2f} ({min(runs):.2f}-{max(runs):.2f}) | "
            f"{args.rows / median:.0f} | {one / median:.2f}x |"
        )
    table = "\n".join(lines)
    print(table)
    ratio = one / statistics.median(times[str(args.workers)])
    default = one / statistics.median(times["default"])
    print(f"{args.workers} workers: {ratio:.2f}x one worker; the default: {default:.2f}x")
    if args.figures:
        from figures import write

        command = (
            f"python benchmarks/lexical_workers.py --rows {args.rows} --shape {args.shape} "
            f"--repeats {args.repeats} --figures"
        )
        path = write(
            f"lexical_workers_{args.shape}",
            table,
            command=command,
            setting=f"load average {load:.1f} at the start, from other work on the machine",
        )
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
