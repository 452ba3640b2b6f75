"""The Phoenix face: a phoenix.evals evaluator on its own and inside evaluate_dataframe() /
async_evaluate_dataframe(), against the compat judge (no Phoenix server: scoring is local)."""

from __future__ import annotations

import ast
import math
import random
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("phoenix.evals")
pd = pytest.importorskip("pandas")

from compat.clients import KEY, MODEL, async_client  # noqa: E402
from compat.corpus import case  # noqa: E402
from phoenix.evals import (  # noqa: E402
    LLM,
    Score,
    async_evaluate_dataframe,
    bind_evaluator,
    evaluate_dataframe,
)

from summscore import SummarizationScorer  # noqa: E402
from summscore.judges import LexicalJudge  # noqa: E402
from summscore.phoenix import SummarizationEvaluator  # noqa: E402

from .virtual_clock import FullServer, VirtualLoop, cases  # noqa: E402

CASES = [  # three sources, so that a case is known by its source
    case("news-tesla-misattributed"),
    case("news-rates-wrong-number"),
    case("science-crispr-omits"),
]


def test_every_row_is_scored_inside_phoenix_dataframe_evaluation(judge_server: Any) -> None:
    shared = SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset="deepeval")
    df = pd.DataFrame({"input": [c.source for c in CASES], "output": [c.summary for c in CASES]})
    out = evaluate_dataframe(
        dataframe=df, evaluators=[SummarizationEvaluator(scorer=shared)], hide_tqdm_bar=True
    )
    assert [d["status"] for d in out["summarization_execution_details"]] == ["COMPLETED"] * 3
    got = [d["score"] for d in out["summarization_score"]]
    assert got == pytest.approx([shared.score(c.source, c.summary).score for c in CASES])
    assert all(d["explanation"] and d["kind"] == "llm" for d in out["summarization_score"])


async def test_bound_columns_and_the_async_dataframe_evaluation() -> None:
    evaluator = SummarizationEvaluator(llm=LexicalJudge())
    df = pd.DataFrame({"article": [c.source for c in CASES], "summary": [c.summary for c in CASES]})
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # the keyword form warns of nothing
        bound = bind_evaluator(
            evaluator=evaluator, input_mapping={"input": "article", "output": "summary"}
        )
        out = await async_evaluate_dataframe(dataframe=df, evaluators=[bound], hide_tqdm_bar=True)
    got = [d["score"] for d in out["summarization_score"]]
    assert got == pytest.approx([evaluator.scorer.score(c.source, c.summary).score for c in CASES])


def test_evaluate_returns_phoenix_scores_with_reason_and_evidence() -> None:
    evaluator = SummarizationEvaluator(llm=LexicalJudge(), preset="mastra")
    c = case("science-crispr-omits")
    [score] = evaluator.evaluate({"input": list(c.contexts), "output": c.summary})
    assert isinstance(score, Score) and score.name == "summarization"
    assert score.score == pytest.approx(evaluator.scorer.score(list(c.contexts), c.summary).score)
    assert score.direction == "maximize" and "alignment_score" in score.metadata


def test_a_failed_row_is_an_error_score_and_the_other_rows_are_scored() -> None:
    evaluator = SummarizationEvaluator(llm=LexicalJudge())
    c = case("news-tesla-faithful")
    df = pd.DataFrame({"input": [c.source, c.source], "output": ["   ", c.summary]})
    out = evaluate_dataframe(dataframe=df, evaluators=[evaluator], hide_tqdm_bar=True)
    bad, good = out["summarization_score"]
    assert bad.get("score") is None and bad["label"] == "error"
    assert "output" in bad["explanation"]
    assert not math.isnan(good["score"])


def test_phoenixs_own_llm_judges_beside_its_builtin_evaluators(judge_server: Any) -> None:
    """Phoenix's LLM object, the judge its built-in evaluators take, judges the face too: in one
    evaluate_dataframe beside Phoenix's FaithfulnessEvaluator (HallucinationEvaluator before
    3.x) on the same LLM, every row completes with the number the core gives for the same
    server and model."""
    from phoenix.evals import metrics

    llm = LLM(provider="openai", model=MODEL, base_url=judge_server.url, api_key=KEY)
    summarization = SummarizationEvaluator(llm=llm)
    builtin = getattr(metrics, "FaithfulnessEvaluator", None) or metrics.HallucinationEvaluator
    theirs = builtin(llm=llm)
    df = pd.DataFrame(
        {
            "input": [c.source for c in CASES],
            "output": [c.summary for c in CASES],
            "context": [c.source for c in CASES],
        }
    )
    out = evaluate_dataframe(dataframe=df, evaluators=[summarization, theirs], hide_tqdm_bar=True)
    for name in ("summarization", theirs.name):
        statuses = [d["status"] for d in out[f"{name}_execution_details"]]
        assert statuses == ["COMPLETED"] * 3, (name, out[f"{name}_execution_details"])
    core = SummarizationScorer(llm=async_client(judge_server), model=MODEL)
    got = [d["score"] for d in out["summarization_score"]]
    assert got == pytest.approx([core.score(c.source, c.summary).score for c in CASES])
    assert summarization.scorer.judge.name.startswith(f"phoenix:openai:{MODEL}@127.0.0.1:")


def test_a_scorer_built_on_the_llm_is_shared_with_the_evaluator(judge_server: Any) -> None:
    llm = LLM(provider="openai", model=MODEL, base_url=judge_server.url, api_key=KEY)
    shared = SummarizationEvaluator(llm=llm).scorer
    assert SummarizationEvaluator(llm=llm, scorer=shared).scorer is shared


@pytest.mark.parametrize("sources", [80, 16])
def test_every_row_at_once_in_the_dataframe_evaluation_meets_no_more_429s_than_score_many(
    sources: int,
) -> None:
    # Issue #48: the face inside async_evaluate_dataframe(concurrency=80) met 14 429s a run on
    # 16 x 5 where score_many met 2. On a virtual clock (the machine's load out of the picture),
    # against a judge that takes 32 at once with answers up to 10 ms late each way, both go
    # through the scorer's one limit on one loop and meet the same count: 26 on 80 x 1 and
    # 19 on 16 x 5 before the limited slow start, 2 to 3 since.
    def run(face: bool) -> tuple[int, int]:
        random.seed(0)  # the retries' jitter
        judge = FullServer(jitter=0.01)
        scorer = SummarizationScorer(llm=judge, preset="ragas", prompts="own")
        rows = cases(80, sources)
        loop = VirtualLoop()
        try:
            if face:
                df = pd.DataFrame({"input": [r[0] for r in rows], "output": [r[1] for r in rows]})
                out = loop.run_until_complete(
                    async_evaluate_dataframe(
                        dataframe=df,
                        evaluators=[SummarizationEvaluator(scorer=scorer)],
                        concurrency=len(rows),
                        hide_tqdm_bar=True,
                    )
                )
                scored = sum(
                    d is not None and d["score"] is not None for d in out["summarization_score"]
                )
            else:
                results = loop.run_until_complete(scorer.ascore_many(rows, progress=False))
                scored = sum(r.ok for r in results)
        finally:
            loop.close()
        assert scored == len(rows)
        return judge.rejected, judge.peak

    (face, face_peak), (many, _) = run(True), run(False)
    assert face_peak == 32
    assert face <= many
    assert face <= 8  # one round's growth of the limit past the server's 32


def test_the_page_binds_columns_with_keywords() -> None:
    """arize-phoenix-evals 3.9 deprecates positional bind_evaluator arguments."""
    page = (Path(__file__).parent.parent / "docs" / "frameworks" / "phoenix.md").read_text()
    calls = [
        node
        for block in re.findall(r"```python\n(.*?)```", page, re.S)
        for node in ast.walk(ast.parse(_dedent(block)))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "bind_evaluator"
    ]
    assert calls and all(not call.args for call in calls)


def test_the_faces_docstring_binds_columns_with_keywords_too() -> None:
    """The face's docstring (its reference page, ``help()``) shows the call as the page does:
    the positional form warns on arize-phoenix-evals 3.9."""
    import summscore.phoenix as face

    docs = [
        ast.get_docstring(n) or ""
        for n in ast.walk(ast.parse(Path(face.__file__).read_text()))
        if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    shown = re.findall(r"``(bind_evaluator\(.*?\))``", " ".join(" ".join(docs).split()))
    calls = [ast.parse(code, mode="eval").body for code in shown]
    assert calls, "the docstring names bind_evaluator as an example call"
    assert all(isinstance(c, ast.Call) and not c.args for c in calls), shown
    evaluator = SummarizationEvaluator(llm=LexicalJudge())
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for call in calls:
            named = {
                k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg != "evaluator"
            }
            bind_evaluator(evaluator=evaluator, **named)


def _dedent(block: str) -> str:
    import textwrap

    return textwrap.dedent(block)
