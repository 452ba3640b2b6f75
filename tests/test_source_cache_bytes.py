"""The scorer's source cache is bounded in bytes as well as in entries: a server that sees many
distinct long sources keeps at most ``source_cache_bytes`` of their work in memory."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from summscore import SummarizationScorer
from summscore.calls.source_cache import SourceCache, approx_size
from summscore.judges import LexicalJudge

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from serve_memory import news


def test_distinct_long_sources_never_hold_more_than_the_bound() -> None:
    bound = 600_000
    scorer = SummarizationScorer(LexicalJudge(), preset="deepeval", source_cache_bytes=bound)
    for i in range(6):
        result = scorer.score(news(i, 40_000), "The council approved new homes.")
        assert result.error is None
        assert scorer._cache.bytes <= bound
    assert 0 < len(scorer._cache) < 6  # the oldest went first


def test_the_bound_is_an_option_checked_when_the_scorer_is_built() -> None:
    with pytest.raises(ValueError, match="source_cache_bytes"):
        SummarizationScorer(LexicalJudge(), source_cache_bytes=-1)
    unbounded = SummarizationScorer(LexicalJudge(), source_cache_bytes=None)
    assert unbounded._cache.max_bytes is None
    assert SummarizationScorer(LexicalJudge())._cache.max_bytes == 256 * 1024 * 1024


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 9), max_size=40))
def test_entries_and_bytes_stay_within_both_bounds(keys: list[int]) -> None:
    cache: SourceCache[str] = SourceCache(maxsize=5, max_bytes=20_000)

    async def run() -> None:
        for key in keys:

            async def compute(key: int = key) -> str:
                return "v" * (2500 * key)  # the largest entry alone is past the bound

            value, _ = await cache.get_or_compute(("k", key), compute)
            assert len(value) == 2500 * key
            assert len(cache) <= 5 and cache.bytes <= 20_000
            assert cache.bytes == sum(
                approx_size(k) + approx_size(v) for k, v in cache._done.items()
            )

    asyncio.run(run())
