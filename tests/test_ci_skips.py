"""CI's honesty rules (compat/ci_log.py, .ci/check_skips.py): a step fails when its own tests skip,
every test skipped in the main run runs and passes in a later step or is excluded with a reason,
and the exclusions file holds no stale entry."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from compat.ci_log import EXCLUSIONS, Exclusion, read_exclusions

ROOT = Path(__file__).resolve().parent.parent


def _check_skips() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_skips", ROOT / ".ci" / "check_skips.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


check_skips = _check_skips()

# ------------------------------------------------------------------------------ --fail-on-skip

_TESTS = """
import pytest

def test_runs():
    pass

def test_needs_a_browser():
    pytest.skip("needs chromium")
"""


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    return pytester.runpytest("-p", "compat.ci_log", *args)


def test_a_run_with_fail_on_skip_fails_when_a_test_skips_and_names_it(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_step=_TESTS)
    assert _run(pytester).ret == pytest.ExitCode.OK  # without the flag, a skip passes
    result = _run(pytester, "--fail-on-skip")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*1 test(s) skipped*", "*test_needs_a_browser: needs chromium"])


def test_a_module_skipped_whole_fails_the_run_too(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_step='import pytest\npytest.importorskip("no_such_stack")\n')
    pytester.makepyfile(test_other="def test_runs():\n    pass\n")
    result = _run(pytester, "--fail-on-skip")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*test_step.py: could not import 'no_such_stack'*"])


def test_a_skip_the_exclusions_file_lists_is_allowed(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_step=_TESTS)
    allowed = pytester.path / "allowed.txt"
    allowed.write_text("# why\nreason ^needs chromium$ -- no browser here, on purpose\n")
    assert _run(pytester, "--fail-on-skip", "--skip-exclusions", str(allowed)).ret == 0
    allowed.write_text("id test_step.py::test_needs_a_browser -- no browser here, on purpose\n")
    assert _run(pytester, "--fail-on-skip", "--skip-exclusions", str(allowed)).ret == 0
    allowed.write_text("id test_step.py::test_runs -- another test\n")
    assert _run(pytester, "--fail-on-skip", "--skip-exclusions", str(allowed)).ret == 1


def test_a_failing_run_keeps_its_failure_status(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_step=_TESTS + "\ndef test_fails():\n    assert False\n")
    assert _run(pytester, "--fail-on-skip").ret == pytest.ExitCode.TESTS_FAILED


# ---------------------------------------------------------------------------- the exclusions


def test_a_malformed_exclusion_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "skips.txt"
    path.write_text("# comment\n\nreason needs x -- fine\nid tests/x.py::test_y\n")
    with pytest.raises(ValueError, match=r"skips\.txt:4: expected 'id <glob> -- <why>'"):
        read_exclusions(path)
    path.write_text("reason needs (x -- a bad regex\n")
    with pytest.raises(re.error):
        read_exclusions(path)


def test_the_repositorys_exclusions_parse_and_each_says_why() -> None:
    entries = read_exclusions(EXCLUSIONS)
    assert entries and all(len(e.why) > 20 for e in entries)


# ------------------------------------------------------------------------ the log of a real run


def test_a_run_logs_each_test_with_its_step_and_outcome(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SUMMSCORE_REAL_MODEL_GGUF", "SUMMSCORE_LLAMA_PYTHON", "SUMMSCORE_CI_GATING")
    }
    env.update(SUMMSCORE_TEST_LOG=str(log), SUMMSCORE_CI_STEP="unit")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_real_model.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    runs = {r.nodeid: r for r in check_skips.read_log(log)}
    real = (
        "tests/test_real_model.py::test_summscore_scores_every_row_upstream_scores_on_a_real_model"
    )
    assert runs[real].outcome == "skipped" and runs[real].step == "unit" and runs[real].gating
    assert runs[real].reason == "needs SUMMSCORE_REAL_MODEL_GGUF and _PYTHON"
    assert sum(r.outcome == "passed" for r in runs.values()) >= 5


# ------------------------------------------------------------------------- .ci/check_skips.py


def _log(tmp_path: Path, *rows: tuple[str, str, str]) -> Path:
    """rows: (step, node id, outcome); a step named "*-report" does not gate."""
    path = tmp_path / "log.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for step, nodeid, outcome in rows:
            reason = "needs ray" if outcome == "skipped" else ""
            line = {"step": step, "gating": not step.endswith("-report"), "nodeid": nodeid}
            out.write(json.dumps({**line, "outcome": "started", "reason": ""}) + "\n")
            out.write(json.dumps({**line, "outcome": outcome, "reason": reason}) + "\n")
    return path


RAY_CLI = [
    "tests/test_cli_out_checks.py::test_ray_out_stdout_is_handed_on_as_stdout_and_no_file_named_dash_is_made",
    "tests/test_cli_out_checks.py::test_ray_refuses_resume_which_it_cannot_honour",
]


def test_a_test_skipped_in_main_and_run_nowhere_fails_the_check(tmp_path: Path) -> None:
    """The case of issue #39: the --engine ray CLI tests skip in the main run and the ray step
    ran only tests/test_ray.py."""
    log = _log(
        tmp_path,
        ("main", "tests/test_ray.py", "skipped"),
        *(("main", nodeid, "skipped") for nodeid in RAY_CLI),
        ("ray", "tests/test_ray.py::test_map_batches", "passed"),
    )
    report, failures = check_skips.check(log, [])
    assert report[-1] == "tests/test_ray.py: runs in ray"
    assert len(failures) == 2 and all("runs in no later step" in f for f in failures)
    assert [f.split(" ")[0] for f in failures] == RAY_CLI


def test_a_test_that_passes_in_a_later_step_is_covered(tmp_path: Path) -> None:
    log = _log(
        tmp_path,
        *(("main", n, "skipped") for n in RAY_CLI),
        *(("ray", n, "passed") for n in RAY_CLI),
    )
    assert check_skips.check(log, []) == ([f"{n}: runs in ray" for n in RAY_CLI], [])


def test_a_later_failure_skip_or_kill_is_no_cover(tmp_path: Path) -> None:
    for later, expected in (
        ("failed", "failed in step ray"),
        ("skipped", "skipped in ray too"),
        ("started", "never finished in step ray"),
    ):
        log = _log(tmp_path, ("main", RAY_CLI[0], "skipped"), ("ray", RAY_CLI[0], later))
        if later == "started":  # killed mid-test: no final line
            lines = log.read_text().splitlines()
            log.write_text("\n".join(lines[:-1]) + "\n")
        _, failures = check_skips.check(log, [])
        assert len(failures) == 1 and expected in failures[0], (later, failures)


def test_a_step_that_only_reports_counts_as_run_there(tmp_path: Path) -> None:
    log = _log(
        tmp_path,
        ("main", "tests/test_real_model.py::t", "skipped"),
        ("real-report", "tests/test_real_model.py::t", "failed"),
    )
    report, failures = check_skips.check(log, [])
    assert failures == [] and "runs in real-report (reports only; failed there)" in report[0]


def test_every_test_of_a_module_skipped_whole_must_run_later(tmp_path: Path) -> None:
    log = _log(
        tmp_path,
        ("main", "tests/test_ray.py", "skipped"),
        ("ray", "tests/test_ray.py::test_a", "passed"),
        ("ray", "tests/test_ray.py::test_b", "skipped"),
    )
    _, failures = check_skips.check(log, [])
    assert len(failures) == 1 and "tests/test_ray.py::test_b skipped in ray too" in failures[0]


def test_an_exclusion_covers_a_skip_and_a_stale_one_fails(tmp_path: Path) -> None:
    log = _log(
        tmp_path, ("main", RAY_CLI[0], "skipped"), ("main", "tests/test_x.py::test_y", "passed")
    )
    covers = Exclusion("reason", "^needs ray$", "no ray anywhere, on purpose", 3)
    stale = Exclusion("id", "tests/test_gone.py::*", "a test that was removed", 4)
    report, failures = check_skips.check(log, [covers, stale])
    assert report == [f"{RAY_CLI[0]}: excluded (no ray anywhere, on purpose)"]
    assert failures == [f"stale exclusion {stale}: matches no test skipped in the main run"]


def test_an_exclusion_of_a_test_that_runs_later_is_stale(tmp_path: Path) -> None:
    log = _log(tmp_path, ("main", RAY_CLI[0], "skipped"), ("ray", RAY_CLI[0], "passed"))
    entry = Exclusion("id", "tests/test_cli_out_checks.py::*", "thought to run nowhere", 3)
    _, failures = check_skips.check(log, [entry])
    assert len(failures) == 1 and "every test it matches runs in CI" in failures[0]


def test_a_log_without_a_main_run_fails(tmp_path: Path) -> None:
    log = _log(tmp_path, ("ray", RAY_CLI[0], "passed"))
    assert "no test of the main run was logged" in check_skips.check(log, [])[1][0]


def test_the_script_prints_where_each_skip_runs_and_exits_1_on_a_problem(tmp_path: Path) -> None:
    log = _log(tmp_path, ("main", RAY_CLI[0], "skipped"))
    done = subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "check_skips.py"), str(log)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert f"{RAY_CLI[0]}: NOT RUN (runs in no later step" in done.stdout
    assert "skips_elsewhere.txt" in done.stderr


# ------------------------------------------------------------------------------- the CI wiring


def test_ci_logs_every_run_and_checks_the_skips_last() -> None:
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line for line in run.splitlines() if line.strip() and not line.startswith("#")]
    assert run.index("export SUMMSCORE_TEST_LOG=") < run.index(".venv/bin/python -m pytest")
    assert 'SUMMSCORE_CI_STEP=$name "$@"' in run
    assert lines[-1].startswith("step skips .venv/bin/python .ci/check_skips.py")


def test_every_ci_step_that_runs_pytest_fails_on_skips() -> None:
    for script in sorted((ROOT / ".ci" / "steps").glob("*.sh")):
        text = script.read_text(encoding="utf-8").replace("\\\n", " ")
        for command in re.findall(r"^.*-m pytest.*$", text, re.M):
            assert "--fail-on-skip" in command, f"{script.name}: {command.strip()}"
