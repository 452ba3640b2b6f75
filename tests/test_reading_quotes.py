"""A quote that opens a CSV or TSV cell and never closes: the csv module reads every line after
it into that one cell, so the rows below vanish into the row above (whose score then depends on
them). The reader fails that row alone, naming its line, and reads the lines after it again as
rows of their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from summscore.files.datasets import read_rows

_HEADER = {"csv": "id,source,summary\n", "tsv": "id\tsource\tsummary\n"}


def _line(fmt: str, *cells: str) -> str:
    return ("," if fmt == "csv" else "\t").join(cells) + "\n"


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_an_unclosed_quote_fails_its_row_alone_and_the_rows_after_it_are_read(
    tmp_path: Path, fmt: str
) -> None:
    lines = [_line(fmt, f"r{i}", f"The mill {i} closed in 1990.", "It closed.") for i in range(6)]
    lines[2] = _line(fmt, "r2", '"The mill 2 closed in 1990.', "It closed.")  # never closes
    lines[4] = _line(fmt, "r4", '"The mill 4\nclosed in 1990."', "It closed.")  # a real quote
    path = tmp_path / f"data.{fmt}"
    path.write_text(_HEADER[fmt] + "".join(lines), encoding="utf-8")
    rows = list(read_rows(path))
    assert [r.id for r in rows] == ["r0", "r1", "r2", "r3", "r4", "r5"]
    errors = {r.id: r.error for r in rows if r.error}
    assert list(errors) == ["r2"], errors
    assert "line 4" in str(rows[2].error) and "never closes" in str(rows[2].error)
    assert rows[3].source == "The mill 3 closed in 1990." and rows[3].where == "line 5"
    assert rows[4].source == "The mill 4\nclosed in 1990." and rows[4].where == "line 6"
    assert rows[5].source == "The mill 5 closed in 1990." and rows[5].where == "line 8"


def test_an_unclosed_quote_on_the_last_line_fails_that_row(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    path.write_text(
        _HEADER["csv"] + _line("csv", "a", "The mill closed.", "Closed.") + 'b,"The mill,Closed.',
        encoding="utf-8",
    )
    rows = list(read_rows(path))
    assert rows[0].error is None and rows[1].error is not None
    assert "line 3" in rows[1].error and "never closes" in rows[1].error


def test_two_unclosed_quotes_fail_two_rows_and_keep_the_others(tmp_path: Path) -> None:
    lines = [_line("csv", f"r{i}", f"Town {i} built homes.", "Homes.") for i in range(8)]
    lines[1] = _line("csv", "r1", '"Town 1 built homes.', "Homes.")
    lines[5] = _line("csv", "r5", "Town 5 built homes.", '"Homes.')
    path = tmp_path / "data.csv"
    path.write_text(_HEADER["csv"] + "".join(lines), encoding="utf-8")
    rows = list(read_rows(path))
    assert [r.id for r in rows] == [f"r{i}" for i in range(8)]
    assert [r.id for r in rows if r.error] == ["r1", "r5"]
    assert [r.where for r in rows] == [f"line {i + 2}" for i in range(8)]


def test_an_unclosed_quote_past_the_cell_cap_loses_no_row_after_it(tmp_path: Path) -> None:
    # The open cell reached the 2,000,000-character cap before the file ended: the csv module
    # stopped there and the rows it had swallowed (about 2 MB of them) were lost, the row told
    # only that its cell was too long.
    text = "The mill closed in 1990 after a long decline of the wool trade in the valley. " * 5
    lines = [_line("csv", f"r{i}", text, "It closed.") for i in range(6_000)]
    lines[3] = _line("csv", "r3", '"' + text, "It closed.")  # never closes
    path = tmp_path / "data.csv"
    path.write_text(_HEADER["csv"] + "".join(lines), encoding="utf-8")
    rows = list(read_rows(path))
    assert [r.id for r in rows] == [f"r{i}" for i in range(6_000)]
    assert [r.id for r in rows if r.error] == ["r3"]
    assert "line 5" in str(rows[3].error) and "read again" in str(rows[3].error)


def test_a_row_of_many_quoted_cells_with_line_breaks_is_capped_as_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each cell is under the cell cap, but the record was held whole (lines and cells) until
    # it ended: 150 MB of such cells in one row peaked at 750 MB. Past the line cap it fails,
    # and its lines are read again as rows, so the row after it is still read.
    from summscore.files import delimited

    cell = '"' + ("a" * 99 + "\n") * 100 + '"'  # 10,000 characters over 100 lines
    path = tmp_path / "data.csv"
    path.write_text(
        "id,source,summary\nwide," + ",".join([cell] * 12) + "\n"
        'last,"The mill closed.","It closed."\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(delimited, "MAX_LINE_CHARS", 50_000)  # five cells: the cap, scaled down
    rows = list(read_rows(path))
    assert rows[0].id == "wide" and "characters of lines" in str(rows[0].error)
    assert rows[-1].id == "last" and rows[-1].error is None
    assert rows[-1].source == "The mill closed."


def test_a_tsv_cell_that_only_begins_with_a_quote_is_read_as_it_is(tmp_path: Path) -> None:
    """TSV (IANA's) has no quoting: a summary that begins with a quotation, `"Yes" she said.`,
    lost its quotes to the csv module (`Yes she said.`), silently. A line that is not valid
    quoted CSV is read as plain TSV; a cell quoted whole (as Excel writes one) still loses its
    quotes, and CSV keeps reading as CSV does."""
    path = tmp_path / "data.tsv"
    lines = [
        _line("tsv", "r0", "The mill closed in 1990.", '"Closed," they said, "in 1990".'),
        _line("tsv", '"r1" b', "The mill closed.", "It closed."),
        _line("tsv", "r2", '"The mill closed.\tin 1990"', '"It ""closed""."'),
    ]
    path.write_text(_HEADER["tsv"] + "".join(lines), encoding="utf-8")
    rows = list(read_rows(path))
    assert [r.error for r in rows] == [None, None, None]
    assert rows[0].summary == '"Closed," they said, "in 1990".'
    assert rows[1].id == '"r1" b'
    assert (rows[2].source, rows[2].summary) == ("The mill closed.\tin 1990", 'It "closed".')
