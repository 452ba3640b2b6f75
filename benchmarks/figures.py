"""Benchmark tables as the documentation shows them: each benchmark that publishes a figure writes
its table to ``docs/figures/<name>.md`` with ``--figures``, and the docs page includes that file,
so no figure on a page is typed by hand."""

from __future__ import annotations

import platform
import sys
from collections.abc import Sequence
from pathlib import Path

FIGURES = Path(__file__).resolve().parent.parent / "docs" / "figures"


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table; numbers are written as given (format them before)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def write(name: str, body: str, *, command: str, setting: str = "") -> Path:
    """Write ``docs/figures/<name>.md``: the table, then one line saying how it was measured."""
    FIGURES.mkdir(parents=True, exist_ok=True)
    path = FIGURES / f"{name}.md"
    machine = f"{platform.machine()}, {_cores()} cores, Python {sys.version.split()[0]}"
    how = f"Measured by `{command}`" + (f" ({setting})" if setting else "") + f" on {machine}."
    path.write_text(body.rstrip() + "\n\n" + how + "\n", encoding="utf-8")
    return path


def _cores() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
