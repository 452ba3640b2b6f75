"""Reply masking reuses its set of secrets, yet sees every new registration and environment change."""

from __future__ import annotations

import pytest

from summscore.masking.replies import redact_value
from summscore.masking.secrets import redact, register_secret


def test_an_environment_key_set_or_changed_after_masking_began_is_masked_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert redact_value("warm up the cache") == "warm up the cache"
    monkeypatch.setenv("LATE_SERVICE_TOKEN", "late-token-value-0123456789")
    assert redact_value("x late-token-value-0123456789 y") == "x *** y"
    monkeypatch.setenv("LATE_SERVICE_TOKEN", "changed-token-value-9876543210")
    assert redact_value({"a": "changed-token-value-9876543210"}) == {"a": "***"}
    assert redact("error: changed-token-value-9876543210") == "error: ***"


def test_a_secret_registered_after_masking_began_is_masked_at_once() -> None:
    assert redact_value("warm up the cache again") == "warm up the cache again"
    register_secret("registered-later-secret-4242")
    assert redact_value(["registered-later-secret-4242"]) == ["***"]
