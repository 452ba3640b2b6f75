"""Peak memory of ``summscore score`` as the input grows: flat, or not?

    python benchmarks/cli_memory.py                      # 10,000 and 200,000 rows (~10 min on 2 cores)
    python benchmarks/cli_memory.py --sizes 1000,20000   # quicker
    python benchmarks/cli_memory.py --report             # with --report (an HTML page per run)
    python benchmarks/cli_memory.py --readers            # hostile inputs: peak RSS and seconds

``--readers`` runs the command on inputs built to exhaust a reader (see
src/summscore/files/limits.py and xlsx_guard.py), each in a fresh process under a time limit
(``--timeout``, default 120 s) and an address-space limit (``--memory-cap``, default 4 GiB, so
that an unbounded reader fails instead of taking the machine): 256 MiB of NULs as .csv and as
.jsonl, a 2 GiB sparse .csv, ``/dev/zero`` named .jsonl, a FIFO nobody writes to, a ~260 KiB
.xlsx that inflates to one 256 MiB cell, an .xlsx whose 6 million styled empty cells take
minutes to walk, and one whose 300,000 rows each end in an empty cell in column XFD; a JSONL
file of one 2 GiB line and a row after it; as .parquet: 256 MiB of NULs, a file whose one cell
inflates to 256 MiB, one whose 1.9 MB dictionary entry 20,000 rows share, 100 million empty
rows, and 100,000 distinct 1-5 kB texts in one row group that pyarrow stored as an Arrow
dictionary but wrote as plain pages. It prints
each one's exit status, seconds and peak RSS; run it with ``PYTHONPATH`` at another checkout to
compare.

Each size is a generated JSONL file of short news-like rows, scored with the offline judge in a
fresh process (``python -m summscore.cli score FILE --out OUT --no-progress``); the child reports
its own peak resident set size (``ru_maxrss``). The last line compares the largest size to the
smallest: the target is a ratio of at most 1.5 (memory that does not grow with the file).
With ``--report`` each run also writes the HTML report (whose size does grow with the file; the
memory that writes it should not); its size is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The --readers and --long-rows modes live in cli_memory_readers and cli_memory_long.
from cli_memory_long import _long_rows
from cli_memory_readers import _parquet, _readers

_TARGET = 1.5
_PLACES = ["Leeds", "Porto", "Osaka", "Lyon", "Quito", "Perth", "Turin", "Gdansk"]


def _write_input(path: Path, rows: int) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for i in range(rows):
            # 64 sources with many summaries each, as in a real evaluation set: the source-side
            # work is judged once per source (the scorer's source cache), which keeps this quick.
            place = _PLACES[i % len(_PLACES)]
            homes = 10 + i % 64
            record = {
                "id": f"row-{i}",
                "source": f"The council of {place} approved {homes} new homes on Monday. "
                f"Building starts in {2025 + i % 64 // 8}.",
                "summary": f"{place} approved {homes + i % 3} homes in {2025 + i % 5}.",
            }
            handle.write(json.dumps(record) + "\n")


def _child(input_path: str, out_path: str, preset: str, report: str | None) -> None:
    """Run the command in this process and print: seconds, peak RSS in KB."""
    from summscore.cli import main

    start = time.perf_counter()
    sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the summary table is not wanted here
    argv = ["score", input_path, "--out", out_path, "--no-progress", "--preset", preset]
    code = main([*argv, "--report", report] if report else argv)
    seconds = time.perf_counter() - start
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"code": code, "seconds": seconds, "peak_kb": peak_kb}))


def _measure(rows: int, folder: Path, preset: str, report: bool) -> dict[str, float]:
    data, out = folder / f"in-{rows}.jsonl", folder / f"out-{rows}.jsonl"
    page = folder / f"report-{rows}.html"
    _write_input(data, rows)
    command = [sys.executable, __file__, "--child", str(data), str(out), "--preset", preset]
    done = subprocess.run(
        [*command, "--report-path", str(page)] if report else command,
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    if figures["code"] not in (0, 3):  # 3: some rows failed
        raise SystemExit(f"summscore score exited {figures['code']} on {rows} rows")
    with out.open(encoding="utf-8") as handle:
        written = sum(1 for _ in handle)
    if written != rows:
        raise SystemExit(f"{rows} rows in, {written} results out")
    report_mb = 0.0
    if report:
        report_mb = page.stat().st_size / 2**20
        page.unlink()
    data.unlink()
    out.unlink()
    return {
        "rows": rows,
        "seconds": figures["seconds"],
        "peak_mb": figures["peak_kb"] / 1024,
        "report_mb": report_mb,
    }


def main() -> None:
    if sys.argv[1:2] == ["--parquet-input"]:
        _parquet(Path(sys.argv[3]), sys.argv[2])
        return
    if "--readers" in sys.argv[1:]:
        _readers(sys.argv[1:])
        return
    if "--long-rows" in sys.argv[1:]:
        _long_rows(sys.argv[1:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,200000", help="row counts, comma-separated")
    parser.add_argument("--preset", default="ragas", choices=("ragas", "deepeval", "mastra"))
    parser.add_argument(
        "--report", action="store_true", help="also write the HTML report (--report) each run"
    )
    parser.add_argument("--child", nargs=2, metavar=("INPUT", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("--report-path", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        input_path, out_path = args.child
        _child(input_path, out_path, args.preset, args.report_path)
        return
    sizes = sorted(int(s) for s in args.sizes.split(","))
    with_report = ", with --report" if args.report else ""
    print(
        f"summscore score, offline judge, {args.preset} preset{with_report}, one process per size"
    )
    header = f"{'rows':>9}  {'seconds':>8}  {'rows/s':>7}  {'peak RSS MB':>11}"
    print(header + (f"  {'report MB':>9}" if args.report else ""))
    results = []
    with tempfile.TemporaryDirectory(prefix="summscore-mem-") as tmp:
        for rows in sizes:
            figures = _measure(rows, Path(tmp), args.preset, args.report)
            results.append(figures)
            rate = rows / figures["seconds"] if figures["seconds"] else float("inf")
            line = (
                f"{rows:>9}  {figures['seconds']:>8.1f}  {rate:>7.0f}  {figures['peak_mb']:>11.1f}"
            )
            print(line + (f"  {figures['report_mb']:>9.1f}" if args.report else ""), flush=True)
    ratio = results[-1]["peak_mb"] / results[0]["peak_mb"]
    verdict = "flat" if ratio <= _TARGET else "GROWS"
    print(
        f"peak RSS ratio {results[-1]['rows']} / {results[0]['rows']} rows: {ratio:.2f} "
        f"(target <= {_TARGET}): {verdict}"
    )


if __name__ == "__main__":
    main()
