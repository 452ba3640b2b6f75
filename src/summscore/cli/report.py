"""``--report`` in constant memory: the cases go to disk as they finish, the HTML is written in
passes over them.

The page is the one ``summscore.report.render_report`` makes for the same cases (both write
it with ``summscore.report.ReportWriter``; a test holds them equal), but no pass keeps more
than the worst page of cases: the figures come from one pass (the scores in a flat array of
floats, 8 bytes a row), the worst cases' cards from a second, and the cards of every case, streamed into the page's JSON block, from a third.

Where the cases come from: the local engine spools each finished row (its full result, with the
evidence) to an unnamed temporary file (``ReportSpool``); the Ray engine reads its results
file back beside the input rows (``cases_from_results``).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from ..files.datasets import Columns, read_results, read_rows
from ..files.places import ForeignFileError, create_new
from ..files.writer import OutputError
from ..report.page import ReportCase, ReportWriter
from ..results import AssessmentAnswer, ClaimVerdict, SummaryResult, Usage
from ..results.stats import BatchSummary, describe, failure_cause

__all__ = ["ReportSpool", "cases_from_results", "source_text", "write_streamed_report"]

Cases = Callable[[], Iterable[ReportCase]]
"""Each call gives the cases again, from the start, in input order."""


def source_text(value: Any) -> str | None:
    """The source as the report shows it: a text, or a list of contexts one per line."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    return None


class ReportSpool:
    """The cases of a run on disk, one JSON line each, in an unnamed temporary file (gone when
    closed, or when the process ends however it ends). ``report``: the page they are for, which
    an OutputError names (the file itself has no name to give)."""

    def __init__(
        self, directory: str | Path | None = None, *, report: str | Path | None = None
    ) -> None:
        self._where = Path(report or directory or tempfile.gettempdir())
        try:
            self._file: IO[str] = tempfile.TemporaryFile(  # noqa: SIM115 - closed by close()
                "w+", encoding="utf-8", dir=directory, prefix=".summscore-report-"
            )
        except OSError as exc:
            raise OutputError(self._where, exc) from None
        self.count = 0

    def add(self, case: ReportCase) -> None:
        record = {
            "id": case.id,
            "source": case.source,
            "summary": case.summary,
            "result": case.result.model_dump(),
        }
        try:
            self._file.write(json.dumps(record, default=str) + "\n")  # \\u-escaped: any text
        except OSError as exc:  # a full disk: the report's cases cannot be kept
            raise OutputError(self._where, exc) from None
        self.count += 1

    def cases(self) -> Iterator[ReportCase]:
        self._file.flush()
        self._file.seek(0)
        for line in self._file:
            record = json.loads(line)
            result = SummaryResult.model_validate(record["result"])
            yield ReportCase(record["id"], record["source"], record["summary"], result)
        self._file.seek(0, 2)  # later cases are appended

    def close(self) -> None:
        with contextlib.suppress(OSError):  # a buffer a full disk refused: gone either way
            self._file.close()


def cases_from_results(
    input_path: Path,
    columns: Columns,
    encoding: str,
    results: Path,
    *,
    sheet: str | None = None,
) -> Cases:
    """The cases of a run from its input file and its results file, row by row (both in input
    order; the results file may stop early, after ``--limit`` rows). The results file keeps the
    unsupported claims, the offline judge's claim support and the missed questions, but not the
    judge's verdict words, its reasons per claim or per-call detail: an unsupported claim is shown
    as "unsupported", a missed question without its source answer."""

    def cases() -> Iterator[ReportCase]:
        rows = read_rows(input_path, columns, encoding=encoding, sheet=sheet)
        pairs = zip(rows, read_results(results))
        for row, record in pairs:
            yield ReportCase(
                row.id, source_text(row.source), row.summary, result_from_record(record)
            )

    return cases


def result_from_record(record: dict[str, Any]) -> SummaryResult:
    """A result rebuilt from a results-file record: scores, provenance, reason, error, the claims
    and questions it lists."""

    def number(name: str) -> float | None:
        value = record.get(name)
        try:
            return None if value is None or value == "" else float(value)
        except (TypeError, ValueError):
            return None

    def texts(name: str) -> list[str]:
        value = record.get(name)
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []

    def integer(name: str) -> int | None:
        value = number(name)
        return None if value is None or math.isnan(value) else int(value)

    score = number("score")
    reason, error = record.get("reason"), record.get("error")
    return SummaryResult(
        score=math.nan if score is None else score,
        preset=str(record.get("preset") or "?"),
        prompt_set=str(record.get("prompt_set") or "?"),
        judge=str(record.get("judge") or "?"),
        qa_score=number("qa_score"),
        conciseness_score=number("conciseness_score"),
        alignment_score=number("alignment_score"),
        coverage_score=number("coverage_score"),
        claims=_claims(texts("unsupported_claims"), record.get("claim_support")),
        assessment=[
            AssessmentAnswer(question=q, summary_answer="no", covered=False)
            for q in texts("missed_questions")
        ],
        reason=reason if isinstance(reason, str) and reason else None,
        error=error if isinstance(error, str) and error else None,
        warnings=texts("warnings"),
        threshold=number("threshold"),
        usage=Usage(
            judge_calls=integer("judge_calls") or 0,
            input_tokens=integer("input_tokens"),
            output_tokens=integer("output_tokens"),
            cost=number("cost"),
        ),
    )


def _claims(unsupported: list[str], graded: Any) -> list[ClaimVerdict]:
    """The claims a results record lists: with the offline judge, every claim with its support
    (``claim_support``, in claim order), the unsupported ones marked; otherwise the unsupported
    claims alone."""
    left = Counter(unsupported)  # unsupported claims not yet matched with a graded one
    claims: list[ClaimVerdict] = []
    for item in graded if isinstance(graded, list) else []:
        claim = item.get("claim") if isinstance(item, dict) else None
        support = item.get("support") if isinstance(item, dict) else None
        if not isinstance(claim, str) or not isinstance(support, (int, float)):
            continue
        supported = left[claim] <= 0
        left[claim] -= 0 if supported else 1
        claims.append(
            ClaimVerdict(
                claim=claim,
                verdict="supported" if supported else "unsupported",
                supported=supported,
                support=float(support),
            )
        )
    for claim in unsupported:  # those the record gives no support for (an LLM judge's)
        if left[claim] > 0:
            left[claim] -= 1
            claims.append(ClaimVerdict(claim=claim, verdict="unsupported", supported=False))
    return claims


class _Figures:
    """What the page's head needs, gathered in one pass: ``summarize()`` in constant memory
    (but for the scores, 8 bytes a row, for the exact quantiles)."""

    def __init__(self, threshold: float | None) -> None:
        self.scores = array("d")  # every score, NaN where none
        self.scored = array("d")  # the scores of rows without error (NaN otherwise)
        self.threshold = threshold
        self.usage = Usage()
        self.components: dict[str, list[float]] = {}  # name -> [sum, count]
        self.causes: Counter[str] = Counter()
        self.offline = True
        self.first: SummaryResult | None = None

    def add(self, result: SummaryResult) -> None:
        if self.first is None:
            self.first = result
        if self.threshold is None and result.threshold is not None:
            self.threshold = result.threshold
        self.scores.append(result.score)
        self.scored.append(result.score if result.ok else math.nan)
        self.usage.add(result.usage)
        for name, value in result.components().items():
            if not math.isnan(value):
                total = self.components.setdefault(name, [0.0, 0])
                total[0] += value
                total[1] += 1
        if result.error:
            self.causes[failure_cause(result.error)] += 1
        self.offline = self.offline and result.judge == "lexical"

    def summary(self, top: float) -> BatchSummary:
        threshold = 0.5 * top if self.threshold is None else self.threshold
        return BatchSummary(
            scores=describe(self.scores),
            threshold=threshold,
            passed=sum(1 for value in self.scored if value >= threshold),
            components={name: total / count for name, (total, count) in self.components.items()},
            causes=sorted(self.causes.items(), key=lambda item: (-item[1], item[0])),
            usage=self.usage,
            offline=bool(self.scores) and self.offline,
        )


def write_streamed_report(
    path: str | Path,
    cases: Cases,
    *,
    title: str = "summscore report",
    meta: dict[str, Any] | None = None,
    top: float = 1.0,
    threshold: float | None = None,
) -> Path:
    """Write the report of ``cases`` to ``path`` (see the module's docstring); returns the path."""
    figures = _Figures(threshold)
    target = Path(path)
    staged = target.with_name(f".{target.name}.writing")  # renamed into place when complete
    try:  # (made anew: never written through a link, see places.create_new)
        for case in cases():
            figures.add(case.result)
        target.parent.mkdir(parents=True, exist_ok=True)
        _write_page(staged, cases, figures, title=title, meta=meta, top=top)
        os.replace(staged, target)
    except ForeignFileError:
        raise
    except OSError as exc:
        staged.unlink(missing_ok=True)
        raise OutputError(target, exc) from None
    return target


def _write_page(
    target: Path,
    cases: Cases,
    figures: _Figures,
    *,
    title: str,
    meta: dict[str, Any] | None,
    top: float,
) -> None:
    with create_new(target, "w", encoding="utf-8") as out:
        writer = ReportWriter(
            out,
            figures.summary(top),
            figures.scores,
            title=title,
            meta=meta,
            top=top,
            first=figures.first,
        )
        worst = writer.worst()
        wanted = set(worst)
        cards = {i: writer.card(i, case) for i, case in enumerate(cases()) if i in wanted}
        writer.head(cards[i] for i in worst)
        del cards
        for index, case in enumerate(cases()):
            writer.case(index, case)
        writer.end()
        out.flush()
        os.fsync(out.fileno())
