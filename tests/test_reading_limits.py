"""Reading files holds at most a capped line or cell, whatever the file: an over-long line or cell
fails its row (named) while it is read, the rows after it are read; a pipe is read as a stream
or refused, never waited on forever; a device is refused; workbooks that inflate to one huge
cell or to a flood of empty cells are refused before openpyxl reads them.

Memory figures are measured by ``benchmarks/cli_memory.py --readers`` (peak RSS of a process),
not asserted here."""

from __future__ import annotations

import json
import os
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from summscore.cli import main
from summscore.files import delimited, limits, records
from summscore.files.datasets import InputError, read_rows
from summscore.files.records import open_records

CAP = 64  # the line cap in the property tests (the real one is 16,777,216 characters)


def _record(i: int) -> dict[str, Any]:
    return {"id": f"r{i}", "source": f"Source {i}.", "summary": f"Sum {i}."}


@pytest.fixture
def small_caps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(records, "MAX_LINE_CHARS", CAP)
    monkeypatch.setattr(delimited, "MAX_LINE_CHARS", CAP)
    monkeypatch.setattr(delimited, "MAX_CELL_CHARS", CAP // 2)


_LINE = st.one_of(
    st.integers(0, 30).map(lambda i: ("row", i)),
    st.sampled_from([CAP - 1, CAP, CAP + 1, 3 * CAP, 40 * CAP]).flatmap(
        lambda n: st.sampled_from(["\x00", "a", "é", "\r"]).map(lambda c: ("long", c * n))
    ),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=st.lists(_LINE, min_size=1, max_size=12), newline=st.sampled_from(["\n", "\r\n"]))
def test_jsonl_any_mix_of_over_long_lines_and_rows(
    tmp_path: Path, small_caps: None, lines: list[tuple[str, Any]], newline: str
) -> None:
    path = tmp_path / "in.jsonl"
    text = [json.dumps(_record(v)) if kind == "row" else v.replace("\r", "x") for kind, v in lines]
    path.write_bytes(newline.join(text).encode("utf-8") + b"\n")
    got = list(open_records(path).records)
    assert [r.number for r in got] == list(range(1, len(lines) + 1))  # one each, in order
    for (kind, value), raw, record in zip(lines, text, got):
        if kind == "row":
            assert record.fields == _record(value)
        elif len(raw) > CAP:
            assert record.problem and "longer than 64 characters" in record.problem
        else:
            assert record.problem is not None  # not JSON, but short: read as it is


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(cells=st.lists(st.integers(0, 3 * CAP), min_size=1, max_size=10))
def test_csv_cells_past_the_cap_fail_their_row_and_the_rest_are_read(
    tmp_path: Path, small_caps: None, cells: list[int]
) -> None:
    path = tmp_path / "in.csv"
    body = [f'r{i},"{"s" * n}",short' for i, n in enumerate(cells)]
    path.write_text("id,source,summary\n" + "\n".join(body) + "\n", encoding="utf-8")
    got = list(open_records(path).records)
    assert len(got) == len(cells)
    for i, (n, record) in enumerate(zip(cells, got)):
        line = len(body[i])
        if line > CAP:
            assert record.problem and "longer than 64 characters" in record.problem
            assert record.where == f"line {i + 2}"
        elif n > CAP // 2:
            assert record.problem and "has a cell longer than 32 characters" in record.problem
        else:
            assert record.fields == {"id": f"r{i}", "source": "s" * n, "summary": "short"}


def test_a_file_of_nul_bytes_with_no_line_end_is_refused_at_the_cap(tmp_path: Path) -> None:
    for suffix in (".csv", ".jsonl"):
        path = tmp_path / f"sparse{suffix}"
        with path.open("wb") as handle:
            handle.truncate(64 * 2**20)  # 64 MiB of NULs, one line: read past in pieces
        if suffix == ".csv":
            with pytest.raises(InputError, match="the header line is longer than 16,777,216"):
                open_records(path)
        else:
            with pytest.raises(InputError, match="line 1 is longer than 16,777,216"):
                list(read_rows(path))


def test_a_device_is_refused_and_never_read(tmp_path: Path) -> None:
    link = tmp_path / "zero.jsonl"
    link.symlink_to("/dev/zero")
    with pytest.raises(InputError, match="is a device or a socket, not a file"):
        open_records(link)


def test_a_fifo_nobody_writes_to_is_refused_in_bounded_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(limits, "PIPE_WAIT", 0.3)
    fifo = tmp_path / "rows.jsonl"
    os.mkfifo(fifo)
    started = time.monotonic()
    assert main(["score", str(fifo), "--out", str(tmp_path / "o.jsonl")]) == 2
    assert "a pipe that nothing was written to" in capsys.readouterr().err
    assert time.monotonic() - started < 60  # (bounded: the wait is 0.3 s, not forever)


def test_a_fifo_is_read_once_as_a_stream(tmp_path: Path) -> None:
    fifo = tmp_path / "rows.jsonl"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("w", encoding="utf-8") as handle:
            for i in range(3):
                handle.write(json.dumps(_record(i)) + "\n")

    writer = threading.Thread(target=write)
    writer.start()
    out = tmp_path / "o.jsonl"
    assert main(["score", str(fifo), "--out", str(out)]) == 0  # (the progress bar's count too)
    writer.join()
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["r0", "r1", "r2"]


# ------------------------------------------------------------------ workbooks

_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def _workbook(path: Path, sheet: bytes | list[bytes], strings: list[bytes]) -> Path:
    """A minimal .xlsx with ``sheet`` (its sheetData) and shared ``strings`` (their <si>)."""
    parts = {
        "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
        "_rels/.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<?xml version="1.0"?><workbook {_NS} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
        with archive.open("xl/sharedStrings.xml", "w", force_zip64=True) as part:
            part.write(f'<?xml version="1.0"?><sst {_NS}>'.encode())
            for item in strings:
                part.write(b"<si><t>" + item + b"</t></si>")
            part.write(b"</sst>")
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part:
            part.write(f'<?xml version="1.0"?><worksheet {_NS}><sheetData>'.encode())
            for piece in [sheet] if isinstance(sheet, bytes) else sheet:
                part.write(piece)
            part.write(b"</sheetData></worksheet>")
    return path


_HEADER = b'<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'
_ROW = b'<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="s"><v>3</v></c></row>'


def test_a_workbook_that_inflates_to_one_huge_cell_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("openpyxl")
    huge = b"A" * (32 * 2**20)  # inflates from about 32 kB
    big = _workbook(tmp_path / "bomb.xlsx", _HEADER + _ROW, [b"source", b"summary", huge, b"short"])
    assert big.stat().st_size < 200_000  # a small file...
    with pytest.raises(InputError, match="table of shared text is longer than 2,000,000"):
        open_records(big)  # ...refused before openpyxl builds the cell
    inline = _workbook(
        tmp_path / "inline.xlsx",
        _HEADER + b'<row r="2"><c r="A2" t="inlineStr"><is><t>' + huge + b"</t></is></c></row>",
        [b"source", b"summary"],
    )
    with pytest.raises(InputError, match="holds a cell longer than 2,000,000"):
        open_records(inline)


def test_a_cell_cut_into_rich_text_runs_is_refused_as_one_huge_cell(tmp_path: Path) -> None:
    """A text cut into thousands of runs (``<r><t>...</t></r>``) has no long stretch between two
    tags, so it passed the scan, and openpyxl joined it whole: 3,000 runs of 64 KiB, a 215 kB
    workbook, peaked at 834 MB before its row failed. It is refused like one huge cell, inline
    or in the table of shared text."""
    pytest.importorskip("openpyxl")
    runs = b"<r><t>" + b"A" * 2**16 + b"</t></r>"
    inline = _workbook(
        tmp_path / "runs.xlsx",
        [_HEADER, b'<row r="2"><c r="A2" t="inlineStr"><is>', *[runs] * 300, b"</is></c></row>"],
        [b"source", b"summary"],
    )
    assert inline.stat().st_size < 200_000
    with pytest.raises(InputError, match="holds a cell longer than 2,000,000"):
        open_records(inline)
    shared = tmp_path / "shared_runs.xlsx"
    _workbook(shared, _HEADER + _ROW, [b"source", b"summary", b"</t>" + runs * 300 + b"<t>", b"x"])
    with pytest.raises(InputError, match="table of shared text is longer than 2,000,000"):
        open_records(shared)


def test_an_empty_cell_flood_is_refused_before_it_is_walked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("openpyxl")
    from summscore.files import xlsx_guard

    monkeypatch.setattr(xlsx_guard, "FLOOD_CELLS", 20_000)  # (the real budget: 5,000,000)
    empty = b"".join(b'<c r="%s%d" s="1"/>' % (c, n) for n in range(3, 15000) for c in (b"C", b"D"))
    path = _workbook(
        tmp_path / "flood.xlsx",
        [_HEADER, _ROW, b'<row r="3">', empty, b"</row>"],
        [b"source", b"summary", b"The bridge opened.", b"It opened."],
    )
    with pytest.raises(InputError, match="an empty-cell flood"):
        open_records(path)


def test_a_row_is_not_padded_to_an_empty_cell_in_the_last_column(tmp_path: Path) -> None:
    """Before, each such row cost 16,384 values: 4,000 of them took minutes; now milliseconds."""
    pytest.importorskip("openpyxl")
    rows = [b'<row r="%d"><c r="XFD%d" s="1"/></row>' % (n, n) for n in range(3, 4003)]
    path = _workbook(
        tmp_path / "wide.xlsx",
        [_HEADER, _ROW, *rows],
        [b"source", b"summary", b"The bridge opened.", b"It opened."],
    )
    got = list(read_rows(path))
    assert [(r.source, r.summary) for r in got] == [("The bridge opened.", "It opened.")]
