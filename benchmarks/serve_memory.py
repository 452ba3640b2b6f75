"""``summscore serve`` with the offline judge under large texts: memory, head-of-line blocking and
shutdown, measured on 127.0.0.1.

    python benchmarks/serve_memory.py                     # 100 sources of 600 kB, then a 2 MB case
    python benchmarks/serve_memory.py --sources 10 --big-chars 200000      # quicker
    python benchmarks/serve_memory.py --server-arg=--workers --server-arg=2   # options of serve

Three runs, each against a fresh ``summscore serve`` (a child process; ``--server-arg`` passes
options to it):

1. **Memory.** ``--sources`` distinct generated sources of ``--source-chars`` characters (news-like
   sentences, every one different), one request each, in sequence. A sampler reads the resident
   set size of the server and of every process under it (the judge's workers) from ``/proc``
   every 0.2 s; printed: the peak of the sum, the peak of the server process alone and of the
   largest worker, every ``--every`` sources and at the end. A server whose processes pass
   ``--rss-limit-mb`` together is stopped there and the count reached is printed (the machine is
   not made to swap). Then SIGTERM, timed until the server has exited (idle, holding its memory).
2. **Head-of-line blocking.** Small requests (distinct two-sentence sources, one at a time) alone,
   then while one large case is being scored (a source and a summary of ``--big-chars``
   characters each: a 2 MB body by default), then while one batch of ``--batch-cases`` cases of
   ``--batch-chars`` characters is scored (each case under ``--large-case-chars``, the batch
   over it): the p50, p99 and largest latency of each group, and how long the large case and
   the batch took.
3. **Shutdown with work in flight.** A large case is sent, then SIGTERM: seconds until the server
   has exited, and what the large request's client got.

``--figures`` writes the results to ``docs/figures/service-bounds.md`` (docs/service.md), with
the command and the machine; the load average at the start and the end is printed, for
benchmarks/README.md's account of the run (the figure is on a user's page: no diary there).
Linux only (``/proc``). Timings are noisy on a shared machine: the before/after comparison is
what matters (run both on the same machine, one after the other).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import threading
import time
from pathlib import Path
from typing import Any

# The server and its memory readings (serve_slow_clients.py imports Server from here).
from serve_memory_server import Server, _mb, post

_WORDS = (
    "council budget homes river bridge school hospital railway station market museum harbour "
    "mayor minister election court judge police storm flood drought harvest factory workers "
    "union strike contract tender village county province ministry report survey study "
    "teachers nurses doctors patients students library park stadium airport festival"
).split()
_PLACES = "Leeds Porto Osaka Lyon Quito Perth Turin Gdansk Malmo Bergen Cadiz Tartu Brno".split()
_VERBS = ("approved", "rejected", "delayed", "opened", "closed", "funded")
_WHEN = ("on Monday", "in March", "last year", "after a vote", "before the winter")


def news(seed: int, chars: int) -> str:
    """``chars`` characters of distinct news-like sentences (the same for the same seed)."""
    rng = random.Random(seed)
    sentences: list[str] = []
    size = 0
    while size < chars:
        sentence = (
            f"The {rng.choice(_WORDS)} of {rng.choice(_PLACES)}{rng.randrange(1000)} "
            f"{rng.choice(_VERBS)} {rng.randrange(2, 900)} {rng.choice(_WORDS)}s "
            f"{rng.choice(_WHEN)}, said {rng.choice(_PLACES)} official {rng.randrange(10**6)}."
        )
        sentences.append(sentence)
        size += len(sentence) + 1
    return " ".join(sentences)[:chars]


# ---------------------------------------------------------------------------- the runs


def memory_run(args: argparse.Namespace, found: dict[str, str]) -> None:
    server = Server(args.preset, args.server_arg)
    print(f"memory: {args.sources} distinct sources of {args.source_chars:,} characters")
    start = time.monotonic()
    sent = 0
    try:
        for i in range(args.sources):
            status, body = post(
                server.url,
                {
                    "source": news(i, args.source_chars),
                    "summary": "The council approved new homes.",
                },
            )
            sent += 1
            if status != 200 or body.get("error"):
                print(f"  source {i}: HTTP {status} {str(body)[:200]}")
            if sent % args.every == 0 or sent == args.sources:
                total, here, worker = server.current
                print(
                    f"  {sent:>4} sources, {time.monotonic() - start:>6.0f} s: now {_mb(total)} "
                    f"(server {_mb(here)}, largest worker {_mb(worker)}); peak "
                    f"{_mb(server.peak_total)}",
                    flush=True,
                )
            if server.peak_total > args.rss_limit_mb * 2**20:
                print(f"  stopped: the server's processes passed {args.rss_limit_mb:,} MB")
                break
        time.sleep(0.5)
        peak = (
            f"{_mb(server.peak_total)} in all (server process {_mb(server.peak_server)}, "
            f"largest worker {_mb(server.peak_worker)})"
        )
        print(f"peak RSS after {sent} sources: {peak}")
        found[
            f"peak resident memory, {sent} distinct sources of {args.source_chars:,} characters"
        ] = peak
        idle = server.terminate()
        print(f"shutdown, idle (SIGTERM to exit): {idle:.2f} s")
        found["SIGTERM to exit, idle (after those sources)"] = f"{idle:.1f} s"
    finally:
        server.stop()


def _small_case(i: int) -> dict[str, Any]:
    place = _PLACES[i % len(_PLACES)]
    return {
        "source": f"The council of {place} approved {10 + i} new homes on Monday. "
        f"Building starts in {2025 + i % 7}.",
        "summary": f"{place} approved {10 + i} homes.",
    }


def _timed_small(url: str, i: int) -> float:
    start = time.perf_counter()
    status, _ = post(url, _small_case(i), timeout=600)
    if status != 200:
        print(f"  small request {i}: HTTP {status}")
    return time.perf_counter() - start


def _figures(seconds: list[float]) -> str:
    if not seconds:  # (the other work ended before the first small request: make it larger)
        return "none timed (the other work ended first)"
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"p50 {statistics.median(ordered) * 1000:,.0f} ms, p99 {p99 * 1000:,.0f} ms, "
        f"max {ordered[-1] * 1000:,.0f} ms ({len(seconds)} requests)"
    )


def latency_run(args: argparse.Namespace, found: dict[str, str]) -> None:
    server = Server(args.preset, args.server_arg)
    big = {"source": news(10**6, args.big_chars), "summary": news(10**6 + 1, args.big_chars)}
    size = len(json.dumps(big)) / 2**20
    print(f"head-of-line: small requests alone, then during a {size:.1f} MB case")
    try:
        _timed_small(server.url, -1)  # the worker starts (imports) on the first case: untimed
        alone = [_timed_small(server.url, i) for i in range(args.small_alone)]
        print("  alone: " + _figures(alone))
        found["small requests, alone"] = _figures(alone)
        outcome: dict[str, Any] = {}

        def send_big() -> None:
            start = time.perf_counter()
            outcome["status"], _ = post(server.url, big)
            outcome["seconds"] = time.perf_counter() - start

        sender = threading.Thread(target=send_big, daemon=True)
        sender.start()
        during = _small_during(server.url, sender, args, 1000)
        sender.join()
        print("  during the large case: " + _figures(during))
        print(
            f"  peak RSS, this server: {_mb(server.peak_total)} in all (largest worker {_mb(server.peak_worker)})"
        )
        found[f"peak resident memory while the {size:.1f} MB case is judged"] = (
            f"{_mb(server.peak_total)} in all (server process {_mb(server.peak_server)}, "
            f"largest worker {_mb(server.peak_worker)})"
        )
        print(f"  the large case: HTTP {outcome['status']} in {outcome['seconds']:.1f} s")
        found[f"small requests while a {size:.1f} MB case is judged"] = _figures(during)
        found[f"the {size:.1f} MB case itself"] = (
            f"HTTP {outcome['status']} in {outcome['seconds']:.0f} s"
        )
        if len(during) >= args.small_during:
            print("  (the large case was still running when the small requests were done)")
        _batch_phase(server.url, args, found)
        # Shutdown with the large case in flight.
        big2 = {"source": news(2 * 10**6, args.big_chars), "summary": big["summary"]}
        flight: dict[str, Any] = {}

        def send_again() -> None:
            try:
                flight["status"], flight["body"] = post(server.url, big2)
            except OSError as exc:
                flight["status"], flight["body"] = "no answer", repr(exc)

        again = threading.Thread(target=send_again, daemon=True)
        again.start()
        time.sleep(2.0)
        seconds = server.terminate()
        again.join(30)
        got = flight.get("status", "no answer")
        print(f"shutdown with a large case in flight: {seconds:.2f} s; its client got {got}")
        found["SIGTERM to exit, a large case in flight"] = f"{seconds:.1f} s (its client got {got})"
    finally:
        server.stop()


def _small_during(
    url: str, sender: threading.Thread, args: argparse.Namespace, first: int
) -> list[float]:
    """Small requests, one at a time, while ``sender`` (started) is still waiting for its answer;
    the cases numbered from ``first`` (distinct from any sent before: none is a cached result)."""
    time.sleep(1.0)  # the large work is in
    during: list[float] = []
    i = first
    while sender.is_alive() and len(during) < args.small_during:
        during.append(_timed_small(url, i))
        i += 1
        time.sleep(args.pause)
    return during


def _batch_phase(url: str, args: argparse.Namespace, found: dict[str, str]) -> None:
    """Small requests while another client's batch of cases, each under the large mark and
    together over it, is judged."""
    cases = [
        {"source": news(3 * 10**6 + i, args.batch_chars), "summary": "Homes were approved."}
        for i in range(args.batch_cases)
    ]
    what = f"a batch of {args.batch_cases} cases of {args.batch_chars:,} characters"
    outcome: dict[str, Any] = {}

    def send_batch() -> None:
        start = time.perf_counter()
        outcome["status"], _ = post(url, {"cases": cases}, path="/v1/score:batch")
        outcome["seconds"] = time.perf_counter() - start

    sender = threading.Thread(target=send_batch, daemon=True)
    sender.start()
    during = _small_during(url, sender, args, 10**5)
    sender.join()
    print(f"  during {what}: " + _figures(during))
    print(f"  the batch: HTTP {outcome['status']} in {outcome['seconds']:.1f} s")
    found[f"small requests while {what} is judged"] = _figures(during)
    found[f"{what} itself"] = f"HTTP {outcome['status']} in {outcome['seconds']:.0f} s"


def _earlier_rows() -> dict[str, str]:
    """The rows of docs/figures/service-bounds.md as a run before this one wrote them."""
    from figures import FIGURES

    path = FIGURES / "service-bounds.md"
    rows: dict[str, str] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines()[2:]:
            cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
            if line.startswith("| ") and len(cells) == 2:
                rows[cells[0]] = cells[1]
    return rows


def _load() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="deepeval", choices=("ragas", "deepeval", "mastra"))
    parser.add_argument("--sources", type=int, default=100)
    parser.add_argument("--source-chars", type=int, default=600_000)
    parser.add_argument("--every", type=int, default=10, help="print every N sources")
    parser.add_argument("--rss-limit-mb", type=int, default=6000)
    parser.add_argument("--big-chars", type=int, default=1_000_000)
    parser.add_argument("--small-alone", type=int, default=20)
    parser.add_argument("--small-during", type=int, default=100)
    parser.add_argument("--pause", type=float, default=0.2, help="seconds between small requests")
    parser.add_argument("--batch-cases", type=int, default=20)
    parser.add_argument("--batch-chars", type=int, default=45_000, help="characters per case")
    parser.add_argument("--server-arg", action="append", default=[])
    parser.add_argument("--only", choices=("memory", "latency"))
    parser.add_argument(
        "--figures", action="store_true", help="write docs/figures/service-bounds.md"
    )
    args = parser.parse_args()
    load = _load()
    print(f"summscore serve, offline judge, {args.preset} preset; load average {load:.1f}")
    found: dict[str, str] = {}
    if args.only != "latency":
        memory_run(args, found)
    if args.only != "memory":
        latency_run(args, found)
    # The load is the run's account (benchmarks/README.md), not the figure's: the docs include it.
    print(f"load average {load:.1f} at the start and {_load():.1f} at the end")
    if args.figures:
        print(f"wrote {write_figure(args, found)}")


def write_figure(args: argparse.Namespace, found: dict[str, str]) -> Path:
    """docs/figures/service-bounds.md: the rows measured (with ``--only``, the other part's rows
    kept from the file), the command and the machine."""
    from figures import table, write

    options = " ".join(f"--server-arg={a}" for a in args.server_arg)
    command = f"python benchmarks/serve_memory.py --preset {args.preset} {options}".strip()
    if args.sources != 100:
        command += f" --sources {args.sources}"
    if args.only:  # one part measured: the other part's rows are kept from the file
        found = {**_earlier_rows(), **found}
        command += " --only memory --figures` and `--only latency"
    return write(
        "service-bounds",
        table(("summscore serve, offline judge, default options", "measured"), list(found.items())),
        command=command + " --figures",
    )


if __name__ == "__main__":
    main()
