"""js_round2 against JavaScript itself: Node rounds the same values, with Math.round and, where the
Mastra packages are installed (the mastra CI step's ``npm ci`` in js/), with Mastra's own
``roundToTwoDecimals``.

The values include thousands of exact halves, where ``(x + Number.EPSILON) * 100`` is k + 0.5 and
only "halves go up" (Math.round) gives JavaScript's answer: 1.505 -> 1.51, and Mastra's
``scale=10`` scores such as 5/16 * 10 = 3.125 -> 3.13. Without node on PATH these tests skip;
the mastra CI step runs them (.ci/steps/mastra.sh) and tests/test_formulas.py keeps fixed values.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from summscore.formulas import js_round2

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
MASTRA_EVALS = ROOT / "js" / "node_modules" / "@mastra" / "evals"

pytestmark = pytest.mark.skipif(
    NODE is None, reason="needs node on PATH (the mastra CI step puts Node 22 there)"
)


def _values() -> list[float]:
    values = {p / n * scale for n in range(1, 41) for p in range(n + 1) for scale in (1, 10, 100)}
    values |= {k / 1000 for k in range(2001)}
    values |= {k / 100 + 0.005 for k in range(2001)}
    values |= {k + 0.005 for k in (1_000, 65_536, 1_000_000)}
    rng = random.Random(39)
    values |= {rng.uniform(0, 10) for _ in range(2000)} | {rng.random() for _ in range(2000)}
    values |= {-v for v in list(values)[:500]}
    return sorted(values)


VALUES = _values()


def _exact_half(value: float) -> bool:
    scaled = (value + sys.float_info.epsilon) * 100
    return scaled - math.floor(scaled) == 0.5


def _node(script: str, cwd: Path) -> list[float]:
    assert NODE is not None
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        input=json.dumps(VALUES),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )
    assert done.returncode == 0, done.stderr
    rounded = json.loads(done.stdout)
    assert len(rounded) == len(VALUES)
    return rounded


def _mismatches(theirs: list[float]) -> list[tuple[float, float, float]]:
    return [(x, js_round2(x), t) for x, t in zip(VALUES, theirs) if js_round2(x) != t]


_READ = "import { readFileSync } from 'node:fs'; const xs = JSON.parse(readFileSync(0, 'utf8'));"


def test_the_values_hold_exact_halves_where_only_half_up_gives_javascripts_answer() -> None:
    halves = [v for v in VALUES if _exact_half(v)]
    assert len(halves) > 1000 and 1.505 in halves and 5 / 16 * 10 in halves


def test_js_round2_is_javascripts_math_round_on_every_value() -> None:
    script = (
        _READ
        + "process.stdout.write(JSON.stringify(xs.map(x => Math.round((x + Number.EPSILON) * 100) / 100)));"
    )
    assert _mismatches(_node(script, ROOT)) == []


@pytest.mark.skipif(
    not MASTRA_EVALS.is_dir(),
    reason="needs @mastra/evals in js/node_modules (the mastra CI step's npm ci installs it)",
)
def test_js_round2_is_mastras_own_round_to_two_decimals_on_every_value() -> None:
    version = json.loads((MASTRA_EVALS / "package.json").read_text(encoding="utf-8"))["version"]
    script = (
        "import { roundToTwoDecimals } from '@mastra/evals/scorers/utils';"
        + _READ
        + "process.stdout.write(JSON.stringify(xs.map(roundToTwoDecimals)));"
    )
    assert _mismatches(_node(script, ROOT / "js")) == [], f"@mastra/evals {version}"
