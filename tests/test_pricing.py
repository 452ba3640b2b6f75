"""Cost for every run: list prices from genai-prices, the manual override, "cost unknown"."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import openai
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from summscore import SummarizationScorer
from summscore.cli import main
from summscore.judges import LexicalJudge, OpenAIJudge
from summscore.judges.lexical import MAX_TEXT_CHARS
from summscore.judges.pricing import (
    check_fits,
    check_judge_fits,
    estimate_tokens,
    model_facts,
    price,
)
from summscore.results.usage import format_cost

from .fakes import FITNESS_SOURCE, FITNESS_SUMMARY

needs_prices = pytest.mark.skipif(
    importlib.util.find_spec("genai_prices") is None,
    reason="genai-prices is not installed (it needs Python 3.11+)",
)
ROOT = Path(__file__).resolve().parents[1]
NEWS = ROOT / "examples" / "news.jsonl"


@needs_prices
def test_a_known_model_is_priced_from_the_table() -> None:
    # gpt-4o-mini: $0.15 per million input tokens, $0.60 per million output tokens.
    assert price("gpt-4o-mini", 1_000_000, 1_000_000) == pytest.approx(0.75)
    facts = model_facts("gpt-4o-mini")
    assert facts is not None and facts.provider == "openai" and facts.context_window == 128_000


@needs_prices
@pytest.mark.parametrize("model", ["gpt-4o-mini", "claude-3-5-sonnet-20241022", "gemini-2.5-pro"])
def test_repeated_prices_equal_the_full_calculation(model: str) -> None:
    """After the first call a flat price is two multiplications; a tiered price (Gemini 2.5 Pro
    costs more above 200k input tokens) is worked out in full every time."""
    from genai_prices import Usage as PriceUsage

    from summscore.judges.pricing import _find

    provider, info = _find(model, None)
    for tokens_in, tokens_out in [(1_234, 56), (1_234, 56), (250_000, 10), (7, 700_000)]:
        exact = info.calc_price(
            PriceUsage(input_tokens=tokens_in, output_tokens=tokens_out), provider
        ).total_price
        assert price(model, tokens_in, tokens_out) == float(exact)


def test_an_unknown_model_has_no_price_and_says_so() -> None:
    assert price("my-finetune-7b", 1000, 100) is None
    assert model_facts("my-finetune-7b") is None
    assert format_cost(None) == "cost unknown"
    assert format_cost(0.0) == "$0" and format_cost(1.5) == "$1.5000"
    assert format_cost(0.00021) == "$0.00021"


@needs_prices
def test_a_local_base_url_still_prices_a_known_model_name() -> None:
    local = price("gpt-4o-mini", 1000, 0, base_url="http://127.0.0.1:8000/v1")
    assert local == pytest.approx(price("gpt-4o-mini", 1000, 0))


def _scorer(server: Any, model: str, **options: Any) -> SummarizationScorer:
    client = openai.AsyncOpenAI(api_key="not-needed", base_url=server.url)
    return SummarizationScorer(llm=client, model=model, preset="deepeval", **options)


@needs_prices
def test_the_readme_example_reports_a_cost(judge_server: Any) -> None:
    s = _scorer(judge_server, "gpt-4o-mini")
    result = s.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    usage = result.usage
    assert usage.input_tokens and usage.output_tokens
    expected = price("gpt-4o-mini", usage.input_tokens, usage.output_tokens)
    assert usage.cost == pytest.approx(expected) and usage.cost > 0
    assert s.usage.cost == pytest.approx(usage.cost)


def test_an_unknown_model_costs_none_not_zero(judge_server: Any) -> None:
    result = _scorer(judge_server, "my-finetune-7b").score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.usage.input_tokens and result.usage.cost is None


def test_manual_prices_override_the_table(judge_server: Any) -> None:
    s = _scorer(judge_server, "gpt-4o-mini", cost_per_input_token=1.0, cost_per_output_token=0.0)
    result = s.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.usage.cost == pytest.approx(result.usage.input_tokens)


@needs_prices
@pytest.mark.upstream
def test_deepeval_evaluation_cost_comes_from_the_table(judge_server: Any) -> None:
    pytest.importorskip("deepeval")
    from deepeval.test_case import LLMTestCase

    from summscore.deepeval import SummarizationMetric

    metric = SummarizationMetric(scorer=_scorer(judge_server, "gpt-4o-mini"))
    metric.measure(
        LLMTestCase(input=FITNESS_SOURCE, actual_output=FITNESS_SUMMARY), _show_indicator=False
    )
    assert metric.evaluation_cost is not None and metric.evaluation_cost > 0


@pytest.mark.parametrize(
    ("model", "shown"),
    [pytest.param("gpt-4o-mini", "cost $", marks=needs_prices), ("my-model", "cost unknown")],
)
def test_the_cli_summary_shows_the_cost(
    model: str,
    shown: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    judge_server: Any,
) -> None:
    monkeypatch.setenv("COMPAT_JUDGE_KEY", "not-needed")
    args = ["score", str(NEWS), "--judge", "openai", "--model", model]
    args += ["--base-url", judge_server.url, "--api-key-env", "COMPAT_JUDGE_KEY"]
    code = main([*args, "--limit", "2", "--no-progress", "--out", str(tmp_path / "o.jsonl")])
    err = capsys.readouterr().err
    assert code == 0, err
    assert shown in err


def test_the_offline_judge_says_it_costs_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["score", str(NEWS), "--limit", "1", "--no-progress", "--out", str(tmp_path / "o.jsonl")])
    assert "no cost (offline judge)" in capsys.readouterr().err


@needs_prices
def test_a_source_longer_than_the_context_window_is_named() -> None:
    check_fits("word " * 1000, "gpt-4o-mini")  # fits
    check_fits("word " * 1_000_000, "my-finetune-7b")  # unknown window: not checked
    with pytest.raises(ValueError, match=r"source is about 1,000,000 tokens.*gpt-4o-mini"):
        check_fits("word " * 1_000_000, "gpt-4o-mini")


@needs_prices
def test_the_context_hook_reads_the_judge_model() -> None:
    long_text = "word " * 1_000_000
    judge = OpenAIJudge(openai.AsyncOpenAI(api_key="x"), "gpt-4o-mini")
    with pytest.raises(ValueError, match="contexts is about"):
        check_judge_fits(judge, long_text, field="contexts")
    # The offline judge reads no prompts, so no context window: its own cap per text applies.
    check_judge_fits(LexicalJudge(), long_text[:MAX_TEXT_CHARS])
    with pytest.raises(ValueError, match="more than the offline judge reads in one text"):
        check_judge_fits(LexicalJudge(), long_text)
    check_judge_fits(OpenAIJudge(openai.AsyncOpenAI(api_key="x"), "llama3.1"), long_text)


def test_the_token_estimate_counts_bytes_and_survives_a_lone_surrogate() -> None:
    assert estimate_tokens("abcde" * 10) == 10
    assert estimate_tokens("日本語の") == 2  # 12 bytes
    assert estimate_tokens("\ud800xyz") == 1


def test_a_source_past_the_context_window_is_the_rows_error_before_any_call(
    judge_server: Any,
) -> None:
    pytest.importorskip("genai_prices")
    from compat.clients import async_client

    from summscore import SummarizationScorer

    scorer = SummarizationScorer(llm=async_client(judge_server), model="gpt-4o-mini")
    source = "The committee met again and discussed the budget at length. " * 12_000  # ~700 KB
    [result] = scorer.score_many([(source, "The committee met.")], progress=False)
    assert result.error is not None and "context window" in result.error
    assert "source" in result.error
    assert judge_server.stats.requests == 0


@needs_prices
@settings(max_examples=200, deadline=None)
@given(
    calls=st.lists(
        st.tuples(st.integers(0, 200_000), st.integers(0, 20_000)), min_size=1, max_size=12
    ),
    order=st.randoms(use_true_random=False),
)
def test_a_results_cost_does_not_depend_on_the_order_its_calls_finish(
    calls: list[tuple[int, int]], order: Any
) -> None:
    """Calls finish in the order the judge answers; the summed cost must not (a Ray run and a
    local run of the same rows once differed in the last digit: 0.0003438 vs 0.00034379999...)."""
    from summscore.results import Usage

    costs = [price("gpt-4o-mini", i, o) for i, o in calls]
    shuffled = list(costs)
    order.shuffle(shuffled)
    totals = []
    for sequence in (costs, shuffled, list(reversed(costs))):
        usage = Usage()
        for cost in sequence:
            usage.add(Usage(judge_calls=1, cost=cost))
        totals.append(usage.cost)
    assert totals[0] == totals[1] == totals[2]
    exact = sum(i * 0.15 + o * 0.6 for i, o in calls) / 1e6
    assert totals[0] == pytest.approx(exact, rel=1e-9, abs=1e-12)
