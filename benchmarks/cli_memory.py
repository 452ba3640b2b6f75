"""Peak memory of ``summscore score`` as the input grows: flat, or not?

    python benchmarks/cli_memory.py                      # 10,000 and 200,000 rows (~10 min on 2 cores)
    python benchmarks/cli_memory.py --sizes 1000,20000   # quicker
    python benchmarks/cli_memory.py --report             # with --report (an HTML page per run)

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
