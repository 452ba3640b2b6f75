"""Redaction and key discovery, unit by unit (the end-to-end leak suite is compat/test_leaks.py)."""

from __future__ import annotations

import functools
import logging
import secrets

import pytest
from pydantic import BaseModel, SecretStr

from summscore.judges._errors import classify_exception
from summscore.judges._secrets import is_secret_name, register_secrets_in
from summscore.masking.replies import redact_value
from summscore.masking.secrets import (
    WINDOW,
    redact,
    register_secret,
    registered_secrets,
    shorten,
)


def fresh_key(prefix: str = "") -> str:
    """A key no other test registered (the registry is process-wide)."""
    return prefix + secrets.token_urlsafe(30).replace("-", "x").replace("_", "y")


def windows(key: str) -> list[str]:
    return [key[i : i + WINDOW] for i in range(len(key) - WINDOW + 1)]


def leaks(text: str, key: str) -> bool:
    return any(w in text for w in windows(key))


def test_a_registered_key_is_masked_whole_and_in_any_twelve_character_piece() -> None:
    key = fresh_key()
    register_secret(key)
    assert redact(f"echo: {key}!") == "echo: ***!"
    for start in range(0, len(key) - WINDOW + 1, 3):
        piece = key[start : start + WINDOW + 2]
        assert not leaks(redact(f"x{piece}y"), key), piece
    # Shorter runs are not the key: ordinary text around is untouched.
    assert redact("plain words only") == "plain words only"


def test_a_key_cut_in_two_and_glued_to_other_text_is_masked_on_both_sides() -> None:
    key = fresh_key()
    register_secret(key)
    text = f"head {key[:20]} ... {key[20:]}tail"
    assert not leaks(redact(text), key)


def test_a_plain_gateway_token_is_masked_once_registered() -> None:
    token = "gw" + secrets.token_hex(16)  # no sk- prefix, not in the environment
    assert leaks(redact(f"token {token}"), token)
    register_secret(token)
    assert not leaks(redact(f"token {token}"), token)


def test_an_environment_key_is_masked_without_registration(monkeypatch) -> None:
    key = fresh_key()
    monkeypatch.setenv("SOME_GATEWAY_TOKEN", key)
    assert not leaks(redact(f"{key[5:30]}"), key)


def test_placeholders_and_short_values_are_not_registered() -> None:
    before = registered_secrets()
    for value in ("not-needed", "EMPTY", "abc", None, 12345):
        register_secret(value)
    assert registered_secrets() == before


def test_secret_str_and_bearer_header_values_register_the_key_itself() -> None:
    a, b = fresh_key(), fresh_key()
    register_secret(SecretStr(a))
    register_secret(f"Bearer {b}")
    assert {a, b} <= registered_secrets()


def test_shorten_masks_before_cutting_so_a_straddling_key_does_not_escape() -> None:
    key = fresh_key()
    register_secret(key)
    text = "x" * 390 + key
    assert not leaks(shorten(text, 400), key)


def test_error_text_is_masked_before_it_is_cut() -> None:
    key = fresh_key()
    register_secret(key)

    class GatewayError(Exception):
        status_code = 400

    error = classify_exception(GatewayError("y" * 380 + f" invalid key {key} for this route"))
    assert not leaks(str(error), key)
    assert len(str(error)) < 500


def test_redact_value_walks_dicts_lists_and_models_and_keeps_clean_values_as_they_are() -> None:
    key = fresh_key()
    register_secret(key)

    class Reply(BaseModel):
        claims: list[str]

    clean = Reply(claims=["fine"])
    assert redact_value(clean) is clean
    dirty = redact_value(Reply(claims=[f"key is {key}"]))
    assert dirty == {"claims": ["key is ***"]}
    assert redact_value({"a": [key, ("b", key)]}) == {"a": ["***", ("b", "***")]}
    assert redact_value(3) == 3


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("api_key", True),
        ("openai_api_key", True),
        ("_api_key", True),
        ("apiKey", True),
        ("access_token", True),
        ("Authorization", True),
        ("x-api-key", True),
        ("secret", True),
        ("max_tokens", False),
        ("tiktoken_model_name", False),
        ("token_usage", False),
        ("model", False),
    ],
)
def test_credential_names(name: str, expected: bool) -> None:
    assert is_secret_name(name) is expected


def test_keys_are_found_in_nested_objects_secret_strs_headers_closures_and_partials() -> None:
    keys = [fresh_key() for _ in range(6)]

    class Http:
        def __init__(self) -> None:
            self.headers = {"Authorization": f"Bearer {keys[0]}", "Accept": "application/json"}

    class Client:
        __slots__ = ("_api_key", "http")

        def __init__(self) -> None:
            self._api_key = keys[1]
            self.http = Http()

    class Model(BaseModel):
        openai_api_key: SecretStr
        model_name: str = "judge-model"

    class Wrapper:
        def __init__(self) -> None:
            self.client = Client()
            self.llm = Model(openai_api_key=SecretStr(keys[2]))

    register_secrets_in(Wrapper())
    client = {"token": keys[3]}

    def ask(prompt: str, schema: type) -> dict:
        return {"client": client}

    register_secrets_in(ask)
    register_secrets_in(functools.partial(lambda p, s, api_key: None, api_key=keys[4]))

    class Bound:
        api_key = None

        def __init__(self) -> None:
            self.api_key = keys[5]

        def __call__(self, prompt: str, schema: type) -> None: ...

    register_secrets_in(Bound().__call__)
    assert set(keys) <= registered_secrets()
    assert "judge-model" not in registered_secrets()
    assert "application/json" not in registered_secrets()


def test_log_records_of_the_http_libraries_are_masked(caplog) -> None:
    key = fresh_key()
    register_secret(key)
    with caplog.at_level(logging.DEBUG):
        logging.getLogger("httpx").debug("sent %s", f"Authorization: Bearer {key}")
        logging.getLogger("openai._base_client").debug("body %r", {"echo": key})
        try:
            raise ValueError(f"boom {key}")
        except ValueError:
            logging.getLogger("summscore").exception("failed")
    text = caplog.text + "".join(r.getMessage() for r in caplog.records)
    assert caplog.records and not leaks(text, key)


def test_replies_keep_prose_that_only_looks_like_a_credential() -> None:
    key = fresh_key("sk-")
    prose = "The password: changed yearly. The bearer instruments matured. An api_key=rotated."
    assert redact_value({"claims": [prose]}) == {"claims": [prose]}
    assert redact_value(f"leaked {key}") == "leaked ***"  # an sk- key, even unregistered


def test_a_key_quoted_in_other_letter_case_is_masked_and_a_short_secret_only_as_written() -> None:
    key = "Gw" + secrets.token_hex(20).upper()[:10] + secrets.token_hex(10)  # mixed case
    register_secret(key)
    for quoted in (key.lower(), key.upper(), key.swapcase(), key[3:20].lower()):
        assert not leaks(redact(f"the proxy said: {quoted}.").lower(), key.lower()), quoted
    assert redact(f"x {key.upper()} y") == "x *** y"
    short = "Qz7" + secrets.token_hex(3)  # 9 characters: the whole secret, as written
    register_secret(short)
    assert redact(f"a {short} b") == "a *** b"
    assert redact(f"a {short.lower()} b") == f"a {short.lower()} b"
    # Case-folding keeps every other character where it was (no shift of the text around).
    text = f"İstanbul ß {key.lower()} ﬁn"
    assert redact(text) == "İstanbul ß *** ﬁn"


def test_a_short_secret_is_masked_everywhere_and_one_of_twelve_characters_as_written() -> None:
    short = "Qz7" + secrets.token_hex(3)
    register_secret(short)
    assert redact(f"{short} then {short}, {short}") == "*** then ***, ***"
    # WINDOW characters or fewer: matched as written (docs/security.md), the other letter case
    # kept whether or not the text also holds the secret as written.
    twelve = "Qz7" + secrets.token_hex(4) + "Q"
    assert len(twelve) == WINDOW
    register_secret(twelve)
    assert redact(f"{twelve} and {twelve.lower()}") == f"*** and {twelve.lower()}"


def test_bearer_tokens_sk_keys_and_key_assignments_are_masked_unregistered() -> None:
    token = secrets.token_hex(16)  # registered nowhere, in no environment variable
    assert redact(f"Authorization: Bearer {token}") == "Authorization: Bearer ***"
    assert redact(f"header authorization: bearer {token}.") == "header authorization: Bearer ***"
    assert redact(f"key sk-{token} sent") == "key *** sent"
    assert redact(f"OPENAI_API_KEY={token}") == "OPENAI_API_KEY=***"


def test_shorten_keeps_a_text_within_its_limit_and_cuts_a_longer_one_with_an_ellipsis() -> None:
    assert shorten("abc", 10) == "abc"
    assert shorten("a" * 10, 10) == "a" * 10
    assert shorten("a" * 11, 10) == "a" * 10 + "..."


def test_a_masked_log_record_keeps_its_message_traceback_and_stack(caplog) -> None:
    key = fresh_key()
    register_secret(key)
    log = logging.getLogger("summscore.calls")
    with caplog.at_level(logging.DEBUG):
        log.warning("judge said %s", key, stack_info=True)
        # An exception logged without being raised has no traceback, only its message.
        log.error("failed", exc_info=ValueError(f"never raised {key}"))
        try:
            raise ValueError(f"boom {key}")
        except ValueError:
            log.exception("raised")
    said, unraised, raised = caplog.records
    # The message merged and masked, as logging's own QueueHandler.prepare leaves a record.
    assert (said.getMessage(), said.msg, said.args) == ("judge said ***", "judge said ***", None)
    assert said.stack_info.startswith("Stack (most recent call last):")
    assert unraised.exc_text == "ValueError: never raised ***"
    # What logging itself would write for the traceback, masked.
    assert raised.exc_text == redact(logging.Formatter().formatException(raised.exc_info))
    assert raised.exc_text.startswith("Traceback") and raised.exc_text.endswith("boom ***")
    assert not leaks(caplog.text, key)


def test_records_of_other_loggers_are_left_as_they_were(caplog) -> None:
    key = fresh_key()
    register_secret(key)
    with caplog.at_level(logging.INFO):
        for name in ("myapp", "myapp.summscore", "summscore_plugin", "openaix"):
            logging.getLogger(name).info("the user's own %s", key)
    assert [(r.name, r.msg, r.args) for r in caplog.records] == [
        (name, "the user's own %s", (key,))
        for name in ("myapp", "myapp.summscore", "summscore_plugin", "openaix")
    ]
