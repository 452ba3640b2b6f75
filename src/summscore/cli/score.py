"""``summscore score``: read the rows of a file, score them, write the results (and a report).

Rows are read lazily and written in input order as soon as they are scored, so an interrupted
run keeps what it finished (see ``summscore.files.writer``). A row that fails (unreadable, bad
input, judge error) is written with its error and the exit code is 3; no row is dropped. Every
place the run writes is checked before anything is opened (exit 2); results that cannot be
written (a full disk, the file-size limit) end the run with one line and exit 4, the rows
finished so far kept for ``--resume``. Several summary columns make an A/B run, and the gates
(``--fail-under``, ``--min-pass-rate``, ``--fail-if-worse``) exit 1: see ``ab``.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import shlex
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

from ..errors import MissingExtraError
from ..files.datasets import Columns, ResultWriter, Row
from ..files.fingerprint import run_settings
from ..files.job import RunSink, print_summary
from ..files.places import ForeignFileError
from ..files.provenance import RunProvenance
from ..files.records import count_records, parse_delimiter
from ..files.resume import ResumeState, open_resume
from ..files.window import score_windows
from ..files.writer import OutputError
from ..report.page import ReportCase
from ..results import SummaryResult
from ..scorer import SummarizationScorer
from .ab import check_ab_outputs, check_worse_gate, finish_run, open_input, summary_columns
from .gates import check_gate_values
from .outputs import (
    check_out,
    check_report_suffix,
    default_out,
    stopped_run_note,
    through_links,
)
from .report import (
    ReportSpool,
    result_from_record,
    source_text,
    write_streamed_report,
)
from .scorer_options import make_scorer, make_shards, release_judge
from .signals import keep_going_past_the_size_limit, terminate_as_interrupt
from .usage import EXIT_FAILED_ROWS, EXIT_INTERRUPTED, EXIT_OUTPUT_ERROR, UsageError

__all__ = ["run_score"]


def run_score(args: argparse.Namespace) -> int:
    keep_going_past_the_size_limit()
    try:
        with terminate_as_interrupt():  # (SIGTERM: the rows so far are written, as for Ctrl-C)
            return _score_file(args)
    except _Unwritten as exc:
        print(f"summscore: error: {exc}", file=sys.stderr)
        return EXIT_OUTPUT_ERROR
    except ForeignFileError as exc:  # (a link made while the run went: checked before it)
        raise UsageError(str(exc)) from None


class _Unwritten(Exception):
    """The results or the report could not be written: the whole message, one line."""


def _unwritten(args: argparse.Namespace, exc: OutputError, out: Path | None, kept: str) -> NoReturn:
    """Raise the one line that says what could not be written, what is kept, and how to go on."""
    if out is None:
        raise _Unwritten(f"{exc}; the results went to stdout") from None
    resume = _resume_hint(args, out).removeprefix("summscore: to score the rest: ")
    raise _Unwritten(f"{exc}; {kept}; make room, then: {resume}") from None


def _score_file(args: argparse.Namespace) -> int:
    path = Path(args.input)
    if args.limit is not None and args.limit < 0:
        raise UsageError("--limit must be 0 or more")
    check_gate_values(args)
    summaries = summary_columns(args)  # two or more: an A/B run
    check_worse_gate(args, summaries)
    columns = Columns(
        source=args.source_column,
        summary=args.summary_column,
        id=args.id_column,
        questions=args.questions_column,
    )
    to_stdout = args.out == "-"
    check_report_suffix(args)
    try:
        delimiter = parse_delimiter(args.delimiter) if args.delimiter is not None else None
        reader = open_input(
            path, columns, summaries, encoding=args.encoding, sheet=args.sheet, delimiter=delimiter
        )
    except (OSError, ValueError, MissingExtraError) as exc:
        raise UsageError(str(exc)) from None
    # A sheet's default results file takes the sheet's own spelling (--sheet ignores case).
    named = None if to_stdout else Path(args.out) if args.out else default_out(path, reader.sheet)
    out = None if named is None else through_links(named)
    check_out(args, path, out)
    if summaries:
        summaries = reader.summaries  # as the file spells them (names match in any case)
        check_ab_outputs(args, named, summaries)  # (beside the results the user named)
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
    raw_csv = bool(getattr(args, "raw_csv", False))
    resume: ResumeState | None = None
    if not args.resume and (note := stopped_run_note(out)):
        print(note, file=sys.stderr)
    try:
        if args.resume and out is not None:
            resume = open_resume(out, raw_csv=raw_csv, by_column=bool(summaries))
        writer = ResultWriter("-" if out is None else out, raw_csv=raw_csv)
    except OutputError as exc:
        _unwritten(args, exc, out, f"{out} is as it was")
    except OSError as exc:
        if out is not None and exc.errno in _FULL:
            _unwritten(args, OutputError(out, exc), out, f"{out} is as it was")
        raise UsageError(f"--out {out}: {exc}") from None
    except (ValueError, MissingExtraError) as exc:
        what = f"--resume: cannot read {out}" if args.resume else "--out"
        raise UsageError(f"{what} ({exc})") from None
    top = float(args.scale) if args.preset == "mastra" and args.scale else 1.0
    spool, unreported = None, None  # (the report's failure: the results still complete)
    try:
        spool = ReportSpool(_report_dir(args.report), report=args.report) if args.report else None
    except OutputError as exc:  # (no room for the report's working file)
        unreported = _report_failed(exc)
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
    try:
        interrupted = _run(args, scorer, rows_left, sink, total, shards)
    except OutputError as exc:
        if sink.spool is not None:
            sink.spool.close()
        kept = f"the {sink.writer.rows:,} rows finished so far are kept in {sink.writer.where}"
        _unwritten(args, exc, out, kept)
    where = "stdout" if out is None else str(out)
    if interrupted:
        print(f"summscore: interrupted; the rows finished so far are in {where}", file=sys.stderr)
        print(_resume_hint(args, out), file=sys.stderr)
    else:
        print_summary(sink, scorer, sys.stderr, shards.usage if shards else None)
        if reader.dialect:
            print(f"input:   {reader.dialect}", file=sys.stderr)
        print(f"results: {where}", file=sys.stderr)
    unreported = unreported or sink.unreported
    if sink.spool is not None:
        spool = sink.spool
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
            print(f"report:  {report}", file=sys.stderr)
        except OutputError as exc:
            unreported = exc
            if interrupted:  # (130 says the rest: the report's line only)
                print(f"summscore: error: {exc}", file=sys.stderr)
        finally:
            spool.close()
    if interrupted:
        return EXIT_INTERRUPTED
    stats = sink.stats
    try:  # (an A/B run's comparisons are written beside the results the user named)
        gates = finish_run(args, named, summaries, (stats.summary().mean, stats.pass_rate))
    except OutputError as exc:
        _unwritten(args, exc, out, f"the results are complete in {where}")
    if unreported is not None:  # (after the comparisons and gates: all else is done)
        _unwritten(args, unreported, out, f"the results are complete in {where}")
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
        self.unreported: OutputError | None = None  # the report could not be kept

    def emit(self, row: Row, outcome: SummaryResult | dict[str, Any]) -> None:
        super().emit(row, outcome)
        if self.spool is not None:
            result = outcome if isinstance(outcome, SummaryResult) else _kept(outcome)
            variant = getattr(row, "variant", None)  # an A/B run's: its summary column named
            shown = row.id if variant is None else f"{row.id} [{variant}]"
            try:
                self.spool.add(ReportCase(shown, source_text(row.source), row.summary, result))
            except OutputError as exc:  # (a full disk: the results go on, the report is off)
                self.spool.close()
                self.spool, self.unreported = None, _report_failed(exc)


def _report_failed(exc: OutputError) -> OutputError:
    """The report cannot be written: said at once, and the run goes on (its results complete)."""
    print(
        f"summscore: {exc}; the report is left out, the scoring goes on (exit status 4 at the end)",
        file=sys.stderr,
    )
    return exc


def _kept(record: dict[str, Any]) -> SummaryResult:
    """A row --resume kept, as the report shows it: with the claims, their support and the
    missed questions its record lists."""
    result = result_from_record(record)
    result.warnings.append("scored by an earlier run")
    return result


def _report_dir(report: str) -> Path:
    """Where the report's spool lives while the run goes: beside the report (not /tmp, which may
    be a small RAM disk). Checked usable before the run (``_check_others``)."""
    folder = Path(report).parent
    folder.mkdir(parents=True, exist_ok=True)
    return folder


_FULL = frozenset((errno.ENOSPC, errno.EFBIG, errno.EDQUOT))


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
    failed = True  # until the rows are all written: a failed write leaves the partial file
    unwritten: OutputError | None = None
    # Judge work a stopped run abandons is dropped unawaited: not the user's to hear about.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "coroutine .* was never awaited", RuntimeWarning)
        try:
            stream = shards.ascore_stream if shards is not None else None
            asyncio.run(score_windows(scorer, rows, sink, bar, stream=stream))
            failed = False
        except KeyboardInterrupt:
            interrupted, failed = True, False
        except OutputError as exc:  # raised again below, without the abandoned work's frames
            unwritten = exc.with_traceback(None)
        finally:
            release_judge(scorer, interrupted or failed)  # the offline judge's workers, if any
            if shards is not None:
                shards.close(interrupted or failed)
            bar.close()
            if failed:
                sink.writer.abandon()
    if unwritten is not None:
        raise unwritten
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
