"""The MLflow face inside mlflow.genai.evaluate(), against the compat judge server: its judge named
as MLflow's built-in judges name theirs (model URIs, MLflow's default judge), and its registered
form, reloaded from MLflow's store in a fresh process."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

mlflow = pytest.importorskip("mlflow")

from compat.clients import KEY, MODEL, async_client  # noqa: E402
from compat.corpus import case  # noqa: E402
from mlflow.exceptions import MlflowException  # noqa: E402
from mlflow.genai.judges.utils import get_default_model  # noqa: E402
from mlflow.genai.scorers import Correctness, ScorerSamplingConfig  # noqa: E402

from summscore import SummarizationScorer  # noqa: E402
from summscore.judges import LexicalJudge, MLflowJudge  # noqa: E402
from summscore.mlflow import Summarization  # noqa: E402

MLFLOW = tuple(int(p) for p in mlflow.__version__.split(".")[:2])
# MLflow before 3.8 asks its built-in judges through LiteLLM when it is installed; its path without
# it fails in 3.4 (a list of messages where a string is expected), so compare with them there only.
BUILTIN_JUDGES_RUN = MLFLOW >= (3, 8) or importlib.util.find_spec("litellm") is not None

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


# ------------------------------------------------------------ the judge, named MLflow's way


@pytest.fixture
def openai_env(judge_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """MLflow's OpenAI provider pointed at the compat judge, as a user's environment points it."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", judge_server.url)
    monkeypatch.delenv("OPENAI_API_BASE", raising=False)
    monkeypatch.delenv("MLFLOW_GENAI_JUDGE_DEFAULT_MODEL", raising=False)
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    monkeypatch.setenv("MLFLOW_MODEL_CATALOG_URI", "")  # MLflow would fetch its model catalog


def _builtin_judge_source(**kw: Any) -> str:
    """The judge model MLflow's own built-in judge used, from its Feedback (it must have answered).
    Where MLflow's built-in judges cannot run offline, the model MLflow resolves for them."""
    if not BUILTIN_JUDGES_RUN:
        return str(kw.get("model") or get_default_model())
    feedback = Correctness(**kw)(
        inputs={"question": "What closed in 1987?"},
        outputs="The plant closed in 1987.",
        expectations={"expected_response": "The plant closed in 1987."},
    )
    assert feedback.error is None, feedback.error
    return str(feedback.source.source_id)


def test_the_default_judge_and_model_uris_are_mlflows_as_for_its_builtin_judges(
    judge_server: Any, openai_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = case("news-fitness")
    reference = SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset="deepeval")
    expected = reference.score(c.source, c.summary).score
    assert 0 < expected < 1
    # No judge named: MLflow's default judge, the one its built-in judges use, on the same server.
    default = Summarization(preset="deepeval")(inputs=c.source, outputs=c.summary)
    assert default.value == pytest.approx(expected)
    assert default.source.source_id == _builtin_judge_source() == get_default_model()
    named = Summarization(model="openai:/gpt-4o", preset="deepeval")
    feedback = named(inputs={"document": c.source}, outputs=c.summary)
    assert feedback.value == pytest.approx(expected)
    assert (
        feedback.source.source_id
        == "openai:/gpt-4o"
        == _builtin_judge_source(model="openai:/gpt-4o")
    )
    assert named.model == "openai:/gpt-4o"
    # MLflow's setting of the default judge (where it has one) moves both.
    monkeypatch.setenv("MLFLOW_GENAI_JUDGE_DEFAULT_MODEL", "openai:/gpt-4o")
    moved = Summarization(preset="deepeval")(inputs=c.source, outputs=c.summary)
    assert moved.source.source_id == _builtin_judge_source() == get_default_model()
    if hasattr(mlflow.environment_variables, "MLFLOW_GENAI_JUDGE_DEFAULT_MODEL"):
        assert moved.source.source_id == "openai:/gpt-4o"


def test_a_string_llm_means_an_mlflow_model_uri_or_is_a_clear_error(openai_env: None) -> None:
    face = Summarization(llm="openai:/gpt-4o-mini")
    assert face.model == "openai:/gpt-4o-mini"
    assert isinstance(face.scorer.judge, MLflowJudge)
    assert face.scorer.judge.model_uri == "openai:/gpt-4o-mini"
    with pytest.raises(ValueError, match=r"'gpt-4o-mini' is not an MLflow judge model URI"):
        Summarization(llm="gpt-4o-mini")
    with pytest.raises(ValueError, match=r"model='openai:/gpt-4o-mini'"):
        Summarization(model="gpt-4o-mini")
    with pytest.raises(TypeError, match="pass the judge once"):
        Summarization(llm=LexicalJudge(), model="openai:/gpt-4o-mini")
    shared = SummarizationScorer(llm=LexicalJudge())
    with pytest.raises(ValueError, match="model='openai:/gpt-4o-mini' and scorer= name different"):
        Summarization(scorer=shared, model="openai:/gpt-4o-mini")


# ------------------------------------------------------- registration, for production monitoring

REGISTERABLE = MLFLOW >= (3, 17) or (3, 5) <= MLFLOW < (3, 8)

_RELOAD = """
import json, sys
import mlflow
from mlflow.genai.scorers import get_scorer
mlflow.set_experiment("faces")
source, summary = json.loads(sys.stdin.read())
scorer = get_scorer(name="summary_quality")
feedback = scorer(inputs={"document": source}, outputs=summary)
print(json.dumps([type(scorer).__name__, feedback.value, feedback.source.source_id]))
"""


@pytest.mark.skipif(
    not REGISTERABLE,
    reason="MLflow registers custom scorers outside Databricks in 3.5-3.7 and from 3.17 on",
)
def test_register_then_reload_in_a_fresh_process_gives_the_same_number(
    judge_server: Any, openai_env: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = f"sqlite:///{tmp_path / 'mlflow.db'}"
    monkeypatch.setenv("MLFLOW_TRACKING_URI", store)
    monkeypatch.setenv("MLFLOW_SERVER_ENABLE_CUSTOM_SCORERS", "true")
    mlflow.set_tracking_uri(store)
    mlflow.set_experiment("faces")
    c = case("news-fitness")
    face = Summarization(model="openai:/gpt-4o-mini", preset="mastra", scale=10, max_questions=6)
    expected = face(inputs={"document": c.source}, outputs=c.summary).value
    registered = face.register(name="summary_quality")
    assert registered.name == "summary_quality"
    dumped = face.model_dump()
    assert dumped["call_source"] and "summscore" in dumped["call_source"]
    # A fresh process holds nothing of this one but MLflow's store and the environment.
    done = subprocess.run(
        [sys.executable, "-c", _RELOAD],
        input=json.dumps([c.source, c.summary]),
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ),
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    kind, value, source_id = json.loads(done.stdout.strip().splitlines()[-1])
    assert value == pytest.approx(expected) and 1 < value <= 10
    assert source_id == "openai:/gpt-4o-mini"
    assert kind != "Summarization"  # MLflow's own decorator scorer, rebuilt from the store


@pytest.mark.skipif(MLFLOW < (3, 9), reason="MLflow's open-source store schedules scorers from 3.9")
def test_start_on_the_open_source_store_says_why_not(
    openai_env: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = f"sqlite:///{tmp_path / 'mlflow.db'}"
    monkeypatch.setenv("MLFLOW_TRACKING_URI", store)
    monkeypatch.setenv("MLFLOW_SERVER_ENABLE_CUSTOM_SCORERS", "true")
    mlflow.set_tracking_uri(store)
    mlflow.set_experiment("faces")
    registered = Summarization(model="openai:/gpt-4o-mini").register()
    # MLflow schedules only gateway:/ built-in judges outside Databricks: its own error, as the
    # docs page says; on Databricks the registered scorer starts.
    with pytest.raises(MlflowException, match="gateway model"):
        registered.start(sampling_config=ScorerSamplingConfig(sample_rate=0.5))


def test_a_scorer_built_from_a_judge_object_says_how_to_register_it() -> None:
    face = Summarization(llm=LexicalJudge())
    for action in (face.register, face.model_dump):
        with pytest.raises(
            MlflowException, match=r"lives in this process only.*model='<provider>:/<model>'"
        ):
            action()


def test_the_definition_mlflow_hashes_for_every_row_is_cheap_to_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """mlflow.genai.evaluate() hashes each scorer's definition for every row it scores
    (get_scorer_definition_digest): model_dump(), or for a scorer it cannot serialize (built
    from a judge object) the class's source read with inspect.getsource. Profiled on 200 rows,
    that was 12 ms of CPU a row for a face from a judge object (its whole module parsed and its
    class tokenized again) and 3.6 ms for one from model= (the registered function's source read
    again), a tenth of MLflow's loop. The class MLflow reads is a few lines, the dump is built
    once per configuration, and the digests still tell configurations apart."""
    import inspect

    from mlflow.genai.scorers.scorer_utils import get_scorer_definition_digest

    read: list[int] = []
    getsource = inspect.getsource
    monkeypatch.setattr(
        inspect,
        "getsource",
        lambda obj: read.append(len(getsource(obj).splitlines())) or getsource(obj),
    )
    local = Summarization(llm=LexicalJudge())
    assert get_scorer_definition_digest(local) == get_scorer_definition_digest(local)
    assert read and max(read) <= 12
    module_lines = len(Path(inspect.getfile(Summarization)).read_text().splitlines())
    assert module_lines <= 80  # parsed whole for every row

    built: list[str] = []
    decorator_scorer = Summarization.decorator_scorer.__func__  # type: ignore[attr-defined]

    def counted(cls: Any, config: str, name: str, description: str | None) -> Any:
        built.append(config)
        return decorator_scorer(cls, config, name, description)

    monkeypatch.setattr(Summarization, "decorator_scorer", classmethod(counted))
    mini = Summarization(model="openai:/gpt-4o-mini", name="unique-for-this-test")
    digests = {get_scorer_definition_digest(mini) for _ in range(5)}
    assert len(digests) == 1 and len(built) == 1
    other = Summarization(model="openai:/gpt-4o", name="unique-for-this-test")
    assert get_scorer_definition_digest(other) not in digests
    dumped = mini.model_dump()
    dumped["name"] = "changed by the caller"
    assert mini.model_dump()["name"] == "unique-for-this-test"  # every caller gets a copy
