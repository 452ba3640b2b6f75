"""The HTML comparison in a real headless Chromium: it renders with no console error and asks the
network for nothing, its tables search, sort and page the comparison's own cases, untrusted text
stays text, and a 420 px wide screen needs no horizontal scroll.

Runs where Debian's chromium and chromium-driver and selenium are installed (.ci/steps/browser.sh);
skipped elsewhere. Leaves summscore-out/compare-1280.png and summscore-out/compare-420.png.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from summscore.comparison import compare
from summscore.comparison.report import PAGE_SIZE, write_comparison_report

from .chromium import chromium, js, screen, wait
from .test_compare_report import HOSTILE, KEY, comparison_cases

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(1280, logs=True) as driver:
        yield driver


@pytest.fixture(scope="module")
def comparison() -> Any:
    return compare(*comparison_cases())


@pytest.fixture(scope="module")
def page(browser: Any, comparison: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("compare") / "comparison.html"
    write_comparison_report(path, comparison)
    screen(browser, 1280)
    browser.get_log("browser")  # (what the blank start page logged)
    browser.get_log("performance")
    browser.get(path.as_uri())
    wait(browser, lambda d: d.execute_script("return document.body.dataset.ready") == "1")
    browser.page_uri = path.as_uri()
    return browser


def _rows(driver: Any, table: str) -> list[dict[str, Any]]:
    return js(
        driver,
        f"return Array.from(document.querySelectorAll('#{table} tbody tr')).map(r => ({{"
        "id: r.cells[0].textContent, d: parseFloat(r.cells[3].textContent)}))",
    )


def _search(driver: Any, table: str, text: str) -> int:
    """Type ``text`` into a table's search box, wait for the list; returns the match count."""
    js(
        driver,
        f"var root = document.getElementById('{table}'); var c = root.querySelector('.count');"
        "c.dataset.matching = 'pending'; var q = root.querySelector('input[type=search]');"
        f"q.value = {json.dumps(text)}; q.dispatchEvent(new Event('change'));",
    )
    count = f"return document.querySelector('#{table} .count').dataset.matching"
    wait(driver, lambda d: js(d, count) != "pending")
    return int(js(driver, count))


def test_it_renders_with_no_console_error_and_no_request(page: Any) -> None:
    errors = [e for e in page.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert not errors, errors
    requested = []
    for entry in page.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            requested.append(message["params"]["request"]["url"])
    assert requested == [page.page_uri]  # the file itself, nothing else
    assert js(page, "return performance.getEntriesByType('resource').length") == 0


def test_the_headline_figures_and_charts_are_the_comparison_s(page: Any, comparison: Any) -> None:
    headline = js(page, "return document.getElementById('headline').textContent")
    assert headline == comparison.verdict().text and headline.startswith("The candidate is worse")
    figures = js(
        page,
        "return Object.fromEntries(Array.from(document.querySelectorAll('.figure'))"
        ".map(f => [f.dataset.figure, f.querySelector('strong').textContent]))",
    )
    assert figures["matched cases"] == str(comparison.matched)
    assert figures["regressed"] == str(len(comparison.regressed))
    assert js(page, "return document.querySelectorAll('#scatter circle.dot').length") == (
        comparison.paired
    )
    dots = js(page, "return document.querySelectorAll('#scatter circle.regressed').length")
    assert dots == len(comparison.regressed)
    assert js(page, "return document.querySelectorAll('#differences rect.bar').length") == 21


def test_the_tables_page_sort_and_search_the_cases(page: Any, comparison: Any) -> None:
    worst = comparison.regressions()
    rows = _rows(page, "regressions")
    assert len(rows) == PAGE_SIZE and rows[0]["id"] == str(worst[0].id)
    assert [r["d"] for r in rows] == sorted(r["d"] for r in rows)  # worst first
    count = js(page, "return document.querySelector('#regressions .count').textContent")
    assert count.startswith(f"{len(worst)} cases")
    js(page, "document.querySelector('#regressions .next').click()")
    assert len(_rows(page, "regressions")) == len(worst) - PAGE_SIZE
    js(page, "document.querySelector('#regressions th[data-key=d] button').click()")
    rows = _rows(page, "regressions")  # the same column again: the smallest drops first
    assert [r["d"] for r in rows] == sorted((r["d"] for r in rows), reverse=True)
    assert js(page, "return document.querySelector('#regressions th[data-key=d]').ariaSort") == (
        "descending"
    )
    assert _search(page, "regressions", "case-9") == sum(
        1
        for c in worst
        if "case-9" in str(c.id) or "case-9" in " ".join(c.candidate.unsupported_claims)
    )
    assert _search(page, "regressions", "no such text") == 0
    assert _search(page, "regressions", "") == len(worst)
    improved = _rows(page, "improvements")
    assert [r["d"] for r in improved] == sorted((r["d"] for r in improved), reverse=True)


def test_untrusted_text_stays_text(page: Any) -> None:
    assert _search(page, "regressions", 'alert("id")') == 1
    row = js(page, "return document.querySelector('#regressions tbody tr')")
    assert HOSTILE in row.text
    assert (
        js(page, "return document.querySelectorAll('tbody img, tbody script, tbody b').length") == 0
    )
    js(page, "document.querySelectorAll('#regressions details').forEach(d => d.open = true)")
    text = js(page, "return document.getElementById('regressions').textContent")
    assert "<b>bold</b>" not in text or "Claim" in text  # shown, not applied
    assert KEY not in js(page, "return document.documentElement.outerHTML")
    _search(page, "regressions", "")


def test_a_420_px_screen_needs_no_horizontal_scroll(page: Any) -> None:
    out = ROOT / "summscore-out"
    out.mkdir(exist_ok=True)
    page.save_screenshot(str(out / "compare-1280.png"))
    screen(page, 420)
    try:
        js(page, "window.scrollTo(0, 0)")
        assert js(page, "return window.innerWidth") == 420
        js(page, "document.querySelectorAll('details').forEach(d => d.open = true)")
        assert js(page, "return document.documentElement.scrollWidth") <= 420
        for chart in ("scatter", "differences"):
            right = js(
                page, f"return document.getElementById('{chart}').getBoundingClientRect().right"
            )
            assert right <= 420
        page.save_screenshot(str(out / "compare-420.png"))
    finally:
        screen(page, 1280)
    assert (out / "compare-420.png").stat().st_size > 0
