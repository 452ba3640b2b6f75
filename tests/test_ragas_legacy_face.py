"""summscore.ragas.SummarizationScore: the legacy single-turn metric in ragas.evaluate(), against
ragas's own legacy metric."""

from __future__ import annotations

import math
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

pytest.importorskip("ragas")

from compat.corpus import CASES, case
from ragas import EvaluationDataset, evaluate
from ragas.dataset_schema import SingleTurnSample
from ragas.metrics._summarization import SummarizationScore as UpstreamLegacy

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.ragas import SummarizationScore

from .framework_fakes import Oracle, ragas_legacy_llm, ragas_llm, ragas_metric_llm

pytestmark = pytest.mark.upstream

PARITY_CASES = [c for c in CASES if c.kind != "injection"]


# ------------------------------------------------------------------ legacy SummarizationScore


def _dataset(cases: list, column: str = "reference_contexts") -> EvaluationDataset:
    return EvaluationDataset(
        samples=[SingleTurnSample(**{column: list(c.contexts)}, response=c.summary) for c in cases]
    )


def test_legacy_metric_matches_upstream_in_one_evaluate_run() -> None:
    ours = SummarizationScore()
    theirs = UpstreamLegacy()
    theirs.name = "upstream_summary_score"
    oracle = Oracle()
    result = evaluate(
        _dataset(PARITY_CASES),
        metrics=[ours, theirs],
        llm=ragas_metric_llm(oracle),
        show_progress=False,
        raise_exceptions=True,
    )
    frame = result.to_pandas()
    assert list(frame["summary_score"]) == list(frame["upstream_summary_score"])
    assert frame["summary_score"].notna().all()
    assert ours.llm is None  # evaluate() gave its llm back


def test_legacy_metric_takes_a_legacy_wrapper_llm_from_evaluate() -> None:
    cases = PARITY_CASES[:3]
    frame = evaluate(
        _dataset(cases),
        metrics=[SummarizationScore()],
        llm=ragas_legacy_llm(Oracle()),
        show_progress=False,
        raise_exceptions=True,
    ).to_pandas()
    direct = [
        SummarizationScorer(llm=ragas_llm(Oracle()), preset="ragas")
        .score(list(c.contexts), c.summary)
        .score
        for c in cases
    ]
    assert list(frame["summary_score"]) == direct


def test_legacy_failed_row_is_nan_when_exceptions_are_not_raised() -> None:
    def no_answers_for_rates(task: str, inputs: dict) -> dict | None:
        if task == "answers" and "4.5%" in inputs.get("text", ""):
            return {"answers": []}
        return None

    cases = [case("news-fitness"), case("news-rates"), case("news-tesla-faithful")]
    frame = evaluate(
        _dataset(cases),
        metrics=[SummarizationScore(llm=ragas_llm(Oracle(no_answers_for_rates)))],
        show_progress=False,
        raise_exceptions=False,
    ).to_pandas()
    scores = list(frame["summary_score"])
    assert math.isnan(scores[1])
    assert not math.isnan(scores[0]) and not math.isnan(scores[2])


async def test_retrieved_contexts_are_scored_with_one_warning() -> None:
    metric = SummarizationScore(llm=LexicalJudge())
    c = case("news-fitness")
    sample = SingleTurnSample(retrieved_contexts=list(c.contexts), response=c.summary)
    with pytest.warns(UserWarning, match="retrieved_contexts instead") as caught:
        first = await metric.single_turn_ascore(sample)
        second = await metric.single_turn_ascore(sample)
    assert len([w for w in caught if "retrieved_contexts" in str(w.message)]) == 1
    expected = SummarizationScorer(llm=LexicalJudge(), preset="ragas")
    expected = expected.score(list(c.contexts), c.summary).score
    assert first == second == expected
    assert metric.required_columns["SINGLE_TURN"] == {"reference_contexts", "response"}


async def test_legacy_without_length_penalty_returns_qa_where_upstream_halves_it() -> None:
    c = case("vaccine-faithful")
    sample = SingleTurnSample(reference_contexts=list(c.contexts), response=c.summary)
    ours = await SummarizationScore(
        llm=ragas_metric_llm(Oracle()), length_penalty=False
    ).single_turn_ascore(sample)
    theirs = await UpstreamLegacy(
        llm=ragas_metric_llm(Oracle()), length_penalty=False
    ).single_turn_ascore(sample)
    assert theirs == pytest.approx(ours * 0.5)


def test_legacy_metric_without_any_judge_says_how_to_give_one() -> None:
    metric = SummarizationScore()
    sample = SingleTurnSample(reference_contexts=["text"], response="sum")
    with pytest.raises(ValueError, match="no judge"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        metric.single_turn_score(sample)


def test_legacy_metric_with_a_shared_scorer_keeps_evaluate_from_replacing_its_judge() -> None:
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="ragas")
    metric = SummarizationScore(scorer=scorer)
    frame = evaluate(
        _dataset([case("news-fitness")]),
        metrics=[metric],
        llm=ragas_llm(Oracle()),
        show_progress=False,
        raise_exceptions=True,
    ).to_pandas()
    c = case("news-fitness")
    assert frame["summary_score"][0] == scorer.score(list(c.contexts), c.summary).score


_WITHOUT_COLLECTIONS = """
import sys

sys.modules["ragas.metrics.collections"] = None  # as ragas before 0.3.9: no collections API
from ragas.dataset_schema import SingleTurnSample

from summscore.judges import LexicalJudge
from summscore.ragas import SummarizationScore, SummaryScore

try:
    SummaryScore(llm=LexicalJudge())
except ImportError as exc:
    print("ImportError:", exc)
sample = SingleTurnSample(reference_contexts=["The mill closed in 1990."], response="The mill closed.")
print("legacy:", SummarizationScore(llm=LexicalJudge()).single_turn_score(sample))
"""


def test_the_collections_face_on_a_ragas_without_that_api_names_the_version_needed() -> None:
    """On a ragas without ``ragas.metrics.collections`` (before 0.3.9; faked here on the pinned
    one, in a fresh interpreter), the collections face names the version it needs and the legacy
    face it points to still scores."""
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_COLLECTIONS],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert done.returncode == 0, done.stderr
    error, legacy = done.stdout.splitlines()[-2:]
    assert re.fullmatch(
        r"ImportError: summscore\.ragas\.SummaryScore needs ragas's collections API "
        r"\(ragas 0\.3\.9 or later\); ragas \S+ is installed\. .*SummarizationScore.*",
        error,
    ), error
    expected = SummarizationScorer(LexicalJudge(), preset="ragas").score(
        ["The mill closed in 1990."], "The mill closed."
    )
    assert legacy == f"legacy: {expected.score}"


async def test_set_prompts_reaches_the_judge_even_for_a_source_already_scored() -> None:
    import copy

    oracle = Oracle()
    metric = SummarizationScore(llm=ragas_metric_llm(oracle))
    c = case("news-fitness")
    sample = SingleTurnSample(reference_contexts=list(c.contexts), response=c.summary)
    await metric.single_turn_ascore(sample)
    (name,) = [k for k in metric.get_prompts() if "keyphrase" in k]
    edited = copy.deepcopy(metric.get_prompts()[name])
    edited.instruction = "Extract the names and numbers only."
    metric.set_prompts(**{name: edited})
    assert metric.extract_keyphrases_prompt is edited
    await metric.single_turn_ascore(sample)
    assert len(oracle.prompts) == 6 and oracle.prompts[3].startswith("Extract the names")
