"""``POST /v1/promptfoo`` takes two query parameters; another one (a misspelt ``source_var`` in a
webhook's URL) is refused with its name, never ignored."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.serve import ServeConfig, create_app

TOKEN = {"Authorization": "Bearer a-token-for-the-test"}
CASE = {"output": "The bridge opened.", "context": {"vars": {"article": "The bridge opened."}}}


@pytest.fixture(scope="module")
def client() -> TestClient:
    config = ServeConfig(token="a-token-for-the-test")
    return TestClient(create_app(SummarizationScorer(LexicalJudge()), config))


@pytest.mark.parametrize("query", ["source_var=article&treshold=0.7", "source_var=article&=null"])
def test_an_unknown_query_parameter_is_refused_by_name(client: TestClient, query: str) -> None:
    answer = client.post(f"/v1/promptfoo?{query}", json=CASE, headers=TOKEN)
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["type"] == "invalid_option" and error["field"].startswith("query.")


def test_an_empty_source_var_is_refused(client: TestClient) -> None:
    answer = client.post("/v1/promptfoo?source_var=", json=CASE, headers=TOKEN)
    assert answer.status_code == 422 and answer.json()["error"]["field"] == "query.source_var"


def test_the_two_it_takes_are_read(client: TestClient) -> None:
    answer = client.post("/v1/promptfoo?source_var=article&threshold=0.5", json=CASE, headers=TOKEN)
    assert answer.status_code == 200 and answer.json()["pass"] is True
