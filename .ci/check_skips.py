"""The last step of .ci/run: every test that skipped in the main run ran and passed in a later step.

Reads the log the test runs wrote (SUMMSCORE_TEST_LOG, one JSON line per test; compat/ci_log.py)
and fails, listing them, when a test skipped in the main run (or a module skipped whole there):

- ran in no later step, or only skipped there, and tests/skips_elsewhere.txt does not exclude it;
- failed in a later step (a step that only reports, SUMMSCORE_CI_GATING=0, is named, not failed).

It also fails on a stale exclusion: an entry that matches no test skipped in the main run, or only
tests that a later step runs and passes. It prints where each skipped test runs, or why it runs
nowhere. Run alone: python .ci/check_skips.py summscore-out/test-log.jsonl
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compat.ci_log import EXCLUSIONS, Exclusion, excluded_by, read_exclusions  # noqa: E402

RAN = ("passed", "failed", "error", "xpassed", "started")


@dataclass(frozen=True)
class Run:
    step: str
    gating: bool
    nodeid: str
    outcome: str  # "started" when the step was killed before the test finished
    reason: str


def read_log(path: Path) -> list[Run]:
    """The final outcome of each test in each step (the last line wins)."""
    final: dict[tuple[str, str], Run] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            run = Run(
                row["step"], bool(row["gating"]), row["nodeid"], row["outcome"], row["reason"]
            )
        except (ValueError, KeyError) as exc:
            raise SystemExit(
                f"{path}:{number}: not a test-log line ({exc!r}): {line[:200]}"
            ) from exc
        final[(run.step, run.nodeid)] = run
    return list(final.values())


def _under(nodeid: str, skipped: str) -> bool:
    """A test of the skipped node: itself, or a test in the module skipped whole."""
    return nodeid == skipped or nodeid.startswith(skipped + "::")


def where_it_runs(
    skipped: str, later: list[Run], exclusions: list[Exclusion]
) -> tuple[str | None, str | None]:
    """(the steps where it passed, what went wrong) for a test or module skipped in the main run.

    For a module, each of its tests must pass in some later step or be excluded."""
    by_test: dict[str, list[Run]] = defaultdict(list)
    for run in later:
        if _under(run.nodeid, skipped):
            by_test[run.nodeid].append(run)
    if not by_test:
        return None, "runs in no later step"
    problems, steps = [], set()
    for nodeid, runs in sorted(by_test.items()):
        passed = {r.step for r in runs if r.outcome in ("passed", "xpassed")}
        for run in runs:
            if run.outcome in RAN and run.outcome not in ("passed", "xpassed"):
                what = "never finished" if run.outcome == "started" else run.outcome
                if run.gating:
                    problems.append(f"{nodeid} {what} in step {run.step}")
                else:
                    passed.add(f"{run.step} (reports only; {what} there)")
        skips = [r for r in runs if r.outcome == "skipped"]
        if not passed and not any(excluded_by(nodeid, r.reason, exclusions) for r in skips):
            where = ", ".join(sorted({r.step for r in runs}))
            problems.append(f"{nodeid} skipped in {where} too")
        steps |= passed
    if problems:
        return None, "; ".join(problems)
    if not steps:
        return None, "only skipped in later steps, as excluded"
    return ", ".join(sorted(steps)), None


def check(log: Path, exclusions: list[Exclusion]) -> tuple[list[str], list[str]]:
    """(the report, one line per test skipped in the main run; the failures)."""
    runs = read_log(log)
    main = [r for r in runs if r.step == "main"]
    if not main:
        return [], [f"{log}: no test of the main run was logged (SUMMSCORE_TEST_LOG unset?)"]
    later = [r for r in runs if r.step != "main"]
    report, failures = [], []
    used: dict[Exclusion, list[str]] = defaultdict(list)
    redundant: dict[Exclusion, list[str]] = defaultdict(list)
    for run in sorted((r for r in main if r.outcome == "skipped"), key=lambda r: r.nodeid):
        where, problem = where_it_runs(run.nodeid, later, exclusions)
        excluded = excluded_by(run.nodeid, run.reason, exclusions)
        if excluded is not None:
            used[excluded].append(run.nodeid)
            if where is not None:
                redundant[excluded].append(f"{run.nodeid} (passes in {where})")
        if where is not None:
            report.append(f"{run.nodeid}: runs in {where}")
        elif excluded is not None:
            report.append(f"{run.nodeid}: excluded ({excluded.why})")
        else:
            report.append(f"{run.nodeid}: NOT RUN ({problem}; main-run skip: {run.reason})")
            failures.append(
                f"{run.nodeid} skipped in the main run ({run.reason}) and {problem}: "
                f"run it in a CI step, or exclude it with a reason in {EXCLUSIONS.name}"
            )
    for entry in exclusions:
        if entry not in used:
            failures.append(f"stale exclusion {entry}: matches no test skipped in the main run")
        elif len(redundant[entry]) == len(used[entry]):
            failures.append(
                f"stale exclusion {entry}: every test it matches runs in CI: "
                + "; ".join(redundant[entry])
            )
    return report, failures


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python .ci/check_skips.py <test-log.jsonl>", file=sys.stderr)
        return 2
    report, failures = check(Path(argv[0]), read_exclusions())
    print(f"tests skipped in the main run: {len(report)}")
    for line in report:
        print(f"  {line}")
    if failures:
        print(f"\n{len(failures)} problem(s):", file=sys.stderr)
        for line in failures:
            print(f"  {line}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
