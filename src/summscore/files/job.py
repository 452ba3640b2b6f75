"""The CLI's job: score the rows of a file, write each result in input order, summarise the run.

Memory stays flat as the file grows: rows are read in chunks, results are written as they finish
(in input order within a bounded window), and the summary is kept as running statistics. Only
``--report`` keeps one small record per row (the report needs them), and only ``--resume`` holds
the earlier results file's records until they are written again.
"""

from __future__ import annotations

import math
import sys
from array import array
from typing import Any, TextIO

from ..report.page import ReportCase
from ..results import SummaryResult, Usage
from ..scorer import SummarizationScorer
from .datasets import ResultWriter, Row, output_row
from .fingerprint import fingerprint
from .provenance import RunProvenance
from .resume import ResumeState, key_of, usable
from .run_stats import RunningSummary
from .writer import finite

__all__ = ["RunSink", "flush_ready", "print_summary", "settled"]

_MAX_DUPLICATES_LISTED = 5


class _HashSet:
    """The ids seen so far, as 64-bit hashes in one flat array (open addressing, linear probing):
    8 to 16 bytes per row instead of a Python set's ~60. Two different ids share a hash once in
    billions of rows; the cost then is one wrong duplicate warning."""

    def __init__(self) -> None:
        self._slots = array("Q", bytes(8 * 1024))
        self._count = 0

    def add(self, key: str) -> bool:
        """Add ``key``; False when it was there already."""
        value = (hash(key) & 0xFFFFFFFFFFFFFFFF) or 1  # 0 marks an empty slot
        if self._insert(self._slots, value):
            self._count += 1
            if self._count * 2 > len(self._slots):
                self._grow()
            return True
        return False

    @staticmethod
    def _insert(slots: array[int], value: int) -> bool:
        mask = len(slots) - 1
        index = value & mask
        while True:
            current = slots[index]
            if current == 0:
                slots[index] = value
                return True
            if current == value:
                return False
            index = (index + 1) & mask

    def _grow(self) -> None:
        old, self._slots = self._slots, array("Q", bytes(16 * len(self._slots)))
        for value in old:
            if value:
                self._insert(self._slots, value)


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


class RunSink:
    """Where finished rows go: the results file, the running summary, the report's cases."""

    def __init__(
        self,
        writer: ResultWriter,
        *,
        model: str | None,
        top: float,
        keep_for_report: bool,
        resume: ResumeState | None = None,
        settings: bytes | None = None,
        positional_ids: bool = False,
        provenance: RunProvenance | None = None,
    ) -> None:
        self.writer, self.provenance = writer, provenance  # (provenance: see .provenance)
        self.settings = settings  # the run's settings digest: each row's fingerprint is keyed by it
        self.model = model
        self.stats = RunningSummary(top)
        self.by_column: dict[str, RunningSummary] = {}  # an A/B run's: per summary column
        self.report_cases: list[ReportCase] | None = [] if keep_for_report else None
        self.resume = resume
        self.written = 0
        self.duplicates = 0
        self.duplicate_ids: list[Any] = []
        self._seen = _HashSet()
        self._occurrences: dict[str, int] = {}
        self.cut_short = False  # --limit left rows of the input unread
        self.positional_ids = positional_ids  # ids are row numbers: they name places, not rows
        self._claims: dict[int, tuple[str, int]] = {}  # id(row) -> the earlier record it reuses
        self._places: dict[int, tuple[str, int]] = {}  # id(row) -> its (id, occurrence)
        self._written: set[tuple[str, int]] = set()  # the (id, occurrence) this run wrote
        self._marks: dict[int, str | None] = {}

    def previous(self, row: Row) -> dict[str, Any] | None:
        """The earlier run's record for ``row`` if it was scored there from the same text with
        the same settings (``--resume``)."""
        if self.resume is None:
            return None
        key = key_of(row.id, getattr(row, "variant", None))
        occurrence = self._occurrences.get(key, 0)
        self._occurrences[key] = occurrence + 1
        own = (key, occurrence)
        self._places[id(row)] = own
        claimed = self.resume.claim(own, self._mark(row))
        if claimed is None:
            return None
        # The earlier record leaves ``old`` only when this row is written: if the run is
        # stopped before, finish() keeps it.
        self._claims[id(row)] = claimed
        self.resume.reused += 1
        # The row's own id, as the input types it (a CSV results file gives every id as text).
        return {**self.resume.old[claimed], "id": finite(row.id)}

    def _mark(self, row: Row) -> str | None:
        """The row's fingerprint (computed once: previous() and emit() both need it)."""
        if self.settings is None:
            return None
        if id(row) not in self._marks:
            self._marks[id(row)] = fingerprint(
                self.settings, row.source, row.summary, row.assessment_questions
            )
        return self._marks[id(row)]

    def _duplicate_warning(self, row: Row) -> list[str]:
        if self._seen.add(key_of(row.id, getattr(row, "variant", None))):
            return []
        self.duplicates += 1
        if len(self.duplicate_ids) < _MAX_DUPLICATES_LISTED:
            self.duplicate_ids.append(row.id)
        return [f"duplicate id {row.id!r} ({row.where}): an earlier row has the same id"]

    def emit(self, row: Row, outcome: SummaryResult | dict[str, Any]) -> None:
        mark = self._mark(row) if row.error is None else None
        self._marks.pop(id(row), None)
        if self.resume is not None and (claimed := self._claims.pop(id(row), None)) is not None:
            self.resume.release(claimed)
        if (place := self._places.pop(id(row), None)) is not None:
            self._written.add(place)
        warnings = self._duplicate_warning(row)
        run = None if self.provenance is None else self.provenance.fields(row)
        if isinstance(outcome, dict):
            # A reused record: the duplicate-id warnings are this run's, not the earlier one's.
            earlier = [w for w in outcome.get("warnings") or [] if not _is_duplicate_note(w)]
            outcome = {**outcome, **(run or {}), "warnings": [*earlier, *warnings]}
            self.writer.write(outcome)
            result = _from_record(outcome)
            success = outcome.get("success")
            for stats in self._stats(row):
                stats.add_values(
                    _number(outcome.get("score")),
                    None,
                    result.components(),
                    success=success if isinstance(success, bool) else None,
                )
        else:
            result = outcome
            out = output_row(row.id, result, model=self.model, warnings=warnings, fingerprint=mark)
            self.writer.write({**out, **(run or {})})
            for stats in self._stats(row):
                stats.add(result)
        self.written += 1
        if self.report_cases is not None:
            self.report_cases.append(
                ReportCase(row.id, _source_text(row.source), row.summary, result)
            )

    def _stats(self, row: Row) -> list[RunningSummary]:
        """The summaries a row counts in: the run's, and its summary column's in an A/B run."""
        variant = getattr(row, "variant", None)
        if variant is None:
            return [self.stats]
        column = self.by_column.setdefault(variant, RunningSummary(self.stats.top))
        return [self.stats, column]

    def finish(self, interrupted: bool) -> None:
        """``--resume``: the earlier records not reused. After a complete run, those whose id
        the input no longer has are kept, after the others, and the rest (their row changed, or
        the file's ids are row numbers and the row is gone) are dropped. After a run stopped
        early (Ctrl-C, ``--limit``) the rest are kept too, as a row not reached may still claim
        one, except, in a file with an id column, the records of rows this run wrote again: a
        row's new result replaces its earlier one (the file never holds both)."""
        resume = self.resume
        if resume is None:
            return
        stopped = interrupted or self.cut_short
        for key, record in resume.old.items():
            if stopped:
                keep = self.positional_ids or key not in self._written or key in resume.taken
            else:
                keep = not self.positional_ids and key[0] not in self._occurrences
            if keep:
                self.writer.write(record)
                resume.kept_apart += not interrupted
            elif usable(record):
                resume.replaced += 1
                resume.unmarked += record.get("fingerprint") in (None, "")
        resume.old.clear()


def _table(summaries: list[RunningSummary], columns: list[str]) -> list[str]:
    """The closing table's lines: one column of figures per summary (an A/B run's are headed by
    their summary column; never pooled, which would average the runs being compared)."""
    tables: list[dict[str, str]] = []
    for stats in summaries:
        table = dict(stats.summary().rows())
        if stats.pass_rate is not None:
            table[f"pass rate (≥ {stats.pass_mark:g})"] = f"{stats.pass_rate:.1%}"
        for name, value in stats.component_means().items():
            table[f"mean {name.removesuffix('_score')}"] = f"{value:.3f}"
        tables.append(table)
    labels = list({label: None for table in tables for label in table})
    rows = [("", *columns)] if columns else []
    rows += [(label, *(table.get(label, "-") for table in tables)) for label in labels]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  " + "  ".join(cell.ljust(w) if i == 0 or not columns else cell.rjust(w)
                         for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
        for row in rows
    ]  # fmt: skip


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def _is_duplicate_note(warning: Any) -> bool:
    return isinstance(warning, str) and warning.startswith("duplicate id ")


def _from_record(record: dict[str, Any]) -> SummaryResult:
    """A result rebuilt from a results-file record (scores, reason, provenance; no evidence)."""
    values = {
        name: _number(record.get(name))
        for name in ("qa_score", "conciseness_score", "alignment_score", "coverage_score")
    }
    warnings = record.get("warnings")
    reason = record.get("reason")
    return SummaryResult.model_validate(
        {
            "score": _number(record.get("score")) or 0.0,
            "preset": str(record.get("preset") or "?"),
            "prompt_set": str(record.get("prompt_set") or "?"),
            "judge": str(record.get("judge") or "?"),
            "threshold": _number(record.get("threshold")),
            "reason": reason if isinstance(reason, str) and reason else None,
            "warnings": [
                *(w for w in warnings or [] if isinstance(w, str)),
                "scored by an earlier run",
            ],
            "usage": Usage(judge_calls=int(_number(record.get("judge_calls")) or 0)),
            **values,
        }
    )


def _source_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    return None


def settled(
    sink: RunSink, scorer: SummarizationScorer, row: Row
) -> SummaryResult | dict[str, Any] | None:
    """A row's outcome when no judge is needed: its earlier record (``--resume``) or its failed
    result (the row cannot be read); None when the row is to be scored. Call it once per row, in
    input order (it claims the earlier record)."""
    previous = sink.previous(row)
    if previous is not None:
        return previous
    if row.error is not None:
        return scorer.failed_result(ValueError(row.error))
    return None


def flush_ready(
    chunk: list[Row],
    ready: dict[int, SummaryResult | dict[str, Any]],
    position: int,
    sink: RunSink,
    progress: Any,
) -> int:
    """Emit the finished rows from ``position`` on, in order; returns the next unfinished one."""
    while position in ready:
        sink.emit(chunk[position], ready.pop(position))
        progress.update(1)
        position += 1
    return position


def print_summary(
    sink: RunSink,
    scorer: SummarizationScorer,
    stream: TextIO = sys.stderr,
    usage: Usage | None = None,
) -> None:
    """The closing table: counts, quantiles, mean components, spend, failures by cause.
    ``usage``: the run's spend when the scorer did not judge itself (Ray's actors did); default
    the scorer's."""
    stats = sink.stats
    lines = _table(list(sink.by_column.values()) or [stats], list(sink.by_column))
    usage = scorer.usage if usage is None else usage
    spend = f"{usage.judge_calls} judge calls"
    if usage.reused_calls:
        spend += f" ({usage.reused_calls} saved by the source cache)"
    if usage.cached_calls:
        spend += f", {usage.cached_calls} replies from the reply cache"
    if usage.input_tokens is not None:
        spend += f", {usage.input_tokens} input / {usage.output_tokens} output tokens"
    if not scorer.judge.reads_prompts and usage.cost is None:
        spend += ", no cost (offline judge)"
    else:
        from ..results.usage import format_cost

        spend += ", cost unknown" if usage.cost is None else f", cost {format_cost(usage.cost)}"
    print(f"summscore: {scorer.preset} preset, judge {scorer.judge.name}", file=stream)
    print("\n".join(lines), file=stream)
    print(f"  {spend}", file=stream)
    if sink.resume is not None:
        print(f"  {sink.resume.reused} rows kept from the earlier run (--resume)", file=stream)
        if sink.resume.replaced:
            print(
                f"  {_count(sink.resume.replaced, 'earlier result')} replaced: their row's text "
                "or the scoring settings (judge, preset, options, version) changed, or the row "
                "is gone",
                file=stream,
            )
        if sink.resume.unmarked:
            print(
                f"  ({sink.resume.unmarked} of them carry no fingerprint: written by an older "
                "summscore, they could not be checked)",
                file=stream,
            )
        if sink.resume.kept_apart and sink.cut_short:
            print(
                f"  {sink.resume.kept_apart} earlier results not used by this run (--limit) are "
                "kept at the end of the file, for the next --resume",
                file=stream,
            )
        elif sink.resume.kept_apart:
            print(
                f"  {sink.resume.kept_apart} rows of the earlier results have ids the input no "
                "longer has: kept at the end of the file",
                file=stream,
            )
    if sink.duplicates:
        listed = ", ".join(repr(i) for i in sink.duplicate_ids)
        more = ", ..." if sink.duplicates > len(sink.duplicate_ids) else ""
        print(
            f"  {sink.duplicates} rows repeat an earlier row's id ({listed}{more}); "
            "see their 'warnings'",
            file=stream,
        )
    if stats.failed:
        for cause, n in stats.causes.most_common(5):
            print(f"  failed ({n}x): {cause}", file=stream)
        for message in stats.first_failures:
            print(f"  failed: {message}", file=stream)
        if stats.failed > len(stats.first_failures):
            rest = stats.failed - len(stats.first_failures)
            print(f"  ... and {rest} more failures (see the 'error' column)", file=stream)
