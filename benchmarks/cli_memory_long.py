"""``cli_memory.py --long-rows``: peak RSS of ``summscore score`` on long rows of distinct
sources, the parent process and its workers sampled apart and together."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from cli_memory_readers import _WORDS, _wait

# ------------------------------------------------------------------ --long-rows: long rows


def _long_text(chars: int, seed: int) -> str:
    """About ``chars`` characters of sentences, distinct for each ``seed``."""
    parts, size, n = [], 0, 0
    while size < chars:
        a, b = _WORDS[(seed + n) % len(_WORDS)], _WORDS[(seed * 7 + n * 3) % len(_WORDS)]
        sentence = f"The {a} of district {seed}-{n} opened a {b} with {n % 97 + 3} rooms. "
        parts.append(sentence)
        size += len(sentence)
        n += 1
    return "".join(parts)[:chars]


def _write_long(path: Path, rows: int, chars: int) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for i in range(rows):
            summary = (
                f"The {_WORDS[i % len(_WORDS)]} of district {i}-0 opened a "
                f"{_WORDS[(i * 7) % len(_WORDS)]} with 3 rooms. It was well received."
            )
            record = {"id": f"row-{i}", "source": _long_text(chars, i), "summary": summary}
            handle.write(json.dumps(record) + "\n")


def _tree_rss(pid: int) -> tuple[int, int]:
    """Resident bytes of ``pid`` and of all its descendants (``/proc``, Linux)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    page = os.sysconf("SC_PAGE_SIZE")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        rss[int(entry)] = int(fields[21]) * page
    below, stack = 0, list(children.get(pid, []))
    while stack:
        child = stack.pop()
        below += rss.get(child, 0)
        stack.extend(children.get(child, []))
    return rss.get(pid, 0), below


def _run_sampled(argv: list[str], timeout: float) -> dict[str, Any]:
    """Run ``summscore score`` with ``argv``; its exit status, seconds, peak RSS (os.wait4) and
    the peaks of the parent and of its workers together, sampled from /proc every 20 ms."""
    command = [sys.executable, "-m", "summscore.cli", "score", *argv, "--no-progress", "--force"]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    parent_peak = workers_peak = both_peak = 0

    def sample() -> None:
        nonlocal parent_peak, workers_peak, both_peak
        parent, below = _tree_rss(child.pid)
        parent_peak, workers_peak = max(parent_peak, parent), max(workers_peak, below)
        both_peak = max(both_peak, parent + below)

    stopped, status, usage = _wait(child, start, timeout, 0.02, sample)
    err = child.stderr.read().decode("utf-8", "replace") if child.stderr else ""
    return {
        "code": None if stopped else os.waitstatus_to_exitcode(status),
        "seconds": time.perf_counter() - start,
        "peak_mb": usage.ru_maxrss / 1024,
        "parent_mb": parent_peak / 2**20,
        "workers_mb": workers_peak / 2**20,
        "both_mb": both_peak / 2**20,
        "err": err,
    }


def _long_rows(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description="peak RSS of summscore score on long rows")
    parser.add_argument("--long-rows", action="store_true")
    parser.add_argument("--rows", type=int, default=300, help="rows per file")
    parser.add_argument("--chars", default="10000,200000,1900000", help="characters per source")
    parser.add_argument("--presets", default="deepeval,ragas")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per run")
    args = parser.parse_args(argv)
    print(
        f"summscore score, offline judge, {args.rows} rows of distinct sources per file; "
        "peak RSS of the command (parent and workers sampled apart, and together)"
    )
    print(
        f"{'chars/row':>9} {'file MB':>8} {'preset':<8} {'workers':>7} {'exit':>5} "
        f"{'seconds':>8} {'parent MB':>9} {'workers MB':>10} {'total MB':>8}"
    )
    with tempfile.TemporaryDirectory(prefix="summscore-long-") as tmp:
        for chars in (int(c) for c in args.chars.split(",")):
            data, out = Path(tmp) / f"long-{chars}.jsonl", Path(tmp) / "out.jsonl"
            _write_long(data, args.rows, chars)
            size = data.stat().st_size / 1e6
            for preset in args.presets.split(","):
                for workers in args.workers.split(","):
                    got = _run_sampled(
                        [str(data), "--out", str(out), "--preset", preset, "--workers", workers],
                        args.timeout,
                    )
                    code = "stop" if got["code"] is None else str(got["code"])
                    if got["code"] not in (0, 3):
                        print(got["err"][-400:], file=sys.stderr)
                    print(
                        f"{chars:>9} {size:>8.0f} {preset:<8} {workers:>7} {code:>5} "
                        f"{got['seconds']:>8.1f} {got['parent_mb']:>9.0f} "
                        f"{got['workers_mb']:>10.0f} {got['both_mb']:>8.0f}",
                        flush=True,
                    )
            data.unlink()
            out.unlink(missing_ok=True)
