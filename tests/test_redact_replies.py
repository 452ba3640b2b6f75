"""Judge replies come back with every key masked, and untouched (the same object) otherwise."""

from __future__ import annotations

import re
import secrets
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from summscore.masking.replies import _redact_reply, case_keys, redact_result, redact_value
from summscore.masking.secrets import WINDOW, _known_secrets, register_secret
from summscore.results import SummaryResult

_SECRET = "gw-Zq81xKpL0aa9Ttv3"
_SECRETS = frozenset({_SECRET, 'ab"cd\\ef"gh\\ij"kl\\mn'})
_KEY = re.compile(r"\b(?:sk|pk|rk|ak)-[A-Za-z0-9_-]{12,}")
# Text made of pieces that build keys and parts of the secrets, so that generated replies often
# hold a key, or a secret whole or in part, inside nested lists and dicts (keys included).
_PIECES = st.sampled_from(
    [
        "sk-",
        "ABCdef123456789",
        "_-",
        "\n",
        '"',
        "\\",
        " ",
        "ok",
        "é漢",
        "gw-Zq81x",
        "KpL0aa9Ttv3",
        'ab"cd\\ef',
        '"gh\\ij"kl\\mn',
    ]
)
_TEXT = st.lists(_PIECES, max_size=8).map("".join)


class _Claims(BaseModel):
    claims: list[str]


# Replies as a judge's parser may hand them over: JSON values, tuples, keys that are not strings,
# and models (whole or inside a dict or list).
_REPLY = st.recursive(
    _TEXT | st.integers() | st.booleans() | st.none() | st.builds(_Claims, claims=st.lists(_TEXT)),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(
            _TEXT | st.integers() | st.tuples(_TEXT, st.integers()), inner, max_size=4
        )
    ),
    max_leaves=12,
)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, BaseModel):
        return _strings(value.model_dump(mode="json"))
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in _strings(k) + _strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


def _leaks(text: str, known: frozenset[str]) -> bool:
    if _KEY.search(text):
        return True
    return any(
        secret[i : i + WINDOW] in text for secret in known for i in range(len(secret) - WINDOW + 1)
    )


@settings(max_examples=400, deadline=None)
@given(reply=_REPLY, with_secrets=st.booleans())
def test_a_reply_keeps_no_key_and_comes_back_itself_when_it_held_none(
    reply: Any, with_secrets: bool
) -> None:
    known = _SECRETS if with_secrets else frozenset()
    cleaned = _redact_reply(reply, known)
    assert not any(_leaks(text, known) for text in _strings(cleaned))
    if not any(_leaks(text, known) for text in _strings(reply)):
        assert cleaned is reply


@settings(max_examples=400, deadline=None)
@given(reply=_REPLY, with_secrets=st.booleans())
def test_redact_value_masks_what_the_full_walk_masks_and_returns_a_clean_reply_itself(
    reply: Any, with_secrets: bool
) -> None:
    # redact_value first searches the reply's strings joined, to return a clean reply at once.
    asked = _SECRETS if with_secrets else frozenset()
    walked = _redact_reply(reply, _known_secrets() | asked)
    cleaned = redact_value(reply, asked)
    assert cleaned == walked
    if walked is reply:
        assert cleaned is reply


def test_redact_value_finds_keys_wherever_its_first_search_must_look() -> None:
    sk = "sk-ABCdef1234567890"
    assert redact_value({"leaked": sk}) == {"leaked": "***"}  # the key opens a string
    assert redact_value([1, [sk]]) == [1, ["***"]]  # after an item that is no string
    assert redact_value({(sk, 1): "x", 2: []}) == {("***", 1): "x", 2: []}
    assert redact_value({"reply": _Claims(claims=[sk])}) == {"reply": {"claims": ["***"]}}
    assert redact_value([_Claims(claims=[sk])]) == [{"claims": ["***"]}]
    registered = "rg-" + secrets.token_hex(10)
    register_secret(registered)
    # A case's keys are masked with the registered secrets, not instead of them.
    assert redact_value(f"{registered} {_SECRET}", frozenset({_SECRET})) == "*** ***"


def test_a_reply_given_as_bytes_is_read_as_utf8_and_masked_or_returned_itself() -> None:
    assert redact_value(b"\xff as sk-ABCdef1234567890 says") == "\ufffd as *** says"
    raw = b"\xff a clean reply"
    assert redact_value(raw) is raw
    assert redact_value(b"quoted gw-Zq81xKpL0aa9Ttv3", _SECRETS) == "quoted ***"


def test_a_key_in_a_nested_verdict_is_masked_and_the_rest_kept() -> None:
    reply = {"verdicts": [{"verdict": "yes", "reason": "as sk-ABCdef1234567890 says"}], "n": 1}
    assert redact_value(reply) == {
        "verdicts": [{"verdict": "yes", "reason": "as *** says"}],
        "n": 1,
    }


def test_a_tuple_stays_a_tuple_when_masked() -> None:
    assert redact_value(("ok", "sk-ABCdef1234567890")) == ("ok", "***")


def test_a_key_in_a_model_field_python_keeps_as_a_set_or_bytes_is_masked() -> None:
    # Read as JSON reads the model: a set becomes a list, bytes a string, both of them searched.
    class Reply(BaseModel):
        tags: set[str]
        raw: bytes

    reply = Reply(tags={"sk-ABCdef1234567890"}, raw=b"as sk-ABCdef1234567890 says")
    assert redact_value(reply) == {"tags": ["***"], "raw": "as *** says"}


def test_a_failed_row_holding_none_of_the_case_keys_comes_back_itself() -> None:
    # Its NaN score is not a change (NaN != NaN), so the result is not rebuilt.
    result = SummaryResult(
        score=float("nan"), preset="ragas", prompt_set="ragas", judge="j", error="timed out"
    )
    with case_keys("the source names sk-ABCdef1234567890"):
        assert redact_result(result) is result
