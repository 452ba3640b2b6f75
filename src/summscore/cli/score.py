"""``summscore score``: read the rows of a file, score them, write the results (and a report).

Rows are read lazily and written in input order as soon as they are scored, so an interrupted
run keeps what it finished. A row that fails (unreadable, bad input, judge error) is written with
its error and the exit code is 3; no row is dropped. Several summary columns make an A/B run, and
the gates (``--fail-under``, ``--min-pass-rate``, ``--fail-if-worse``) exit 1: see :mod:`.ab`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import MissingExtraError
from ..files.datasets import Columns, ResultWriter, Row, is_results_file
from ..files.fingerprint import run_settings
from ..files.job import RunSink, print_summary, score_rows
from ..files.provenance import RunProvenance
from ..files.records import FORMATS, count_records, parse_delimiter
from ..files.resume import ResumeState, partial_path
from ..report.page import ReportCase
from ..results import SummaryResult
from ..scorer import SummarizationScorer
from .ab import check_ab_outputs, finish_run, open_input, summary_columns
from .gates import check_gate_values
from .report import (
    ReportSpool,
    cases_from_results,
    result_from_record,
    source_text,
    write_streamed_report,
)
from .scorer_options import make_scorer, make_shards, release_judge
from .usage import EXIT_FAILED_ROWS, EXIT_INTERRUPTED, UsageError

__all__ = ["run_score", "run_score_on_ray"]


def _default_out(path: Path, sheet: str | None = None) -> Path:
    """``summscore-out/<input name>.results.jsonl``; a workbook's sheet gets a file of its own
    (``book.Round 2.results.jsonl``), so scoring another sheet never replaces, nor --resume
    reuses, the first one's results."""
    name = path.name
    for suffix in (".gz", *FORMATS):
        name = name.removesuffix(suffix) if name.lower().endswith(suffix) else name
    if sheet is not None:
        name += "." + (re.sub(r"[\\/:*?\"<>|\x00-\x1f]", "_", sheet).strip(". ") or "_")
    return Path("summscore-out") / f"{name}.results.jsonl"


def _sheet(args: argparse.Namespace) -> str | None:
    """The sheet --sheet names, as the workbook spells it (None without --sheet or a workbook)."""
    path = Path(args.input)
    if args.sheet is None or FORMATS.get(path.suffix.lower()) != "xlsx":
        return None
    from ..files.xlsx import sheet_title

    try:
        return sheet_title(path, args.sheet)
    except (OSError, ValueError, MissingExtraError) as exc:
        raise UsageError(str(exc)) from None


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def _check_out(args: argparse.Namespace, path: Path, out: Path | None) -> None:
    """Nothing the user has is overwritten: not the input, not a file summscore did not write."""
    if out is None:
        if args.resume:
            raise UsageError("--resume needs a results file, not --out -")
        _check_report(args, path, None)
        return
    if _same_file(out, path):
        raise UsageError(f"--out {out} is the input file; name another results file")
    if out.is_dir():
        raise UsageError(f"--out {out} is a directory; name a file, e.g. {out / 'results.jsonl'}")
    if args.resume and out.exists() and not is_results_file(out):
        raise UsageError(f"--resume: {out} is not a summscore results file")
    if out.exists() and not args.force and not is_results_file(out):
        raise UsageError(
            f"--out {out} exists and is not a summscore results file; "
            "pass --force to replace it, or name another file"
        )
    _check_report(args, path, out)


def _check_report(args: argparse.Namespace, path: Path, out: Path | None) -> None:
    if args.report:
        report = Path(args.report)
        if _same_file(report, path) or (out is not None and _same_file(report, out)):
            raise UsageError(f"--report {report} is the input or the results file")
        if report.exists() and not args.force and not _is_report(report):
            raise UsageError(
                f"--report {report} exists and is not a summscore report; "
                "pass --force to replace it"
            )


def _check_report_suffix(args: argparse.Namespace) -> None:
    if args.report and Path(args.report).suffix.lower() not in (".html", ".htm"):
        raise UsageError(f"--report {args.report}: the report is an .html file")


def _is_report(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return not head.strip() or b"summscore" in head


def run_score(args: argparse.Namespace) -> int:
    path = Path(args.input)
    if args.limit is not None and args.limit < 0:
        raise UsageError("--limit must be 0 or more")
    check_gate_values(args)
    summaries = summary_columns(args)  # two or more: an A/B run
    columns = Columns(
        source=args.source_column,
        summary=args.summary_column,
        id=args.id_column,
        questions=args.questions_column,
    )
    to_stdout = args.out == "-"
    _check_report_suffix(args)
    try:
        delimiter = parse_delimiter(args.delimiter) if args.delimiter is not None else None
        reader = open_input(
            path, columns, summaries, encoding=args.encoding, sheet=args.sheet, delimiter=delimiter
        )
    except (OSError, ValueError, MissingExtraError) as exc:
        raise UsageError(str(exc)) from None
    # A sheet's default results file takes the sheet's own spelling (--sheet ignores case).
    out = None if to_stdout else Path(args.out) if args.out else _default_out(path, reader.sheet)
    _check_out(args, path, out)
    if summaries:
        summaries = reader.summaries  # as the file spells them (names match in any case)
        check_ab_outputs(args, out, summaries)
    rows = iter(reader)
    first = next(rows, None)
    if first is None:
        raise UsageError(f"{path}: the file has no rows")
    used = reader.columns
    dialect = f"{reader.dialect}, " if reader.dialect else ""
    read = ", ".join(map(repr, reader.summaries)) if summaries else repr(used.summary)
    print(
        f"summscore: {path.name}: {dialect}source column {used.source!r}, summary "
        f"column{'s' if summaries else ''} {read}, id {repr(used.id) if used.id else 'the row number'}",
        file=sys.stderr,
    )
    for name in reader.repeated:
        count = reader.file_columns.count(name)
        print(
            f"summscore: {path.name}: {count} columns are named {name!r}; the first is read",
            file=sys.stderr,
        )
    scorer = make_scorer(args)
    resume = None
    if args.resume and out is not None and out.exists() and out.stat().st_size:
        try:
            resume = ResumeState.load(out, by_column=bool(summaries))
        except (OSError, ValueError, MissingExtraError) as exc:
            raise UsageError(f"--resume: cannot read {out} ({exc})") from None
    target = partial_path(out) if resume is not None and out is not None else out
    try:
        writer = ResultWriter("-" if target is None else target)
    except (OSError, ValueError, MissingExtraError) as exc:
        raise UsageError(f"--out: {exc}") from None
    top = float(args.scale) if args.preset == "mastra" and args.scale else 1.0
    spool = ReportSpool(_report_dir(args.report)) if args.report else None
    sink = _ReportingSink(
        writer,
        model=args.model,
        top=top,
        resume=resume,
        spool=spool,
        settings=run_settings(scorer),
        positional_ids=used.id is None,
        provenance=RunProvenance(scorer.options, summary_column=used.summary, id_column=used.id),
    )
    total = None
    if not args.no_progress:
        total = count_records(path, args.encoding, sheet=args.sheet, delimiter=delimiter)
        total = min(total, args.limit) if total is not None and args.limit is not None else total
        total = total * len(summaries) if total is not None and summaries else total
    shards = make_shards(args, scorer)  # --workers N: whole rows in N processes
    rows_left = _limited(_chain(first, rows), args.limit, sink, max(1, len(summaries)))
    interrupted = _run(args, scorer, rows_left, sink, total, shards)
    if target != out and target is not None and out is not None:
        os.replace(target, out)
    where = "stdout" if out is None else str(out)
    if interrupted:
        print(f"summscore: interrupted; the rows finished so far are in {where}", file=sys.stderr)
        print(_resume_hint(args, out), file=sys.stderr)
    else:
        print_summary(sink, scorer, sys.stderr, shards.usage if shards else None)
        if reader.dialect:
            print(f"input:   {reader.dialect}", file=sys.stderr)
        print(f"results: {where}", file=sys.stderr)
    if spool is not None:
        meta = {"input": str(path), "rows": sink.written}
        if interrupted:
            meta["interrupted"] = "yes: the rows finished so far"
        try:
            report = write_streamed_report(
                args.report,
                spool.cases,
                title=f"summscore report: {path.name}",
                meta=meta,
                top=top,
            )
        finally:
            spool.close()
        print(f"report:  {report}", file=sys.stderr)
    if interrupted:
        return EXIT_INTERRUPTED
    stats = sink.stats
    gates = finish_run(args, out, summaries, (stats.summary().mean, stats.pass_rate))
    return EXIT_FAILED_ROWS if stats.failed else gates


class _ReportingSink(RunSink):
    """The run's sink, which also spools each finished row for ``--report`` (to disk, so memory
    stays flat however many rows the report shows)."""

    def __init__(
        self,
        writer: ResultWriter,
        *,
        model: str | None,
        top: float,
        resume: ResumeState | None,
        spool: ReportSpool | None,
        settings: bytes | None = None,
        positional_ids: bool = False,
        provenance: RunProvenance | None = None,
    ) -> None:
        super().__init__(
            writer,
            model=model,
            top=top,
            keep_for_report=False,
            resume=resume,
            settings=settings,
            positional_ids=positional_ids,
            provenance=provenance,
        )
        self.spool = spool

    def emit(self, row: Row, outcome: SummaryResult | dict[str, Any]) -> None:
        super().emit(row, outcome)
        if self.spool is not None:
            result = outcome if isinstance(outcome, SummaryResult) else _kept(outcome)
            variant = getattr(row, "variant", None)  # an A/B run's: its summary column named
            shown = row.id if variant is None else f"{row.id} [{variant}]"
            self.spool.add(ReportCase(shown, source_text(row.source), row.summary, result))


def _kept(record: dict[str, Any]) -> SummaryResult:
    """A row --resume kept, as the report shows it: with the claims, their support and the
    missed questions its record lists."""
    result = result_from_record(record)
    result.warnings.append("scored by an earlier run")
    return result


def _report_dir(report: str) -> Path:
    """Where the report's spool lives while the run goes: beside the report (not /tmp, which may
    be a small RAM disk)."""
    folder = Path(report).parent
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _run(
    args: argparse.Namespace,
    scorer: SummarizationScorer,
    rows: Iterator[Row],
    sink: RunSink,
    total: int | None,
    shards: Any = None,
) -> bool:
    """Score every row into ``sink``; True when the user interrupted the run (Ctrl-C)."""
    from tqdm.auto import tqdm

    bar = tqdm(
        total=total,
        desc="scoring",
        unit="row",
        file=sys.stderr,
        disable=args.no_progress,
        dynamic_ncols=True,
    )
    interrupted = False
    try:
        stream = shards.ascore_stream if shards is not None else None
        asyncio.run(score_rows(scorer, rows, sink, bar, stream=stream))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        release_judge(scorer, interrupted)  # the offline judge's worker processes, if any
        if shards is not None:
            shards.close(interrupted)
        bar.close()
        sink.finish(interrupted)
        sink.writer.close()
    return interrupted


def _resume_hint(args: argparse.Namespace, out: Path | None) -> str:
    """The command that continues an interrupted run: the same one, with --resume (and --out
    naming the results file, which the default would also find)."""
    if out is None:
        return (
            "summscore: the results went to stdout, which --resume cannot read: name a results "
            "file with --out to be able to continue a run"
        )
    argv = list(getattr(args, "argv", None) or ["score", args.input])
    if not args.out:
        argv += ["--out", str(out)]
    if not args.resume:
        argv.append("--resume")
    return "summscore: to score the rest: " + shlex.join(["summscore", *argv])


def _chain(first: Row, rest: Iterator[Row]) -> Iterator[Row]:
    yield first
    yield from rest


def _limited(rows: Iterator[Row], limit: int | None, sink: RunSink, per: int = 1) -> Iterator[Row]:
    if limit is None:
        yield from rows
        return
    for count, row in enumerate(rows):
        if count >= limit * per:  # (per: an A/B run's rows per input row)
            sink.cut_short = True  # a row is left: --resume keeps what it may still need
            return
        yield row


def run_score_on_ray(args: argparse.Namespace) -> int:
    """``score --engine ray``: the rows are scored by actors (see summscore.ray), ``--resume``
    as on the local engine; ``--report`` reads the results file back after the run."""
    check_gate_values(args)
    if summary_columns(args):
        raise UsageError("several --summary-column values (an A/B run) need --engine local")
    from ..ray import run_score_file

    path = Path(args.input)
    to_stdout = args.out == "-"
    if to_stdout and args.report:
        raise UsageError("--report with --engine ray reads the results back: name an --out file")
    if to_stdout and (args.fail_under is not None or args.min_pass_rate is not None):
        raise UsageError("the gates with --engine ray read the results back: name an --out file")
    _check_report_suffix(args)
    out = None if to_stdout else Path(args.out) if args.out else _default_out(path, _sheet(args))
    _check_out(args, path, out)  # the local engine's checks: nothing of the user's replaced
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
        report = write_streamed_report(
            args.report,
            cases_from_results(path, columns, args.encoding, out, sheet=args.sheet),
            title=f"summscore report: {path.name}",
            meta={"input": str(path), "engine": "ray"},
            top=top,
        )
        print(f"report:  {report}", file=sys.stderr)
    if code == EXIT_INTERRUPTED:
        return code
    gates = finish_run(args, out, [])
    return code if code == EXIT_FAILED_ROWS else gates
