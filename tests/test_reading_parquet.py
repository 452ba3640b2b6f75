"""Reading Parquet holds a bounded amount whatever the file claims: a page that would inflate to
an over-long cell, or past the memory bound, is never decompressed (its row group's rows fail,
named, the others are read); a text past the cell cap fails its row, named with its column; an
empty-row flood is refused before it is walked; page headers are walked to the end, and a
damaged one is an error, never a hang. Dictionaries: tests/test_reading_parquet_dictionaries.py.

Arrow's own allocations are measured in a fresh process (``pyarrow``'s memory pool peak), as
Python's tracemalloc does not see them."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from summscore.files import parquet_pages  # noqa: E402
from summscore.files.datasets import InputError, read_rows  # noqa: E402
from summscore.files.records import open_records  # noqa: E402
from tests.parquet_support import _arrow_peak, _table  # noqa: E402


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
