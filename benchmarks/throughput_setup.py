"""What every run of ``throughput.py`` (and of ``client_cpu.py``, ``deepeval_test_run.py``) sets
up: the compat judge server in a child process, the cases of a shape, the collection of set-up
garbage, and the notes on the machine and its load."""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
from multiprocessing.connection import Connection

from compat.corpus import CASES, Case
from compat.judge_server import Faults, JudgeServer

MODEL = "gpt-4o-mini"
KEY = "sk-benchmark-not-a-real-key"


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


def settle_gc() -> None:
    """Collect what set-up left behind, untimed. Importing a framework (ragas brings pandas,
    datasets, langchain) leaves some 350,000 new objects that the first full collection after
    it must scan (about 0.3 s here): without this, whichever system runs first after an import
    pays for the import."""
    gc.collect()


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
