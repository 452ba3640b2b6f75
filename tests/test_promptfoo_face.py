"""The promptfoo face on its own: the Python assertion and the webhook route (its protocol, its
body limit and deadline, a case asked again while judged). Inside the real ``promptfoo eval``:
tests/test_promptfoo_eval.py."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from compat.corpus import case

import summscore.promptfoo as face
from summscore import SummarizationScorer
from summscore.judges import LexicalJudge


def _context(c: Any, **config: Any) -> dict[str, Any]:
    context: dict[str, Any] = {"prompt": c.summary, "vars": {"article": c.source}}
    if config:
        context["config"] = config
    return context


def test_get_assert_grades_the_output_with_the_configured_scorer() -> None:
    c = case("science-crispr-omits")
    graded = face.get_assert(c.summary, _context(c, source_var="article", preset="deepeval"))
    expected = SummarizationScorer(llm=LexicalJudge(), preset="deepeval").score(c.source, c.summary)
    assert graded["score"] == pytest.approx(expected.score)
    assert graded["pass"] is expected.success
    assert graded["reason"] and "coverage_score" in graded["metadata"]


def test_a_missing_source_variable_fails_the_assertion_naming_it() -> None:
    graded = face.get_assert("a summary", {"vars": {"text": "the source"}})
    assert graded["pass"] is False and graded["score"] == 0
    assert "vars.source" in graded["reason"] and "text" in graded["reason"]


def test_a_bad_config_fails_the_assertion_with_the_reason() -> None:
    graded = face.get_assert("a summary", {"vars": {"source": "x"}, "config": {"judge": "openai"}})
    assert graded["pass"] is False and "config.model" in graded["reason"]


def test_the_webhook_route_speaks_promptfoos_protocol() -> None:
    httpx = pytest.importorskip("httpx")
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from summscore.serve import create_app

    del httpx
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="ragas")
    client = TestClient(create_app(scorer))
    c = case("news-tesla-faithful")
    body = {"output": c.summary, "context": {"prompt": c.summary, "vars": {"article": c.source}}}
    graded = client.post("/v1/promptfoo?source_var=article&threshold=0.99", json=body).json()
    expected = scorer.score(c.source, c.summary).score
    assert graded["score"] == pytest.approx(expected)
    assert graded["pass"] is (expected >= 0.99)
    missing = client.post("/v1/promptfoo", json=body).json()
    assert missing["pass"] is False and "vars.source" in missing["reason"]
    empty = client.post("/v1/promptfoo?source_var=article", json={**body, "output": " "}).json()
    assert empty["pass"] is False and "output" in empty["reason"]


@pytest.mark.parametrize(
    ("output", "variables"),
    [
        ("  ", {"source": "The council met on Monday."}),
        ("The council met.", {"text": "The council met on Monday."}),
        ("The council met.", {"source": " "}),
        (3, {"source": "The council met on Monday."}),
        ({"summary": "The council met."}, {"source": ["The council met.", "It rained."]}),
    ],
    ids=["empty output", "no source variable", "empty source", "output not text", "passages"],
)
def test_the_webhook_answers_as_the_python_assertion_does(output: Any, variables: Any) -> None:
    """The same case through both forms: the same answer, reason and metadata included (a
    failed case's reason is summscore's, "output cannot be empty ...", not pydantic's)."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from summscore.serve import create_app

    served = TestClient(create_app(SummarizationScorer(llm=LexicalJudge())))
    context = {"vars": variables}
    python = face.score_output(SummarizationScorer(llm=LexicalJudge()), output, context)
    webhook = served.post("/v1/promptfoo", json={"output": output, "context": context}).json()
    assert webhook == python
    assert "Value error" not in python["reason"]


def test_the_webhook_route_keeps_the_servers_body_limit_and_deadline() -> None:
    """promptfoo's webhook goes through the same guards as /v1/score: a body over the limit is a
    413 and a judge that never answers is a 504 at the server's deadline (promptfoo reports both
    as a failed assertion), not a request that hangs."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from summscore.serve import ServeConfig, create_app
    from tests.test_serve_ops import STUCK, _StuckJudge

    scorer = SummarizationScorer(_StuckJudge(), preset="ragas", max_concurrency=1)
    config = ServeConfig(max_body_bytes=2000, request_timeout=0.5)
    client = TestClient(create_app(scorer, config))
    big = {"output": "x" * 3000, "context": {"vars": {"source": "a source"}}}
    assert client.post("/v1/promptfoo", json=big).status_code == 413
    stuck = {"output": "It never ends.", "context": {"vars": {"source": STUCK}}}
    answer = client.post("/v1/promptfoo", json=stuck)
    assert answer.status_code == 504 and answer.json()["error"]["type"] == "timeout"


async def test_a_case_asked_again_while_judged_is_judged_once(tmp_path: Path) -> None:
    """promptfoo's retries of a webhook that timed out: identical requests while the first is
    being judged share its judgement (one case's judge calls, the same answer for all); once it
    finished, a server with a reply cache answers the same case again with no judge call."""
    httpx = pytest.importorskip("httpx")
    pytest.importorskip("fastapi")
    from summscore.serve import create_app
    from tests.fakes import FITNESS_SOURCE, FITNESS_SUMMARY, ScriptedJudge, ragas_script

    judge = ScriptedJudge(ragas_script(), delay=0.2)
    scorer = SummarizationScorer(llm=judge, preset="ragas", prompts="own", reply_cache=tmp_path)
    body = {"output": FITNESS_SUMMARY, "context": {"vars": {"source": FITNESS_SOURCE}}}
    transport = httpx.ASGITransport(app=create_app(scorer))
    async with httpx.AsyncClient(transport=transport, base_url="http://summscore") as client:
        answers = await asyncio.gather(*[client.post("/v1/promptfoo", json=body) for _ in "abcd"])
        assert [a.status_code for a in answers] == [200] * 4
        assert len(judge.requests) == 3  # keyphrases, questions, answers: one case
        graded = [a.json() for a in answers]
        assert graded[0]["pass"] is not None and graded == [graded[0]] * 4
        again = await client.post("/v1/promptfoo", json=body)
        assert again.json()["score"] == graded[0]["score"] and len(judge.requests) == 3
        other = {**body, "output": FITNESS_SUMMARY + " It also rained."}
        assert (await client.post("/v1/promptfoo", json=other)).status_code == 200
        assert len(judge.requests) == 4  # another summary is judged (its answers only)


async def test_a_shared_judgement_is_cancelled_only_when_no_request_waits() -> None:
    """A request that leaves (its deadline) leaves a shared judgement to the others; when the
    last one leaves, the judgement is cancelled and its judge slot is free."""
    from summscore.serve.promptfoo import OnceEach

    once, started, release = OnceEach(), asyncio.Event(), asyncio.Event()
    cancelled: list[bool] = []

    async def work() -> str:
        started.set()
        try:
            await release.wait()
        except asyncio.CancelledError:
            cancelled.append(True)
            raise
        return "judged"

    first = asyncio.ensure_future(once.run("case", work))
    await started.wait()
    second = asyncio.ensure_future(once.run("case", work))
    await asyncio.sleep(0)
    first.cancel()
    await asyncio.sleep(0)
    assert not cancelled and once.running == 1
    release.set()
    assert await second == "judged" and once.running == 0
    third = asyncio.ensure_future(once.run("other", work))
    release.clear()
    started.clear()
    await asyncio.sleep(0)
    third.cancel()
    await asyncio.sleep(0.01)
    assert cancelled == [True] and once.running == 0


def _split_suite() -> dict[str, Any]:
    return {
        "tests": [
            {
                "description": "two passages",
                "vars": {"source": ["The council met.", "The library opens."], "summary": "s"},
                "assert": [{"type": "python", "value": "file://summscore_assert.py"}],
            }
        ]
    }


@pytest.mark.parametrize("value", ["1", "true", "TRUE", "yes", "yup", "yeppers"])
def test_the_extension_reads_the_environment_switch_as_promptfoo_does(value: str) -> None:
    """promptfoo's getEnvBool takes 1, true, yes, yup and yeppers (any case) for on."""
    from summscore.adapters.promptfoo import expanded_sources

    assert expanded_sources(_split_suite(), {"PROMPTFOO_DISABLE_VAR_EXPANSION": value}) == []
    assert expanded_sources(_split_suite(), {"PROMPTFOO_DISABLE_VAR_EXPANSION": "no"}) != []


def test_the_extensions_stop_names_what_it_cannot_see() -> None:
    """promptfoo honours PROMPTFOO_DISABLE_VAR_EXPANSION in the config's ``env:`` block, which
    it hands no extension hook: a stop there must not claim promptfoo splits the source without
    saying so, and must name the fix that works wherever the switch is set."""
    [problem] = face.expanded_sources(_split_suite(), {})
    assert "tests[0] ('two passages'): vars.source is a list of 2 passages" in problem
    assert "options: {disableVarExpansion: true}" in problem
    assert "env:" in problem and "PROMPTFOO_DISABLE_VAR_EXPANSION" in problem


def test_the_extension_stops_a_scenario_whose_source_promptfoo_would_split() -> None:
    """promptfoo's ``scenarios`` cross each ``config`` entry with each test and expand the merged
    vars as a test's: a list of passages in a scenario's config is split as well."""
    from summscore.adapters.promptfoo import expanded_sources

    passages = ["The council met.", "The library opens."]
    suite = {
        "defaultTest": {"assert": [{"type": "python", "config": {"source_var": "article"}}]},
        "scenarios": [
            {
                "description": "reports",
                "config": [{"vars": {"article": "one text"}}, {"vars": {"article": passages}}],
                "tests": [{"vars": {"summary": "a"}}, {"vars": {"summary": "b"}}],
            },
            {
                "config": [
                    {"vars": {"article": passages}, "options": {"disableVarExpansion": True}}
                ],
                "tests": [{"vars": {"summary": "c"}}],
            },
        ],
    }
    problems = expanded_sources(suite, {})
    assert [p.split(":", 1)[0] for p in problems] == [
        "scenarios[0].config[1] with tests[0] ('reports')",
        "scenarios[0].config[1] with tests[1] ('reports')",
    ]
    assert all("vars.article is a list of 2 passages" in p for p in problems)
