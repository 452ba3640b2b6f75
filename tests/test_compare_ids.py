"""Which ids ``summscore compare`` takes as one: a number and the text a results file writes for
it (CSV, TSV and Parquet hold every id as text) are one id, so the same run written as JSONL and
as CSV matches case for case; text that spells a number some other way stays text of its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from summscore.cli import EXIT_OK, main
from summscore.comparison.matching import id_key

IDS: list[object] = [1.0, 2.0, 1.5, 7, "007", "1.50", "1e3", "-0", "x-1"]


def test_one_run_written_in_two_formats_matches_every_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "in.jsonl"
    data.write_text(
        "".join(
            json.dumps({"id": i, "source": f"Town {n} built {n + 3} homes.", "summary": "Homes."})
            + "\n"
            for n, i in enumerate(IDS)
        ),
        encoding="utf-8",
    )
    outs = [tmp_path / f"r.{suffix}" for suffix in ("jsonl", "csv", "parquet")]
    for out in outs:
        assert main(["score", str(data), "--out", str(out), "--no-progress"]) == EXIT_OK
    for other in outs[1:]:
        capsys.readouterr()
        assert main(["compare", str(outs[0]), str(other), "--json"]) == EXIT_OK
        figures = json.loads(capsys.readouterr().out)
        assert figures["matched"] == len(IDS), other
        assert figures["unmatched_base"] == figures["unmatched_candidate"] == []


@pytest.mark.parametrize(
    ("one", "other"),
    [(3, "3"), (3.0, "3"), (3, "3.0"), (1.5, "1.5"), (1e16, "1e+16"), (-0.0, "-0.0"), (0, 0.0)],
)
def test_a_number_and_its_written_text_are_one_id(one: object, other: object) -> None:
    assert id_key(one) == id_key(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("007", 7),
        ("1.50", 1.5),
        ("1e3", 1000),
        ("-0", 0),
        ("+3", 3),
        (" 3", 3),
        ("1_000", 1000),
        ("nan", float("nan")),
        ("True", True),
        ("1.50", "1.5"),
    ],
)
def test_text_that_spells_a_number_another_way_stays_its_own_id(one: object, other: object) -> None:
    assert id_key(one) != id_key(other)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False)))
def test_every_number_meets_the_text_a_results_file_writes_for_it(number: float) -> None:
    # (the CSV writer writes str(); Parquet ids are str() too; repr is str for a float)
    assert id_key(number) == id_key(str(number))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789.-+e_ ", max_size=8), st.integers() | st.floats())
def test_a_text_meets_a_number_only_when_it_is_that_numbers_written_form(
    text: str, number: float
) -> None:
    # (an integral number is also the integer it equals: 2.0 and 2 are one id, written "2")
    written = {str(number)}
    if isinstance(number, float) and number.is_integer():
        written.add(str(int(number)))
    if isinstance(number, int) and abs(number) < 2**1000 and float(number) == number:
        written.add(repr(float(number)))  # (an integer a float holds exactly, 2**60 too)
    if id_key(text) == id_key(number):
        assert text in written
