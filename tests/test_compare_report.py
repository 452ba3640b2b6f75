"""The HTML comparison, read as text: one self-contained file (no request), every text from the
data escaped and its keys masked, the figures and verdict of the comparison it shows, a grid in
place of dots when the cases are many. Its behaviour in a browser: test_compare_browser.py."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from summscore.comparison import compare
from summscore.comparison.report import PAGE_SIZE, render_comparison
from summscore.comparison.svg import MAX_POINTS

KEY = "sk-proj-" + "Zq9" * 12
HOSTILE = '</script><script>alert("id")</script><img src=x onerror=alert(1)>'


def _record(i: Any, score: float | None, **extra: Any) -> dict[str, Any]:
    return {"id": i, "score": score, "error": None if score is not None else "boom", **extra}


def comparison_cases(n: int = 200, seed: int = 1) -> tuple[list[dict], list[dict]]:
    """``n`` cases: every 3rd worse, every 5th (not 3rd) better; case 3 has a hostile id and
    texts holding a key; case 2 failed in the candidate; one case only in each run."""
    rng = random.Random(seed)
    base, candidate = [], []
    for i in range(n):
        score = round(rng.uniform(0.3, 0.9), 3)
        new = score - 0.25 if i % 3 == 0 else score + 0.05 if i % 5 == 0 else score
        case_id: Any = HOSTILE if i == 3 else f"case-{i}"
        claims = [f"Claim {i} <b>bold</b>."] if i % 3 == 0 else []
        base.append(_record(case_id, score, reason=f"fine {KEY}" if i == 3 else "fine"))
        candidate.append(
            _record(
                case_id,
                None if i == 2 else round(max(0.0, min(1.0, new)), 3),
                unsupported_claims=claims + ([f"uses {KEY} &amp; <i>x</i>"] if i == 3 else []),
                missed_questions=["Was it <em>late</em>?"] if i % 3 == 0 else [],
                reason=f"candidate reason {i}",
            )
        )
    base.append(_record("only-base", 0.5))
    candidate.append(_record("only-candidate", 0.5))
    return base, candidate


def _page() -> tuple[str, Any]:
    result = compare(*comparison_cases())
    return render_comparison(result), result


def test_the_page_is_one_file_that_asks_for_nothing() -> None:
    page, _ = _page()
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "@import" not in page and "url(" not in page
    assert page.count("<script") == 2  # the data block and the app


def test_untrusted_text_is_escaped_and_keys_are_masked() -> None:
    page, _ = _page()
    assert "<img src=x" not in page and '<script>alert("id")' not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page  # shown as text
    assert KEY not in page
    data = page.split('id="summscore-compare-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in data and ">" not in data  # nothing in the data can close the block
    rows = json.loads(data)
    assert any(r["id"] == HOSTILE for r in rows["regressions"] + rows["improvements"])


def test_the_page_shows_the_comparison_s_figures_and_verdict() -> None:
    page, result = _page()
    assert 'data-verdict="worse"' in page and result.verdict().text in page.replace("&#x27;", "'")
    data = json.loads(page.split('id="summscore-compare-data">', 1)[1].split("</script>", 1)[0])
    assert [r["id"] for r in data["regressions"]] == [c.id for c in result.regressions()]
    assert len(data["improvements"]) == len(result.improved) and data["pageSize"] == PAGE_SIZE
    assert page.count('<circle class="dot') == result.paired
    assert 'id="unmatched-base"' in page and "only-base" in page and 'id="failed"' in page
    static = page.split('<section id="regressions"', 1)[1].split("</section>", 1)[0]
    assert static.count("<tr>") == PAGE_SIZE + 1  # the worst page without JavaScript, and a head


def test_many_cases_are_drawn_as_a_grid_of_counts() -> None:
    rng = random.Random(2)
    n = MAX_POINTS + 500
    base = [_record(i, rng.random()) for i in range(n)]
    candidate = [_record(i, min(1.0, r["score"] + rng.gauss(0, 0.05))) for i, r in enumerate(base)]
    page = render_comparison(compare(base, candidate, resamples=200))
    assert '<circle class="dot' not in page and '<rect class="cell"' in page
    assert "a grid of counts" in page
