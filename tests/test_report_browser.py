"""The HTML report in a real headless Chromium: counts, filters, sorting, paging and highlights are
what the data says, untrusted text stays text, and a 420 px wide screen needs no horizontal scroll.

Runs where Debian's chromium and chromium-driver and selenium are installed (.ci/steps/browser.sh);
skipped elsewhere. Leaves screenshots in summscore-out/: report-420.png and report-420-cases.png
(a phone-width screen), first-run.png (the report of the README's first command); and writes the
documentation's picture of the report, docs/images/report.png, from the same command.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from summscore.report import write_report

from .chromium import chromium, js, screen, wait
from .report_data import CLAIM, N_CASES, cases

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
WIDTH = 420


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(WIDTH) as driver:
        yield driver


@pytest.fixture(scope="module")
def report(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = write_report(tmp_path_factory.mktemp("report") / "report.html", cases(), top=1.0)
    browser.get(path.as_uri())
    wait(browser, lambda d: d.execute_script("return document.body.dataset.ready") == "1")
    return browser


def _shown(driver: Any) -> list[dict[str, Any]]:
    return js(
        driver,
        "return Array.from(document.querySelectorAll('#cases section.case')).map(s => ({"
        "index: +s.dataset.index, marks: Array.from(s.querySelectorAll('mark.bad'))"
        ".map(m => m.textContent), score: s.querySelector('.score').textContent}))",
    )


def _reset(driver: Any) -> None:
    js(driver, "document.getElementById('reset').click()")


def test_the_report_opens_with_every_count_from_the_data(report: Any) -> None:
    data = cases()
    failed = sum(1 for c in data if not c.result.ok)
    count = js(report, "return document.getElementById('count')")
    assert count.text == f"{N_CASES:,} cases"
    shown = _shown(report)
    assert len(shown) == 50 and all(s["score"] == "–" for s in shown)  # failed ones first
    figures = js(
        report,
        "return Object.fromEntries(Array.from(document.querySelectorAll('.figure'))"
        ".map(f => [f.dataset.figure, f.querySelector('strong').textContent]))",
    )
    assert figures["cases"] == f"{N_CASES:,}" and figures["failed (error)"] == f"{failed:,}"
    assert figures["judge calls"] == f"{3 * N_CASES:,}"
    passed = sum(1 for c in data if c.result.ok and c.result.score >= 0.5)
    assert figures["pass rate (≥ 0.5)"] == f"{passed / N_CASES:.1%}"
    assert js(report, "return document.getElementById('nojs')") is None


def _matching(driver: Any, **values: str) -> int:
    """Set controls by id, wait for the (debounced) list to re-render; returns the match count."""
    script = "var count = document.getElementById('count'); count.dataset.matching = 'pending';"
    for element_id, value in values.items():
        script += (
            f"var el = document.getElementById({element_id!r}); el.value = {value!r};"
            "el.dispatchEvent(new Event('change'));"
        )
    js(driver, script)  # one script: the render cannot land before the marker is set
    count = "return document.getElementById('count').dataset.matching"
    wait(driver, lambda d: js(d, count) != "pending")
    return int(js(driver, count))


def test_filters_match_the_data_and_highlights_mark_the_unsupported_claims(report: Any) -> None:
    data = cases()
    _reset(report)
    errors = sum(1 for c in data if not c.result.ok)
    assert _matching(report, status="error") == errors
    with_claims = [i for i, c in enumerate(data) if c.result.unsupported_claims]
    assert _matching(report, status="unsupported") == len(with_claims)
    for card in _shown(report):
        assert card["index"] in with_claims and card["marks"] == [f"It was {CLAIM}."]
    passing = sum(1 for c in data if c.result.ok and c.result.score >= 0.5)
    assert _matching(report, status="pass") == passing
    assert _matching(report, status="fail") == N_CASES - passing
    _reset(report)
    in_range = sum(
        1 for c in data if c.result.ok and 0.9 <= (c.result.alignment_score or 0) <= 0.95
    )
    window = {"range-of": "alignment_score", "range-min": "0.9", "range-max": "0.95"}
    assert _matching(report, **window) == in_range
    _reset(report)
    assert _matching(report, q="ROW-1234") == 1
    assert [s["index"] for s in _shown(report)] == [1234]


def test_sorting_and_paging_follow_the_scores(report: Any) -> None:
    _reset(report)
    _matching(report, sort="score:desc")
    best = max(c.result.score for c in cases() if c.result.ok)
    assert _shown(report)[0]["score"] == f"{best:.3f}"
    js(report, "document.getElementById('next').click()")
    assert js(report, "return document.getElementById('page').textContent").startswith(
        "showing 51–100"
    )
    _matching(report, sort="order:asc")
    assert [s["index"] for s in _shown(report)][:3] == [0, 1, 2]


def test_untrusted_text_stays_text(report: Any) -> None:
    _reset(report)
    assert _matching(report, q="alert(1)") == 1
    card = js(report, "return document.querySelector('#cases section.case')")
    assert "<b>bold</b></script><script>alert(1)</script>" in card.text
    assert (
        js(report, "return document.querySelectorAll('#cases b, #cases img, #cases script').length")
        == 0
    )
    assert "\ufffd lone" in card.text


def test_a_420_px_screen_needs_no_horizontal_scroll(report: Any) -> None:
    _reset(report)
    _matching(report, status="all")
    js(report, "window.scrollTo(0, 0)")
    width = js(report, "return window.innerWidth")
    assert width == WIDTH
    assert js(report, "return document.documentElement.scrollWidth") <= width
    svg = js(report, "return document.querySelector('svg.hist').getBoundingClientRect().right")
    assert svg <= width
    js(report, "document.querySelectorAll('#cases details').forEach(d => d.open = true)")
    assert js(report, "return document.documentElement.scrollWidth") <= width
    assert _matching(report, q="alert(1)") == 1  # a 3,000-character word must wrap too
    assert js(report, "return document.documentElement.scrollWidth") <= width
    _reset(report)
    out = ROOT / "summscore-out"
    out.mkdir(exist_ok=True)
    report.save_screenshot(str(out / "report-420.png"))
    _matching(report, status="unsupported")
    js(report, "document.getElementById('controls').scrollIntoView()")
    report.save_screenshot(str(out / "report-420-cases.png"))
    assert (out / "report-420.png").stat().st_size > 0


FLAWS = ("misattributed", "wrong-number", "omits", "hallucinates", "swapped-names", "negation-flip")


def test_the_first_run_report_fails_the_flawed_and_passes_the_faithful(
    browser: Any, tmp_path: Path
) -> None:
    """The README's first command, as a newcomer runs it (the CLI's default rule, the offline
    judge), seen in the browser: every example summary whose id names a flaw fails, every other
    one passes, and each flawed one that claims something the source does not say shows the claim
    highlighted. Leaves summscore-out/first-run.png."""
    examples = ROOT / "examples" / "news.jsonl"
    page = tmp_path / "news.html"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "summscore",
            "score",
            str(examples),
            "--report",
            str(page),
            "--out",
            str(tmp_path / "news.jsonl"),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    ids = [json.loads(line)["id"] for line in examples.read_text("utf-8").splitlines() if line]
    screen(browser, 1280, 900)
    try:
        browser.get(page.as_uri())
        wait(browser, lambda d: d.execute_script("return document.body.dataset.ready") == "1")
        _matching(browser, status="all")
        cards = js(
            browser,
            "return Array.from(document.querySelectorAll('#cases section.case')).map(s => ({"
            "id: s.querySelectorAll('h3 span')[1].textContent,"
            "verdict: s.querySelector('h3 .badge').textContent,"
            "marks: s.querySelectorAll('mark.bad').length}))",
        )
        assert sorted(c["id"] for c in cards) == sorted(ids)
        wrong = []
        for card in cards:
            flaw = next((f for f in FLAWS if f in card["id"]), None)
            expected = "fail" if flaw else "pass"
            if card["verdict"] != expected:
                wrong.append(f"{card['id']}: {card['verdict']}, expected {expected}")
            elif flaw and flaw != "omits" and card["marks"] == 0:
                wrong.append(f"{card['id']}: fails with no unsupported claim highlighted")
        assert not wrong, "\n".join(wrong)
        out = ROOT / "summscore-out"
        out.mkdir(exist_ok=True)
        height = js(browser, "return document.documentElement.scrollHeight")
        full = min(int(height), 8000)  # the whole page in one picture
        screen(browser, 1280, full)
        browser.save_screenshot(str(out / "first-run.png"))
        assert (out / "first-run.png").stat().st_size > 0
    finally:
        screen(browser, WIDTH)


def test_the_documentation_shows_the_report_of_the_first_command(
    browser: Any, tmp_path: Path
) -> None:
    """docs/images/report.png and report-cases.png, the pictures of the report on the site,
    are this run's: the README's first command on examples/news.jsonl, as a desktop browser opens
    it. The first shows the counts and the score distribution, the second the worst cases with
    their unsupported claims highlighted; both leave out the page's first line (its path and the
    time it was generated, which would date the site)."""
    page = tmp_path / "news.html"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "summscore",
            "score",
            "examples/news.jsonl",
            "--report",
            str(page),
            "--out",
            str(tmp_path / "news.jsonl"),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    images = ROOT / "docs" / "images"
    images.mkdir(exist_ok=True)
    shots = {
        "report.png": ("document.querySelector('.figures')", 760),
        "report-cases.png": (
            "Array.from(document.querySelectorAll('h2')).find(h => h.textContent === 'Cases')",
            900,
        ),
    }
    try:
        for name, (element, height) in shots.items():
            screen(browser, 1200, height)
            browser.get(page.as_uri())
            wait(browser, lambda d: d.execute_script("return document.body.dataset.ready") == "1")
            js(
                browser,
                f"const el = {element}; "
                "window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 12)",
            )
            assert js(browser, "return document.querySelectorAll('#cases mark.bad').length") > 0
            browser.save_screenshot(str(images / name))
            assert (images / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        screen(browser, WIDTH)
