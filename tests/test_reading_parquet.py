"""Reading Parquet holds a bounded amount whatever the file claims: a page that would inflate to
an over-long cell, or past the memory bound, is never decompressed (its row group's rows fail,
named, the others are read); a text past the cell cap fails its row, named with its column; a
dictionary entry that many rows share is never copied for a thousand rows at once; a column
pyarrow stored as an Arrow dictionary but whose pages are not coded as one is read as plain
texts, never as a dictionary growing with every batch; an empty-row flood is refused before it
is walked.

Arrow's own allocations are measured in a fresh process (``pyarrow``'s memory pool peak), as
Python's tracemalloc does not see them."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from summscore.files import parquet, parquet_pages  # noqa: E402
from summscore.files.datasets import InputError, read_rows  # noqa: E402
from summscore.files.records import open_records  # noqa: E402


def _table(sources: list[Any], **extra: Any) -> Any:
    n = len(sources)
    return pa.table(
        {"id": [f"r{i}" for i in range(n)], "source": sources, "summary": ["It opened."] * n}
        | extra
    )


def _arrow_peak(path: Path, setup: str = "") -> dict[str, Any]:
    """Read every record of ``path`` in a fresh process: Arrow's peak bytes and the records."""
    code = (
        "import json, sys, pyarrow as pa\n"
        f"{setup}\n"
        "from summscore.files.records import open_records\n"
        "got = [(r.where, r.problem) for r in open_records(sys.argv[1]).records]\n"
        "print(json.dumps({'peak': pa.default_memory_pool().max_memory(), 'records': got}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout.splitlines()[-1]))


def test_a_cell_of_tens_of_megabytes_is_refused_without_being_decompressed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bomb.parquet"
    pq.write_table(_table(["A" * (40 * 2**20), "The bridge opened."]), path, compression="zstd")
    assert path.stat().st_size < 100_000  # a small file...
    got = _arrow_peak(path)
    assert got["peak"] < 8 * 2**20  # ...whose 40 MiB page is never inflated
    (where, problem), _ = got["records"]
    assert where == "row 1"
    assert "is in rows 1-2 (row group 1 of 1), whose column 'source' holds a page" in problem
    assert "a cell longer than 2,000,000 characters" in problem


def test_a_cell_past_the_cap_fails_its_row_naming_the_column(tmp_path: Path) -> None:
    path = tmp_path / "long.parquet"
    long = "é" * 2_000_001
    table = _table(["Short one.", long, "Short two."], contexts=[["a"], ["b"], ["c", long]])
    pq.write_table(table, path)
    coded = tmp_path / "coded.parquet"  # a column pyarrow writes as a dictionary reads as one
    pq.write_table(table.set_column(1, "source", table["source"].dictionary_encode()), coded)
    assert [r.where for r in open_records(coded).records if r.problem] == ["row 2", "row 3"]
    got = list(open_records(path).records)
    assert [r.where for r in got] == ["row 1", "row 2", "row 3"]
    assert got[0].fields is not None and got[0].fields["source"] == "Short one."
    assert got[1].problem is not None and got[1].problem.startswith(
        "has a cell (column 'source') longer than 2,000,000 characters"
    )
    assert got[2].problem is not None and "(column 'contexts')" in got[2].problem
    rows = list(read_rows(path))
    assert rows[1].error is not None and rows[1].error.startswith("row 2 has a cell")


def test_a_page_past_the_memory_bound_fails_only_its_row_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parquet_pages, "MAX_PAGE_BYTES", 2**20)  # (the real bound: 256 MiB)
    sources = ["Short."] * 2000 + [f"{i} " + "word " * 600 for i in range(2000)] + ["End."] * 10
    path = tmp_path / "groups.parquet"
    pq.write_table(_table(sources), path, row_group_size=2000, use_dictionary=False)
    got = list(open_records(path).records)
    assert len(got) == 4010
    assert all(r.fields is not None for r in got[:2000] + got[4000:])
    refused = got[2000:4000]
    assert all(r.problem is not None for r in refused)
    assert refused[0].where == "row 2001"
    assert refused[0].problem is not None and refused[0].problem.startswith(
        "is in rows 2,001-4,000 (row group 2 of 3), whose column 'source' holds a page that "
        "inflates to"
    )
    assert "write the file with smaller pages" in refused[0].problem


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


def test_texts_that_share_a_long_prefix_are_decoded_a_few_rows_at_a_time(tmp_path: Path) -> None:
    n, prefix = 300, "C" * 2**18  # DELTA_BYTE_ARRAY keeps the 256 KiB prefix once: 75 MiB decoded
    path = tmp_path / "prefixes.parquet"
    table = _table([f"{prefix}{i}" for i in range(n)])
    pq.write_table(
        table,
        path,
        use_dictionary=False,
        compression="zstd",
        column_encoding={"source": "DELTA_BYTE_ARRAY"},
        store_schema=False,
    )
    assert path.stat().st_size < 100_000
    setup = "from summscore.files import parquet\nparquet.BATCH_BYTES = 16 * 2**20"
    got = _arrow_peak(path, setup)
    assert len(got["records"]) == n and not any(problem for _, problem in got["records"])
    assert got["peak"] < 100 * 2**20  # about 64 rows a batch, not 300 (measured: 50 MB, 213 MB)


def test_an_empty_row_flood_is_refused_before_it_is_read(tmp_path: Path) -> None:
    n = 2_000_000  # 6,000,000 cells, none with a value
    path = tmp_path / "flood.parquet"
    nulls = pa.nulls(n, pa.string())
    pq.write_table(pa.table({"id": nulls, "source": nulls, "summary": nulls}), path)
    with pytest.raises(InputError, match="an empty-row flood, not rows"):
        open_records(path)


# ------------------------------------------------------------------ page headers

_OPTIONS = st.fixed_dictionaries(
    {
        "compression": st.sampled_from(["none", "snappy", "zstd", "gzip"]),
        "use_dictionary": st.booleans(),
        "data_page_version": st.sampled_from(["1.0", "2.0"]),
        "write_statistics": st.booleans(),
        "write_page_index": st.booleans(),
        "data_page_size": st.sampled_from([64, 4096, 2**20]),
    }
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    options=_OPTIONS,
    texts=st.lists(st.text(max_size=300) | st.none(), min_size=1, max_size=300),
)
def test_page_headers_are_walked_to_the_end_of_every_column_chunk(
    tmp_path_factory: pytest.TempPathFactory, options: dict[str, Any], texts: list[Any]
) -> None:
    path = tmp_path_factory.mktemp("pages") / "pages.parquet"
    lists = [None if t is None else [t, t[:3]] for t in texts]
    table = pa.table({"text": texts, "number": list(range(len(texts))), "texts": lists})
    pq.write_table(table, path, row_group_size=128, **options)
    meta = pq.ParquetFile(path).metadata
    with path.open("rb") as raw:
        for group in range(meta.num_row_groups):
            for column in range(meta.num_columns):
                chunk = meta.row_group(group).column(column)
                start = chunk.data_page_offset
                if chunk.has_dictionary_page and chunk.dictionary_page_offset:
                    start = min(start, chunk.dictionary_page_offset)
                pages = list(parquet_pages.pages(raw, start, start + chunk.total_compressed_size))
                data = sum(p.values for p in pages if not p.dictionary)
                assert data == chunk.num_values
                assert sum(p.dictionary for p in pages) == int(chunk.has_dictionary_page)
    assert [r.fields["text"] for r in open_records(path).records if r.fields] == texts


@settings(max_examples=200, deadline=None)
@given(header=st.binary(max_size=64))
@example(
    header=b"\x55\x00\x00"
)  # a data page header (field 5) that is a number: was AttributeError
def test_a_damaged_page_header_is_an_error_never_a_hang(header: bytes) -> None:
    raw = io.BytesIO(header + b"\xff" * 8)
    try:
        for page in parquet_pages.pages(raw, 0, len(header)):
            assert page.size >= 0 and page.values >= 0
    except (ValueError, EOFError):
        pass
