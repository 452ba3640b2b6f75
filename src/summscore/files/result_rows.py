"""The records of a results file: what one holds (``WRITTEN``: the result's ``FIELDS``,
``output_row``, and the run's ``provenance.RUN_FIELDS``), how one is
recognised (``is_results_file``) and read back (``read_results``), in any of its formats.

A CSV or TSV results file is read back as it was written: numbers as numbers, ``success`` as a
truth value, the list columns as lists, and text cells without the mark that kept a spreadsheet
from evaluating them (``cells``), so ``--resume`` finds the same ids and fingerprints in a
CSV file as in JSONL. The file says whether its cells carry the mark: its header is quoted, as
its text cells are, when they do; a ``--raw-csv`` file (and one of summscore 0.1.0, which wrote
text as it is) has a plain header, and its cells are read as they are.
"""

from __future__ import annotations

import gzip
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..results import SummaryResult
from .cells import restore
from .provenance import RUN_FIELDS
from .records import InputError, open_records

__all__ = [
    "COMPONENTS",
    "FIELDS",
    "LISTS",
    "WRITTEN",
    "claim_support",
    "finite",
    "is_results_file",
    "marked_cells",
    "output_row",
    "read_results",
]

COMPONENTS = ("qa_score", "conciseness_score", "alignment_score", "coverage_score")
LISTS = ("missed_questions", "unsupported_claims", "warnings")
FIELDS = (
    "id",
    "score",
    *COMPONENTS,
    "success",
    "reason",
    "error",
    *LISTS,
    "claim_support",
    "preset",
    "judge",
    "model",
    "prompt_set",
    "threshold",
    "judge_calls",
    "input_tokens",
    "output_tokens",
    "cost",
    "fingerprint",
)
# A results file's columns: the result's (FIELDS, also the columns Ray adds to a dataset), then
# what tells runs apart and matches their rows (RUN_FIELDS, see .provenance).
WRITTEN = (*FIELDS, *RUN_FIELDS)
# Columns written as JSON text in CSV and TSV (options: in Parquet too, they differ by preset).
JSON_CELLS = frozenset((*LISTS, "claim_support", "options"))
FLOATS = frozenset(("score", *COMPONENTS, "threshold", "cost"))
INTEGERS = frozenset(("judge_calls", "input_tokens", "output_tokens"))
# What every summscore results file has had since the first release: how one is recognised.
_SIGNATURE = {"id", "score", "reason", "error"}


def output_row(
    row_id: Any,
    result: SummaryResult,
    *,
    model: str | None = None,
    warnings: list[str] | None = None,
    fingerprint: str | None = None,
) -> dict[str, Any]:
    """One output record: id, score, components, reason, error, evidence and provenance
    (``fingerprint``: what the row was scored from, see ``fingerprint``). The run's part,
    ``provenance.RUN_FIELDS``, is the sink's to add (``provenance.RunProvenance``)."""
    usage = result.usage
    return {
        "id": finite(row_id),
        "score": finite(result.score),
        **{name: finite(getattr(result, name)) for name in COMPONENTS},
        "success": result.success,
        "reason": result.reason,
        "error": result.error,
        "missed_questions": result.missed_questions,
        "unsupported_claims": [c.claim for c in result.unsupported_claims],
        "warnings": [*result.warnings, *(warnings or [])],
        "claim_support": claim_support(result),
        "preset": result.preset,
        "judge": result.judge,
        "model": model,
        "prompt_set": result.prompt_set,
        "threshold": result.threshold,
        "judge_calls": usage.judge_calls,
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cost": usage.cost,
        "fingerprint": fingerprint,
    }


def claim_support(result: SummaryResult) -> list[dict[str, Any]] | None:
    """Every claim with its graded support ({"claim", "support"}, in claim order), for a judge
    that grades claims (the offline judge); None for the others."""
    graded = [
        {"claim": c.claim, "support": c.support} for c in result.claims if c.support is not None
    ]
    return graded or None


def finite(value: Any) -> Any:
    """NaN and infinities are None: results files are strict JSON."""
    return None if isinstance(value, float) and not math.isfinite(value) else value


def is_results_file(path: str | Path) -> bool:
    """Whether ``path`` is a summscore results file (or empty): safe to replace."""
    path = Path(path)
    if path.stat().st_size == 0:
        return True
    try:
        opened = open_records(path)
        names = opened.columns
        if names is None:
            first = next(
                (r for r in opened.records if r.fields is not None and r.problem is None), None
            )
            names = list(first.fields) if first is not None and first.fields is not None else []
    except (InputError, OSError, ValueError, ImportError):
        return False
    return set(names) >= _SIGNATURE


def read_results(
    path: str | Path, *, raw_csv: bool | None = None, whole: bool = False
) -> Iterator[dict[str, Any]]:
    """The records of a results file, in file order. A line cut short by an interruption (the
    last one, written when the run was stopped) is skipped. ``raw_csv``: whether the CSV or TSV
    file's text cells carry no mark to take off (by default, what its header says: see
    ``marked_cells``). ``whole``: the file must be whole (``summscore compare``'s inputs, which
    ``summscore score`` writes whole): a record that cannot be read raises ValueError naming its
    line, rather than being skipped."""
    opened = open_records(path)
    if raw_csv is None and opened.format in ("csv", "tsv"):
        raw_csv = not marked_cells(path)
    for record in opened.records:
        if record.fields is None or record.problem is not None:
            if whole:
                raise ValueError(f"{record.where} {record.problem}; the file is damaged or cut off")
            continue
        fields = dict(record.fields)
        if opened.format in ("csv", "tsv"):
            fields = {k: _from_cell(k, v, raw_csv) for k, v in fields.items()}
        yield fields


def marked_cells(path: str | Path) -> bool:
    """Whether the CSV or TSV results file ``path`` was written with its text cells marked for
    spreadsheets (not ``--raw-csv``): its header, unlike a raw file's, begins with a quote."""
    path = Path(path)
    opener: Any = gzip.open if path.suffix.lower() == ".gz" else open
    try:
        with opener(path, "rb") as handle:
            head = handle.read(4)
    except (OSError, EOFError):
        return False
    return head.removeprefix(b"\xef\xbb\xbf")[:1] == b'"'


def _from_cell(name: str, value: Any, raw_csv: bool | None) -> Any:
    if value == "" or not isinstance(value, str):
        return None if value == "" else value
    if name in JSON_CELLS:
        try:
            return json.loads(value)
        except ValueError:
            return value
    if name in FLOATS or name in INTEGERS:
        return _number(value, integer=name in INTEGERS)
    if name == "success" and value in ("True", "False"):
        return value == "True"
    return value if raw_csv else restore(value)


def _number(text: str, *, integer: bool) -> Any:
    try:
        number = float(text)
    except ValueError:
        return text
    if integer and number.is_integer():
        return int(number)
    return number
