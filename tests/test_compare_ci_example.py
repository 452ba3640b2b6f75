"""The GitHub Actions example of docs/compare.md, as a user copies it: the YAML parses, every
summscore command in it exists with those options, and the pull-request step (run by bash with a
stand-in for the gh command) passes with a notice when main has no baseline yet, and gates on
the comparison when it has one."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from summscore.cli.parser import build_parser

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _workflow() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml")
    page = (ROOT / "docs" / "compare.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", page, re.S)
    assert len(blocks) == 1, "one GitHub Actions example"
    workflow = yaml.safe_load(blocks[0])
    assert isinstance(workflow, dict)
    return workflow


def _steps() -> list[dict[str, Any]]:
    jobs = _workflow()["jobs"]
    return [step for job in jobs.values() for step in job["steps"]]


def _pull_request_script() -> str:
    (step,) = [s for s in _steps() if "gh run download" in s.get("run", "")]
    assert step["if"] == "github.event_name == 'pull_request'"
    return re.sub(r"\$\{\{[^}]*\}\}", "summaries", step["run"])


def test_the_workflow_parses_and_its_summscore_commands_exist() -> None:
    workflow = _workflow()
    # (YAML 1.1 reads the key on: as true)
    triggers = workflow[True] if True in workflow else workflow["on"]
    assert {"push", "pull_request"} <= set(triggers)
    commands = []
    for step in _steps():
        script = step.get("run", "").replace("\\\n", " ")
        commands += [line.strip() for line in script.splitlines() if "summscore " in line]
    assert len(commands) == 2
    parser = build_parser()
    for line in commands:
        words = shlex.split(line[line.index("summscore ") :])
        args = parser.parse_args(words[1:])  # exits 2 on an unknown option
        assert args.command in ("score", "compare")
    uploads = [s for s in _steps() if str(s.get("uses", "")).startswith("actions/upload-artifact")]
    names = {s["with"]["name"] for s in uploads}
    assert names == {"summscore-baseline", "summscore-comparison"}
    assert "summscore-baseline" in _pull_request_script()


def _fake_gh(folder: Path) -> None:
    """A stand-in for gh: ``run list`` prints what the real one prints for the runs found,
    ``run download`` fetches the baseline when there is one (else fails, as gh does)."""
    gh = folder / "gh"
    gh.write_text(
        "#!/bin/sh\n"
        'if [ "$1 $2" = "run list" ]; then printf "%s" "$FAKE_RUN_LIST"; exit 0; fi\n'
        'if [ "$1 $2" = "run download" ]; then\n'
        '  [ -n "$FAKE_BASELINE" ] || { echo "no valid artifacts found" >&2; exit 1; }\n'
        '  mkdir -p baseline && cp "$FAKE_BASELINE" baseline/results.jsonl; exit 0\n'
        "fi\n"
        "exit 2\n",
        encoding="utf-8",
    )
    gh.chmod(gh.stat().st_mode | stat.S_IXUSR)


def _run_step(tmp_path: Path, run_list: str, baseline: Path | None) -> subprocess.CompletedProcess:
    if not (BIN / "summscore").exists() or shutil.which("bash") is None:
        pytest.fail("needs bash and the summscore command beside the interpreter")
    tools = tmp_path / "tools"
    tools.mkdir(exist_ok=True)
    _fake_gh(tools)
    env = {
        **os.environ,
        "PATH": f"{tools}{os.pathsep}{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(ROOT / "src"),
        "FAKE_RUN_LIST": run_list,
        "FAKE_BASELINE": str(baseline or ""),
    }
    return subprocess.run(
        ["bash", "-e", "-c", _pull_request_script()],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _results(path: Path, drop: float) -> Path:
    rows = [
        {
            "id": f"c{i}",
            "score": 0.9 - (i % 4) / 10 - drop,
            "error": None,
            "preset": "deepeval",
            "judge": "lexical",
            "prompt_set": "none",
            "threshold": 0.5,
        }
        for i in range(20)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize("printed", ["", "null"])  # no run found: the jq filter's output
def test_the_first_pull_request_with_no_baseline_passes_with_a_notice(
    tmp_path: Path, printed: str
) -> None:
    _results(tmp_path / "results.jsonl", 0.0)
    done = _run_step(tmp_path, printed, None)
    assert done.returncode == 0, done.stderr
    assert "::notice::no baseline" in done.stdout
    assert not (tmp_path / "comparison.html").exists()


def test_an_expired_baseline_passes_with_a_notice(tmp_path: Path) -> None:
    _results(tmp_path / "results.jsonl", 0.0)
    done = _run_step(tmp_path, "4242", None)  # a run whose artifact is gone
    assert done.returncode == 0, done.stderr
    assert "::notice::no baseline" in done.stdout


def test_with_a_baseline_the_step_gates_on_the_comparison(tmp_path: Path) -> None:
    baseline = _results(tmp_path / "main.jsonl", 0.0)
    _results(tmp_path / "results.jsonl", 0.0)
    same = _run_step(tmp_path, "4242", baseline)
    assert same.returncode == 0, same.stderr
    assert (tmp_path / "comparison.html").exists()
    _results(tmp_path / "results.jsonl", 0.1)
    worse = _run_step(tmp_path, "4242", baseline)
    assert worse.returncode == 1, worse.stderr
    assert "gate failed: the candidate is worse by more than 0.02" in worse.stderr


def test_the_jq_filter_prints_nothing_when_main_has_no_run() -> None:
    jq = shutil.which("jq")
    expression = re.search(r"--jq '([^']*)'", _pull_request_script())
    assert expression is not None and "// empty" in expression.group(1)
    if jq is not None:  # (gh's --jq is jq's language; where jq is installed, check it there)
        done = subprocess.run(
            [jq, "-r", expression.group(1)], input="[]", capture_output=True, text=True
        )
        assert done.returncode == 0 and done.stdout == ""
