"""scorer.with_preset: another rule over the same judge, request limit, caches and spend; and the
scorer's read-only call settings."""

from __future__ import annotations

import asyncio

import pytest

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge

from .fakes import FITNESS_SOURCE, FITNESS_SUMMARY, CountingJudge, ScriptedJudge, ragas_script


def test_another_option_changes_the_rule_and_leaves_the_scorer_as_it_was() -> None:
    base = SummarizationScorer(
        ScriptedJudge(ragas_script(8, 7)), prompts="own", coeff=0.5, preset="ragas"
    )
    variant = base.with_preset(coeff=0.0)
    assert variant.options == {"coeff": 0.0, "length_penalty": True}
    assert base.options == {"coeff": 0.5, "length_penalty": True}
    assert variant.preset == base.preset == "ragas"
    plain = base.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    qa_only = variant.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert plain.score == 0.6423387096775146  # the docs example, unchanged
    assert qa_only.score == qa_only.qa_score == 7 / 8
    assert variant.judge is base.judge and variant.llm is base.llm
    assert base.with_preset().options == base.options  # no options: the same rule


def test_options_not_given_keep_the_scorers_and_another_preset_starts_from_its_defaults() -> None:
    base = SummarizationScorer(LexicalJudge(), preset="mastra", scale=10, include_reason=False)
    assert base.with_preset(max_questions=3).options == {
        "scale": 10,
        "max_questions": 3,
        "version": "1.x",
        "include_reason": False,
    }
    other = base.with_preset("ragas")
    assert other.preset == "ragas" and other.options == {"coeff": 0.5, "length_penalty": True}
    assert base.preset == "mastra" and base.options["scale"] == 10
    result = other.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.preset == "ragas" and result.ok


def test_with_options_keeps_the_preset_and_changes_only_the_options_given() -> None:
    base = SummarizationScorer(LexicalJudge(), preset="deepeval", threshold=0.5, n=4)
    stricter = base.with_options(threshold=0.8)
    assert stricter.preset == "deepeval" and stricter.threshold == 0.8
    assert stricter.options["n"] == 4 and base.threshold == 0.5
    assert stricter.judge is base.judge
    with pytest.raises(TypeError, match="timeout"):
        base.with_options(timeout=3)


async def test_the_variant_shares_the_request_limit_the_caches_and_the_spend() -> None:
    judge = CountingJudge(ragas_script())
    base = SummarizationScorer(judge, prompts="own", max_concurrency=2, preset="ragas")
    variant = base.with_preset(coeff=0.2)
    assert variant.max_concurrency == 2
    cases = [(f"source {i}", f"summary {i}") for i in range(6)]
    first, second = await asyncio.gather(
        base.ascore_many(cases, progress=False), variant.ascore_many(cases, progress=False)
    )
    assert all(r.ok for r in first + second)
    assert judge.peak <= 2  # both scorers' requests under the one limit
    spent = sum(r.usage.judge_calls for r in first + second)
    assert base.usage.judge_calls == variant.usage.judge_calls == spent
    # The source-side work depends on the options, so each rule asked for its own...
    assert all(r.usage.reused_calls == 0 for r in first + second)
    # ...and a second scorer of the same rule reuses what the first one cached.
    again = await base.with_preset(coeff=0.5).ascore("source 0", "another summary")
    assert again.usage.reused_calls > 0


def test_call_settings_and_bad_options_are_refused_naming_them() -> None:
    base = SummarizationScorer(LexicalJudge(), preset="mastra")
    with pytest.raises(TypeError, match=r"max_concurrency: .*shared"):
        base.with_preset(max_concurrency=3)
    with pytest.raises(TypeError, match="coeff"):
        base.with_preset(coeff=0.3)
    with pytest.raises(ValueError, match="preset must be one of"):
        base.with_preset("rouge")
    with pytest.raises(ValueError, match="scale"):
        base.with_preset(scale=-1)


def test_a_custom_prompt_set_does_not_carry_over_to_another_preset() -> None:
    from summscore.prompts import load_prompt_set

    base = SummarizationScorer(
        ScriptedJudge(ragas_script()), prompts=load_prompt_set("ragas", "own"), preset="ragas"
    )
    assert base.with_preset(coeff=0.1).prompts is base.prompts
    with pytest.raises(TypeError, match=r"prompts: .*ragas"):
        base.with_preset("mastra")


def test_the_timeout_is_a_read_only_property() -> None:
    assert SummarizationScorer(LexicalJudge()).timeout == 120.0
    scorer = SummarizationScorer(LexicalJudge(), timeout=7)
    assert scorer.timeout == 7 and scorer.with_preset().timeout == 7
    assert SummarizationScorer(LexicalJudge(), timeout=None).timeout is None
    with pytest.raises(AttributeError):
        scorer.timeout = 3  # type: ignore[misc]


def test_prompts_is_the_prompt_set_in_use() -> None:
    from summscore.prompts import load_prompt_set

    own = load_prompt_set("ragas", "own")
    assert (
        SummarizationScorer(ScriptedJudge(ragas_script()), prompts=own, preset="ragas").prompts
        is own
    )
    chosen = SummarizationScorer(
        ScriptedJudge(ragas_script()), prompts="own", preset="ragas"
    ).prompts
    assert chosen.name == own.name
    lexical = SummarizationScorer(LexicalJudge(), preset="mastra")
    assert lexical.prompt_set == "none" and lexical.prompts.name == "summscore-v1"
