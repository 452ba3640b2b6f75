"""Whether two runs were scored the same way does not depend on the order of their rows: two
files holding the same mix of thresholds (rows of two runs put together) in another order are
scored alike, and a mix that differs is still refused."""

from __future__ import annotations

import pytest

from summscore.comparison import ComparisonRefused, compare
from tests.result_rows import result_record


def test_the_same_mix_of_settings_in_another_row_order_is_compared() -> None:
    base = [result_record(f"c{i}", 0.7, threshold=0.5 if i % 2 else 0.6) for i in range(12)]
    assert compare(base, base[::-1]).matched == 12
    other = [{**r, "threshold": 0.7 if i % 2 else 0.6} for i, r in enumerate(base)]
    with pytest.raises(
        ComparisonRefused, match=r"threshold: 0\.6 and 0\.5 \(base\) vs 0\.6 and 0\.7"
    ):
        compare(base, other)
