"""The TruLens face: a feedback function computed by TruLens's app recorders on a local SQLite
store, against the compat judge (no Snowflake, no OTLP exporter: everything stays in the file)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("trulens.core")
pytest.importorskip("trulens.feedback")

from compat.clients import MODEL, async_client
from compat.corpus import case
from trulens.apps.basic import TruBasicApp
from trulens.core import TruSession

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.trulens import Summarization

CASES = [  # three sources, so that a case is known by its source
    case("news-tesla-misattributed"),
    case("news-rates-wrong-number"),
    case("science-crispr-omits"),
]


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Any]:
    TruSession.delete_singleton(TruSession)  # TruSession is a singleton: one store per test
    store = TruSession(database_url=f"sqlite:///{tmp_path / 'trulens.sqlite'}")
    store.reset_database()
    yield store
    TruSession.delete_singleton(TruSession)
    gc.collect()


def test_every_record_gets_the_feedback_in_the_local_store(judge_server: Any, session: Any) -> None:
    shared = SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset="ragas")
    summaries = {c.source: c.summary for c in CASES}
    app = TruBasicApp(
        lambda text: summaries[text],
        app_name="summarizer",
        app_version="v1",
        feedbacks=[Summarization(scorer=shared).metric()],
    )
    with app as recording:
        for c in CASES:
            app.app(c.source)
    expected = sorted(shared.score(c.source, c.summary).score for c in CASES)
    if hasattr(recording, "retrieve_feedback_results"):  # OTEL recording (TruLens's default)
        results = recording.retrieve_feedback_results(timeout=120)
        assert sorted(results["summarization"]) == pytest.approx(expected)
    else:  # TruLens before OTEL recording: each record's feedback is awaited on the record
        for record in recording.records:
            record.wait_for_feedback_results()
    records, feedbacks = session.get_records_and_feedback()
    assert "summarization" in feedbacks
    assert sorted(records["summarization"]) == pytest.approx(expected)
    app.stop_evaluator()


def test_the_function_returns_trulens_score_and_metadata_with_the_reason() -> None:
    function = Summarization(llm=LexicalJudge(), preset="deepeval")
    c = case("science-crispr-omits")
    score, metadata = function(c.source, c.summary)
    assert score == pytest.approx(function.scorer.score(c.source, c.summary).score)
    assert metadata["reason"] and "coverage_score" in metadata


def test_a_case_that_cannot_be_scored_raises_naming_the_field() -> None:
    with pytest.raises(Exception, match="summary"):
        Summarization(llm=LexicalJudge())("a source text", "  ")


def test_a_metrics_error_names_the_metric_inside_the_recorder(session: Any) -> None:
    """Two summscore metrics on one app, named by the user: an output that cannot be scored is
    each metric's error in TruLens's store, under the metric's own name (not "summarization")."""
    metrics = [
        Summarization(llm=LexicalJudge()).metric(name="faithfulness_check"),
        Summarization(llm=LexicalJudge(), preset="ragas", name="brevity_check").metric(),
    ]
    app = TruBasicApp(
        lambda text: "   ", app_name="summarizer", app_version="v2", feedbacks=metrics
    )
    with app as recording:
        app.app("The council approved the budget on Monday.")
    if not hasattr(recording, "retrieve_feedback_results"):  # TruLens before OTEL recording
        for record in recording.records:
            record.wait_for_feedback_results()
        app.stop_evaluator()
        return
    recording.retrieve_feedback_results(timeout=120)
    events = session.connector.get_events(app_name="summarizer", app_version="v2")
    errors = sorted(
        str(attributes[key])
        for attributes in events["record_attributes"]
        for key in attributes
        if key.endswith("eval_root.error")
    )
    app.stop_evaluator()
    assert len(errors) == 2, errors
    assert errors[0].startswith("brevity_check: ") and "summary" in errors[0]
    assert errors[1].startswith("faithfulness_check: ") and "summary" in errors[1]


def test_called_directly_the_error_names_the_function() -> None:
    with pytest.raises(Exception, match=r"^coverage: .*summary"):
        Summarization(llm=LexicalJudge(), name="coverage")("a source text", "  ")
