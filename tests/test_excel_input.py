"""Excel workbooks as input: `summscore score book.xlsx`, the report over it, --sheet, and the
whole-file problems (a legacy .xls, a damaged or gzipped workbook, several sheets with data), with
workbooks as other programs write them (a wrong size record, a title row, error values)."""

from __future__ import annotations

import datetime
import json
import re
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from summscore.cli import main
from summscore.errors import MissingExtraError
from summscore.files.datasets import Columns, InputError, open_rows, read_rows
from summscore.files.records import count_records

openpyxl = pytest.importorskip("openpyxl")

ROOT = Path(__file__).resolve().parent.parent
NEWS = ROOT / "examples" / "news.jsonl"


def _book(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    book.save(path)
    return path


def _patch(path: Path, member: str, change: Callable[[str], str]) -> None:
    """Rewrite one XML part of a saved workbook (as a program other than Excel might write it)."""
    with zipfile.ZipFile(path) as book:
        parts = {name: book.read(name) for name in book.namelist()}
    parts[member] = change(parts[member].decode("utf-8")).encode("utf-8")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as book:
        for name, data in parts.items():
            book.writestr(name, data)


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_workbook_scores_as_the_same_rows_in_jsonl(tmp_path: Path) -> None:
    cases = _jsonl(NEWS)[:4]
    rows: list[list[Any]] = [["id", "source", "summary"]]
    rows += [[case["id"], case["source"], case["summary"]] for case in cases]
    book = _book(tmp_path / "news.xlsx", {"runs": rows})
    out_x, out_j = tmp_path / "x.jsonl", tmp_path / "j.jsonl"
    plain = tmp_path / "news.jsonl"
    plain.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    for source, out in ((book, out_x), (plain, out_j)):
        assert main(["score", str(source), "--out", str(out), "--no-progress"]) == 0
    got, want = _jsonl(out_x), _jsonl(out_j)
    assert [r["id"] for r in got] == [c["id"] for c in cases]
    assert [r["score"] for r in got] == [r["score"] for r in want]
    assert all(r["error"] is None for r in got)


def test_rows_are_named_by_the_sheets_row_number_and_a_bad_row_stops_nothing(
    tmp_path: Path,
) -> None:
    contexts = json.dumps(["The bridge closed in March.", "It reopened in May."])
    book = _book(
        tmp_path / "b.xlsx",
        {
            "data": [
                [],  # a title row left empty, then the header on row 2
                ["id", "source", "summary", "checked on"],
                ["a1", "The council approved 3,800 homes.", "It approved 3,800 homes.", None],
                [],
                ["a2", contexts, "The bridge reopened in May.", datetime.date(2024, 5, 1)],
                ["a3", "Some source text.", None, None],
                [None, "Numbers 12 and 14.", "#N/A", None],
                ["a5", "Oslo is the capital of Norway.", "Oslo is Norway's capital.", None],
            ]
        },
    )
    reader = open_rows(book)
    assert reader.format == "xlsx" and reader.file_columns == [
        "id",
        "source",
        "summary",
        "checked on",
    ]
    rows = list(reader)
    assert [r.where for r in rows] == ["row 3", "row 5", "row 6", "row 7", "row 8"]
    assert rows[0].id == "a1" and rows[0].error is None
    assert rows[1].source == ["The bridge closed in March.", "It reopened in May."]
    assert rows[2].error is not None and rows[2].error.startswith("row 6 (id 'a3'):")
    assert "summary" in rows[2].error
    assert rows[3].id == 4 and rows[3].error is not None  # no id: the record's ordinal
    assert rows[3].error == "row 7 (id 4): column 'summary' holds the Excel error #N/A, not text"
    assert rows[4].error is None

    out = tmp_path / "out.jsonl"
    assert main(["score", str(book), "--out", str(out), "--no-progress"]) == 3  # rows failed
    results = _jsonl(out)
    assert [r["id"] for r in results] == ["a1", "a2", "a3", 4, "a5"]
    assert [r["error"] is None for r in results] == [True, True, False, False, True]


def test_several_sheets_with_data_need_sheet_and_an_empty_one_does_not(tmp_path: Path) -> None:
    header = ["source", "summary"]
    first = [header, ["Oslo is the capital of Norway.", "Oslo is Norway's capital."]]
    second = [
        header,
        ["Water boils at 100 C.", "Water boils at 100 C."],
        ["The museum opened in 1990 in Bergen.", "The museum opened in 1990."],
    ]
    book = _book(tmp_path / "two.xlsx", {"Round 1": first, "Round 2": second})
    with pytest.raises(InputError, match=r"several sheets hold data \('Round 1', 'Round 2'\)"):
        open_rows(book)
    assert len(list(read_rows(book, sheet="Round 2"))) == 2
    assert len(list(read_rows(book, sheet="Round 1"))) == 1
    with pytest.raises(InputError, match=r"no sheet 'Round 3' \(--sheet\)"):
        open_rows(book, sheet="Round 3")

    notes = _book(tmp_path / "notes.xlsx", {"data": first, "notes": [[], [None]]})
    assert len(list(read_rows(notes))) == 1
    cover = _book(tmp_path / "cover.xlsx", {"Cover": [], "Data": first})
    assert len(list(read_rows(cover))) == 1  # the only sheet that holds data
    assert len(list(read_rows(book, sheet="round 2"))) == 2  # as Excel: any letter case

    out = tmp_path / "out.jsonl"
    code = main(["score", str(book), "--sheet", "Round 2", "--out", str(out), "--no-progress"])
    assert code == 0 and len(_jsonl(out)) == 2


def test_each_sheet_has_its_own_default_results_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without --out, scoring Round 2 after Round 1 must neither replace Round 1's results nor,
    # with --resume, reuse them (ids are row numbers in both sheets).
    header = ["source", "summary"]
    one = [header, ["Oslo is the capital of Norway.", "Oslo is Norway's capital."]]
    two = [header, ["The museum opened in 1990 in Bergen.", "The museum opened in 1990."]]
    book = _book(tmp_path / "book.xlsx", {"Round 1": one, "Round 2": two})
    monkeypatch.chdir(tmp_path)
    for sheet in ("Round 1", "Round 2"):
        assert main(["score", "book.xlsx", "--sheet", sheet, "--no-progress", "--resume"]) == 0
    assert count_records(book, sheet="Round 2") == 1  # the progress bar's total
    assert count_records(book) is None  # (several sheets: no total rather than a wrong one)
    first = _jsonl(tmp_path / "summscore-out" / "book.Round 1.results.jsonl")
    second = _jsonl(tmp_path / "summscore-out" / "book.Round 2.results.jsonl")
    assert first[0]["score"] != second[0]["score"]
    assert book.exists()
    # --sheet in another letter case names the same sheet, so the same results file.
    assert main(["score", "book.xlsx", "--sheet", "ROUND 2", "--no-progress", "--resume"]) == 0
    assert len(list((tmp_path / "summscore-out").iterdir())) == 2


def test_a_wrong_size_record_loses_no_row_and_costs_no_time(tmp_path: Path) -> None:
    rows = [["id", "source", "summary"]]
    rows += [[f"r{i}", f"Item {i} was sold in Oslo.", f"Item {i} sold."] for i in range(10)]
    book = _book(tmp_path / "b.xlsx", {"data": rows})
    sheet_part = "xl/worksheets/sheet1.xml"
    for claimed in ("A1:C4", "A1", "A1:XFD1048576"):
        _patch(
            book,
            sheet_part,
            lambda xml, claimed=claimed: re.sub(
                r'<dimension ref="[^"]*"', f'<dimension ref="{claimed}"', xml
            ),
        )
        read = list(read_rows(book))
        assert [r.id for r in read] == [f"r{i}" for i in range(10)], claimed
        assert all(r.error is None for r in read)


def test_a_title_row_above_the_header_and_cells_as_excel_saves_them(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"] = "Ratings, round 2"
    sheet.merge_cells("A1:D1")
    sheet.append(["id", "source", "summary", "note"])
    sheet.append(
        ["t1", "Oslo is the capital._x000D_\nIt is large.", "Oslo is the capital.", "#REF!"]
    )
    sheet.append(["t2", "The answer given was 42.", 42, None])
    sheet.append(["t3", "The vote passed: TRUE, said the clerk.", True, None])
    sheet.append(["t4", "The board met on Monday [3]", "The board met on Monday.", None])
    path = tmp_path / "t.xlsx"
    book.save(path)
    rows = list(read_rows(path))
    assert [r.where for r in rows] == ["row 3", "row 4", "row 5", "row 6"]
    assert rows[0].source == "Oslo is the capital.\r\nIt is large."  # _x000D_ decoded
    assert rows[0].error is None  # an error value in a column not used costs nothing
    assert rows[1].summary == "42" and rows[2].summary == "TRUE"  # the text the cell shows
    assert rows[3].error is None and rows[3].source.endswith("[3]")  # text, not a broken list


def test_a_cell_merged_over_rows_gives_its_value_to_each_of_them(tmp_path: Path) -> None:
    source = "The bridge in Lund opened in 1911 and carries 900 cars a day."
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["id", "source", "summary", "note"])
    sheet.append(["a", source, "The bridge opened in 1911.", "checked"])
    sheet.append(["b", None, "It carries 900 cars a day.", None])
    sheet.append(["c", None, None, None])  # inside the block, but with no summary
    sheet.append(["d", "Rain fell in Oslo.", "It rained in Oslo.", None])
    sheet.append(["e", None, "It rained.", None])  # not merged: an empty source stays empty
    sheet.merge_cells("B2:B4")  # one source beside its summaries
    sheet.merge_cells("D2:E2")  # merged across columns only: nothing to give down
    path = tmp_path / "merged.xlsx"
    book.save(path)
    rows = list(read_rows(path))
    assert [r.id for r in rows] == ["a", "b", "c", "d", "e"]
    assert [r.source for r in rows[:2]] == [source, source]
    assert "column 'summary' is empty" in (rows[2].error or "")  # its own, not the block's
    assert rows[3].summary == "It rained in Oslo." and rows[3].error is None
    assert rows[4].error is not None and "source" in rows[4].error
    # The same rows scored as a JSONL file with the source written out give the same numbers.
    plain = tmp_path / "plain.jsonl"
    plain.write_text(
        "".join(
            json.dumps({"id": i, "source": source, "summary": s}) + "\n"
            for i, s in (("a", "The bridge opened in 1911."), ("b", "It carries 900 cars a day."))
        ),
        encoding="utf-8",
    )
    # Another program's spelling of the same merge: quotes, spaces, absolute references.
    _patch(
        path, "xl/worksheets/sheet1.xml", lambda x: x.replace('ref="B2:B4"', "ref = '$B$2:$B$4'")
    )
    assert [r.source for r in read_rows(path)][:2] == [source] * 2
    merged_out, plain_out = tmp_path / "m.jsonl", tmp_path / "p.jsonl"
    assert main(["score", str(path), "--out", str(merged_out), "--no-progress"]) == 3
    assert main(["score", str(plain), "--out", str(plain_out), "--no-progress"]) == 0
    scores = [r["score"] for r in _jsonl(merged_out)[:2]]
    assert scores == [r["score"] for r in _jsonl(plain_out)]


def test_the_report_reads_the_same_sheet(tmp_path: Path) -> None:
    rows = [["id", "source", "summary"], ["r1", "The cat sat on the mat.", "A cat sat."]]
    book = _book(tmp_path / "b.xlsx", {"other": [["x"], [1]], "runs": rows})
    out, report = tmp_path / "out.jsonl", tmp_path / "r.html"
    args = ["score", str(book), "--sheet", "runs", "--out", str(out), "--no-progress"]
    assert main([*args, "--report", str(report)]) == 0
    assert "r1" in report.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("old.xls", b"\xd0\xcf\x11\xe0", "Excel 97-2003 format is not read; save it as .xlsx"),
        ("sheet.ods", b"PK", "OpenDocument spreadsheets are not read"),
        ("damaged.xlsx", b"PK\x03\x04 not really a zip", "not an Excel workbook (not a zip file"),
        ("text.xlsx", b"source,summary\na,b\n", "not an Excel workbook (not a zip file"),
        ("locked.xlsx", b"\xd0\xcf\x11\xe0\xa1\xb1", "a password-protected workbook or an old"),
        ("packed.xlsx.gz", b"\x1f\x8b", "compressed already; unpack the .gz first"),
    ],
)
def test_whole_file_problems_are_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    assert main(["score", str(path), "--out", str(tmp_path / "o.jsonl"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "o.jsonl").exists()


def test_an_error_value_in_the_id_or_questions_column_fails_its_row_naming_it(
    tmp_path: Path,
) -> None:
    source = "Oslo is the capital of Norway."
    rows = [
        ["id", "source", "summary", "assessment_questions"],
        ["#N/A", source, "Oslo is the capital.", None],
        ["q1", source, "Oslo is the capital.", "#VALUE!"],
        ["ok", source, "Oslo is the capital.", '["Is Oslo the capital of Norway?"]'],
    ]
    book = _book(tmp_path / "b.xlsx", {"data": rows})
    read = list(read_rows(book))
    assert read[0].error == "row 2 (id 1): column 'id' holds the Excel error #N/A"
    assert read[1].error == (
        "row 3 (id 'q1'): column 'assessment_questions' holds the Excel error #VALUE!"
    )
    assert read[2].error is None and read[2].assessment_questions == [
        "Is Oslo the capital of Norway?"
    ]


def test_a_damaged_sheet_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = _book(tmp_path / "b.xlsx", {"data": [["source", "summary"], ["A b c d.", "A b."]]})
    _patch(book, "xl/worksheets/sheet1.xml", lambda xml: xml[: len(xml) // 2])
    assert main(["score", str(book), "--out", str(tmp_path / "o.jsonl"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "sheet 'data' cannot be read" in err and "Traceback" not in err


def test_an_empty_workbook_and_sheet_on_a_csv_are_refused(tmp_path: Path) -> None:
    empty = _book(tmp_path / "empty.xlsx", {"data": [[], [None, ""]]})
    with pytest.raises(InputError, match="no sheet of the workbook holds data"):
        open_rows(empty)
    one_column = _book(tmp_path / "one.xlsx", {"data": [["summary"], ["A b."]]})
    with pytest.raises(InputError, match="sheet 'data' has no header row"):
        open_rows(one_column)
    data = tmp_path / "d.csv"
    data.write_text("source,summary\na b c,a b\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"--sheet is for Excel workbooks"):
        open_rows(data, sheet="data")


def test_without_openpyxl_the_extra_to_install_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = _book(tmp_path / "b.xlsx", {"data": [["source", "summary"], ["a b c", "a b"]]})
    monkeypatch.setitem(sys.modules, "openpyxl", None)
    with pytest.raises(MissingExtraError, match=r'pip install -e "\.\[excel\]"'):
        open_rows(book, Columns())
