"""Reading files from the wild: encodings, formats, columns, and rows that cannot be read."""

from __future__ import annotations

import csv
import gzip
import json
from pathlib import Path

import pytest

from summscore.files.datasets import Columns, InputError, Row, open_rows, read_rows


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _case(i: int, **extra: object) -> dict:
    return {
        "id": f"r{i}",
        "source": f"The mill in town {i} closed in 1990.",
        "summary": "It closed.",
        **extra,
    }


def _errors(rows: list[Row]) -> dict:
    return {r.id: r.error for r in rows if r.error}


def test_a_non_utf8_byte_past_the_first_8kb_fails_only_its_row_naming_line_and_column(
    tmp_path: Path,
) -> None:
    lines = [json.dumps(_case(i)).encode() for i in range(200)]  # well past 8 KB
    lines[150] = lines[150].replace(b"mill", b"m\xe9ll")
    path = tmp_path / "data.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    rows = list(read_rows(path))
    assert len(rows) == 200
    errors = _errors(rows)
    assert list(errors) == ["r150"]
    assert errors["r150"].startswith("line 151 (id 'r150'): column 'source' has bytes")
    assert "0xe9" in errors["r150"] and "--encoding" in errors["r150"]


def test_a_non_utf8_byte_in_the_first_row_fails_that_row_only(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    path.write_bytes(
        b'{"id": 1, "source": "caf\xe9 opens", "summary": "It opens."}\n'
        + json.dumps(_case(2)).encode()
        + b"\n"
    )
    rows = list(read_rows(path))
    assert rows[0].error is not None and "line 1" in rows[0].error and "0xe9" in rows[0].error
    assert rows[1].error is None


def test_encoding_option_reads_a_latin1_file(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    path.write_bytes(
        "id,source,summary\n1,Café Zoë opened in 1990.,Café opened.\n".encode("latin-1")
    )
    (row,) = read_rows(path, encoding="latin-1")
    assert row.error is None and row.source == "Café Zoë opened in 1990."


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig", "utf-32"])
def test_files_that_say_their_encoding_with_a_bom_are_read(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "data.jsonl"
    path.write_bytes(
        "".join(json.dumps(_case(i), ensure_ascii=False) + "\n" for i in range(3)).encode(encoding)
    )
    rows = list(read_rows(path))
    assert [r.id for r in rows] == ["r0", "r1", "r2"] and not _errors(rows)
    tsv = tmp_path / "data.tsv"
    tsv.write_bytes("id\tsource\tsummary\nx\tZoë's café closed.\tIt closed.\n".encode(encoding))
    (row,) = read_rows(tsv)
    assert row.error is None and row.source == "Zoë's café closed."


def test_a_csv_cell_longer_than_131072_characters_is_read(tmp_path: Path) -> None:
    long_source = "The council met again. " * 10_000  # 230,000 characters
    path = tmp_path / "data.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "source", "summary"])
        writer.writerow(["long", long_source, "The council met."])
    (row,) = read_rows(path)
    assert row.error is None and row.source == long_source


def test_a_json_number_over_4300_digits_fails_the_row_that_uses_it(tmp_path: Path) -> None:
    big = "9" * 5000
    path = tmp_path / "data.jsonl"
    path.write_text(
        "\n".join(
            [
                f'{{"id": {big}, "source": "A fact.", "summary": "A fact."}}',
                f'{{"id": "b", "source": {big}, "summary": "A fact."}}',
                f'{{"id": "c", "source": "A fact.", "summary": "A fact.", "unused": {big}}}',
            ]
        ),
        encoding="utf-8",
    )
    rows = list(read_rows(path))
    assert rows[0].id == 1 and "column 'id' is a number of 5000 digits" in (rows[0].error or "")
    assert "line 2 (id 'b'): column 'source' is a number of 5000 digits" in (rows[1].error or "")
    assert rows[2].error is None


def test_deeply_nested_json_fails_its_row_only(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    deep = '{"id": "deep", "source": ' + "[" * 100_000 + "]" * 100_000 + ', "summary": "x"}'
    path.write_text(deep + "\n" + json.dumps(_case(1)) + "\n", encoding="utf-8")
    rows = list(read_rows(path))
    assert rows[0].error == "line 1 is JSON nested too deeply to read"
    assert rows[1].error is None


def test_a_missing_column_is_one_error_listing_the_files_columns(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "d.jsonl", [{"id": 1, "article": "A.", "tldr": "B."}])
    with pytest.raises(InputError) as info:
        open_rows(path)
    message = str(info.value)
    assert "no source column" in message and "article, tldr" in message
    assert "--source-column" in message
    with pytest.raises(InputError, match=r"no column 'body' \(--source-column\)"):
        open_rows(path, Columns(source="body", summary="tldr"))
    reader = open_rows(path, Columns(source="article", summary="tldr"))
    assert [r.source for r in reader] == ["A."]


def test_ragas_and_deepeval_export_columns_are_recognised(tmp_path: Path) -> None:
    ragas = _write_jsonl(
        tmp_path / "ragas.jsonl",
        [
            {
                "user_input": "Summarise the report.",
                "retrieved_contexts": ["Retrieved passage."],
                "reference_contexts": ["Sales rose 5%.", "Costs fell."],
                "response": "Sales rose.",
            }
        ],
    )
    reader = open_rows(ragas)
    assert (reader.columns.source, reader.columns.summary) == ("reference_contexts", "response")
    assert [r.source for r in reader] == [["Sales rose 5%.", "Costs fell."]]
    deepeval = tmp_path / "deepeval.json"  # deepeval's dataset.save_as("json") writes a list
    deepeval.write_text(
        json.dumps(
            [
                {
                    "input": "The plant closed in 1987.",
                    "actual_output": "It closed.",
                    "expected_output": None,
                }
            ]
        ),
        encoding="utf-8",
    )
    reader = open_rows(deepeval)
    assert (reader.columns.source, reader.columns.summary) == ("input", "actual_output")
    assert [(r.where, r.summary) for r in reader] == [("item 1", "It closed.")]


def test_json_lists_tsv_and_gzip(tmp_path: Path) -> None:
    data = [_case(i) for i in range(3)]
    listed = tmp_path / "d.json"
    listed.write_text(json.dumps([*data, "not an object"]), encoding="utf-8")
    rows = list(read_rows(listed))
    assert [r.id for r in rows[:3]] == ["r0", "r1", "r2"]
    assert rows[3].error == "item 4 is a JSON str, not an object"
    gz = tmp_path / "d.jsonl.gz"
    gz.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in data).encode()))
    assert [r.id for r in read_rows(gz)] == ["r0", "r1", "r2"]
    tsv = tmp_path / "d.tsv.gz"
    tsv.write_bytes(gzip.compress(b"id\tsource\tsummary\na\tOne fact.\tA fact.\n"))
    assert [(r.id, r.source) for r in read_rows(tsv)] == [("a", "One fact.")]
    with pytest.raises(InputError, match="a list of objects"):
        open_rows(_write_jsonl(tmp_path / "obj.json", [{"a": 1}]).rename(tmp_path / "o.json"))


def test_a_truncated_gzip_keeps_the_rows_before_the_damage(tmp_path: Path) -> None:
    data = "".join(json.dumps(_case(i)) + "\n" for i in range(2000)).encode()
    gz = tmp_path / "d.jsonl.gz"
    gz.write_bytes(gzip.compress(data)[:-200])
    rows = list(read_rows(gz))
    assert rows[0].error is None and rows[-1].error is not None
    assert "the rest of the file could not be read" in rows[-1].error


def test_a_malformed_json_list_in_a_csv_cell_is_a_row_error_not_text(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "contexts", "summary"])
        writer.writerow(["ok", json.dumps(["A.", "B."]), "A."])
        writer.writerow(["broken", '["A.", "B.",]', "A."])
        writer.writerow(["cut", '["A.", "B.', "A."])
        writer.writerow(["text", "[Reuters] Paris hosted the summit.", "Paris hosted it."])
        writer.writerow(["numbers", "[1, 2]", "A."])
        writer.writerow(["cited", "The board met on Monday [3]", "The board met."])
        writer.writerow(["both", "[AP] The board met on Monday [3]", "The board met."])
        writer.writerow(["printed", "['A.', 'B.']", "A."])  # a Python list, printed
    rows = {r.id: r for r in read_rows(path)}
    assert rows["ok"].source == ["A.", "B."] and rows["ok"].error is None
    for text in ("cited", "both"):
        assert rows[text].error is None and rows[text].source.endswith("[3]")
    for bad in ("broken", "cut", "printed"):
        error = rows[bad].error or ""
        assert "column 'contexts' looks like a JSON list but is not valid JSON" in error, error
        assert error.startswith("line ")
    assert rows["text"].error is None and rows["text"].source.startswith("[Reuters]")
    assert "contexts[0] must be a string, got int" in (rows["numbers"].error or "")


def test_rows_missing_a_column_later_in_the_file_fail_with_the_column_named(tmp_path: Path) -> None:
    path = _write_jsonl(
        tmp_path / "d.jsonl",
        [_case(1), {"id": "c", "contexts": ["X."], "summary": "X."}, {"id": "n", "summary": "X."}],
    )
    rows = list(read_rows(path))
    assert rows[1].error is None and rows[1].source == ["X."]  # another default column: fine
    assert rows[2].error == "line 3 (id 'n'): no source (column 'source' is missing from this row)"
