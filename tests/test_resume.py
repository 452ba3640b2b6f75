"""``--resume``'s bookkeeping, unit by unit: which earlier records a row may reuse, and in which
order (the end-to-end runs are in tests/test_cli_resume_identity.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from summscore.files.resume import ResumeState, usable

ONE = "1" * 32  # fingerprints: what each record was scored from
TWO = "2" * 32


def _load(tmp_path: Path, records: list[dict[str, Any]]) -> ResumeState:
    path = tmp_path / "out.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return ResumeState.load(path)


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        ({"score": 0.5}, True),
        ({"score": 0.0, "error": None}, True),  # a zero is a score
        ({"score": 0.5, "error": ""}, True),  # an empty error column is no error
        ({"score": 0.5, "error": "JudgeError: boom"}, False),
        ({"score": None}, False),
        ({"score": "", "error": ""}, False),
        ({"error": "JudgeError: boom"}, False),
    ],
)
def test_only_a_record_scored_without_error_is_usable(
    record: dict[str, Any], expected: bool
) -> None:
    assert usable(record) is expected


def test_records_are_kept_by_id_and_occurrence_in_file_order(tmp_path: Path) -> None:
    state = _load(
        tmp_path,
        [
            {"id": "a", "score": 0.1, "fingerprint": ONE},
            {"id": "b", "score": 0.2, "fingerprint": TWO},
            {"id": "a", "score": 0.3, "fingerprint": TWO},
            {"id": "a", "score": 0.4},
        ],
    )
    assert list(state.old) == [("a", 0), ("b", 0), ("a", 1), ("a", 2)]
    assert [r["score"] for r in state.old.values()] == [0.1, 0.2, 0.3, 0.4]


def test_a_row_reuses_its_own_record_before_an_earlier_one_with_the_same_text(
    tmp_path: Path,
) -> None:
    state = _load(
        tmp_path,
        [
            {"id": "a", "score": 0.1, "fingerprint": ONE},
            {"id": "b", "score": 0.2, "fingerprint": ONE},
        ],
    )
    assert state.claim(("b", 0), ONE) == ("b", 0)
    assert state.claim(("a", 0), ONE) == ("a", 0)
    assert state.claim(("c", 0), ONE) is None  # both taken


def test_a_row_whose_own_record_is_of_other_text_takes_the_first_free_one_of_its_text(
    tmp_path: Path,
) -> None:
    state = _load(
        tmp_path,
        [
            {"id": "a", "score": 0.1, "fingerprint": ONE},
            {"id": "b", "score": 0.2, "fingerprint": TWO},
        ],
    )
    assert state.claim(("a", 0), TWO) == ("b", 0)  # the rows were swapped
    assert state.claim(("b", 0), ONE) == ("a", 0)
    assert state.claim(("a", 1), None) is None  # a row that cannot be scored reuses nothing


def test_moved_rows_with_the_same_text_each_reuse_one_earlier_record_in_file_order(
    tmp_path: Path,
) -> None:
    state = _load(
        tmp_path,
        [
            {"id": 1, "score": 0.1, "fingerprint": ONE},
            {"id": 2, "score": 0.2, "fingerprint": ONE},
            {"id": 3, "score": 0.3, "fingerprint": ONE},
        ],
    )
    # Rows were inserted above: none of these ids is its own any more.
    claimed = [state.claim((str(n), 0), ONE) for n in (7, 8, 9, 10)]
    assert claimed == [("1", 0), ("2", 0), ("3", 0), None]


def test_a_record_written_meanwhile_is_not_handed_out_again(tmp_path: Path) -> None:
    state = _load(
        tmp_path,
        [
            {"id": 1, "score": 0.1, "fingerprint": ONE},
            {"id": 2, "score": 0.2, "fingerprint": ONE},
            {"id": 3, "score": 0.3, "fingerprint": ONE},
        ],
    )
    first = state.claim(("1", 0), ONE)
    second = state.claim(("2", 0), ONE)
    assert (first, second) == (("1", 0), ("2", 0))
    state.release(second)  # row 2 was written: its earlier record leaves
    assert ("2", 0) not in state.old  # (finish() writes back only what is left)
    assert state.claim(("9", 0), ONE) == ("3", 0)
    assert state.claim(("2", 0), ONE) is None


def test_a_record_that_failed_is_never_reused_even_with_the_same_text(tmp_path: Path) -> None:
    state = _load(
        tmp_path,
        [
            {"id": "a", "score": None, "error": "JudgeError: boom", "fingerprint": ONE},
            {"id": "b", "score": 0.2, "error": "JudgeError: late", "fingerprint": TWO},
        ],
    )
    assert state.claim(("a", 0), ONE) is None
    assert state.claim(("x", 0), ONE) is None  # nor by a row that moved
    assert state.claim(("x", 1), TWO) is None
