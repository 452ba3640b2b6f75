"""--resume reuses a row's earlier result only when the row was scored from the same text with the
same settings (the ``fingerprint`` column); anything else is scored again, and nothing is lost."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from summscore.cli import main
from summscore.files.datasets import Row
from summscore.files.fingerprint import fingerprint, run_settings
from summscore.files.job import RunSink
from summscore.files.resume import ResumeState
from summscore.judges import LexicalJudge
from summscore.scorer import SummarizationScorer

MARK = "kept from the earlier run"


def _rows(summaries: list[str], ids: bool = True) -> list[dict[str, Any]]:
    source = (
        "The bridge in Lund opened in 1911 and carries 900 cars a day. "
        "It was repaired in 1980 after a flood."
    )
    rows = [{"source": source, "summary": s} for s in summaries]
    if ids:
        for i, row in enumerate(rows):
            row["id"] = i
    return rows


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _mark_all(out: Path) -> None:
    """Mark every earlier record, so a reused one can be told from one scored again."""
    _write(out, [dict(r, reason=MARK) for r in _jsonl(out)])


def _score(*args: str) -> int:
    return main(["score", *args, "--no-progress", "--workers", "1"])


def _first_run(
    tmp_path: Path, rows: list[dict[str, Any]], *, mark: bool = True
) -> tuple[Path, Path]:
    """The earlier run: ``rows`` written and scored into out.jsonl (marked, unless ``mark`` is
    False); returns the input and the results file."""
    data = _write(tmp_path / "data.jsonl", rows)
    out = tmp_path / "out.jsonl"
    assert _score(str(data), "--out", str(out)) == 0
    if mark:
        _mark_all(out)
    return data, out


GOOD = ["The bridge opened in 1911.", "It carries 900 cars a day."]
BAD = ["The bridge opened in 1955.", "It carries 9 trucks a day."]


def test_a_results_file_shared_by_two_inputs_never_gives_one_the_others_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _write(tmp_path / "a.jsonl", _rows(GOOD))
    b = _write(tmp_path / "b.jsonl", _rows(BAD))  # the same ids, other summaries
    fresh = tmp_path / "fresh.jsonl"
    assert _score(str(b), "--out", str(fresh)) == 0
    out = tmp_path / "out.jsonl"
    assert _score(str(a), "--out", str(out)) == 0
    capsys.readouterr()
    assert _score(str(b), "--out", str(out), "--resume") == 0
    err = capsys.readouterr().err
    assert _jsonl(out) == _jsonl(fresh)  # b's own scores, not a's
    assert "0 rows kept from the earlier run" in err
    assert "2 earlier results replaced: their row's text or the scoring settings" in err


def test_only_the_edited_row_is_scored_again(tmp_path: Path) -> None:
    data, out = _first_run(tmp_path, _rows([*GOOD, "It was repaired in 1980."]))
    _write(data, _rows([GOOD[0], BAD[1], "It was repaired in 1980."]))
    assert _score(str(data), "--out", str(out), "--resume") == 0
    rows = _jsonl(out)
    assert [r["id"] for r in rows] == [0, 1, 2]
    assert [r["reason"] == MARK for r in rows] == [True, False, True]


@pytest.mark.parametrize(
    ("changed", "rescored"),
    [
        (["--preset", "ragas"], True),
        (["--n", "3"], True),
        (["--threshold", "0.7"], True),
        (["--max-concurrency", "3", "--timeout", "30", "--max-retries", "1"], False),
        (["--preset", "deepeval"], False),  # the default, named
    ],
)
def test_settings_that_change_a_number_score_the_rows_again_and_call_settings_do_not(
    tmp_path: Path, changed: list[str], rescored: bool
) -> None:
    data, out = _first_run(tmp_path, _rows(GOOD))
    assert _score(str(data), "--out", str(out), "--resume", *changed) == 0
    assert [r["reason"] != MARK for r in _jsonl(out)] == [rescored, rescored]


def test_rows_that_moved_are_reused_under_their_new_ids(tmp_path: Path) -> None:
    # No id column: a row's id is its line number, so a row added at the top moves every other.
    data, out = _first_run(tmp_path, _rows(GOOD, ids=False))
    _write(data, _rows(["It was repaired in 1980.", *GOOD], ids=False))
    assert _score(str(data), "--out", str(out), "--resume") == 0
    rows = _jsonl(out)
    fresh = tmp_path / "fresh.jsonl"
    assert _score(str(data), "--out", str(fresh)) == 0
    assert [r["id"] for r in rows] == [r["id"] for r in _jsonl(fresh)]  # no stale row left
    assert [r["reason"] == MARK for r in rows] == [False, True, True]
    assert [r["score"] for r in rows] == [r["score"] for r in _jsonl(fresh)]


def test_a_run_stopped_by_limit_after_rows_were_added_above_loses_no_earlier_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = _rows([*GOOD, "It was repaired in 1980."], ids=False)
    data, out = _first_run(tmp_path, old)
    added = _rows(["The bridge is in Lund.", "A flood hit in 1980.", "Cars cross it."], ids=False)
    _write(data, [*added, *old])  # the earlier rows are now lines 4-6
    assert _score(str(data), "--out", str(out), "--resume", "--limit", "3") == 0
    err = capsys.readouterr().err
    assert "3 earlier results not used by this run (--limit) are kept" in err
    assert "replaced" not in err  # the new rows had no earlier result, whatever their ids
    assert len(_jsonl(out)) == 6
    assert _score(str(data), "--out", str(out), "--resume") == 0
    rows = _jsonl(out)
    assert [r["id"] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert [r["reason"] == MARK for r in rows] == [False] * 3 + [True] * 3
    assert "0 judge calls" in capsys.readouterr().err


def test_a_row_deleted_above_costs_nothing_and_only_its_result_is_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = _rows([*GOOD, "It was repaired in 1980."], ids=False)
    data, out = _first_run(tmp_path, rows, mark=False)
    scores = [r["score"] for r in _jsonl(out)]
    _write(data, rows[1:])
    capsys.readouterr()
    assert _score(str(data), "--out", str(out), "--resume") == 0
    err = capsys.readouterr().err
    assert "0 judge calls" in err and "1 earlier result replaced" in err
    # The file holds the input's rows; the deleted row's id now names another row.
    assert [(r["id"], r["score"]) for r in _jsonl(out)] == [(1, scores[1]), (2, scores[2])]


def test_in_a_file_whose_ids_are_row_numbers_no_earlier_result_outlives_its_row(
    tmp_path: Path,
) -> None:
    rows = _rows([*GOOD, "It was repaired in 1980."], ids=False)
    data, out = _first_run(tmp_path, rows)
    # The first row deleted and the last edited: ids 1-2 now, and old id 3 is nobody's.
    _write(data, [rows[1], dict(rows[2], summary="It was repaired in 1999.")])
    assert _score(str(data), "--out", str(out), "--resume") == 0
    result = _jsonl(out)
    assert [(r["id"], r["reason"] == MARK) for r in result] == [(1, True), (2, False)]
    fresh = tmp_path / "fresh.jsonl"
    assert _score(str(data), "--out", str(fresh)) == 0
    assert [r["score"] for r in result] == [r["score"] for r in _jsonl(fresh)]


def test_a_reused_row_carries_this_runs_duplicate_id_warnings_not_the_earlier_ones(
    tmp_path: Path,
) -> None:
    first = _rows([GOOD[0], GOOD[1]])
    first[1]["id"] = 0  # the earlier input repeated id 0
    data, out = _first_run(tmp_path, first, mark=False)
    assert any("duplicate id" in w for w in _jsonl(out)[1]["warnings"])
    first[1]["id"] = 1
    _write(data, [first[1], first[0], dict(first[0])])  # moved, and now a repeat of id 0
    assert _score(str(data), "--out", str(out), "--resume") == 0
    warnings = [[w for w in r["warnings"] if "duplicate id" in w] for r in _jsonl(out)]
    assert [len(w) for w in warnings] == [0, 0, 1]


def test_repeated_rows_each_reuse_one_earlier_result(tmp_path: Path) -> None:
    same = _rows([GOOD[0], GOOD[0], GOOD[0]], ids=False)
    data, out = _first_run(tmp_path, same[:2])
    _write(data, same)
    assert _score(str(data), "--out", str(out), "--resume") == 0
    rows = _jsonl(out)
    assert len(rows) == 3 and [r["reason"] == MARK for r in rows] == [True, True, False]


def test_results_without_a_fingerprint_are_scored_again_and_the_summary_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, out = _first_run(tmp_path, _rows(GOOD), mark=False)
    full = _jsonl(out)
    older = [{k: v for k, v in r.items() if k != "fingerprint"} for r in full]
    _write(out, [dict(r, reason=MARK) for r in older])
    capsys.readouterr()
    assert _score(str(data), "--out", str(out), "--resume") == 0
    assert "(2 of them carry no fingerprint: written by an older summscore" in (
        capsys.readouterr().err
    )
    assert _jsonl(out) == full


def test_stopped_runs_rows_are_kept_and_found_again_after_the_input_moved(tmp_path: Path) -> None:
    rows = _rows([*GOOD, "It was repaired in 1980.", "A flood hit in 1980."], ids=False)
    data, out = _first_run(tmp_path, rows, mark=False)
    full = _jsonl(out)
    _write(out, [dict(r, reason=MARK) for r in full[2:]])  # the earlier run scored rows 3-4 only
    _write(data, [_rows(["The bridge is in Lund."], ids=False)[0], *rows])
    assert _score(str(data), "--out", str(out), "--resume", "--limit", "2") == 0
    # Rows 1-2 scored now; the earlier rows 3-4 (now lines 4-5) kept after them, unchanged.
    assert [r["id"] for r in _jsonl(out)] == [1, 2, 3, 4]
    assert _score(str(data), "--out", str(out), "--resume") == 0
    after = _jsonl(out)
    assert [r["id"] for r in after] == [1, 2, 3, 4, 5]
    assert [r["reason"] == MARK for r in after] == [False, False, False, True, True]


def test_the_fingerprint_is_of_the_text_as_scored_and_of_the_settings() -> None:
    from summscore.judges import LexicalJudge

    ragas = run_settings(SummarizationScorer(LexicalJudge(), preset="ragas"))
    deepeval = run_settings(SummarizationScorer(LexicalJudge(), preset="deepeval"))
    assert ragas == run_settings(
        SummarizationScorer(LexicalJudge(), preset="ragas", max_concurrency=3)
    )
    assert ragas != deepeval
    joined = fingerprint(ragas, "One.\nTwo.", "One.", None)
    assert joined == fingerprint(ragas, ["One.", "Two."], "One.", [])  # contexts joined with \n
    assert joined is not None and len(joined) == 32
    assert joined != fingerprint(deepeval, "One.\nTwo.", "One.", None)
    assert joined != fingerprint(ragas, "One.\nTwo.", "Two.", None)
    assert joined != fingerprint(ragas, "One.\nTwo.", "One.", ["Is it one?"])
    assert fingerprint(ragas, "", "One.", None) is None  # a row that cannot be scored
    assert fingerprint(ragas, "A \ud800 lone surrogate.", "A.", None) is not None


def test_a_stopped_run_drops_the_earlier_results_its_own_rows_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a file with an id column, a row scored again under its id (its summary was edited)
    replaces its earlier result even when the run stops early (--limit, Ctrl-C): the file never
    holds two results for one row, and the run that replaced it is the one that says so."""
    summaries = [*GOOD, "It was repaired in 1980.", "A flood hit in 1980."]
    data, out = _first_run(tmp_path, _rows(summaries))
    edited = [s.replace(".", ", it says.") for s in summaries[:2]] + summaries[2:]
    _write(data, _rows(edited))
    capsys.readouterr()
    assert _score(str(data), "--out", str(out), "--resume", "--limit", "3") == 0
    err = capsys.readouterr().err
    assert "2 earlier results replaced" in err
    rows = _jsonl(out)
    assert sorted(r["id"] for r in rows) == [0, 1, 2, 3]  # one result per row
    assert [r["reason"] == MARK for r in rows] == [False, False, True, True]
    assert _score(str(data), "--out", str(out), "--resume") == 0
    err = capsys.readouterr().err
    assert "0 judge calls" in err and "replaced" not in err
    assert [r["id"] for r in _jsonl(out)] == [0, 1, 2, 3]


class _Records:
    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def write(self, record: dict[str, Any]) -> None:
        self.records.append(record)


def test_ctrl_c_keeps_a_replaced_rows_earlier_result_that_a_row_in_flight_claimed(
    tmp_path: Path,
) -> None:
    """Row "a" was edited and scored again, but its earlier result is the text of row "b" now
    (the summaries were swapped), and "b" claimed it and was still being judged at Ctrl-C:
    that record is kept for the next --resume, not dropped as replaced."""
    scorer = SummarizationScorer(LexicalJudge())
    settings = run_settings(scorer)
    source = "The bridge in Lund opened in 1911 and carries 900 cars a day."
    one, two = "The bridge opened in 1911.", "It carries 900 cars a day."
    earlier = {"id": "a", "score": 0.9, "fingerprint": fingerprint(settings, source, one, None)}
    resume = ResumeState.load(_write(tmp_path / "out.jsonl", [earlier]))
    records = _Records()
    sink = RunSink(
        records,  # type: ignore[arg-type]
        model=None,
        top=1.0,
        keep_for_report=False,
        resume=resume,
        settings=settings,
    )
    row_a = Row(id="a", source=source, summary=two)
    row_b = Row(id="b", source=source, summary=one)
    assert sink.previous(row_a) is None  # edited: scored again
    assert sink.previous(row_b) is not None  # "a"'s earlier text: claimed, not yet written
    sink.emit(row_a, scorer.score(source, two))
    sink.finish(interrupted=True)
    assert [r["id"] for r in records.records] == ["a", "a"]  # the new one, and the claimed one
    assert records.records[1]["score"] == 0.9 and resume.replaced == 0


def test_an_option_given_as_an_integer_is_the_same_setting_as_its_default() -> None:
    """``--scale 1`` (an int) and Mastra's default ``1.0`` score the same, so they are one
    setting: a results file scored with either is reused by the other."""
    default = run_settings(SummarizationScorer(LexicalJudge(), preset="mastra"))
    assert default == run_settings(SummarizationScorer(LexicalJudge(), preset="mastra", scale=1))
    assert default == run_settings(SummarizationScorer(LexicalJudge(), preset="mastra", scale=1.0))
    assert default != run_settings(SummarizationScorer(LexicalJudge(), preset="mastra", scale=2))
    ragas = run_settings(SummarizationScorer(LexicalJudge(), preset="ragas", coeff=1))
    assert ragas == run_settings(SummarizationScorer(LexicalJudge(), preset="ragas", coeff=1.0))


def test_a_judge_name_holding_undecodable_bytes_still_gives_settings() -> None:
    """A model name read from a command line that was not UTF-8 holds lone surrogates (Python's
    surrogateescape): the settings are still hashed, and told from other names."""

    class Named(LexicalJudge):
        def __init__(self, name: str) -> None:
            super().__init__()
            self._name = name

        @property
        def name(self) -> str:
            return self._name

    odd = run_settings(SummarizationScorer(Named("model-\udcff")))
    assert odd != run_settings(SummarizationScorer(Named("model-\udcfe")))
