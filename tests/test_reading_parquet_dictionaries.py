"""Reading Parquet dictionaries holds a bounded amount: a dictionary entry that many rows share is
never copied for a thousand rows at once (and becomes one Python value); only columns coded
against their dictionary throughout are read as one; a column pyarrow stored as an Arrow
dictionary but whose pages are not coded as one is read as plain texts, never as a dictionary
growing with every batch; values read as dictionaries are the values written.

Arrow's own allocations are measured in a fresh process (``pyarrow``'s memory pool peak), as
Python's tracemalloc does not see them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from summscore.files import parquet, parquet_pages  # noqa: E402
from summscore.files.records import open_records  # noqa: E402
from tests.parquet_support import _arrow_peak, _table  # noqa: E402


def test_a_long_dictionary_entry_many_rows_share_is_copied_a_few_rows_at_a_time(
    tmp_path: Path,
) -> None:
    n = 600
    entry = pa.array(["B" * 2**20])  # one 1 MiB text, 600 rows: 600 MiB decoded at 1,024 a batch
    sources = pa.DictionaryArray.from_arrays(pa.array([0] * n, pa.int32()), entry)
    path = tmp_path / "shared.parquet"
    # As another program writes it (no Arrow schema stored): read back as plain texts.
    pq.write_table(_table(sources), path, compression="zstd", store_schema=False)
    assert path.stat().st_size < 100_000
    setup = "from summscore.files import parquet\nparquet.BATCH_BYTES = 16 * 2**20"
    got = _arrow_peak(path, setup)
    assert len(got["records"]) == n and not any(problem for _, problem in got["records"])
    assert got["peak"] < 48 * 2**20  # 16 rows a batch, not 600


def test_rows_sharing_a_dictionary_entry_become_python_values_a_slice_at_a_time(
    tmp_path: Path,
) -> None:
    # As Python values every row holds its own copy of the shared entry: a whole batch of 200
    # rows made Python values at once held 200 MiB in this process before the first row was
    # used. Now a slice of about SLICE_BYTES is, and none is held while the next is made.
    import tracemalloc

    n = 200
    entry = pa.array(["D" * 2**20])
    sources = pa.DictionaryArray.from_arrays(pa.array([0] * n, pa.int32()), entry)
    path = tmp_path / "shared.parquet"
    pq.write_table(_table(sources), path, compression="zstd", store_schema=False)
    tracemalloc.start()
    try:
        count = sum(1 for record in open_records(path).records if record.fields is not None)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == n
    assert peak < 2 * parquet.SLICE_BYTES + 16 * 2**20, peak


def _shared_entry(path: Path, n: int, entry: str) -> None:
    """``n`` rows whose source is one dictionary entry, as another program writes them (no
    Arrow schema stored: read back as plain texts unless asked for a dictionary)."""
    sources = pa.DictionaryArray.from_arrays(pa.array([0] * n, pa.int32()), pa.array([entry]))
    pq.write_table(_table(sources), path, compression="zstd", store_schema=False)


def test_a_dictionary_entry_all_rows_share_is_held_once_in_arrow(tmp_path: Path) -> None:
    # Read as plain texts, each batch held the entry once a row: 255 rows of 1 MiB, 255 MiB
    # (the 20,000-row file of a 1.9 MB entry: 870 MB peak RSS). Read as a dictionary, once.
    path = tmp_path / "shared.parquet"
    _shared_entry(path, 600, "E" * 2**20)
    got = _arrow_peak(path)
    assert len(got["records"]) == 600 and not any(problem for _, problem in got["records"])
    assert got["peak"] < 16 * 2**20, got["peak"]


def test_rows_sharing_a_dictionary_entry_share_one_python_value(tmp_path: Path) -> None:
    import tracemalloc

    path = tmp_path / "shared.parquet"
    _shared_entry(path, 200, "F" * 2**20)
    tracemalloc.start()
    try:
        records = open_records(path).records
        first = [next(records) for _ in range(8)]  # (a slice is 16 rows of this file)
        count = 8 + sum(1 for record in records if record.fields is not None)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 200
    assert all(r.fields is not None and r.fields["source"] == "F" * 2**20 for r in first)
    assert len({id(r.fields["source"]) for r in first if r.fields}) == 1  # (one object)
    assert peak < 8 * 2**20, peak  # (a copy a row: 16 MiB a slice, two slices at the turn)


def test_only_columns_coded_against_their_dictionary_throughout_are_read_as_one(
    tmp_path: Path,
) -> None:
    # A dictionary that fell back to plain pages would be rebuilt by Arrow from every value
    # read so far, growing with each batch: such a column is read as plain texts.
    texts = [f"{i} " + "word " * 200 for i in range(3000)]
    table = pa.table({"coded": ["Same text."] * 3000, "fell_back": texts, "number": range(3000)})
    path = tmp_path / "mixed.parquet"
    pq.write_table(table, path, dictionary_pagesize_limit=2**16)
    meta = pq.ParquetFile(path).metadata
    assert meta.row_group(0).column(1).has_dictionary_page  # (then plain pages)
    with path.open("rb") as raw:
        plan = parquet_pages.read_plan(raw, meta.row_group(0))
    assert plan.coded == {"coded"}
    assert set(plan.dictionaries) == {"coded", "fell_back", "number"}
    assert [r.fields for r in open_records(path).records] == table.to_pylist()


def _arrow_dictionary(path: Path, n: int, how: str, **options: Any) -> list[str]:
    """``n`` distinct texts of about 2 kB in one row group, written by pyarrow from a
    dictionary array (a pandas Categorical's kind), its Arrow schema stored (the default): so
    read back as a dictionary whatever its pages hold. ``how``: ``plain`` pages only
    (``use_dictionary=False``), ``fell-back`` (a dictionary, then plain pages: each chunk had
    its own dictionary) or ``coded`` throughout (one dictionary page of all the texts)."""
    texts = [f"{i} " + "word " * 400 for i in range(n)]
    if how == "fell-back":
        chunks = [pa.array(texts[s : s + 500]).dictionary_encode() for s in range(0, n, 500)]
        source: Any = pa.chunked_array(chunks)
    else:
        source = pa.array(texts).dictionary_encode()
    if how == "plain":
        options["use_dictionary"] = ["id", "summary"]
    table = _table([None] * n).set_column(1, "source", source)
    pq.write_table(table, path, row_group_size=n, compression="zstd", **options)
    assert pq.ParquetFile(path).schema_arrow.field("source").type == source.type
    return texts


@pytest.mark.parametrize("how", ["plain", "fell-back"])
def test_a_column_arrow_stored_as_a_dictionary_but_not_coded_as_one_is_read_as_plain_texts(
    tmp_path: Path, how: str
) -> None:
    # Read as its stored schema says, Arrow rebuilt a dictionary of every value read so far
    # at each batch: 200,000 rows of 1-5 kB texts (600 MB) took 1.4 GB at 100,000 rows, and
    # the fell-back file 112 s. Read as plain texts, it holds a batch or so.
    path = tmp_path / f"{how}.parquet"
    texts = _arrow_dictionary(path, 10_000, how)  # (20 MB of texts, 0.1 MB compressed)
    assert path.stat().st_size < 400_000
    with path.open("rb") as raw:
        plan = parquet_pages.read_plan(raw, pq.ParquetFile(path).metadata.row_group(0))
    assert "source" not in plan.coded
    got = _arrow_peak(path)
    assert got["peak"] < 16 * 2**20, got["peak"]  # (was 76 MB: the 20 MB of texts, copied)
    assert len(got["records"]) == 10_000 and not any(problem for _, problem in got["records"])
    read = [r.fields["source"] for r in open_records(path).records if r.fields]
    assert read == texts


def test_a_dictionary_arrow_stored_too_large_to_read_as_one_is_read_as_plain_texts(
    tmp_path: Path,
) -> None:
    # Coded throughout, but with a dictionary past a quarter of BATCH_BYTES: read as plain
    # texts, a row or so a batch. Its stored schema made every such batch a copy of the whole
    # dictionary (a 150 MB one: 600 rows a minute).
    path = tmp_path / "coded.parquet"
    texts = _arrow_dictionary(path, 1500, "coded")  # (a 3 MB dictionary)
    setup = "from summscore.files import parquet\nparquet.BATCH_BYTES = 2**20"
    got = _arrow_peak(path, setup)
    assert len(got["records"]) == 1500 and not any(problem for _, problem in got["records"])
    assert got["peak"] < 9 * 2**20, got["peak"]  # (the dictionary twice: 6 MB; was 16 MB)
    assert [r.fields["source"] for r in open_records(path).records if r.fields] == texts


def test_only_the_stored_schema_dictionaries_of_texts_are_made_plain(tmp_path: Path) -> None:
    from summscore.files.parquet_schema import plain_texts

    texts = pa.array(["a", "b", "a", None]).dictionary_encode()
    numbers = pa.array([1, 2, 1, 1]).dictionary_encode()
    lists = pa.ListArray.from_arrays([0, 1, 3, 3, 4], texts)
    table = pa.table(
        {
            "texts": texts,
            "numbers": numbers,
            "lists": lists,
            "zone": pa.array([0, 1, 2, 3], pa.timestamp("ms", tz="Europe/Paris")),
        }
    ).replace_schema_metadata({f"note {i}": f"kept {i}" for i in range(16)})  # (a long list)
    path = tmp_path / "kinds.parquet"
    pq.write_table(table, path)
    meta = pq.read_metadata(path)
    plain = plain_texts(meta)
    assert plain is not None and plain.num_rows == 4
    schema = pq.ParquetFile(path, metadata=plain).schema_arrow
    assert schema.field("texts").type == pa.string()
    assert schema.field("lists").type == pa.list_(pa.string())
    assert schema.field("zone").type == table.schema.field("zone").type  # (the rest as stored)
    assert all(schema.metadata[f"note {i}".encode()] == f"kept {i}".encode() for i in range(16))
    assert set(plain.metadata) == set(meta.metadata)  # (the footer's pairs, one rewritten)
    assert [r.fields for r in open_records(path).records] == table.to_pylist()
    pq.write_table(table.drop_columns(["texts", "lists"]), path)
    assert plain_texts(pq.read_metadata(path)) is None  # (nothing to change: read as it is)


_CELLS = st.none() | st.sampled_from(["", "a", "The bridge opened.", "é" * 40, "x" * 3000])


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=st.lists(
        st.tuples(
            _CELLS, st.none() | st.lists(_CELLS, max_size=3), st.none() | st.binary(max_size=5)
        ),
        min_size=1,
        max_size=120,
    ),
    row_group_size=st.sampled_from([7, 50, 1000]),
    dictionary_limit=st.sampled_from([64, 2**20]),
    store_schema=st.booleans(),
    coded=st.booleans(),
)
def test_values_read_as_dictionaries_are_the_values_written(
    tmp_path_factory: pytest.TempPathFactory,
    rows: list[tuple[Any, Any, Any]],
    row_group_size: int,
    dictionary_limit: int,
    store_schema: bool,
    coded: bool,
) -> None:
    texts, lists, blobs = (list(column) for column in zip(*rows))
    table = pa.table(
        {
            "text": pa.array(texts, pa.string()),
            "texts": pa.array(lists, pa.list_(pa.string())),
            "blob": pa.array(blobs, pa.binary()),
        }
    )
    if coded:  # (an Arrow dictionary column: read back as one when the schema is stored)
        table = table.set_column(0, "text", table["text"].dictionary_encode())
    path = tmp_path_factory.mktemp("values") / "values.parquet"
    pq.write_table(
        table,
        path,
        row_group_size=row_group_size,
        dictionary_pagesize_limit=dictionary_limit,
        store_schema=store_schema,
    )
    got = [r.fields for r in open_records(path).records]
    assert got == pq.read_table(path).to_pylist()
    assert [row["text"] for row in got if row] == texts
