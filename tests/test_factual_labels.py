"""The factual-consistency benchmark on a user's own labelled file (``--labels``): labels as
people write them, sets and cuts from columns, graded labels, and rows that cannot be used named
and left out without stopping the others."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from factual_consistency import main  # noqa: E402
from fc_labels import LabelError, parse_label, read_labelled  # noqa: E402

from summscore.files.datasets import Columns  # noqa: E402

SOURCE = "The council approved the new budget of 3 million on Monday, the mayor said."
FAITHFUL = "The council approved the new budget on Monday."
INVENTED = "The governor vetoed a tax cut for farmers in Texas."


@pytest.mark.parametrize(
    ("value", "label"),
    [
        (1, 1),
        (0, 0),
        (1.0, 1),
        (True, 1),
        (False, 0),
        ("1", 1),
        ("0.0", 0),
        (" Consistent ", 1),
        ("INCONSISTENT", 0),
        ("correct", 1),
        ("Non-Factual", 0),
        ("non_factual", 0),
        ("yes", 1),
        ("unfaithful", 0),
        ("1.00", 1),
        ("+1", 1),
        ("T", 1),
        ("n", 0),
        ("Not consistent", 0),
    ],
)
def test_labels_are_read_as_people_write_them(value: object, label: int) -> None:
    assert parse_label(value) == label


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (0.5, "--graded-column"),
        ("maybe", "is not a label"),
        ("", "is empty"),
        (None, "is empty"),
        (float("nan"), "is empty"),
        ("-1", "is not 0 or 1"),  # some sets mark "no label" with -1: never read as 1 or 0
        (-1, "is not 0 or 1"),
    ],
)
def test_a_value_that_is_no_label_says_why(value: object, says: str) -> None:
    with pytest.raises(LabelError, match=says):
        parse_label(value)


def _write_csv(path: Path, rows: list[dict[str, object]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def _row(i: int, summary: str, label: object, cut: str, origin: str) -> dict[str, object]:
    return {
        "id": f"r{i}",
        "doc": SOURCE,
        "summary": summary,
        "label": label,
        "cut": cut,
        "dataset": "mine",
        "origin": origin,
    }


def test_sets_cuts_and_bad_rows_of_a_csv(tmp_path: Path) -> None:
    rows = [
        _row(1, FAITHFUL, "1", "val", "news"),
        _row(2, INVENTED, "0", "val", "news"),
        _row(3, FAITHFUL, "consistent", "test", "news"),
        _row(4, INVENTED, "incorrect", "Validation", "news"),
        _row(5, "   ", "1", "test", "news"),  # empty summary
        _row(6, FAITHFUL, "perhaps", "test", "news"),  # no label
        _row(7, FAITHFUL, "1", "test", "chat"),  # read after the bad rows
    ]
    path = _write_csv(tmp_path / "mine.csv", rows)
    pairs, problems = read_labelled(
        path,
        columns=Columns(source="doc"),
        dataset_columns=("dataset", "origin"),
    )
    assert [(p.id, p.dataset, p.label, p.cut) for p in pairs] == [
        ("r1", "mine-news", 1, "val"),
        ("r2", "mine-news", 0, "val"),
        ("r3", "mine-news", 1, "test"),
        ("r4", "mine-news", 0, "val"),
        ("r7", "mine-chat", 1, "test"),
    ]
    assert len(problems) == 2
    assert problems[0].startswith("mine.csv: line 6 (id 'r5')") and "summary" in problems[0]
    assert problems[1].startswith("mine.csv: line 7 (id 'r6')")
    assert "column 'label'" in problems[1] and "'perhaps'" in problems[1]


def test_the_benchmark_runs_on_a_labelled_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [_row(i, FAITHFUL if i % 2 else INVENTED, i % 2, "test", "news") for i in range(8)]
    rows.append(_row(99, FAITHFUL, "perhaps", "test", "news"))
    path = _write_csv(tmp_path / "mine.csv", rows)
    out_json = tmp_path / "figures.json"
    assert main(["--labels", str(path), "--source-column", "doc", "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    assert "left out: mine.csv: line 10 (id 'r99'): column 'label'" in out
    assert "1 row(s) left out of the figures, 8 read" in out
    assert "not in the data folder" not in out  # no development set is expected here
    assert "judge beats both baselines on" in out and "of 1 labelled sets" in out
    figures = json.loads(out_json.read_text(encoding="utf-8"))
    assert figures["mine"]["pairs"] == 8 and figures["mine"]["positive"] == 4
    assert figures["mine"]["alignment"]["auc"] == 1.0  # copied against invented


def test_graded_labels_alone_make_the_top_grade_consistent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A 1-5 consistency score per row, as SummEval-style annotations give; sources as lists of
    # passages (ragas contexts) are read as one text.
    grades = [5, 1, 4, 2, 5, 1]
    path = tmp_path / "likert.jsonl"
    path.write_text(
        "\n".join(
            json.dumps(
                {
                    "source": [SOURCE, "It takes effect in May."],
                    "summary": FAITHFUL if g >= 4 else INVENTED,
                    "consistency": g,
                }
            )
            for g in grades
        )
        + "\n",
        encoding="utf-8",
    )
    pairs, problems = read_labelled(path, graded_column="consistency")
    assert problems == []
    assert [p.label for p in pairs] == [1, 0, 0, 0, 1, 0]  # only the top grade counts as 1
    assert [p.graded for p in pairs] == [5.0, 1.0, 4.0, 2.0, 5.0, 1.0]
    assert {p.dataset for p in pairs} == {"likert"}
    assert main(["--labels", str(path), "--graded-column", "consistency"]) == 0
    out = capsys.readouterr().out
    assert "(Spearman " in out  # a graded set is judged on Spearman


def test_a_file_without_labels_is_one_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write_csv(tmp_path / "plain.csv", [{"source": SOURCE, "summary": FAITHFUL}])
    with pytest.raises(SystemExit, match=r"no label column 'label'.*the file has: source, summary"):
        main(["--labels", str(path)])
    with pytest.raises(SystemExit, match="no graded column 'score'"):
        main(["--labels", str(path), "--graded-column", "score"])


def test_a_json_file_names_its_columns_in_any_row(tmp_path: Path) -> None:
    # The first row has no label and no set; later rows do: the file is still read, the first
    # row is named, and the set column is the file's.
    rows = [
        {"source": SOURCE, "summary": FAITHFUL},
        {"source": SOURCE, "summary": FAITHFUL, "label": 1, "fold": 0},
        {"source": SOURCE, "summary": INVENTED, "label": 0, "fold": 0},
        {"source": SOURCE, "summary": INVENTED, "label": 0, "fold": ""},
        {"source": SOURCE, "summary": FAITHFUL, "label": 1, "fold": 1},
    ]
    path = tmp_path / "late.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    pairs, problems = read_labelled(path, dataset_columns=("fold",))
    assert [(p.dataset, p.label) for p in pairs] == [("0", 1), ("0", 0), ("1", 1)]  # 0 is a set
    assert len(problems) == 2
    assert "line 1" in problems[0] and "column 'label' is missing from this row" in problems[0]
    assert "line 4" in problems[1] and "column 'fold' is empty" in problems[1]


def test_a_named_label_column_must_exist_even_with_a_graded_one(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps({"source": SOURCE, "summary": FAITHFUL, "g": 3}) + "\n")
    with pytest.raises(SystemExit, match="no label column 'lbel'"):
        main(["--labels", str(path), "--graded-column", "g", "--label-column", "lbel"])


def test_parquet_and_other_encodings_are_read(tmp_path: Path) -> None:
    pyarrow = pytest.importorskip("pyarrow")
    from pyarrow import parquet

    table = pyarrow.table(
        {"source": [SOURCE] * 4, "summary": [FAITHFUL, INVENTED] * 2, "label": [1, 0, 1, 0]}
    )
    parquet.write_table(table, tmp_path / "rated.parquet")
    pairs, problems = read_labelled(tmp_path / "rated.parquet")
    assert [p.label for p in pairs] == [1, 0, 1, 0] and problems == []
    latin = tmp_path / "latin.csv"
    latin.write_bytes(
        (f'source,summary,label\n"{SOURCE} Café.","{FAITHFUL}",1\n').encode("latin-1")
    )
    pairs, problems = read_labelled(latin, encoding="latin-1")
    assert problems == [] and pairs[0].source.endswith("Café.")


def test_an_excel_sheet_of_labels_is_read_with_typed_cells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    book.active.title = "notes"
    book.active.append(["read me: ratings of round 2"])
    sheet = book.create_sheet("ratings")
    sheet.append(["doc", "summary", "label", "origin", "cut"])
    labels: list[object] = [True, 0, 1.0, "inconsistent", "maybe", 1, "#N/A"]
    for i, label in enumerate(labels):
        sheet.append([SOURCE, [FAITHFUL, INVENTED][i % 2], label, "xsum", "val" if i < 2 else None])
    path = tmp_path / "rated.xlsx"
    book.save(path)
    columns = Columns(source="doc")
    with pytest.raises(Exception, match="several sheets hold data"):
        read_labelled(path, columns=columns)
    pairs, problems = read_labelled(
        path, columns=columns, sheet="ratings", dataset_columns=["origin"]
    )
    assert [p.label for p in pairs] == [1, 0, 1, 0, 1]
    assert [p.cut for p in pairs] == ["val", "val", "test", "test", "test"]
    assert {p.dataset for p in pairs} == {"xsum"}
    assert len(problems) == 2
    assert problems[0].startswith("rated.xlsx: row 6 (id 5)") and "maybe" in problems[0]
    assert problems[1] == "rated.xlsx: row 8 (id 7): column 'label' holds the Excel error #N/A"
    argv = ["--labels", str(path), "--source-column", "doc", "--dataset-column", "origin"]
    assert main([*argv, "--sheet", "ratings"]) == 0
    assert "xsum" in capsys.readouterr().out
    # --sheet names the sheet of the workbooks among several files; a CSV beside them is read.
    rated = _write_csv(
        tmp_path / "more.csv", [_row(i, FAITHFUL, 1, "test", "cnn") for i in range(2)]
    )
    argv = ["--labels", str(rated), str(path), "--source-column", "doc"]
    assert main([*argv, "--dataset-column", "origin", "--sheet", "ratings"]) == 0
    out = capsys.readouterr().out
    assert "xsum" in out and "cnn" in out


def test_an_excel_file_without_openpyxl_names_the_extra_and_exits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "rated.xlsx"
    path.write_bytes(b"PK\x03\x04")  # (never opened: the reader stops at the import)
    monkeypatch.setitem(sys.modules, "openpyxl", None)
    with pytest.raises(SystemExit, match=r'pip install -e "\.\[excel\]"'):
        main(["--labels", str(path)])


def test_json_figures_are_valid_json_in_a_new_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # One class only: ROC-AUC cannot be computed and is written as null, not NaN.
    path = _write_csv(tmp_path / "one.csv", [_row(i, FAITHFUL, 1, "test", "x") for i in range(3)])
    out_json = tmp_path / "new" / "folder" / "figures.json"
    assert main(["--labels", str(path), "--source-column", "doc", "--json", str(out_json)]) == 0
    text = out_json.read_text(encoding="utf-8")
    figures = json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} is no JSON"))
    assert figures["mine"]["alignment"]["auc"] is None


def test_many_bad_rows_are_counted_past_the_twenty_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [_row(i, FAITHFUL, "perhaps", "test", "news") for i in range(23)]
    rows += [
        _row(100 + i, FAITHFUL if i % 2 else INVENTED, i % 2, "test", "news") for i in range(4)
    ]
    path = _write_csv(tmp_path / "bad.csv", rows)
    assert main(["--labels", str(path), "--source-column", "doc"]) == 0
    out = capsys.readouterr().out
    assert out.count("left out: bad.csv:") == 20
    assert "left out: 3 more rows" in out and "23 row(s) left out of the figures, 4 read" in out


def test_a_source_of_passages_is_joined_as_the_scorer_joins_it(tmp_path: Path) -> None:
    from factual_consistency import _read_labels

    path = tmp_path / "ctx.jsonl"
    row = {"source": ["First passage.", "Second passage."], "summary": FAITHFUL, "label": 1}
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    args = argparse.Namespace(
        labels=[str(path)],
        source_column=None,
        summary_column=None,
        id_column=None,
        label_column=None,
        graded_column=None,
        dataset_column=(),
        encoding="utf-8",
        sheet=None,
    )
    (pair,), problems = _read_labels(args)
    assert problems == [] and pair.source == "First passage.\nSecond passage."
