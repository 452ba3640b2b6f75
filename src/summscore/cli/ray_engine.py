"""``summscore score --engine ray``: the rows scored by Ray actors (``summscore.ray``), with the
local engine's output checks, ``--resume``, ``--report`` (read back from the results file) and
gates."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import MissingExtraError
from ..files.datasets import Columns
from ..files.writer import OutputError
from .ab import check_worse_gate, finish_run, summary_columns
from .gates import check_gate_values
from .outputs import (
    check_out,
    check_report_suffix,
    default_out,
    named_sheet,
    stopped_run_note,
    through_links,
)
from .report import cases_from_results, write_streamed_report
from .scorer_options import make_scorer
from .usage import EXIT_FAILED_ROWS, EXIT_INTERRUPTED, EXIT_OUTPUT_ERROR, UsageError

__all__ = ["run_score_on_ray"]


def run_score_on_ray(args: argparse.Namespace) -> int:
    """``score --engine ray``: the rows are scored by actors (see summscore.ray), ``--resume``
    as on the local engine; ``--report`` reads the results file back after the run."""
    check_gate_values(args)
    if summary_columns(args):
        raise UsageError("several --summary-column values (an A/B run) need --engine local")
    check_worse_gate(args, [])
    from ..ray import run_score_file

    path = Path(args.input)
    to_stdout = args.out == "-"
    if to_stdout and args.report:
        raise UsageError("--report with --engine ray reads the results back: name an --out file")
    if to_stdout and (args.fail_under is not None or args.min_pass_rate is not None):
        raise UsageError("the gates with --engine ray read the results back: name an --out file")
    check_report_suffix(args)
    out = (
        None if to_stdout else Path(args.out) if args.out else default_out(path, named_sheet(args))
    )
    out = None if out is None else through_links(out)
    check_out(args, path, out)  # the local engine's checks: nothing of the user's replaced
    if not args.resume and (note := stopped_run_note(out)):
        print(note, file=sys.stderr)
    plan = argparse.Namespace(**{**vars(args), "out": "-" if out is None else str(out)})
    try:
        code = run_score_file(plan, make_scorer)
    except (OSError, ValueError, MissingExtraError) as exc:
        raise UsageError(str(exc)) from None
    if args.report and out is not None:  # (--out - with --report was refused above)
        columns = Columns(
            source=args.source_column,
            summary=args.summary_column,
            id=args.id_column,
            questions=args.questions_column,
        )
        top = float(args.scale) if args.preset == "mastra" and args.scale else 1.0
        try:
            report = write_streamed_report(
                args.report,
                cases_from_results(path, columns, args.encoding, out, sheet=args.sheet),
                title=f"summscore report: {path.name}",
                meta={"input": str(path), "engine": "ray"},
                top=top,
            )
        except OutputError as exc:  # (the results are written: only the page is missing)
            print(f"summscore: error: {exc}; the results are complete in {out}", file=sys.stderr)
            return code if code == EXIT_INTERRUPTED else EXIT_OUTPUT_ERROR
        print(f"report:  {report}", file=sys.stderr)
    if code == EXIT_INTERRUPTED:
        return code
    gates = finish_run(args, out, [])
    return code if code == EXIT_FAILED_ROWS else gates
