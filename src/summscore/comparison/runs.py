"""A run to compare: the cases of a results file (any format ``summscore score`` writes) or of
results in memory, with what decides their numbers (preset, judge, prompt set, threshold, options).

A results file of an A/B run (``--summary-column a,b``) holds several runs, one per summary
column: ``Run.column`` takes one of them out.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..files.writer import read_results
from ..results import SummaryResult

__all__ = ["COMPONENTS", "Run", "RunCase", "load_run"]

COMPONENTS = ("qa_score", "conciseness_score", "alignment_score", "coverage_score")
SETTINGS = ("preset", "judge", "model", "prompt_set", "threshold", "options")
"""What decides a number: two runs that differ in one of them are not compared by default."""


@dataclass(frozen=True)
class RunCase:
    """One case of a run, as a comparison reads it. ``score`` is NaN when the row was not scored
    (``error`` says why); ``passed`` is None then.

    Attributes:
        id: The case's id: the input's id, else its row number (0-based).
        score: Its score, 0 to 1 (0 to ``Run.top`` under Mastra's scale); NaN when not scored.
        passed: Whether it passed (its results row's ``success``, else a score at or above its
            threshold, else at or above half the top score); None when not scored.
        error: Why it was not scored; None when it was.
        components: Its components by name ("alignment_score", "qa_score", ...), the finite
            ones only.
        reason: The judge's explanation of the score; None when there is none.
        unsupported_claims: The claims of its summary the judge did not find supported.
        missed_questions: The key points (questions the source answers) its summary misses.
        source_fingerprint: The fingerprint of its source, from the results row (matches cases
            without ids); None for results in memory.
        summary_fingerprint: The fingerprint of its summary, likewise.
        summary_column: The summary column it was scored from (an A/B run); None otherwise.
        position: Its place in the run, 0-based.
    """

    id: Any
    score: float
    passed: bool | None = None
    error: str | None = None
    components: Mapping[str, float] = field(default_factory=dict)
    reason: str | None = None
    unsupported_claims: tuple[str, ...] = ()
    missed_questions: tuple[str, ...] = ()
    source_fingerprint: str | None = None
    summary_fingerprint: str | None = None
    summary_column: str | None = None
    position: int = 0

    @property
    def scored(self) -> bool:
        """True when the case has a score (no ``error``, not NaN)."""
        return self.error is None and not math.isnan(self.score)


@dataclass(frozen=True)
class Run:
    """The cases of one run, in file order, and the settings that decide their numbers.

    Attributes:
        name: The run's name: its file's path, or the ``name`` given to ``load_run``.
        cases: Its cases, in file order.
        settings: For each setting that decides a number ("preset", "judge", "model",
            "prompt_set", "threshold", "options"), the distinct values its rows carry; empty
            where no row says.
        versions: The summscore versions that wrote its rows.
        positional_ids: True when its ids are row numbers: they name places, not cases.
        top: The highest score: 1, or Mastra's ``scale``.
        notes: What to know about its rows (scores out of range, counted as not scored).
        first_row: The number its first case has where ids are places: 1 in a results file
            (row numbers), 0 in a batch of results in memory (``score_many``'s places).
    """

    name: str
    cases: list[RunCase]
    settings: Mapping[str, tuple[Any, ...]]
    versions: tuple[str, ...] = ()
    positional_ids: bool = False
    top: float = 1.0
    notes: tuple[str, ...] = ()
    first_row: int = 1

    @property
    def columns(self) -> list[str]:
        """The summary columns the run's rows were scored from, in order of first appearance."""
        found = dict.fromkeys(c.summary_column for c in self.cases if c.summary_column)
        return list(found)

    def column(self, name: str) -> Run:
        """The cases scored from summary column ``name`` (an A/B results file)."""
        if name not in self.columns:
            known = ", ".join(self.columns) or "none recorded"
            raise ValueError(f"{self.name}: no results for summary column {name!r} ({known})")
        chosen = [c for c in self.cases if c.summary_column == name]
        return replace(
            self,
            name=f"{self.name} [{name}]",
            cases=[replace(c, position=i) for i, c in enumerate(chosen)],
        )


def load_run(source: Any, *, name: str | None = None) -> Run:
    """A run from a results file, results in memory, or records.

    Args:
        source: A results file's path (any format ``summscore score`` writes, the text formats
            also gzipped: ``.jsonl.gz``, ``.csv.gz``, ``.tsv.gz``), a list of
            ``summscore.SummaryResult`` (what ``score_many`` returns), a list of results-file
            records (dicts), a pandas DataFrame of them, or a ``Run``.
        name: The run's name in the comparison (default: the file's path, or "results",
            "records", "dataframe").

    Returns:
        The run, its cases in file order.

    Raises:
        ValueError: For anything else, a file that cannot be read or is not a results file, a
            file with no results row, or rows with no ``score``.
    """
    if isinstance(source, Run):
        return source if name is None else replace(source, name=name)
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            records = list(read_results(path, whole=True))
        except (OSError, ValueError, ImportError) as exc:
            raise ValueError(f"{path}: cannot read results ({exc})") from None
        if not records:  # (summscore score never writes one: an empty or cut-off file)
            raise ValueError(f"{path}: holds no results (no row), so there is nothing to compare")
        if not {"id", "score"} <= set(records[0]):
            raise ValueError(f"{path}: not a summscore results file (no 'id' and 'score')")
        return _from_records(records, name or str(path))
    if hasattr(source, "to_dict") and hasattr(source, "columns"):  # a pandas DataFrame
        _check_scored(list(source.columns), name or "the DataFrame")
        return _from_records(source.to_dict("records"), name or "dataframe")
    if isinstance(source, Iterable) and not isinstance(source, (bytes, Mapping)):
        items = list(source)
        if all(isinstance(item, SummaryResult) for item in items):
            return _from_results(items, name or "results")
        if all(isinstance(item, Mapping) for item in items):
            if items:
                _check_scored(list(items[0]), name or "the records")
            return _from_records(items, name or "records")
    raise ValueError(
        "compare() takes a results file's path, a list of SummaryResult, a list of results "
        f"records or a pandas DataFrame, got {type(source).__name__}"
    )


def _check_scored(columns: list[Any], name: str) -> None:
    """Results in memory must carry a score: the rows of an input file (source, summary) are
    not results, and would otherwise compare as "nothing scored"."""
    if "score" not in columns:
        shown = ", ".join(repr(str(c)) for c in columns[:8]) + (", ..." if len(columns) > 8 else "")
        raise ValueError(
            f"{name}: not summscore results (no 'score' column; columns: {shown or 'none'}): "
            "score the rows first (summscore score, or score_many)"
        )


def _from_results(results: list[SummaryResult], name: str) -> Run:
    cases = []
    for position, r in enumerate(results):
        cases.append(
            RunCase(
                id=position if r.id is None else r.id,
                score=r.score if r.ok else math.nan,
                passed=None if not r.ok else _passed(r.success, r.score, r.threshold, 1.0),
                error=r.error or (None if r.ok else "no score"),
                components={k: v for k, v in r.components().items() if math.isfinite(v)},
                reason=r.reason,
                unsupported_claims=tuple(c.claim for c in r.unsupported_claims),
                missed_questions=tuple(r.missed_questions),
                position=position,
            )
        )
    settings = {
        "preset": _distinct(r.preset for r in results),
        "judge": _distinct(r.judge for r in results),
        "model": (),
        "prompt_set": _distinct(r.prompt_set for r in results),
        "threshold": _distinct(r.threshold for r in results),
        "options": (),
    }
    # A result of a case given without an id carries its place in the batch (or None, from a
    # single call): such ids name places, not cases, as a file's row numbers do.
    positional = bool(results) and all(
        r.id is None or (type(r.id) is int and r.id == position)
        for position, r in enumerate(results)
    )
    return Run(name, cases, settings, positional_ids=positional, first_row=0)


def _from_records(records: Sequence[Mapping[str, Any]], name: str) -> Run:
    options = [_options(r.get("options")) for r in records]
    scale = next((o["scale"] for o in options if o and "scale" in o), None)
    presets = _distinct(_text(r.get("preset")) for r in records)
    top = float(scale) if presets == ("mastra",) and isinstance(scale, (int, float)) else 1.0
    cases = []
    bad: list[str] = []  # rows whose score is no score (out of range, not a number)
    for position, record in enumerate(records):
        score = _number(record.get("score"))
        error = _text(record.get("error"))
        problem = None if error is not None else _bad_value(record, position, top)
        if problem is not None:
            bad.append(problem)
        scored = error is None and problem is None and score is not None
        threshold = _number(record.get("threshold"))
        success = _truth(record.get("success"))
        cases.append(
            RunCase(
                id=_plain_id(record.get("id"), position),
                score=score if scored and score is not None else math.nan,
                passed=_passed(success, score, threshold, top) if scored else None,
                error=None if scored else error or problem or "no score",
                components={
                    n: v
                    for n in COMPONENTS
                    if (v := _number(record.get(n))) is not None and math.isfinite(v)
                },
                reason=_text(record.get("reason")),
                unsupported_claims=_texts(record.get("unsupported_claims")),
                missed_questions=_texts(record.get("missed_questions")),
                source_fingerprint=_text(record.get("source_fingerprint")),
                summary_fingerprint=_text(record.get("summary_fingerprint")),
                summary_column=_text(record.get("summary_column")),
                position=position,
            )
        )
    settings = {
        "preset": presets,
        "judge": _distinct(_text(r.get("judge")) for r in records),
        "model": _distinct(_text(r.get("model")) for r in records),
        "prompt_set": _distinct(_text(r.get("prompt_set")) for r in records),
        "threshold": _distinct(_number(r.get("threshold")) for r in records),
        "options": _distinct(json.dumps(o, sort_keys=True) for o in options if o is not None),
    }
    # A file that records where its ids came from: none named, so they are row numbers.
    positional = bool(records) and all(
        "id_column" in r and _text(r.get("id_column")) is None for r in records
    )
    versions = _distinct(_text(r.get("summscore_version")) for r in records)
    notes: tuple[str, ...] = ()
    if bad:
        shown = "; ".join(bad[:5]) + ("; ..." if len(bad) > 5 else "")
        notes = (
            f"{name}: {len(bad)} {'row has' if len(bad) == 1 else 'rows have'} no valid score "
            f"({shown}): counted as not scored",
        )
    return Run(name, cases, settings, versions, positional, top, notes)


def _bad_value(record: Mapping[str, Any], position: int, top: float) -> str | None:
    """What is wrong with a row without an error whose score (or a component) is not a score on
    the run's scale, 0 to ``top`` (a hand-edited file: 1.7, -0.4, "abc"), naming the row (its
    place, 1-based, and its id) and the field; None when nothing is. A missing score is the
    plain "no score"."""
    where = f"row {position + 1} (id {_plain_id(record.get('id'), position)!r})"
    for field_name in ("score", *COMPONENTS):
        raw = record.get(field_name)
        if _missing(raw) or raw == "":
            continue
        value = _number(raw)
        if value is None or not math.isfinite(value):
            return f"{where}: {field_name} {raw!r} is not a number"
        if not 0.0 <= value <= top:
            return f"{where}: {field_name} {value:g} is outside 0 to {top:g}"
    return None


def _distinct(values: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(dict.fromkeys(v for v in values if v is not None))


def _passed(success: bool | None, score: float | None, threshold: float | None, top: float) -> bool:
    if success is not None:
        return success
    mark = threshold if threshold is not None else top / 2
    return score is not None and score >= mark


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _number(value: Any) -> float | None:
    if _missing(value) or isinstance(value, bool) or value == "":
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _text(value: Any) -> str | None:
    if _missing(value) or value == "":
        return None
    return value if isinstance(value, str) else str(value)


def _truth(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    if hasattr(value, "item") and isinstance(value.item(), bool):  # numpy.bool_
        return bool(value.item())
    return None


def _texts(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):  # a CSV cell, or a DataFrame read from one
        try:
            value = json.loads(value)
        except ValueError:
            return (value,)
    if hasattr(value, "tolist"):  # numpy arrays from Parquet list columns
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return tuple(v for v in value if isinstance(v, str))
    return ()


def _options(value: Any) -> dict[str, Any] | None:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return None
    return dict(value) if isinstance(value, Mapping) else None


def _plain_id(value: Any, position: int) -> Any:
    if _missing(value):
        return position
    if hasattr(value, "item"):  # numpy scalars from a DataFrame
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        return int(value)  # a CSV cell read as 3.0 by pandas
    return value
