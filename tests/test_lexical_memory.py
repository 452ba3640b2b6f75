"""The offline judge's memos are bounded in bytes (issue #43: a worker grew by about 150 MB per
distinct 600 kB source, its memos bounded only by their count of entries).

Accounting, not RSS timing: the memos' own account (``memo_bytes``) stays within their budgets
(``memo_limit``) while distinct large sources are scored, the account is not below what
tracemalloc finds the memos hold, and docs/offline-judge.md states the bound the code has.
benchmarks/lexical_memory.py measures the process's resident memory.
"""

from __future__ import annotations

import gc
import random
import re
import sys
import tracemalloc
from pathlib import Path

import pytest

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.judges.lexical import _doc, _match, _memo, _names, _opposites, _words
from summscore.judges.lexical._memo import (
    NAME_ENTRY,
    PATTERN_ENTRY,
    SHORT_KEY,
    WORD_ENTRY,
    SizedMemo,
    memo_bytes,
    memo_limit,
    weigh,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from lexical_speed import make_pair

DOCS = Path(__file__).resolve().parents[1] / "docs" / "offline-judge.md"
PRESETS = ("ragas", "deepeval", "mastra")


def _source(seed: int, chars: int) -> tuple[str, str]:
    rng = random.Random(seed)
    parts: list[str] = []
    while sum(map(len, parts)) < chars:
        source, summary = make_pair(rng, 500)
        parts.append(source)
    return "\n\n".join(parts)[:chars], summary


def _clear() -> None:
    for memo in _memo.MEMOS:
        memo.cache_clear()


@pytest.fixture
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every byte budget an eighth of its size, so that a few 60 kB sources fill them."""
    for memo in _memo.MEMOS:
        if isinstance(memo, SizedMemo):
            monkeypatch.setattr(memo, "max_bytes", memo.max_bytes // 8)
        elif isinstance(memo, _words.WordMemo):
            monkeypatch.setattr(memo, "memo_limit", memo.memo_limit // 8)
    monkeypatch.setattr(_doc._cache, "max_bytes", _doc._cache.max_bytes // 8)
    _clear()


def test_the_memos_stay_within_their_bound_while_distinct_large_sources_are_scored(
    small_budgets: None,
) -> None:
    limit = memo_limit()
    seen = []
    for seed in range(4):
        source, summary = _source(seed, 60_000)
        for preset in PRESETS:
            assert SummarizationScorer(llm=LexicalJudge(), preset=preset).score(source, summary).ok
            held = memo_bytes()
            assert held <= limit, (seed, preset, held, limit)
            for memo in _memo.MEMOS:
                assert memo.memo_bytes <= memo.memo_limit, memo
        seen.append(held)
    # The analyses of the earlier sources were let go: the account does not grow with them.
    assert seen[-1] <= 1.5 * seen[0]
    assert len(_doc._cache._items) < 4 * 3


def test_an_analysis_heavier_than_the_budget_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_doc._cache, "max_bytes", 1 << 20)
    _clear()
    source, _ = _source(7, 60_000)
    _doc.analyze(source)
    assert source not in _doc._cache._items
    assert _doc._cache.memo_bytes <= 1 << 20


@pytest.mark.parametrize(
    "family",
    ["prose", "short sentences", "numbers", "names", "chinese"],
)
def test_the_account_is_not_below_what_the_memos_hold(family: str) -> None:
    size = 10_000
    source, summary = {
        "prose": _source(3, size),
        "short sentences": (" ".join(f"Item {i} rose." for i in range(size // 14)), "Item 3 rose."),
        "numbers": (" ".join(map(str, range(size // 5))), "0 1 2 3"),
        "names": (", ".join(f"Anna K{i}son" for i in range(size // 12)) + ".", "Anna K2son."),
        "chinese": (
            "国家统计局周一公布，2023年全国粮食总产量达到6.95亿吨。" * (size // 30),
            "粮食总产量达到6.95亿吨。",
        ),
    }[family]
    _clear()
    gc.collect()
    tracemalloc.start()
    try:
        empty = tracemalloc.get_traced_memory()[0]
        for preset in PRESETS:
            SummarizationScorer(llm=LexicalJudge(), preset=preset).score(source, summary)
        gc.collect()
        account = memo_bytes()
        held_and_rest = tracemalloc.get_traced_memory()[0] - empty
        _clear()
        gc.collect()
        held = held_and_rest - (tracemalloc.get_traced_memory()[0] - empty)
    finally:
        tracemalloc.stop()
    assert held > 0
    assert account >= held, (family, account, held)


# The widest keys a word-level memo keeps (SHORT_KEY characters): four-byte characters, many
# one-letter words, country names that are written out longer, digits.
_WIDE_KEYS = (
    "\U0001d400" * SHORT_KEY,
    "é" * SHORT_KEY,
    ("a " * SHORT_KEY)[:SHORT_KEY],
    ("us " * SHORT_KEY)[:SHORT_KEY],
    "9" * SHORT_KEY,
    ("1." * SHORT_KEY)[:SHORT_KEY],
    "x" * SHORT_KEY,
)
# (lru_cache's entry: its key tuple with a flag, a link of four references, its table slot.)
_LRU_ENTRY = 250


@pytest.mark.parametrize(
    ("function", "cap"),
    [
        (_words.stem, WORD_ENTRY),
        (_words.canon, WORD_ENTRY),
        (lambda key: _words._piece_token(key, True), WORD_ENTRY),
        (lambda key: _words._word_token(key, False), WORD_ENTRY),
        (_words.parse_number, WORD_ENTRY),
        (_match._acronym_letters, WORD_ENTRY),
        (_names._forms, NAME_ENTRY),
        (_names._place, NAME_ENTRY),
        (_names._stems, NAME_ENTRY),
        (_names._filed_under, NAME_ENTRY),
        (_names.name_tokens, NAME_ENTRY),
        (_opposites.opposites, NAME_ENTRY),
    ],
)
def test_an_entry_of_a_word_level_memo_weighs_no_more_than_its_cap(function, cap) -> None:  # type: ignore[no-untyped-def]
    keys = (*_WIDE_KEYS, *_opposites.OPPOSITES)
    assert max(weigh(k) + weigh(function(k), 4) + _LRU_ENTRY for k in keys) <= cap


def test_a_compiled_pattern_weighs_no_more_than_its_cap() -> None:
    pattern = _match._acronym_pattern("abcdef")
    assert pattern is not None
    assert weigh("abcdef") + pattern.__sizeof__() + _LRU_ENTRY <= PATTERN_ENTRY


def test_a_long_word_is_worked_out_every_time_not_kept() -> None:
    _clear()
    word = "x" * (SHORT_KEY + 1)
    _words.stem(word)
    _words._PLAIN_TOKENS[word]
    assert _words.stem.cache_info().currsize == 0  # type: ignore[attr-defined]
    assert word not in _words._PLAIN_TOKENS


def test_the_docs_state_the_bound_the_code_has() -> None:
    stated = re.search(r"at most ([\d,]+) MiB", DOCS.read_text(encoding="utf-8"))
    assert stated is not None
    assert int(stated.group(1).replace(",", "")) == -(-memo_limit() // (1 << 20))
