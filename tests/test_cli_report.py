"""--report in constant memory: the streamed page is render_report's page; the cases spool to
disk with their evidence; the report reads a results file back (the Ray engine's way)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from summscore.cli import main
from summscore.cli.report import (
    ReportSpool,
    cases_from_results,
    result_from_record,
    write_streamed_report,
)
from summscore.files.datasets import Columns, output_row
from summscore.report import PAGE_SIZE, render_report

from .report_data import cases

META = {"input": "runs.jsonl", "generated": "2026-11-23 12:00 UTC"}


def _data(page: str) -> dict:
    match = re.search(
        r'<script type="application/json" id="summscore-data">(.*?)</script>', page, re.S
    )
    assert match
    return json.loads(match.group(1))


def test_the_streamed_report_is_the_page_render_report_makes(tmp_path: Path) -> None:
    batch = cases(3 * PAGE_SIZE + 7)  # failures, highlights, markup, a lone surrogate
    for top in (1.0, 10.0):
        path = write_streamed_report(
            tmp_path / "r.html", lambda: iter(batch), title="t", meta=META, top=top
        )
        expected = render_report(batch, title="t", meta=META, top=top)
        assert path.read_text(encoding="utf-8") == expected


def test_an_empty_run_and_a_given_threshold_render_as_render_report_does(tmp_path: Path) -> None:
    path = write_streamed_report(tmp_path / "empty.html", lambda: [], meta=META)
    assert path.read_text(encoding="utf-8") == render_report([], meta=META)
    few = cases(5)
    path = write_streamed_report(tmp_path / "few.html", lambda: few, meta=META, threshold=0.9)
    assert path.read_text(encoding="utf-8") == render_report(few, meta=META, threshold=0.9)


def test_the_spool_gives_back_every_case_with_its_evidence_as_often_as_asked() -> None:
    batch = cases(40)
    spool = ReportSpool()
    try:
        for case in batch[:20]:
            spool.add(case)
        assert [c.id for c in spool.cases()] == [c.id for c in batch[:20]]
        for case in batch[20:]:  # more cases after a pass: appended, not overwritten
            spool.add(case)
        for _ in range(2):
            back = list(spool.cases())
            assert [(c.id, c.source, c.summary) for c in back] == [
                (c.id, c.source, c.summary) for c in batch
            ]
            for got, want in zip(back, batch):
                assert got.result.unsupported_claims == want.result.unsupported_claims
                assert got.result.usage == want.result.usage
                assert got.result.error == want.result.error
                assert math.isnan(got.result.score) == math.isnan(want.result.score)
    finally:
        spool.close()


def test_a_report_read_back_from_a_results_file_shows_what_the_file_holds(
    tmp_path: Path,
) -> None:
    batch = cases(12)
    data, results = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    with data.open("w", encoding="utf-8") as handle:
        for c in batch:
            handle.write(json.dumps({"id": c.id, "source": c.source, "summary": c.summary}) + "\n")
    with results.open("w", encoding="utf-8") as handle:
        for c in batch[:10]:  # the run stopped after 10 rows (--limit): 10 cases
            handle.write(json.dumps(output_row(c.id, c.result)) + "\n")
    read = list(cases_from_results(data, Columns(), "utf-8", results)())
    assert [c.id for c in read] == [c.id for c in batch[:10]]
    for got, want in zip(read, batch):
        assert got.summary == want.summary and got.source == want.source
        assert got.result.error == want.result.error
        assert got.result.components() == want.result.components()
        assert [c.claim for c in got.result.unsupported_claims] == [
            c.claim for c in want.result.unsupported_claims
        ]
        assert got.result.missed_questions == want.result.missed_questions
        assert got.result.usage.judge_calls == want.result.usage.judge_calls
        assert got.result.ok == want.result.ok
        if want.result.ok:
            assert got.result.score == want.result.score
    page = write_streamed_report(
        tmp_path / "r.html", cases_from_results(data, Columns(), "utf-8", results), meta=META
    ).read_text(encoding="utf-8")
    assert [c["id"] for c in _data(page)["cases"]] == [c.id for c in batch[:10]]


def test_a_csv_results_record_reads_back_as_numbers() -> None:
    result = result_from_record(
        {"score": "0.25", "coverage_score": "0.5", "judge_calls": "3", "cost": "", "error": ""}
    )
    assert result.score == 0.25 and result.coverage_score == 0.5 and result.ok
    assert result.usage.judge_calls == 3 and result.usage.cost is None


def test_the_cli_report_with_results_on_stdout_holds_every_row(tmp_path: Path) -> None:
    data = tmp_path / "rows.jsonl"
    rows = [
        {"id": f"r{i}", "source": f"The council of Leeds approved {i} homes.", "summary": s}
        for i, s in enumerate(["Leeds approved homes.", " ", "Porto approved 9 homes."] * 25)
    ]
    data.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    report = tmp_path / "out" / "report.html"
    args = ["score", str(data), "--out", "-", "--report", str(report), "--no-progress"]
    code = main([*args, "--workers", "1"])
    assert code == 3  # the blank summaries fail, and are in the report with their error
    page = report.read_text(encoding="utf-8")
    shown = _data(page)["cases"]
    assert [c["id"] for c in shown] == [r["id"] for r in rows]
    assert sum(1 for c in shown if c["e"]) == 25
    assert list((tmp_path / "out").iterdir()) == [report]  # the spool left nothing behind


_CLAIM_SUPPORT = re.compile(r"<details><summary>Claim support</summary>(.*?)</details>", re.S)


def _claim_support(page: str) -> dict[str, list[str]]:
    """Each case's "Claim support" list, by id, as the report's cards show it."""
    return {str(c["id"]): _CLAIM_SUPPORT.findall(c["h"]) for c in _data(page)["cases"]}


def test_a_report_rebuilt_from_the_results_file_shows_the_claim_support_of_the_run(
    tmp_path: Path,
) -> None:
    data = tmp_path / "rows.jsonl"
    source = "The council of Leeds approved 450 new homes in March. Work starts in June."
    summaries = [
        "Leeds approved 450 new homes in March.",  # copied: support 1
        "Leeds approved 540 new homes in March.",  # a wrong number: support 0
        "The council said the homes will be built by volunteers next year.",  # unconfirmed
        "Leeds approved homes. Work starts in June. The mayor resigned.",
    ]
    rows = [{"id": f"r{i}", "source": source, "summary": s} for i, s in enumerate(summaries)]
    data.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    for suffix in ("jsonl", "csv", "parquet"):
        results, scored = tmp_path / f"out.{suffix}", tmp_path / f"scored-{suffix}.html"
        args = ["score", str(data), "--out", str(results), "--report", str(scored)]
        assert main([*args, "--preset", "deepeval", "--workers", "1", "--no-progress"]) == 0
        rebuilt = write_streamed_report(
            tmp_path / f"rebuilt-{suffix}.html",
            cases_from_results(data, Columns(), "utf-8", results),
            meta=META,
        )
        want = _claim_support(scored.read_text(encoding="utf-8"))
        assert all(want.values()) and len(want) == len(rows)  # the offline judge grades claims
        assert _claim_support(rebuilt.read_text(encoding="utf-8")) == want, suffix


def test_a_results_record_of_an_llm_judge_rebuilds_claims_without_support() -> None:
    record = {"score": 0.5, "unsupported_claims": ["It was founded in 1999."]}
    for claim_support in (None, []):
        result = result_from_record({**record, "claim_support": claim_support})
        assert [(c.claim, c.supported, c.support) for c in result.claims] == [
            ("It was founded in 1999.", False, None)
        ]


def test_a_resumed_runs_report_shows_the_kept_rows_claims_and_support(tmp_path: Path) -> None:
    data = tmp_path / "rows.jsonl"
    source = "The council of Leeds approved 450 new homes in March. Work starts in June."
    summaries = ["Leeds approved 540 new homes in March.", "Leeds approved 450 new homes."] * 2
    rows = [{"id": f"r{i}", "source": source, "summary": s} for i, s in enumerate(summaries)]
    data.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    common = ["score", str(data), "--preset", "deepeval", "--workers", "1", "--no-progress"]
    whole, resumed = tmp_path / "whole.html", tmp_path / "resumed.html"
    assert main([*common, "--out", str(tmp_path / "a.jsonl"), "--report", str(whole)]) == 0
    out = str(tmp_path / "b.jsonl")
    assert main([*common, "--out", out, "--limit", "2"]) == 0
    assert main([*common, "--out", out, "--resume", "--report", str(resumed)]) == 0
    want = _data(whole.read_text(encoding="utf-8"))["cases"]
    got = _data(resumed.read_text(encoding="utf-8"))["cases"]
    assert [c["u"] for c in got] == [c["u"] for c in want] == [1, 0, 1, 0]
    assert _claim_support(resumed.read_text(encoding="utf-8")) == _claim_support(
        whole.read_text(encoding="utf-8")
    )
