"""What the tests of summscore.ray share (tests/test_ray.py, tests/test_ray_cli.py): the scorer
factory Ray's workers import from here (a judge on the compat server), the rows they score, and
NaN-aware equality of results. Their local Ray instance is the ``local_ray`` fixture of the
root conftest.py."""

from __future__ import annotations

import math
from typing import Any

from compat.clients import KEY, MODEL, PARITY

from summscore import SummarizationScorer


def make_scorer(url: str, preset: str) -> SummarizationScorer:
    import openai

    client = openai.AsyncOpenAI(base_url=url, api_key=KEY, max_retries=0)
    return SummarizationScorer(client, model=MODEL, preset=preset)


def _rows(count: int) -> list[dict[str, Any]]:
    rows = []
    for i in range(count):
        case = PARITY[i % len(PARITY)]
        rows.append({"id": f"row-{i}", "contexts": list(case.contexts), "summary": case.summary})
    return rows


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b
