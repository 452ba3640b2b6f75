"""Property and fuzz tests of the service's body parser (:mod:`summscore.serve.jsonbody`), alone
and through the app: every body is either read exactly or refused as ``invalid_json`` with its
line and column; nothing else (no 500, no other error type) ever comes back.

Bodies come from hypothesis (any bytes; any JSON value, lone surrogates included) and from
schemathesis (valid requests of the server's own OpenAPI document), corrupted in each of the ways
issue #43 found: bytes that are not UTF-8, nesting a thousand deep, an integer of thousands of
digits, NaN and Infinity, a number past a float's range, a cut-off body.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("schemathesis")
import httpx
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.serve import ServeConfig, create_app
from summscore.serve.jsonbody import MAX_DEPTH, InvalidBody, parse_json_body

BOUNDED = settings(
    max_examples=80, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
_PLACE = re.compile(r"at line (\d+), column (\d+)$")

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**99), 10**99)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=()))  # lone surrogates included
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=30,
)


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _place_in(message: str, text: str) -> tuple[int, int]:
    match = _PLACE.search(message)
    assert match, message
    line, column = int(match.group(1)), int(match.group(2))
    lines = text.split("\n")
    assert 1 <= line <= len(lines) and 1 <= column <= len(lines[line - 1]) + 1, message
    return line, column


@BOUNDED
@given(_values)
def test_any_json_value_within_the_limits_reads_back_exactly(value: Any) -> None:
    body = json.dumps(value).encode()  # ensure_ascii: surrogates travel as escapes
    if _depth(value) > MAX_DEPTH:
        with pytest.raises(InvalidBody):
            parse_json_body(body)
        return
    assert parse_json_body(body) == value
    raw = json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")
    if _has_surrogate(value):  # a surrogate written as bytes, not as an escape: not UTF-8
        with pytest.raises(InvalidBody, match="not UTF-8"):
            parse_json_body(raw)
    else:
        assert parse_json_body(raw) == value


def _has_surrogate(value: Any) -> bool:
    text = json.dumps(value, ensure_ascii=False)
    return any(0xD800 <= ord(c) <= 0xDFFF for c in text)


@BOUNDED
@given(st.binary(max_size=300))
def test_any_bytes_are_read_or_refused_with_a_place(body: bytes) -> None:
    try:
        parse_json_body(body)
    except InvalidBody as exc:
        _place_in(str(exc), body.decode("utf-8", "replace"))


def _corruptions(valid: bytes) -> st.SearchStrategy[tuple[bytes, str, int]]:
    """(body, what the message says, the character where the problem starts) for ``valid``, a
    JSON object's bytes."""
    text = valid.decode()
    insert_at = st.integers(1, max(1, len(text) - 1))

    def bad_byte(at: int) -> tuple[bytes, str, int]:
        prefix = text[:at].encode()
        return prefix + b"\xff" + valid[len(prefix) :], "not UTF-8", at

    def with_field(raw: str, why: str, offset: int) -> tuple[bytes, str, int]:
        body = '{"zz": ' + raw + ", " + text[1:]
        return body.encode(), why, len('{"zz": ') + offset

    return st.one_of(
        insert_at.map(bad_byte),
        st.integers(MAX_DEPTH, 1200).map(
            lambda n: with_field("[" * n + "]" * n, "nest more than", MAX_DEPTH - 1)
        ),
        st.integers(101, 6000).map(lambda n: with_field("9" * n, "digits", 0)),
        st.sampled_from(["NaN", "Infinity", "-Infinity"]).map(
            lambda c: with_field(c, "is not JSON", 0)
        ),
        st.integers(309, 400).map(lambda e: with_field(f"1e{e}", "too large", 0)),
        insert_at.map(lambda at: (valid[: len(text[:at].encode())], "", -1)),
    )


def _app() -> Any:
    scorer = SummarizationScorer(LexicalJudge(), preset="mastra")
    return create_app(scorer, ServeConfig(max_batch=4, max_body_bytes=256 * 1024))


schema = schemathesis.openapi.from_asgi("/openapi.json", _app())


async def _post(app: Any, path: str, body: bytes) -> httpx.Response:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://serve") as client:
        return await client.post(path, content=body, headers={"content-type": "application/json"})


_APP = _app()


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_schemathesis_requests_corrupted_every_way_are_invalid_json_at_the_place(
    data: st.DataObject,
) -> None:
    case = data.draw(schema["/v1/score"]["POST"].as_strategy())
    valid = json.dumps(case.body).encode()
    if not valid.startswith(b"{") or len(valid) < 3:
        return
    body, why, at = data.draw(_corruptions(valid))
    response = asyncio.run(_post(_APP, "/v1/score", body))
    error = response.json()["error"]
    assert response.status_code == 400, (body[:200], response.text)
    assert error["type"] in ("invalid_json", "empty_body") and set(error) == {
        "type",
        "message",
        "field",
    }
    if error["type"] == "empty_body":
        return
    assert why in error["message"], error["message"]
    line, column = _place_in(error["message"], body.decode("utf-8", "replace"))
    if at >= 0:
        assert (line, column) == (1, at + 1), (error["message"], at)


@BOUNDED
@given(st.binary(min_size=1, max_size=400))
def test_through_the_app_any_body_is_answered_in_the_documented_shape(body: bytes) -> None:
    response = asyncio.run(_post(_APP, "/v1/score:batch", body))
    assert response.status_code in (200, 400, 422), response.text
    if response.status_code != 200:
        error = response.json()["error"]
        assert set(error) == {"type", "message", "field"}
        if response.status_code == 400:
            assert error["type"] in ("invalid_json", "empty_body")
            if error["type"] == "invalid_json":
                _place_in(error["message"], body.decode("utf-8", "replace"))


def test_numbers_at_the_limits_are_read() -> None:
    edge = {"a": 10**100 - 1, "b": -(10**100) + 1, "c": 1.7976931348623157e308, "d": 5e-324}
    assert parse_json_body(json.dumps(edge).encode()) == edge
    assert math.isfinite(parse_json_body(b"1e308"))
