"""Synthetic report cases with known counts, shared by the report tests (plain and in a browser)."""

from __future__ import annotations

import math

from summscore.report import ReportCase
from summscore.results import ClaimVerdict, SummaryResult, Usage

N_CASES = 2_100
CLAIM = "founded in 1999"


def case(i: int) -> ReportCase:
    """Every 7th case failed; every 5th (that did not fail) has one unsupported, highlighted claim;
    scores cycle through 0.00 .. 0.99; case 3's texts hold markup, a script end and a lone surrogate."""
    failed = i % 7 == 0
    unsupported = not failed and i % 5 == 0
    summary = f"Case {i} summary: the firm grew."
    claims = []
    if unsupported:
        summary += f" It was {CLAIM}."
        claims = [ClaimVerdict(claim=f"It was {CLAIM}.", verdict="no", supported=False)]
    source = f"Source {i}: the firm grew quickly."
    if i == 3:
        summary = "<b>bold</b></script><script>alert(1)</script> \ud800 lone " + "x" * 3000
        source = "\udfff <img src=x onerror=alert(2)>"
    result = SummaryResult(
        id=f"row-{i}",
        score=math.nan if failed else (i % 100) / 100,
        preset="deepeval",
        prompt_set="summscore-v1",
        judge="openai:gpt-4o-mini",
        threshold=0.5,
        alignment_score=None if failed else 1.0 - (i % 100) / 100,
        coverage_score=None if failed else (i % 100) / 100,
        claims=claims,
        error=("JudgeError: HTTP 500 from the judge" if i % 2 else "ValueError: summary is empty")
        if failed
        else None,
        usage=Usage(judge_calls=3, input_tokens=1000, output_tokens=100, cost=0.00021),
    )
    return ReportCase(f"row-{i}", source, summary, result)


def cases(n: int = N_CASES) -> list[ReportCase]:
    return [case(i) for i in range(n)]
