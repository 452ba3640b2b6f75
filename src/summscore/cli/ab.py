"""``summscore score FILE --summary-column a,b``: an A/B run, and the gates of a run.

Several summary columns of one file are scored in one run (``summscore.files.variants``:
each source's questions are asked once for all of them); the results file holds one row per
(case, summary column), and the comparison of each further column with the first is written
beside it (``<results file name>.<a>-vs-<b>.compare.json`` and ``.html``). ``--fail-if-worse``,
``--fail-under`` and ``--min-pass-rate`` gate the run (see ``gates``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..comparison import Comparison, compare
from ..comparison.report import render_comparison
from ..comparison.runs import Run, load_run
from ..files.columns import Columns
from ..files.datasets import InputError, open_rows
from ..files.places import unusable
from ..files.variants import open_variant_rows, split_summary_columns
from .compare import comparison_paths, gate_status, is_summscore_file
from .gates import gate_options, run_gate_failures
from .outputs import check_staged, write_whole
from .usage import EXIT_GATE_FAILED, UsageError

__all__ = [
    "check_ab_outputs",
    "check_worse_gate",
    "finish_run",
    "open_input",
    "run_figures",
    "summary_columns",
]


def summary_columns(args: argparse.Namespace) -> list[str]:
    """The summary columns ``--summary-column`` names when it names two or more (an A/B run),
    else []; ``args.summary_column`` becomes the first (or None), as one column's run reads it.
    A single name is taken whole, commas and all, when the file has a column of that name. A
    column named twice is refused (a typo for another column would otherwise make a plain run
    of one column, with no comparison)."""
    given = args.summary_column
    if isinstance(given, str):
        given = [given]
    names = split_summary_columns(given)
    if given and len(given) == 1 and "," in given[0] and _has_column(args, given[0]):
        names = [given[0]]
    else:
        _refuse_repeats(given or [])
    args.summary_column = names[0] if names else None
    return names if len(names) > 1 else []


def _refuse_repeats(given: list[str]) -> None:
    seen: set[str] = set()
    for name in (n.strip() for value in given for n in value.split(",")):
        if name in seen:
            raise UsageError(
                f"--summary-column names {name!r} twice: an A/B run scores different summary "
                "columns (name each once)"
            )
        if name:
            seen.add(name)


def _has_column(args: argparse.Namespace, name: str) -> bool:
    try:
        open_rows(Path(args.input), Columns(summary=name), encoding=args.encoding, sheet=args.sheet)
    except (InputError, OSError, ValueError, ImportError):
        return False
    return True


def open_input(
    path: Path,
    columns: Columns,
    summaries: list[str],
    *,
    encoding: str,
    sheet: str | None,
    delimiter: str | None,
) -> Any:
    """The rows of ``path``: once per summary column in an A/B run, else as they are."""
    if summaries:
        return open_variant_rows(
            path, columns, summaries, encoding=encoding, sheet=sheet, delimiter=delimiter
        )
    return open_rows(path, columns, encoding=encoding, sheet=sheet, delimiter=delimiter)


def check_worse_gate(args: argparse.Namespace, summaries: list[str]) -> None:
    """``--fail-if-worse`` in a score run compares its summary columns: with one, there is
    nothing to compare, and a CI gate that cannot fail is refused rather than passed."""
    if getattr(args, "fail_if_worse", False) and not summaries:
        raise UsageError(
            "--fail-if-worse in a score run needs two or more --summary-column values (it "
            "compares each with the first); for two runs, use summscore compare BASE CANDIDATE"
        )


def check_ab_outputs(args: argparse.Namespace, out: Path | None, summaries: list[str]) -> None:
    """An A/B run reads its results back to compare them: it needs a results file, and the
    comparison files beside it must be summscore's own (or --force) and writable there."""
    if out is None:
        raise UsageError(
            "several --summary-column values need a results file (--out FILE): the comparison "
            "reads it back"
        )
    seen: dict[Path, str] = {}
    for candidate in summaries[1:]:
        for path in comparison_paths(out, summaries[0], candidate):
            if path in seen:  # (two names that differ only in characters a file name drops)
                raise UsageError(
                    f"--summary-column {seen[path]!r} and {candidate!r} would write the same "
                    f"comparison, {path.name}: rename one of the columns"
                )
            seen[path] = candidate
            if (problem := unusable(path)) is not None:
                raise UsageError(f"{path} (a comparison of this run): {problem}")
            check_staged(path, "a comparison of this run,")
            if path.exists() and not args.force and not is_summscore_file(path):
                raise UsageError(
                    f"{path} exists and is not a summscore comparison; pass --force to replace "
                    "it, or name another --out"
                )


def run_figures(run: Run) -> tuple[float | None, float | None]:
    """A run's mean score (of the rows scored) and pass rate (of all rows), as the closing
    summary counts them."""
    scored = [c.score for c in run.cases if c.scored]
    mean = sum(scored) / len(scored) if scored else None
    rate = sum(1 for c in run.cases if c.passed) / len(run.cases) if run.cases else None
    return mean, rate


def finish_run(
    args: argparse.Namespace,
    out: Path | None,
    summaries: list[str],
    figures: tuple[float | None, float | None] | None = None,
) -> int:
    """After a complete run: an A/B run's comparisons written and printed, then the gates.
    ``figures``: the run's mean and pass rate when known (one column); otherwise they are read
    from the results file. Returns 1 when a gate failed, else 0; raises
    ``summscore.files.writer.OutputError`` when a comparison cannot be written."""
    failed: list[str] = []
    if summaries:
        assert out is not None  # (check_ab_outputs)
        run = load_run(out)
        columns = [c for c in summaries if c in run.columns]
        for column in columns:
            failed += run_gate_failures(args, *run_figures(run.column(column)), label=column)
        for candidate in columns[1:]:
            comparison = _write_comparison(args, run, out, columns[0], candidate)
            if comparison is not None and gate_status(comparison, args, sys.stderr):
                failed.append(candidate)
        return EXIT_GATE_FAILED if failed else 0
    if _asks_run_gates(args):
        if figures is None:
            if out is None:
                raise UsageError(
                    "--fail-under and --min-pass-rate here read the results: name --out"
                )
            figures = run_figures(load_run(out))
        failed += run_gate_failures(args, *figures)
    return EXIT_GATE_FAILED if failed else 0


def _asks_run_gates(args: argparse.Namespace) -> bool:
    return (
        getattr(args, "fail_under", None) is not None
        or getattr(args, "min_pass_rate", None) is not None
    )


def _write_comparison(
    args: argparse.Namespace, run: Run, out: Path, base: str, candidate: str
) -> Comparison | None:
    try:
        comparison = compare(run, base_column=base, candidate_column=candidate)
    except ValueError as exc:  # (a column with no row: every row of it failed to read)
        print(f"summscore: no comparison of {candidate} with {base}: {exc}", file=sys.stderr)
        return None
    json_path, html_path = comparison_paths(out, base, candidate)
    options = gate_options(args)
    effect = options["min_effect"]
    # (each written whole: OutputError when it cannot be, which the command makes exit 4)
    write_whole(
        json_path, json.dumps(comparison.to_dict(**options), ensure_ascii=False, indent=2) + "\n"
    )
    write_whole(html_path, render_comparison(comparison, min_effect=effect))
    print(f"summscore: {base} vs {candidate}: {comparison.verdict(effect).text}", file=sys.stderr)
    print(f"comparison: {html_path} (and {json_path.name})", file=sys.stderr)
    return comparison
