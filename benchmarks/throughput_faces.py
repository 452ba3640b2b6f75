"""One timed run of a system (``measure``, a ``Row``), and ``throughput.py --faces``: each face in
its framework's own loop, its systems interleaved, one markdown table line per pair."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import loop_plan
from compat.corpus import Case
from throughput_setup import Server, make_cases, settle_gc

# ------------------------------------------------------------------- the systems


@dataclass
class Row:
    system: str
    rule: str
    seconds: float
    calls: int
    rejected: int
    cpu_ms: float
    failed: int
    error: str | None = None  # the exception that stopped the whole run (no figure then)
    cpu_seconds: float = 0.0  # the process's CPU time in the run, every thread


Runner = Callable[[str, list[Case]], int]  # (url, cases) -> failed rows

HEADER = (
    "| shape | loop | face's loop concurrency | face compared with | ratio: its s / face s "
    "| s per case: it / face | 429s: it / face / score_many | judge calls: it / face "
    "| failed rows: it / face | loop alone: s per case | floor / face |"
)


def faces_in_loops(
    server: Server, shapes: list[tuple[int, int]], repeats: int, loops: tuple[str, ...] = ()
) -> str:
    """Each face in its framework's loop, at the loop's default concurrency and with its knob
    raised, against the framework's own metric in the same loop or ``score_many``; the systems of
    a loop run interleaved (those of ``loops``, a prefix of the loop's name; every loop when
    empty). A markdown table."""
    lines = [
        f"{repeats} interleaved repeats of each loop's systems (the order rotates each repeat). "
        "Ratio = seconds of what the face is compared with / seconds of the face (above 1: the "
        "face is faster), median (min-max) of the per-repeat ratios. score_many is the core "
        f"alone (preset {loop_plan.PRESET!r}, every row at once), outside any loop. The "
        "face's loop concurrency is the framework's default (what a user who sets nothing "
        "meets) or its knob raised to every row at once, as score_many has them; the "
        "framework's own metric runs in the same loop with the same knob. 429s = median "
        "rate-limited answers per run. Loop alone = the same loop and knob with a scorer that "
        "calls no judge (what the loop itself costs); core = the core given the loop's rows at "
        "once (score_many with the knob raised; at the default, ascore on as many rows at a "
        "time as the loop holds where it has a fixed number: MLflow 10, Opik 16, LangSmith 1, "
        "Phoenix 3); floor = the largest of the loop alone's seconds, the core's seconds and "
        "the sum of their CPU seconds (Python runs one thread at a time: the loop's and the "
        "scorer's work do not overlap), per repeat: no face can be much faster in that loop, "
        "and floor / face near 1 means the face adds nothing to what the loop and the judge "
        "cost.",
        "",
        HEADER,
        "|" + " --- |" * (HEADER.count("|") - 1),
    ]
    for sources, summaries in shapes:
        cases = make_cases(sources, summaries)
        for group in loop_plan.groups(len(cases)):
            if loops and not group.loop.lower().startswith(loops):
                continue
            runs = run_group(server, group, cases, repeats)
            for pair in group.pairs:
                lines.append(table_row(f"{sources} x {summaries}", group, pair, runs, len(cases)))
                print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines)


def run_group(
    server: Server, group: loop_plan.Group, cases: list[Case], repeats: int
) -> dict[str, list[Row]]:
    """Every system of ``group`` ``repeats`` times, interleaved: the order rotates each repeat."""
    names = list(group.systems)
    runs: dict[str, list[Row]] = {name: [] for name in names}
    for repeat in range(repeats):
        order = names[repeat % len(names) :] + names[: repeat % len(names)]
        for name in order:
            runs[name].append(
                measure(server, f"{name} in {group.loop}", "", group.systems[name], cases)
            )
    return runs


def table_row(
    shape: str,
    group: loop_plan.Group,
    pair: loop_plan.Pair,
    runs: dict[str, list[Row]],
    cases: int,
) -> str:
    """One line of the table: ``pair.face`` against ``pair.other`` over the same repeats."""
    import statistics

    face, other, many = runs[pair.face], runs[pair.other], runs["score_many"]
    core = runs[pair.core]
    ratios = [o.seconds / f.seconds for o, f in zip(other, face)]
    if pair.knob == loop_plan.RAISED:
        knob = f"{group.knob}{loop_plan.rows_at_once(cases)}"
    else:
        knob = pair.knob

    def med(rows: list[Row], field: str) -> float:
        return float(statistics.median(getattr(r, field) for r in rows))

    errors = {r.error for r in (*face, *other) if r.error}
    if pair.alone is None:
        floor = " - | - |"
    else:
        alone = runs[pair.alone]
        floors = [
            max(a.seconds, c.seconds, a.cpu_seconds + c.cpu_seconds) / f.seconds
            for a, c, f in zip(alone, core, face)
        ]
        floor = (
            f" {med(alone, 'seconds') / cases:.3f} | {statistics.median(floors):.2f}x "
            f"({min(floors):.2f}-{max(floors):.2f}) |"
        )
        errors |= {r.error for r in alone if r.error}
    return (
        f"| {shape} | {group.loop} | {knob} | {pair.against} | "
        f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f}) | "
        f"{med(other, 'seconds') / cases:.3f} / {med(face, 'seconds') / cases:.3f} | "
        f"{med(other, 'rejected'):.0f} / {med(face, 'rejected'):.0f} / "
        f"{med(many, 'rejected'):.0f} | {med(other, 'calls'):.0f} / {med(face, 'calls'):.0f} | "
        f"{sum(r.failed for r in other)} / {sum(r.failed for r in face)}"
        + (f" (stopped: {', '.join(sorted(errors))})" if errors else "")
        + " |"
        + floor
    )


def measure(server: Server, system: str, rule: str, run: Runner, cases: list[Case]) -> Row:
    """One timed run. A system whose run raises (upstream ragas' ``abatch_score`` gives up on
    429s with instructor's ``InstructorRetryException``) is recorded as failed, with the
    exception's type, and the next system runs."""
    error: str | None = None
    try:
        run(server.url, cases[:2])  # imports and first-use set-up, untimed
    except Exception as exc:
        error = f"{type(exc).__name__} in set-up"
    settle_gc()
    requests, rejected = server.stats()
    cpu, start = time.process_time(), time.perf_counter()
    failed = len(cases)
    if error is None:
        try:
            failed = run(server.url, cases)
        except Exception as exc:
            error = type(exc).__name__
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    after_requests, after_rejected = server.stats()
    calls = after_requests - requests - (after_rejected - rejected)
    row = Row(
        system,
        rule,
        seconds,
        calls,
        after_rejected - rejected,
        1000 * cpu / max(calls, 1),
        failed,
        error,
        cpu,
    )
    print(f"measured: {row}", file=sys.stderr, flush=True)  # survives a later system's crash
    return row
