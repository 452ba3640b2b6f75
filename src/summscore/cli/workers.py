"""How many processes ``summscore score`` uses when ``--workers`` is not given.

Worker processes pay only where there is enough CPU work to share and cores to share it on. The
choice is made before the first row is scored, from a cheap probe:

* the judge: only the offline judge (``--judge lexical``) is CPU-bound. An LLM judge waits on the
  network, where more processes gain nothing that more requests in flight do not (one process);
* the CPUs this process may use: the affinity mask (``taskset``, a container's ``cpuset``) and a
  cgroup CPU quota (``docker --cpus``), whichever is smaller, not the machine's core count; and
  of those, the ones other work leaves idle, measured over a tenth of a second from
  ``/proc/stat`` where there is one (the one-minute load average elsewhere, which lags: it
  still counts a run that just ended): on a machine already busy, more processes only queue
  behind each other. Only a file large enough for two workers pays for that probe;
* the text to score: the input file's size in bytes (JSONL, CSV and TSV are nearly all text),
  cut to ``--limit`` rows when given (the bytes a row takes, read off the file's first block).
  The offline judge's time grows with the text it reads; starting a worker (a new Python, the
  judge's import) costs about a second of CPU; so a worker is added per ``BYTES_PER_WORKER`` of
  input (far more under the ragas rule, which checks no claim and does less work per byte), up
  to the CPUs. Standard input, and files of unknown size, get one process.

The numbers are the same with any number of workers; only the wall time differs.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "BYTES_PER_WORKER",
    "WorkersChoice",
    "available_cpus",
    "busy_cpus",
    "choose_workers",
    "idle_cpus",
    "input_bytes",
    "worker_bytes",
]

# Input text per worker process. Measured with benchmarks/lexical_workers.py on 2 idle cores,
# two workers against one: under the deepeval rule 1.32x on 4,000 short rows (0.6 MB) and 1.21x
# on 4,000 rows of examples/news.jsonl's kind (2.1 MB); under the ragas rule, which checks no
# claim and does far less work per byte, 0.82x (slower) on those 2.1 MB.
BYTES_PER_WORKER = 300_000
_LIGHT_RULES = {"ragas": 27}  # rules with less work per byte: this many times the bytes a worker
_PROBE_BYTES = 65_536  # the first block read to learn the bytes a row takes


@dataclass(frozen=True)
class WorkersChoice:
    """How many worker processes, and why (said in the docs' words)."""

    workers: int
    reason: str


def available_cpus(
    cgroup_root: Path = Path("/sys/fs/cgroup"), affinity: set[int] | None = None
) -> int:
    """The CPUs this process may run on: its affinity mask, bounded by a cgroup v2 (``cpu.max``)
    or v1 (``cpu.cfs_quota_us`` / ``cpu.cfs_period_us``) quota, rounded down (at least 1)."""
    if affinity is None:
        try:
            affinity = os.sched_getaffinity(0)
        except (AttributeError, OSError):  # not Linux
            affinity = set(range(os.cpu_count() or 1))
    cpus = max(1, len(affinity))
    quota = _cgroup_quota(cgroup_root)
    if quota is not None:
        cpus = min(cpus, max(1, math.floor(quota)))
    return cpus


def idle_cpus(cpus: int, load: float | None = None) -> int:
    """Of ``cpus``, those other work leaves idle, rounded up (at least 1). ``load``: the CPUs'
    worth of work running now; by default measured (``busy_cpus``), else the one-minute load
    average."""
    if load is None:
        load = busy_cpus()
    if load is None:
        try:
            load = os.getloadavg()[0]
        except (AttributeError, OSError):  # not Unix: assume idle
            load = 0.0
    return max(1, min(cpus, math.ceil(cpus - load)))


def busy_cpus(window: float = 0.1, stat: Path = Path("/proc/stat")) -> float | None:
    """The CPUs' worth of work the machine did over ``window`` seconds (``/proc/stat``'s ticks
    not idle nor waiting on I/O, times its CPU count); None where there is no ``/proc/stat``."""

    def ticks() -> tuple[int, int, int]:
        lines = stat.read_text(encoding="ascii").splitlines()
        values = [int(v) for v in lines[0].split()[1:]]
        count = sum(1 for line in lines[1:] if line.startswith("cpu"))
        return sum(values), values[3] + (values[4] if len(values) > 4 else 0), count

    try:
        total, idle, count = ticks()
        time.sleep(window)
        total2, idle2, _ = ticks()
    except (OSError, ValueError, IndexError):
        return None
    spent = total2 - total
    if spent <= 0 or count < 1:
        return None
    return count * (spent - (idle2 - idle)) / spent


def _cgroup_quota(root: Path) -> float | None:
    """CPUs' worth of time the cgroup may use per period; None when unlimited or unknown."""
    try:
        fields = (root / "cpu.max").read_text(encoding="ascii").split()
        if len(fields) == 2 and fields[0] != "max":
            return int(fields[0]) / int(fields[1])
        return None
    except (OSError, ValueError):
        pass
    try:
        quota = int((root / "cpu" / "cpu.cfs_quota_us").read_text(encoding="ascii"))
        period = int((root / "cpu" / "cpu.cfs_period_us").read_text(encoding="ascii"))
    except (OSError, ValueError):
        return None
    return quota / period if quota > 0 and period > 0 else None


def input_bytes(path: str, limit: int | None = None) -> int | None:
    """The bytes of ``path`` a run reads: the file's size, or ``limit`` rows' worth (by the rows
    in its first block) when that is less. None for standard input or a file that cannot be
    read."""
    if path == "-":
        return None
    try:
        size = os.stat(path).st_size
        if limit is None:
            return size
        with open(path, "rb") as handle:
            head = handle.read(_PROBE_BYTES)
    except OSError:
        return None
    rows = head.count(b"\n")
    if rows < 2:  # one record (a JSON array, a spreadsheet): rows unknown, take the whole file
        return size
    return min(size, math.ceil(limit * len(head) / rows))


def worker_bytes(preset: str | None) -> int:
    """The input a worker process must have to pay for itself under ``preset``'s rule."""
    return BYTES_PER_WORKER * _LIGHT_RULES.get(preset or "", 1)


def choose_workers(
    judge: str, text_bytes: int | None, cpus: int, preset: str | None = None
) -> WorkersChoice:
    """The ``--workers`` a run gets when none is given (see the module docstring); ``cpus`` are
    the idle CPUs this process may use."""
    if judge != "lexical":
        return WorkersChoice(1, "an LLM judge waits on the network: one process")
    if text_bytes is None:
        return WorkersChoice(1, "input of unknown size (standard input): one process")
    if cpus < 2:
        return WorkersChoice(1, "one idle CPU available: one process")
    workers = min(cpus, text_bytes // worker_bytes(preset))
    megabytes = text_bytes / 1_000_000
    if workers < 2:
        return WorkersChoice(
            1, f"{megabytes:.1f} MB of input: too little to pay for starting workers"
        )
    return WorkersChoice(workers, f"{megabytes:.1f} MB of input on {cpus} idle CPUs")
