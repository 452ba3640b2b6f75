"""Were two runs scored the same way? What decides a number (preset, judge, model, prompt set,
threshold, the preset's options) must be the same, or the comparison measures the rule, not the
summaries: ``differences`` says what differs, and ``compare`` refuses unless told that this
is the point (``allow_different``)."""

from __future__ import annotations

import json
import math
from typing import Any

from .runs import SETTINGS, Run

__all__ = ["ComparisonRefused", "differences", "version_note"]

_LABELS = {
    "preset": "preset",
    "judge": "judge",
    "model": "model",
    "prompt_set": "prompt set",
    "threshold": "threshold",
    "options": "preset options",
}


class ComparisonRefused(ValueError):
    """The two runs were scored under different settings (see ``differences``)."""

    def __init__(self, found: list[str]) -> None:
        self.differences = found
        super().__init__(
            "the runs were scored differently, so their scores measure different things: "
            + "; ".join(found)
            + " (allow_different=True, or --allow-different, compares them anyway: e.g. to "
            "compare two judges)"
        )


def _same(a: tuple[Any, ...], b: tuple[Any, ...], name: str) -> bool:
    if len(a) != 1 or len(b) != 1:  # (rows of several runs: the same mix, in any row order)
        return set(a) == set(b)
    if name == "threshold":
        return math.isclose(float(a[0]), float(b[0]), rel_tol=1e-12, abs_tol=1e-12)
    return bool(a[0] == b[0])


def _shown(values: tuple[Any, ...]) -> str:
    return " and ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in values)


def differences(base: Run, candidate: Run) -> list[str]:
    """What differs between the two runs' settings, one phrase each ("judge: lexical (base) vs
    openai:gpt-4o-mini (candidate)"); a run whose rows disagree among themselves counts as
    different, unless the other's rows hold the same values (in any order). A setting one run
    does not record (an older results file, results in memory) is not checked."""
    found = []
    for name in SETTINGS:
        a, b = tuple(base.settings.get(name, ())), tuple(candidate.settings.get(name, ()))
        if not a or not b or _same(a, b, name):
            continue
        if name == "options" and len(a) == len(b) == 1:
            found.append(f"{_LABELS[name]}: {_option_changes(a[0], b[0])}")
            continue
        found.append(f"{_LABELS[name]}: {_shown(a)} (base) vs {_shown(b)} (candidate)")
    return found


def _option_changes(a: str, b: str) -> str:
    first, second = json.loads(a), json.loads(b)
    names = sorted(set(first) | set(second))
    changed = [n for n in names if first.get(n) != second.get(n)]
    return ", ".join(
        f"{n} {first.get(n)!r} (base) vs {second.get(n)!r} (candidate)" for n in changed
    )


def version_note(base: Run, candidate: Run) -> str | None:
    """A note when the runs were scored by different summscore versions (whose offline judge,
    prompts or rules may differ); not a refusal: comparing versions is a reason to compare."""
    if base.versions and candidate.versions and set(base.versions) != set(candidate.versions):
        return (
            f"scored by different summscore versions ({', '.join(base.versions)} vs "
            f"{', '.join(candidate.versions)}): a change of the judge or rule between them "
            "shows as a difference too"
        )
    return None
