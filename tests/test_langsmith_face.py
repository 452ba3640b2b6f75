"""The LangSmith face: an evaluator inside langsmith.evaluate() / aevaluate() and in a test
marked @pytest.mark.langsmith, against the compat judge.

evaluate() gets its examples as a list (a dataset name would need LangSmith's API) and
upload_results=False, with a client pointed at a closed local port; the pytest run talks to a
local stand-in for LangSmith's API (compat/langsmith_api.py). Nothing leaves the machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path
from typing import Any

import pytest

langsmith = pytest.importorskip("langsmith")

from compat.clients import MODEL, async_client  # noqa: E402
from compat.corpus import case  # noqa: E402
from compat.langsmith_api import LangSmithAPI  # noqa: E402
from langsmith import Client, aevaluate, evaluate  # noqa: E402
from langsmith.evaluation import EvaluationResult  # noqa: E402
from langsmith.schemas import Example  # noqa: E402

from summscore import SummarizationScorer  # noqa: E402
from summscore.judges import LexicalJudge  # noqa: E402
from summscore.langsmith import Summarization  # noqa: E402

CASES = [  # three sources, so that a case is known by its source
    case("news-tesla-misattributed"),
    case("news-rates-wrong-number"),
    case("science-crispr-omits"),
]
OFFLINE = Client(api_key="offline", api_url="http://127.0.0.1:9")


def _examples() -> list[Example]:
    dataset = uuid.uuid4()
    return [
        Example(id=uuid.uuid4(), dataset_id=dataset, inputs={"article": c.source}, outputs={})
        for c in CASES
    ]


def _summarize(inputs: dict[str, Any]) -> dict[str, Any]:
    return {"summary": next(c.summary for c in CASES if c.source == inputs["article"])}


def _scores(rows: list[Any], key: str = "summarization") -> dict[str, float]:
    return {
        row["example"].inputs["article"]: next(
            r.score for r in row["evaluation_results"]["results"] if r.key == key
        )
        for row in rows
    }


def test_every_example_is_scored_inside_langsmith_evaluate(judge_server: Any) -> None:
    shared = SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset="deepeval")
    results = evaluate(
        _summarize,
        data=_examples(),
        evaluators=[Summarization(scorer=shared)],
        upload_results=False,
        client=OFFLINE,
    )
    expected = {c.source: shared.score(c.source, c.summary).score for c in CASES}
    assert _scores(list(results)) == pytest.approx(expected)


async def test_every_example_is_scored_inside_langsmith_aevaluate(judge_server: Any) -> None:
    shared = SummarizationScorer(llm=async_client(judge_server), model=MODEL, preset="mastra")

    async def summarize(inputs: dict[str, Any]) -> dict[str, Any]:
        return _summarize(inputs)

    results = await aevaluate(
        summarize,
        data=_examples(),
        evaluators=[Summarization(scorer=shared, key="summary_quality")],
        upload_results=False,
        client=OFFLINE,
    )
    rows = [row async for row in results]
    expected = {c.source: (await shared.ascore(c.source, c.summary)).score for c in CASES}
    assert _scores(rows, "summary_quality") == pytest.approx(expected)


def _length(outputs: dict[str, Any]) -> dict[str, Any]:
    """A plain function evaluator, run beside the face in the same evaluate() loop."""
    return {"key": "length", "score": len(outputs["summary"])}


@pytest.mark.parametrize("form", ["evaluate", "aevaluate"])
async def test_the_feedback_names_its_evaluator_run_as_a_function_evaluators_does(
    form: str,
) -> None:
    """Uploads off: each result carries its evaluator run id (source_run_id), the face's as a
    plain function evaluator's, one id per evaluator and example."""
    evaluators = [Summarization(llm=LexicalJudge(), source_key="article"), _length]
    if form == "evaluate":
        run = evaluate(
            _summarize,
            data=_examples(),
            evaluators=evaluators,
            upload_results=False,
            client=OFFLINE,
        )
        rows = list(run)
    else:

        async def summarize(inputs: dict[str, Any]) -> dict[str, Any]:
            return _summarize(inputs)

        arun = await aevaluate(
            summarize, data=_examples(), evaluators=evaluators, upload_results=False, client=OFFLINE
        )
        rows = [row async for row in arun]
    ids = []
    for row in rows:
        found = {r.key: r.source_run_id for r in row["evaluation_results"]["results"]}
        assert found["length"] is not None  # LangSmith's own behaviour, for reference
        assert isinstance(found["summarization"], uuid.UUID)
        ids += found.values()
    assert len(set(ids)) == 2 * len(CASES)


def test_with_uploads_the_feedback_is_linked_to_the_evaluators_traced_run() -> None:
    """Uploads on, against a local stand-in for LangSmith's API: the face's feedback points at a
    traced run of the evaluator (its source run), which names the run it judged, as a plain
    function evaluator's feedback does; so the score can be audited from the UI."""
    with LangSmithAPI() as api:
        client = Client(api_key="not-a-real-key", api_url=api.url)
        results = evaluate(
            _summarize,
            data=_examples()[:1],
            evaluators=[Summarization(llm=LexicalJudge(), source_key="article"), _length],
            upload_results=True,
            client=client,
        )
        [row] = list(results)
        client.flush()
        feedback = {f["key"]: f for f in api.feedback()}
        runs = api.runs()
    target = str(row["run"].id)
    for key, name in (("summarization", "summarization"), ("length", "_length")):
        source = feedback[key]["feedback_source"]["metadata"]["__run"]["run_id"]
        assert source in runs, (key, sorted(runs))
        traced = runs[source]
        assert traced["name"] == name
        assert traced["extra"]["metadata"]["target_run_id"] == target
    # The evaluator's trace shows the score it gave (the feedback is rounded to 4 places).
    traced = runs[feedback["summarization"]["feedback_source"]["metadata"]["__run"]["run_id"]]
    assert traced["outputs"]["score"] == pytest.approx(feedback["summarization"]["score"], abs=5e-5)


def test_a_direct_call_returns_langsmiths_evaluation_result() -> None:
    evaluator = Summarization(llm=LexicalJudge(), preset="deepeval", source_key="article")
    c = case("science-crispr-omits")
    result = evaluator(
        inputs={"question": "summarize", "article": c.source},
        outputs={"summary": c.summary},
        reference_outputs={"summary": "unused"},
    )
    assert isinstance(result, EvaluationResult) and result.key == "summarization"
    assert result.score == pytest.approx(evaluator.scorer.score(c.source, c.summary).score)
    assert result.comment == evaluator.scorer.score(c.source, c.summary).reason
    if hasattr(result, "metadata"):  # EvaluationResult has metadata on newer releases
        assert "alignment_score" in (result.metadata or {})


def test_a_case_that_cannot_be_scored_is_an_error_result_naming_the_field() -> None:
    evaluator = Summarization(llm=LexicalJudge())
    result = evaluator(inputs={"article": "The council met."}, outputs={"summary": ""})
    assert result.score is None and result.extra == {"error": True}
    assert "outputs" in (result.comment or "")


def _langsmith_pytest(
    tmp_path: Path, code: str, tracking: bool
) -> tuple[Any, list[Any], list[Any]]:
    """Run ``code`` as a test file under LangSmith's own pytest plugin, against a local stand-in
    for LangSmith's API; (the pytest run, the feedback it uploaded, every request it made)."""
    (tmp_path / "test_summaries.py").write_text(code)
    with LangSmithAPI() as api:
        env = {
            **os.environ,
            "LANGSMITH_ENDPOINT": api.url,
            "LANGSMITH_API_KEY": "not-a-real-key",
            "LANGSMITH_TRACING": "true" if tracking else "false",
            "LANGSMITH_TEST_TRACKING": "true" if tracking else "false",
            "LANGSMITH_TEST_SUITE": "summscore-faces",
            # LangSmith's plugin alone: the other frameworks' plugins take long to load.
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        }
        plugin = ["-p", "langsmith.pytest_plugin", "-p", "no:cacheprovider"]
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", *plugin, str(tmp_path)],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
            timeout=300,
        )
        return run, api.feedback(), list(api.bodies)


def test_in_a_pytest_langsmith_test_the_result_is_logged_as_feedback(tmp_path: Path) -> None:
    """LangSmith's own pytest plugin runs a marked test that calls the evaluator; with tracking
    on (against a local stand-in for LangSmith's API) the result goes up as the test's feedback."""
    c = case("science-crispr-omits")
    code = textwrap.dedent(
        f"""
        import pytest
        from langsmith import testing as t
        from summscore.judges import LexicalJudge
        from summscore.langsmith import Summarization

        summarization = Summarization(llm=LexicalJudge())

        @pytest.mark.langsmith
        def test_summary_keeps_the_facts():
            source, summary = {c.source!r}, {c.summary!r}
            t.log_inputs({{"source": source}})
            t.log_outputs({{"summary": summary}})
            result = summarization(inputs={{"source": source}}, outputs={{"summary": summary}})
            assert result.score == summarization.scorer.score(source, summary).score
        """
    )
    run, sent, _ = _langsmith_pytest(tmp_path, code, tracking=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout
    feedback = {f["key"]: f for f in sent}
    expected = SummarizationScorer(llm=LexicalJudge()).score(c.source, c.summary)
    assert feedback["pass"]["score"] == 1  # the plugin's own feedback: the test passed
    assert feedback["summarization"]["score"] == pytest.approx(expected.score, abs=5e-4)
    assert feedback["summarization"]["comment"] == expected.reason


def _page_test_file() -> str:
    """The test file docs/frameworks/langsmith.md shows, as written."""
    page = (Path(__file__).parent.parent / "docs" / "frameworks" / "langsmith.md").read_text()
    [code] = [
        block
        for block in page.split("```python\n")[1:]
        if block.startswith("# test_summaries.py\n")
    ]
    return code.split("```", 1)[0]


@pytest.mark.parametrize("tracking", [False, True], ids=["tracking off", "tracking on"])
def test_the_docs_pytest_file_passes_under_langsmiths_plugin(
    tmp_path: Path, tracking: bool
) -> None:
    """The page's test file, verbatim: with LANGSMITH_TEST_TRACKING=false it passes and sends
    nothing; with tracking on its evaluator's result is the test's summarization feedback."""
    run, sent, requests = _langsmith_pytest(tmp_path, _page_test_file(), tracking=tracking)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout
    if not tracking:
        assert requests == []
        return
    feedback = {f["key"]: f for f in sent}
    assert feedback["pass"]["score"] == 1
    assert feedback["summarization"]["score"] >= 0.4
    assert feedback["summarization"]["comment"]
