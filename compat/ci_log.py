"""What ran where in CI, and the rule that a CI step's own tests do not skip.

A pytest plugin (registered by the root conftest.py) with two parts:

- ``SUMMSCORE_TEST_LOG=<file>``: each test's node id, outcome (passed, failed, error, skipped,
  xfailed, xpassed) and skip reason is appended to ``<file>`` as one JSON line, with the CI step
  that ran it (``SUMMSCORE_CI_STEP``; ``main`` when unset) and whether that step gates
  (``SUMMSCORE_CI_GATING=0`` for a step that only reports). A module skipped whole at collection
  (``pytest.importorskip`` at its top) is one line with the module's node id. A test that was
  started and never finished (a step killed by its timeout) keeps a ``started`` line.
  ``.ci/check_skips.py`` reads the file at the end of ``.ci/run``.
- ``--fail-on-skip``: the run fails when any test skips, unless tests/skips_elsewhere.txt
  excludes that test on purpose. A CI step that installs a stack to run some tests uses it, so a
  missing install cannot pass as a green step of skips.

The exclusions file is parsed here too (``read_exclusions``), for both users.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXCLUSIONS = ROOT / "tests" / "skips_elsewhere.txt"

_ENTRY = re.compile(r"^(id|reason)\s+(.+?)\s+--\s+(.+)$")


@dataclass(frozen=True)
class Exclusion:
    """One entry of the exclusions file: ``id <glob> -- <why>`` matches node ids (fnmatch, whole
    id), ``reason <regex> -- <why>`` matches skip reasons (re.search)."""

    kind: str
    pattern: str
    why: str
    line: int

    def matches(self, nodeid: str, reason: str) -> bool:
        if self.kind == "id":
            return fnmatch.fnmatchcase(nodeid, self.pattern)
        return re.search(self.pattern, reason) is not None

    def __str__(self) -> str:
        return f"{EXCLUSIONS.name}:{self.line}: {self.kind} {self.pattern}"


def read_exclusions(path: Path = EXCLUSIONS) -> list[Exclusion]:
    """The entries of the exclusions file; ValueError naming the line for a malformed one."""
    entries = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        match = _ENTRY.match(text)
        if not match:
            raise ValueError(
                f"{path.name}:{number}: expected 'id <glob> -- <why>' or "
                f"'reason <regex> -- <why>', got {text!r}"
            )
        kind, pattern, why = match.groups()
        if kind == "reason":
            re.compile(pattern)  # a bad regex fails here, naming itself
        entries.append(Exclusion(kind, pattern, why, number))
    return entries


def excluded_by(nodeid: str, reason: str, exclusions: Iterable[Exclusion]) -> Exclusion | None:
    return next((e for e in exclusions if e.matches(nodeid, reason)), None)


def _skip_reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        text = str(longrepr[2])
    else:
        text = str(longrepr or "")
    return text.removeprefix("Skipped: ")


@dataclass
class _Outcome:
    outcome: str = "passed"
    reason: str = ""


@dataclass
class CiLog:
    """The plugin's state for one pytest session."""

    log: Path | None
    fail_on_skip: bool
    exclusions: Path = EXCLUSIONS
    step: str = field(default_factory=lambda: os.environ.get("SUMMSCORE_CI_STEP") or "main")
    gating: bool = field(default_factory=lambda: os.environ.get("SUMMSCORE_CI_GATING") != "0")
    outcomes: dict[str, _Outcome] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)  # node id -> skip reason

    def _write(self, nodeid: str, outcome: str, reason: str = "") -> None:
        if self.log is None:
            return
        line = {
            "step": self.step,
            "gating": self.gating,
            "nodeid": nodeid,
            "outcome": outcome,
            "reason": reason,
        }
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("a", encoding="utf-8") as out:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.skipped and report.nodeid:
            reason = _skip_reason(report)
            self.skipped[report.nodeid] = reason
            self._write(report.nodeid, "skipped", reason)

    def pytest_runtest_logstart(self, nodeid: str) -> None:
        self.outcomes[nodeid] = _Outcome()
        self._write(nodeid, "started")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        state = self.outcomes.setdefault(report.nodeid, _Outcome())
        if state.outcome in ("failed", "error"):
            return
        xfail = hasattr(report, "wasxfail")
        if report.failed:
            state.outcome = "failed" if report.when == "call" else "error"
            state.reason = ""
        elif report.skipped:
            state.outcome = "xfailed" if xfail else "skipped"
            state.reason = str(getattr(report, "wasxfail", "")) if xfail else _skip_reason(report)
        elif report.when == "call" and xfail:
            state.outcome = "xpassed"

    def pytest_runtest_logfinish(self, nodeid: str) -> None:
        state = self.outcomes.get(nodeid, _Outcome())
        if state.outcome == "skipped":
            self.skipped[nodeid] = state.reason
        self._write(nodeid, state.outcome, state.reason)

    def not_allowed(self) -> dict[str, str]:
        """The skips of this session that the exclusions file does not cover."""
        exclusions = read_exclusions(self.exclusions)
        return {
            nodeid: reason
            for nodeid, reason in self.skipped.items()
            if excluded_by(nodeid, reason, exclusions) is None
        }

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.fail_on_skip and self.not_allowed() and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.fail_on_skip:
            return
        skipped = self.not_allowed()
        if skipped:
            terminalreporter.section("--fail-on-skip", red=True)
            terminalreporter.line(
                f"{len(skipped)} test(s) skipped in a run that exists to run them "
                f"(step {self.step}); install what they need, or exclude them with a reason "
                f"in {self.exclusions}:",
                red=True,
            )
            for nodeid, reason in skipped.items():
                terminalreporter.line(f"  {nodeid}: {reason}")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fail-on-skip",
        action="store_true",
        help="fail the run when a test skips, unless tests/skips_elsewhere.txt excludes it "
        "(for CI steps that install a stack to run those tests)",
    )
    parser.addoption(
        "--skip-exclusions",
        type=Path,
        default=EXCLUSIONS,
        metavar="FILE",
        help="the file of deliberate skips --fail-on-skip allows (default: %(default)s)",
    )


def pytest_configure(config: pytest.Config) -> None:
    log = os.environ.get("SUMMSCORE_TEST_LOG")
    # Only runs of this repository's tests are logged, not a pytest run inside a test (pytester).
    logged = log and config.rootpath == ROOT
    plugin = CiLog(
        log=Path(log).resolve() if logged else None,
        fail_on_skip=bool(config.getoption("--fail-on-skip")),
        exclusions=Path(config.getoption("--skip-exclusions")),
    )
    config.pluginmanager.register(plugin, "summscore-ci-log")
