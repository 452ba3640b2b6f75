"""Human-labelled pairs of your own for ``factual_consistency.py --labels``: does the offline
judge agree with *your* raters, on your summaries?

A file is read as ``summscore score`` reads one (JSONL, JSON, CSV, TSV, Parquet, an Excel sheet,
gzipped; the source and summary columns found the same way, or named), with a label per row:

* ``label`` (``--label-column``): 1 / 0 ("1.0", "+1"), true / false (T / F), yes / no (Y / N),
  consistent / inconsistent, faithful / unfaithful, correct / incorrect, supported /
  unsupported, factual / non-factual; -1 is refused (some sets mean "no label" by it);
* optionally a graded label (``--graded-column``: any numbers, e.g. a 1-5 Likert score), judged on
  Spearman correlation. Without a binary label column, a row is counted consistent when its
  graded label is the highest its set gives (FRANK's "no error at all");
* optionally the set it belongs to (``--dataset-column``, one or more columns joined with "-";
  default: a ``dataset`` column if there is one, else the file's name), and the cut (``cut``:
  val / valid / validation / dev put a row in the validation cut, where the balanced-accuracy
  threshold is chosen; anything else is the test cut).

A column is the file's if any row has it (JSON rows need not share keys). A row that cannot be
used (no source, an empty summary, a label that is none of the above, an empty set name) is named
with its place in the file, its id and the field, left out of the figures, and the rows after it
are read.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from summscore.files.datasets import Columns, open_rows
from summscore.files.records import CellError, file_format, open_records

__all__ = ["LabelledRow", "read_labelled"]

_TRUE = {"true", "t", "yes", "y", "consistent", "faithful", "correct", "supported", "factual"}
_FALSE = {
    "false",
    "f",
    "no",
    "n",
    "not consistent",
    "not faithful",
    "not correct",
    "not supported",
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
    """A binary label as people write one: 1/0 (also "1.0", "+1"), true/false, yes/no,
    consistent/inconsistent and the like. -1 is refused: some sets use it for "no label"."""
    if isinstance(value, bool):
        return int(value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        raise LabelError("is empty")
    if isinstance(value, str):
        word = " ".join(_JOINER.sub(" ", value.strip().lower()).split())
        if not word:
            raise LabelError("is empty")
        if word in _TRUE:
            return 1
        if word in _FALSE:
            return 0
        try:
            value = float(word)
        except ValueError:
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
            raise LabelError(f"{shown} is not a label ({LABEL_WORDS})") from None
    if isinstance(value, (int, float)):
        if value in (0, 1):
            return int(value)
        raise LabelError(f"{value!r} is not 0 or 1 (a graded label goes in --graded-column)")
    raise LabelError(f"{str(value)[:40]!r} is not a label ({LABEL_WORDS})")


_JOINER = re.compile(r"(?<=[a-z])[-_](?=[a-z])")


def parse_graded(value: Any) -> float:
    if value is None:
        raise LabelError("is empty")
    if isinstance(value, bool):
        raise LabelError(f"{value!r} is not a number")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise LabelError(f"{str(value)[:40]!r} is not a number") from None
    if not math.isfinite(number):
        raise LabelError(f"{value!r} is not a finite number")
    return number


def _field(record: dict[str, Any], column: str, parse: Callable[[Any], Any]) -> Any:
    """``parse`` of the row's ``column``, its failure naming the column."""
    if column not in record:
        raise LabelError(f"column {column!r} is missing from this row")
    if isinstance(record[column], CellError):
        raise LabelError(f"column {column!r} holds {record[column]!r}")
    try:
        return parse(record[column])
    except LabelError as exc:
        raise LabelError(
            f"column {column!r} {exc}"
            if str(exc).startswith("is ")
            else f"column {column!r}: {exc}"
        ) from None


def read_labelled(
    path: str | Path,
    *,
    columns: Columns = Columns(),
    label_column: str | None = None,
    graded_column: str | None = None,
    dataset_columns: Sequence[str] = (),
    cut_column: str = "cut",
    encoding: str = "utf-8",
    sheet: str | None = None,
) -> tuple[list[LabelledRow], list[str]]:
    """The usable rows of ``path`` and a message per row left out (see the module docstring).
    ``label_column`` None: "label" where the file has it. Raises
    :class:`summscore.files.raw.InputError` for a problem with the whole file (no such file, no
    source column, a named column no row has, neither a label nor a graded column)."""
    from summscore.files.datasets import InputError

    path = Path(path)
    if sheet is not None and file_format(path) != "xlsx":
        sheet = None  # (--sheet names the sheet of the Excel files among several --labels)
    # source, summary, id: as the CLI reads them
    reader = open_rows(path, columns, encoding=encoding, sheet=sheet)
    # The label fields, by the record's ordinal (a second pass over the file: rows carry only
    # what scoring needs). A JSON file's rows need not share keys: a column is the file's if
    # any row has it.
    fields = {
        record.number: dict(record.fields)
        for record in open_records(path, reader.encoding or encoding, sheet=sheet).records
        if record.fields is not None
    }
    present = set(reader.file_columns).union(*(f.keys() for f in fields.values()))
    listed = ", ".join(sorted(present))

    def require(column: str, what: str) -> None:
        if column not in present:
            raise InputError(f"{path}: no {what} column {column!r}; the file has: {listed}")

    has_label = (label_column or "label") in present
    if (label_column is not None or graded_column is None) and not has_label:
        raise InputError(
            f"{path}: no label column {label_column or 'label'!r} (name it with "
            f"--label-column, or give --graded-column); the file has: {listed}"
        )
    label_column = label_column or "label"
    if graded_column is not None:
        require(graded_column, "graded")
    for column in dataset_columns:
        require(column, "dataset")
    if not dataset_columns and "dataset" in present:
        dataset_columns = ("dataset",)
    kept: list[LabelledRow] = []
    problems: list[str] = []
    for row in reader:
        if row.error is not None:
            problems.append(f"{path.name}: {row.error}")
            continue
        record = fields.get(row.number, {})
        where = f"{path.name}: {row.where} (id {row.id!r})"
        try:
            graded = _field(record, graded_column, parse_graded) if graded_column else None
            label = _field(record, label_column, parse_label) if has_label else -1
            parts = [_field(record, c, _set_name) for c in dataset_columns]
        except LabelError as exc:
            problems.append(f"{where}: {exc}")
            continue
        cut = str(record.get(cut_column) or "").strip().lower()
        assert row.source is not None and row.summary is not None
        labelled = LabelledRow(
            "-".join(parts) or path.name.split(".")[0],
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


def _set_name(value: Any) -> str:
    """A set's name from a dataset column (0 is a name; an empty cell is none)."""
    name = "" if value is None else str(value).strip()
    if not name or name.lower() == "nan":
        raise LabelError("is empty: the row's set is unknown")
    return name
