"""The HTML report: figures and tables from the data, safe embedding, any text, thousands of rows."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from summscore.cli import main
from summscore.report import PAGE_SIZE, ReportCase, ReportWriter, render_report, write_report
from summscore.results import ClaimVerdict
from summscore.results.stats import summarize

from .report_data import case, cases


def _data(page: str) -> dict:
    match = re.search(
        r'<script type="application/json" id="summscore-data">(.*?)</script>', page, re.S
    )
    assert match
    return json.loads(match.group(1))


def test_the_report_shows_spend_pass_rate_components_and_failures_by_cause() -> None:
    batch = cases(70)
    page = render_report(batch)
    failed = [c for c in batch if not c.result.ok]
    passed = [c for c in batch if c.result.ok and c.result.score >= 0.5]
    assert f'data-figure="judge calls"><strong>{3 * 70}</strong>' in page
    assert "<strong>70,000 / 7,000</strong>" in page  # tokens in / out
    assert f"<strong>${70 * 0.00021:,.4f}</strong>" in page
    assert f"<strong>{len(passed) / 70:.1%}</strong><span>pass rate (≥ 0.5)</span>" in page
    assert '<table class="stats" id="components">' in page and "<th>alignment</th>" in page
    by_cause = {
        "JudgeError: HTTP N from the judge": sum(
            1 for c in failed if "HTTP" in (c.result.error or "")
        ),
        "ValueError: summary is empty": sum(1 for c in failed if "empty" in (c.result.error or "")),
    }
    for cause, n in by_cause.items():
        assert f"<tr><td>{n}</td><td>{cause}</td></tr>" in page


def test_unknown_cost_is_said_never_zero() -> None:
    batch = [case(1)]
    batch[0].result.usage.cost = None
    assert "<strong>cost unknown</strong>" in render_report(batch)


def test_a_script_end_in_the_data_cannot_break_out_of_the_json_block() -> None:
    page = render_report(cases(10))
    assert page.count("</script>") == 2  # the data block's and the app's own
    assert "<script>alert(1)" not in page and "<img src=x" not in page
    data = _data(page)
    card = data["cases"][3]["h"]
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in card
    assert "&lt;img src=x onerror=alert(2)&gt;" in card


def test_a_lone_surrogate_in_any_text_is_replaced_not_fatal(tmp_path: Path) -> None:
    path = write_report(tmp_path / "r.html", cases(10), title="t \ud800", meta={"input": "\udc80"})
    page = path.read_text(encoding="utf-8")
    assert "\ufffd lone" in page and "\ud800" not in page


def test_thousands_of_rows_are_embedded_once_and_only_the_worst_page_is_static() -> None:
    batch = cases()
    page = render_report(batch)
    data = _data(page)
    assert len(data["cases"]) == len(batch) and data["pageSize"] == PAGE_SIZE
    static = page.split('<div id="cases">', 1)[1].split('<script type="application/json"')[0]
    assert static.count('<section class="case"') == PAGE_SIZE
    first = re.search(r'<section class="case" data-index="(\d+)"', static)
    assert first and not batch[int(first.group(1))].result.ok  # failed cases come first
    assert "open this file in a browser with JavaScript" in page


def test_the_histogram_scales_to_the_screen() -> None:
    page = render_report(cases(20))
    svg = re.search(r"<svg [^>]*>", page)
    assert svg and 'viewBox="0 0 ' in svg.group(0) and "width=" not in svg.group(0)


def test_each_case_shows_its_spend() -> None:
    page = render_report([case(1)])
    assert '<div class="spend">3 judge calls · 1,000 / 100 tokens · $0.00021</div>' in page


def test_the_cli_summary_and_report_group_failures_by_cause(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data.jsonl"
    rows = [
        {"id": "a", "source": "The cat sat on the mat all day.", "summary": "A cat sat."},
        {"id": "b", "source": "Rain fell.", "summary": "  "},
        {"id": "c", "source": "Snow fell.", "summary": ""},
    ]
    data.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    report = tmp_path / "r.html"
    args = ["score", str(data), "--out", str(tmp_path / "o.jsonl"), "--report", str(report)]
    code = main([*args, "--no-progress"])
    err = capsys.readouterr().err
    assert code == 3
    assert re.search(r"failed \(2x\): .*summary", err), err
    assert re.search(r"pass rate \(≥ 0\.5\)\s+\d", err)
    page = report.read_text(encoding="utf-8")
    assert re.search(r'<table class="stats causes" id="causes">.*<td>2</td><td>[^<]*summary', page)


NASTY = [
    "\ud800",
    "\udfff\ud800",
    "\ud83d\ude00",  # a surrogate pair written as two escapes
    "</script><!--<script>",
    "</SCRIPT >",
    "\u2028\u2029",
    "\x00\x1f\x7f",
    "&amp;&lt;",
    "'\"`${x}",
    "a" * 20_000,
    "",
]


@pytest.mark.parametrize("text", NASTY)
def test_any_text_anywhere_renders_and_stays_inside_its_place(text: str, tmp_path: Path) -> None:
    base = case(5)
    result = base.result.model_copy(
        update={
            "error": text or None,
            "reason": text,
            "warnings": [text],
            "claims": [ClaimVerdict(claim=text, verdict=text, reason=text, supported=False)],
            "score": float("nan"),
        }
    )
    batch = [
        ReportCase(text, text, text, result),
        ReportCase({"id": text}, None, None, result),
        ReportCase(float("nan"), text, text, base.result),
    ]
    path = write_report(tmp_path / "r.html", batch, title=text, meta={text: text})
    page = path.read_text(encoding="utf-8")
    assert page.count("</script>") == 2 and page.lower().count("<script") == 2
    data = _data(page)
    assert len(data["cases"]) == 3 and data["cases"][2]["id"] is None


def test_the_writer_streams_render_reports_page_one_case_at_a_time() -> None:
    batch = cases(PAGE_SIZE + 30)
    meta = {"generated": "2026-11-23 12:00 UTC"}
    results = [c.result for c in batch]
    page = io.StringIO()
    writer = ReportWriter(
        page,
        summarize(results),
        [r.score for r in results],
        title="t",
        meta=meta,
        first=results[0],
    )
    worst = writer.worst()
    assert len(worst) == PAGE_SIZE and all(batch[i].result.error for i in worst[:5])
    writer.head(writer.card(i, batch[i]) for i in worst)
    for index, one in enumerate(batch):
        writer.case(index, one)
    writer.end()
    assert page.getvalue() == render_report(batch, title="t", meta=meta)
