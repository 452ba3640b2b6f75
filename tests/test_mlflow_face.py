"""The MLflow face inside mlflow.genai.evaluate(), against the compat judge server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

mlflow = pytest.importorskip("mlflow")

from compat.clients import async_client  # noqa: E402
from compat.corpus import case  # noqa: E402

from summscore import SummarizationScorer  # noqa: E402
from summscore.judges import LexicalJudge  # noqa: E402
from summscore.mlflow import Summarization  # noqa: E402

CASES = [
    case("news-tesla-faithful"),
    case("news-tesla-misattributed"),
    case("science-crispr-omits"),
]


@pytest.fixture
def tracking(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")  # mlflow-skinny has no SQL store
    monkeypatch.setenv("MLFLOW_TRACKING_URI", (tmp_path / "mlruns").as_uri())
    mlflow.set_tracking_uri((tmp_path / "mlruns").as_uri())


def test_every_row_is_scored_inside_mlflow_evaluate(judge_server: Any, tracking: None) -> None:
    scorer = SummarizationScorer(
        llm=async_client(judge_server), model="gpt-4o-mini", preset="deepeval"
    )
    data = [{"inputs": {"document": c.source}, "outputs": c.summary} for c in CASES]
    result = mlflow.genai.evaluate(data=data, scorers=[Summarization(scorer=scorer)])
    table = result.result_df
    values = list(table["summarization/value"])
    expected = [scorer.score(c.source, c.summary).score for c in CASES]
    assert sorted(values) == pytest.approx(sorted(expected))  # row order is MLflow's
    assert result.metrics["summarization/mean"] == pytest.approx(sum(expected) / len(expected))


def test_feedback_carries_the_reason_and_the_evidence() -> None:
    face = Summarization(llm=LexicalJudge(), preset="deepeval")
    c = case("science-crispr-omits")
    feedback = face(inputs=c.source, outputs=c.summary)
    assert feedback.value == pytest.approx(face.scorer.score(c.source, c.summary).score)
    assert feedback.rationale
    assert {"alignment_score", "coverage_score", "missed_questions"} <= set(feedback.metadata)


def test_the_source_can_come_from_expectations() -> None:
    face = Summarization(llm=LexicalJudge(), source_from="expectations", source_key="article")
    c = case("news-tesla-faithful")
    feedback = face(inputs="summarize", outputs=c.summary, expectations={"article": c.source})
    assert feedback.value == pytest.approx(face.scorer.score(c.source, c.summary).score)


def test_a_bad_row_is_an_assessment_error_naming_the_field() -> None:
    face = Summarization(llm=LexicalJudge())
    feedback = face(inputs={"question": "a", "other": "b"}, outputs="x")
    assert feedback.value is None
    assert "inputs" in feedback.error.error_message
