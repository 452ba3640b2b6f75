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
    install_log_redaction,
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


def test_a_key_given_as_bytes_is_registered_decoded_and_one_of_six_characters_counts() -> None:
    key = fresh_key()
    broken = b"\xff" + fresh_key().encode()  # not UTF-8: read with a replacement character
    six, five = "Qz" + secrets.token_hex(2), "Qz" + secrets.token_hex(2)[:3]
    for value in (key.encode(), broken, six, five):
        register_secret(value)
    assert {key, broken.decode("utf-8", "replace"), six} <= registered_secrets()
    assert five not in registered_secrets()


def test_environment_credentials_from_six_characters_on_are_masked_and_nothing_else(
    monkeypatch,
) -> None:
    six, five = "Qz" + secrets.token_hex(2), "Qz" + secrets.token_hex(2)[:3]
    monkeypatch.setenv("SIX_API_KEY", six)
    monkeypatch.setenv("FIVE_API_KEY", five)
    monkeypatch.setenv("LOCAL_API_KEY", "Not-Needed")  # a placeholder, in any letter case
    monkeypatch.setenv("SOME_SETTING", "ordinary setting value")  # not named as a credential
    text = f"{six} {five} Not-Needed, an ordinary setting value"
    assert redact(text) == f"*** {five} Not-Needed, an ordinary setting value"


def test_a_secret_with_letters_beyond_ascii_is_masked_in_other_letter_case() -> None:
    key = "Pässwörd-" + secrets.token_hex(5)
    register_secret(key)
    assert redact(f"x {key.upper()} y") == "x *** y"


def test_overlapping_and_touching_secrets_are_masked_whole_in_one_mask() -> None:
    repeated = "Ж" * 8  # two overlapping occurrences in nine
    register_secret(repeated)
    assert redact("Ж" * 9 + "!") == "***!"
    a, b = fresh_key(), fresh_key()
    register_secret(a)
    register_secret(b)
    assert redact(f"<{a}{b}>") == "<***>"


def test_every_twelve_character_piece_of_a_secret_of_any_length_is_masked_exactly() -> None:
    for length in range(WINDOW + 1, 31):
        key = fresh_key()[:length]
        register_secret(key)
        for start in range(length - WINDOW + 1):
            assert redact(f"<{key[start : start + WINDOW]}>") == "<***>", (length, start)


def test_a_long_secret_is_masked_exactly_where_quoted_twice_at_the_text_edges_or_beside_itself() -> (
    None
):
    key = fresh_key()
    register_secret(key)
    assert redact(f"{key} and {key}") == "*** and ***"
    # The letters around a key that are also the key's own (its last before it, its first after
    # it) are not part of this quote of it.
    assert redact(f"{key[-1]}{key}{key[0]}") == f"{key[-1]}***{key[0]}"
    assert redact(key[5:30]) == "***"
    assert redact(key[1:] + key[0]) == "***" + key[0]


def test_log_redaction_is_installed_once_and_masks_records_made_by_keyword() -> None:
    key = fresh_key()
    factory = logging.getLogRecordFactory()
    install_log_redaction()
    register_secret(key)
    assert logging.getLogRecordFactory() is factory
    record = factory(
        name="httpx",
        level=logging.INFO,
        pathname=__file__,
        lineno=1,
        msg="sent %s",
        args=(key,),
        exc_info=None,
    )
    assert record.getMessage() == "sent ***"


def test_a_secret_with_runs_of_one_letter_is_masked_where_its_pieces_overlap_themselves() -> None:
    # A block of the secret ("aaaa...") found at one place may also start one character later;
    # every start is tried, so a twelve-character piece that begins one letter into a run is
    # still found (a search that skipped a character at each find left this one unmasked).
    key = "baaaabbbbbbbbbabbab"
    register_secret(key)
    assert redact("baaabbbbbbbbbab") == "b***"
