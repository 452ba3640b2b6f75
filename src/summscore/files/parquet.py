"""Parquet files as records, read in bounded memory whatever the file claims.

Parquet compresses page by page, and a page is decompressed whole before any of its values can
be read: a few kilobytes of file can hold one page, and one cell, of hundreds of megabytes; and
a dictionary entry of megabytes can stand for the text of every row. So before a row group is
read, the headers of all its pages are read (``parquet_pages``: a few bytes each, never the
pages; the sizes the footer claims are not trusted):

* a page whose size per value says it holds a text past ``limits.MAX_CELL_CHARS`` characters
  (more than 4 bytes a character), or that inflates past ``MAX_PAGE_BYTES`` whatever it holds,
  is never decompressed: every row of its row group fails, named (``row 5 is in rows
  1-1,024 (row group 1 of 3), whose column 'source' holds a page ...``), and the row groups
  around it are read;
* a text column whose every value is coded against its dictionary (a list of texts too) is
  read as a dictionary (as long as the row group's such dictionaries come to at most a
  quarter of ``BATCH_BYTES``): an entry that every row shares is held once, in Arrow and as a
  Python value, whatever the number of rows (read as plain texts, a batch held it once a row:
  about ``BATCH_BYTES`` of copies of one entry). A column whose dictionary fell back to plain
  pages is read as plain texts (Arrow would build a new dictionary of all its values, growing
  with every batch), and so is any other column, whatever the Arrow schema pyarrow stored
  calls it (``parquet_schema``: a pandas Categorical's column is stored as a dictionary);
* the rows are read in batches sized so that a batch decodes to at most about ``BATCH_BYTES``
  (up to 1,024 rows): the row group's bytes a row, plus the size of each dictionary of a
  column read as plain texts, any entry of which every row may repeat, plus once the
  dictionaries read as such; the compressed bytes are streamed, not read a column chunk at a
  time; a batch becomes Python values ``SLICE_BYTES``' worth of rows at a time (the rows using
  an entry of a dictionary read as one share its Python value), and neither a batch nor a
  slice is held while the next one is read;
* a text longer than ``MAX_CELL_CHARS`` characters (in a list of texts too) fails its row,
  named with its column, before the row's values become Python objects.

A file of more than ``FLOOD_CELLS`` cells of which fewer than one in ``FLOOD_RATIO`` holds a
value (the footer's null counts) is an empty-row flood, not rows, and is refused before it is
read, as a workbook's empty-cell flood is (``xlsx_guard``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import MissingExtraError
from .delimited import damaged
from .limits import MAX_CELL_CHARS, cell_too_long
from .parquet_pages import MAX_PAGE_BYTES, Plan, read_plan
from .parquet_schema import plain_texts
from .raw import InputError, Record, RecordFile
from .xlsx_guard import FLOOD_CELLS, FLOOD_RATIO

__all__ = ["BATCH_BYTES", "MAX_PAGE_BYTES", "open_parquet"]

BATCH_BYTES = 256 * 2**20  # bytes a batch of rows may decode to, at most
_MAX_BATCH = 1024
SLICE_BYTES = 32 * 2**20  # bytes of rows made Python values at once (a window's worth)
_STREAM = 1 << 20  # compressed bytes read at a time


def open_parquet(path: Path) -> RecordFile:
    """Open a Parquet file for reading records; InputError for a problem with the whole file."""
    try:
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise MissingExtraError("pyarrow", "parquet", "Reading Parquet files", exc) from exc
    try:
        handle = pq.ParquetFile(path, buffer_size=_STREAM)
        plain = plain_texts(handle.metadata)  # (a dictionary of texts as its stored schema)
        if plain is not None:
            handle.close()
            handle = pq.ParquetFile(path, buffer_size=_STREAM, metadata=plain)
    except Exception as exc:  # pyarrow raises its own ArrowInvalid, OSError, ...
        raise InputError(f"{path}: not a readable Parquet file ({exc})") from None
    _check_flood(path, handle.metadata)
    names = list(handle.schema_arrow.names)
    return RecordFile(path, "parquet", "", _rows(path, handle), columns=names)


def _check_flood(path: Path, meta: Any) -> None:
    cells = meta.num_rows * meta.num_columns
    if cells <= FLOOD_CELLS:
        return
    nulls = 0
    for group in range(meta.num_row_groups):
        row_group = meta.row_group(group)
        for column in range(row_group.num_columns):
            stats = row_group.column(column).statistics
            if stats is not None and stats.has_null_count:
                nulls += stats.null_count
    if cells > FLOOD_RATIO * (cells - nulls + 1):
        raise InputError(
            f"{path}: holds {meta.num_rows:,} rows of which fewer than one cell in {FLOOD_RATIO} "
            "has a value: an empty-row flood, not rows; drop the empty rows and save it again"
        )


def _rows(path: Path, handle: Any) -> Iterator[Record]:
    meta = handle.metadata
    first = 1
    readers = _Readers(path, handle)
    with path.open("rb") as raw, readers:  # the page headers are read from raw
        for group in range(meta.num_row_groups):
            row_group = meta.row_group(group)
            count = row_group.num_rows
            last = first + count - 1
            plan = read_plan(raw, row_group)
            if plan.refused is not None:
                where = f"rows {first:,}-{last:,} (row group {group + 1} of {meta.num_row_groups})"
                for number in range(first, last + 1):
                    yield Record(number, f"row {number}", problem=f"is in {where}, {plan.refused}")
                first = last + 1
                continue
            shared = _shared(plan, handle.schema_arrow)
            once = sum(plan.dictionaries[name] for name in shared)
            repeated = sum(b for name, b in plan.dictionaries.items() if name not in shared)
            size = row_group.total_byte_size // max(1, count) + plan.bound + repeated
            batch_size = max(1, min(_MAX_BATCH, (BATCH_BYTES - once) // max(1, size)))
            # As Python values too, the rows share each entry of a dictionary read as one: the
            # entries a slice uses take at most ``once``, whatever its rows (past half a slice,
            # counted a row, as a row may use entries no other row does)
            if 2 * once <= SLICE_BYTES:
                slice_rows = (SLICE_BYTES - once) // max(1, size)
            else:
                slice_rows = SLICE_BYTES // max(1, size + once)
            slice_rows = max(1, min(batch_size, slice_rows))
            try:
                reader = readers.get(shared, first)
                yield from _group_rows(reader, group, batch_size, first, plan.long, slice_rows)
            except _Damaged as exc:
                yield Record(exc.number, f"row {exc.number}", problem=damaged(path, exc.cause))
                return
            first = last + 1


def _shared(plan: Plan, schema: Any) -> tuple[str, ...]:
    """The columns of ``plan.coded`` to read as dictionaries: texts, or lists of texts (whose
    values ``_python_values`` shares), as long as their dictionaries together take at most a
    quarter of ``BATCH_BYTES`` (each batch holds a copy of them)."""
    import pyarrow as pa

    def texts(kind: Any) -> bool:
        if pa.types.is_dictionary(kind):  # (as a stored schema says: see ``parquet_schema``)
            kind = kind.value_type
        return bool(
            pa.types.is_string(kind)
            or pa.types.is_large_string(kind)
            or pa.types.is_binary(kind)
            or pa.types.is_large_binary(kind)
        )

    chosen = []
    for name in sorted(plan.coded):
        parts = name.split(".")
        index = schema.get_field_index(parts[0])  # (-1 for a name two columns share)
        kind = schema.field(index).type if index >= 0 else None
        if kind is None:
            continue
        listed = pa.types.is_list(kind) or pa.types.is_large_list(kind)
        if (len(parts) == 1 and texts(kind)) or (
            len(parts) == 3 and listed and texts(kind.value_type)  # (a list as the spec writes)
        ):
            chosen.append(name)
    if sum(plan.dictionaries[name] for name in chosen) > BATCH_BYTES // 4:
        return ()
    return tuple(chosen)


class _Readers:
    """The file opened once for each set of columns read as dictionaries (Arrow's
    ``read_dictionary`` is the file's, not a row group's); the one last used is kept open."""

    def __init__(self, path: Path, plain: Any) -> None:
        self.path, self.plain = path, plain
        self.columns: tuple[str, ...] = ()
        self.open: Any = None

    def get(self, columns: tuple[str, ...], first: int) -> Any:
        if not columns:
            return self.plain
        if columns != self.columns or self.open is None:
            import pyarrow.parquet as pq

            self.close()
            try:
                self.open = pq.ParquetFile(
                    self.path,
                    buffer_size=_STREAM,
                    read_dictionary=list(columns),
                    metadata=self.plain.metadata,
                )
            except Exception as exc:  # (the file changed since it was opened)
                raise _Damaged(first, exc) from None
            self.columns = columns
        return self.open

    def close(self) -> None:
        if self.open is not None:
            self.open.close()
            self.open, self.columns = None, ()

    def __enter__(self) -> _Readers:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class _Damaged(Exception):
    def __init__(self, number: int, cause: Exception) -> None:
        super().__init__(number, cause)
        self.number, self.cause = number, cause


def _group_rows(
    handle: Any, group: int, batch_size: int, first: int, long: set[str], slice_rows: int
) -> Iterator[Record]:
    """The rows of row group ``group``: read ``batch_size`` at a time, made Python values
    ``slice_rows`` at a time, no batch or slice kept while the next one is read."""
    number = first - 1
    batches = handle.iter_batches(batch_size=batch_size, row_groups=[group])
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            return
        except Exception as exc:
            raise _Damaged(number + 1, exc) from None
        over = _over_cap(batch, long) if long else {}
        total = batch.num_rows
        # the rows holding an over-long text are never copied into Python
        kept = batch.filter(_mask([i not in over for i in range(total)])) if over else batch
        del batch
        rows: Iterator[dict[str, Any]] = iter(())
        taken = 0
        for index in range(total):
            number += 1
            if index in over:
                problem = cell_too_long(MAX_CELL_CHARS, over[index])
                yield Record(number, f"row {number}", problem=problem)
                continue
            if taken % slice_rows == 0:
                rows = iter(())  # (the previous slice is let go before the next is made)
                rows = iter(_python_rows(kept.slice(taken, slice_rows)))
            taken += 1
            yield Record(number, f"row {number}", fields=next(rows))
        del kept, rows


def _python_rows(part: Any) -> list[dict[str, Any]]:
    """The rows of the record batch ``part`` as Python values, as its ``to_pylist()`` makes
    them, except that an entry of a column read as a dictionary becomes one Python object that
    the rows using it share (``to_pylist()`` makes a copy of it for every row)."""
    if not part.num_columns:
        return [{} for _ in range(part.num_rows)]
    names = part.schema.names
    columns = [_python_values(column) for column in part.columns]
    return [dict(zip(names, values)) for values in zip(*columns)]


def _python_values(column: Any) -> list[Any]:
    """``column.to_pylist()``, but each dictionary entry it uses made a Python value once."""
    import pyarrow as pa

    kind = column.type
    if pa.types.is_dictionary(kind):
        return _dictionary_values(column)
    if (pa.types.is_list(kind) or pa.types.is_large_list(kind)) and pa.types.is_dictionary(
        kind.value_type
    ):
        offsets = column.offsets.to_pylist()  # (into column.values, a slice's too)
        base = offsets[0]
        items = _dictionary_values(column.values.slice(base, offsets[-1] - base))
        nulls = column.is_null().to_pylist()
        return [
            None if null else items[start - base : end - base]
            for null, start, end in zip(nulls, offsets, offsets[1:])
        ]
    return list(column.to_pylist())


def _dictionary_values(column: Any) -> list[Any]:
    """The values of a dictionary array, each entry it uses made a Python value once: the
    span of entries it uses in one conversion when they lie close together (ids: each row its
    own entry), else one by one, so that no more entries than it uses, give or take, become
    Python values (``pyarrow.compute.take`` would do it too, for some 30 MB of kernels)."""
    indices = column.indices.to_pylist()
    used = {i for i in indices if i is not None}
    entries: dict[int, Any] = {}
    if used:
        low, high = min(used), max(used)
        dictionary = column.dictionary
        if high - low < 4 * len(used) + 64:
            span = dictionary.slice(low, high - low + 1).to_pylist()
            entries = {i: span[i - low] for i in used}
            del span
        else:
            entries = {i: dictionary[i].as_py() for i in used}
    return [None if i is None else entries[i] for i in indices]


def _mask(kept: list[bool]) -> Any:
    import pyarrow as pa

    return pa.array(kept, type=pa.bool_())


def _over_cap(batch: Any, long: set[str]) -> dict[int, str]:
    """The rows of ``batch`` holding a text longer than ``MAX_CELL_CHARS`` characters (or a
    binary value longer than that many bytes; in a list of texts too), each with the first
    such column; only the columns named in ``long`` can hold one."""
    import pyarrow as pa
    import pyarrow.compute as pc

    over: dict[int, str] = {}
    for name, column in zip(batch.schema.names, batch.columns):
        if name not in long:
            continue
        kind, parents, indices = column.type, None, None
        if pa.types.is_list(kind) or pa.types.is_large_list(kind):
            parents = pc.list_parent_indices(column)
            column, kind = pc.list_flatten(column), kind.value_type
        if pa.types.is_dictionary(kind):  # a column pyarrow wrote as one: read back as one
            indices, column, kind = column.indices, column.dictionary, kind.value_type
        if pa.types.is_string(kind) or pa.types.is_large_string(kind):
            lengths = pc.utf8_length(column)
        elif pa.types.is_binary(kind) or pa.types.is_large_binary(kind):
            lengths = pc.binary_length(column)
        else:
            continue
        longest = pc.max(lengths).as_py()
        if longest is None or longest <= MAX_CELL_CHARS:
            continue
        found = pc.indices_nonzero(pc.greater(lengths, MAX_CELL_CHARS))
        if indices is not None:  # the entries that are too long: the values using them
            found = pc.indices_nonzero(pc.fill_null(pc.is_in(indices, value_set=found), False))
        if parents is not None:
            found = pc.take(parents, found)
        for index in found.to_pylist():
            over.setdefault(index, name)
    return over
