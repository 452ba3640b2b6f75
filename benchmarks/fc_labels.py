"""Human-labelled pairs of your own for ``factual_consistency.py --labels``: does the offline
judge agree with *your* raters, on your summaries?

A file is read as ``summscore score`` reads one (JSONL, JSON, CSV, TSV, Parquet, gzipped; the
source and summary columns found the same way, or named), with a label per row:

* ``label`` (``--label-column``): 1 / 0, true / false, yes / no, consistent / inconsistent,
  faithful / unfaithful, correct / incorrect, supported / unsupported, factual / non-factual;
* optionally a graded label (``--graded-column``: any numbers, e.g. a 1-5 Likert score), judged on
  Spearman correlation. Without a binary label column, a row is counted consistent when its
  graded label is the highest its set gives (FRANK's "no error at all");
* optionally the set it belongs to (``--dataset-column``, one or more columns joined with "-";
  default: a ``dataset`` column if there is one, else the file's name), and the cut (``cut``:
  val / valid / validation / dev put a row in the validation cut, where the balanced-accuracy
  threshold is chosen; anything else is the test cut).

A row that cannot be used (no source, an empty summary, a label that is none of the above) is
named with its place in the file, its id and the field, left out of the figures, and the rows after
it are read.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from summscore._records import open_records
from summscore.datasets import Columns, open_rows

__all__ = ["LabelledRow", "read_labelled"]

_TRUE = {"1", "true", "yes", "consistent", "faithful", "correct", "supported", "factual"}
_FALSE = {
    "0",
    "false",
    "no",
    "inconsistent",
    "unfaithful",
    "incorrect",
    "unsupported",
    "nonfactual",
    "non factual",
    "not factual",
    "hallucinated",
}
_VALIDATION = {"val", "valid", "validation", "dev", "development", "evaluation"}
LABEL_WORDS = "1/0, true/false, yes/no, consistent/inconsistent, correct/incorrect, ..."


@dataclass(frozen=True)
class LabelledRow:
    dataset: str
    id: str
    source: str | list[str]
    summary: str
    label: int
    graded: float | None
    cut: str


class LabelError(ValueError):
    """A field of one row that is not a usable label."""


def parse_label(value: Any) -> int:
    """A binary label as people write one: 1/0, true/false, consistent/inconsistent and the like."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value in (0, 1):
            return int(value)
        raise LabelError(f"{value!r} is not 0 or 1 (a graded label goes in --graded-column)")
    if isinstance(value, str):
        word = " ".join(value.strip().lower().replace("_", " ").replace("-", " ").split())
        if word in _TRUE or word == "1.0":
            return 1
        if word in _FALSE or word == "0.0":
            return 0
        if not word:
            raise LabelError("is empty")
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    raise LabelError(f"{shown} is not a label ({LABEL_WORDS})")


def parse_graded(value: Any) -> float:
    if isinstance(value, bool):
        raise LabelError(f"{value!r} is not a number")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise LabelError(f"{str(value)[:40]!r} is not a number") from None
    if not math.isfinite(number):
        raise LabelError(f"{value!r} is not a finite number")
    return number


def read_labelled(
    path: str | Path,
    *,
    columns: Columns = Columns(),
    label_column: str = "label",
    graded_column: str | None = None,
    dataset_columns: Sequence[str] = (),
    cut_column: str = "cut",
) -> tuple[list[LabelledRow], list[str]]:
    """The usable rows of ``path`` and a message per row left out (see the module docstring).
    Raises :class:`summscore.datasets.InputError` for a problem with the whole file (no such
    file, no source column, neither the label nor the graded column)."""
    from summscore.datasets import InputError

    path = Path(path)
    reader = open_rows(path, columns)  # source, summary and id, checked as the CLI checks them
    names = set(reader.file_columns)
    has_label = label_column in names
    if not has_label and graded_column is None:
        raise InputError(
            f"{path}: no label column {label_column!r} (name it with --label-column, or give "
            f"--graded-column); the file has: {', '.join(reader.file_columns)}"
        )
    if graded_column is not None and graded_column not in names:
        raise InputError(
            f"{path}: no graded column {graded_column!r}; the file has: "
            f"{', '.join(reader.file_columns)}"
        )
    missing = [c for c in dataset_columns if c not in names]
    if missing:
        raise InputError(
            f"{path}: no dataset column {missing[0]!r}; the file has: "
            f"{', '.join(reader.file_columns)}"
        )
    if not dataset_columns and "dataset" in names:
        dataset_columns = ("dataset",)
    # The label fields, by the record's ordinal (a second pass over the file: rows carry only
    # what scoring needs).
    fields = {
        record.number: record.fields
        for record in open_records(path, reader.encoding).records
        if record.fields is not None
    }
    kept: list[LabelledRow] = []
    problems: list[str] = []
    for row in reader:
        if row.error is not None:
            problems.append(f"{path.name}: {row.error}")
            continue
        record = fields.get(row.number) or {}
        where = f"{path.name}: {row.where} (id {row.id!r})"
        try:
            graded = None
            if graded_column is not None:
                try:
                    graded = parse_graded(record.get(graded_column))
                except LabelError as exc:
                    raise LabelError(f"column {graded_column!r}: {exc}") from None
            label = -1
            if has_label:
                try:
                    label = parse_label(record.get(label_column))
                except LabelError as exc:
                    raise LabelError(f"column {label_column!r}: {exc}") from None
        except LabelError as exc:
            problems.append(f"{where}: {exc}")
            continue
        dataset = "-".join(str(record.get(c) or "").strip() for c in dataset_columns).strip("-")
        cut = str(record.get(cut_column) or "").strip().lower()
        assert row.source is not None and row.summary is not None
        labelled = LabelledRow(
            dataset or path.name.split(".")[0],
            str(row.id),
            row.source,
            row.summary,
            label,
            graded,
            "val" if cut in _VALIDATION else "test",
        )
        kept.append(labelled)
    if not has_label:
        top: dict[str, float] = {}
        for labelled in kept:
            assert labelled.graded is not None
            top[labelled.dataset] = max(top.get(labelled.dataset, -math.inf), labelled.graded)
        kept = [LabelledRow(**{**vars(r), "label": int(r.graded == top[r.dataset])}) for r in kept]
    return kept, problems
