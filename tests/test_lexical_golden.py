"""benchmarks/lexical_golden.py: the check that a speed-up of the offline judge changes no result."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _golden() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "lexical_golden", ROOT / "benchmarks/lexical_golden.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _line(case: str, verdict: str) -> str:
    result = {"score": 1.0, "claims": [{"claim": "A cat sat.", "verdict": verdict}]}
    record = {"case": case, "preset": "deepeval", "result": result, "confidence": {}}
    return json.dumps(record, sort_keys=True)


def test_identical_results_compare_equal() -> None:
    lines = [_line("a", "yes"), _line("b", "no")]
    assert _golden().compare(lines, list(lines)) == 0


def test_a_changed_verdict_is_reported_with_its_case_and_field(
    capsys: pytest.CaptureFixture[str],
) -> None:
    differing = _golden().compare(
        [_line("a", "yes"), _line("b", "no")], [_line("a", "yes"), _line("b", "yes")]
    )
    out = capsys.readouterr().out
    assert differing == 1
    assert "DIFFERS b (deepeval): .result.claims[0].verdict" in out


def test_a_missing_result_counts_as_a_difference() -> None:
    assert _golden().compare([_line("a", "yes")], [_line("a", "yes"), _line("b", "no")]) > 0


def test_dump_writes_one_result_per_case_and_preset(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    done = subprocess.run(
        [sys.executable, "benchmarks/lexical_golden.py", "--pairs", "1", "--dump", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    records = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    cases = {r["case"] for r in records}
    assert "speed-0" in cases and "quad-acquisition-faithful" in cases
    assert len(records) == 3 * len(cases)
    assert all("verdicts" in r["confidence"] for r in records if r["result"]["claims"])
