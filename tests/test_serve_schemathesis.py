"""Property-based run of summscore serve against its own OpenAPI document (offline judge).

schemathesis generates requests from /openapi.json, valid and invalid, and checks every answer:
no 5xx, status codes and content types the document declares, bodies that match its schemas,
invalid data rejected, and (with a token) no access without it. Bounded: a fixed number of
examples per operation, derandomized so a failure reproduces.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("schemathesis")
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import negative_data_rejection

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.serve import ServeConfig, create_app

TOKEN = "fuzz-token-1234"
LIMITS = {"max_batch": 8, "max_questions": 6, "max_body_bytes": 64 * 1024}
BOUNDED = settings(
    max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


def _schema(token: str | None) -> schemathesis.BaseSchema:
    scorer = SummarizationScorer(LexicalJudge(), preset="mastra")
    return schemathesis.openapi.from_asgi(
        "/openapi.json", create_app(scorer, ServeConfig(token=token, **LIMITS))
    )


open_schema = _schema(None)
guarded_schema = _schema(TOKEN)


def _checks(case: schemathesis.Case) -> dict[str, object]:
    # By design a batch takes a case that does not match ScoreRequest and answers it with an
    # error in that case's result (the other cases are scored), so "invalid data accepted" is
    # expected there; tests/test_serve.py checks those per-case errors.
    if case.path == "/v1/score:batch":
        return {"excluded_checks": [negative_data_rejection]}
    return {}


@open_schema.parametrize()
@BOUNDED
def test_every_answer_matches_the_openapi_document(case: schemathesis.Case) -> None:
    case.call_and_validate(**_checks(case))


@guarded_schema.parametrize()
@BOUNDED
def test_with_a_token_every_answer_matches_and_no_call_passes_without_it(
    case: schemathesis.Case,
) -> None:
    case.call_and_validate(headers={"Authorization": f"Bearer {TOKEN}"}, **_checks(case))
