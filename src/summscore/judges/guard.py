"""A switch that forbids requests to real models: for test suites that must never call one.

Every judge that asks a model through a client or a framework (an OpenAI-compatible client,
LangChain, ragas, deepeval, Inspect AI, MLflow, Opik) calls ``check_model_request`` before each
request; the offline ``LexicalJudge`` and function judges (your own code) never do. The switch is
the environment variable ``SUMMSCORE_ALLOW_MODEL_REQUESTS`` or, inside a block,
``allow_model_requests(...)``, as pydantic-ai's ``ALLOW_MODEL_REQUESTS`` and
``override_allow_model_requests``:

- allowed (the default; ``1``, ``true``, ``yes``, ``on`` or unset): every request goes out;
- forbidden (``0``, ``false``, ``no``, ``off``): every such request raises
  ``ModelRequestsForbidden`` before anything is sent;
- ``local``: only OpenAI-compatible servers on this machine (127.0.0.0/8, ``localhost``, ``::1``)
  are asked, such as the compat judge server or a local model; the rest raise.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal
from urllib.parse import urlsplit

from ..errors import JudgeError

__all__ = [
    "ALLOW_MODEL_REQUESTS_ENV",
    "ModelRequestsForbidden",
    "allow_model_requests",
    "check_model_request",
    "model_requests_allowed",
]

ALLOW_MODEL_REQUESTS_ENV = "SUMMSCORE_ALLOW_MODEL_REQUESTS"

Allowed = bool | Literal["local"]

_YES = ("", "1", "true", "yes", "on")
_NO = ("0", "false", "no", "off")

# Set by allow_model_requests() for the length of its block; None: the environment decides.
# A process-wide setting (not per task or thread), as pydantic-ai's: the scorer's synchronous
# methods run their event loop in a worker thread when one is already running.
_override: Allowed | None = None


class ModelRequestsForbidden(JudgeError):
    """A judge was about to ask a real model while model requests are forbidden."""


def model_requests_allowed() -> Allowed:
    """The setting in force: True, False or ``"local"`` (the innermost ``allow_model_requests``
    block, else ``SUMMSCORE_ALLOW_MODEL_REQUESTS``).

    Raises:
        ValueError: the variable holds something other than the values above.
    """
    if _override is not None:
        return _override
    value = os.environ.get(ALLOW_MODEL_REQUESTS_ENV, "").strip().lower()
    if value in _YES:
        return True
    if value in _NO:
        return False
    if value == "local":
        return "local"
    raise ValueError(
        f"{ALLOW_MODEL_REQUESTS_ENV}={value!r}: expected 1 (allow, the default), 0 (forbid) or "
        "local (only servers on this machine)"
    )


@contextmanager
def allow_model_requests(allowed: Allowed = True) -> Iterator[None]:
    """Allow (True), forbid (False) or limit to this machine (``"local"``) model requests inside
    the ``with`` block, whatever the environment says; the previous setting comes back after it.

    Example:
        A pytest fixture that makes every test of a suite fail if it would call a real model:

        ```python
        @pytest.fixture(autouse=True)
        def no_model_requests():
            with allow_model_requests(False):
                yield
        ```
    """
    global _override
    if allowed not in (True, False, "local"):
        raise ValueError(f"allowed: True, False or 'local'; got {allowed!r}")
    previous, _override = _override, allowed
    try:
        yield
    finally:
        _override = previous


def check_model_request(judge: str, base_url: str | None = None) -> None:
    """Raise ``ModelRequestsForbidden`` if ``judge`` may not ask its model now.

    Judges call it before each request; a judge of your own that calls a model can too.

    Args:
        judge: the judge's name, for the message (judge names never hold credentials).
        base_url: where the request goes, when the judge knows it: under ``"local"`` a loopback
            address is allowed. None counts as not local.
    """
    allowed = model_requests_allowed()
    if allowed is True or (allowed == "local" and _is_loopback(base_url)):
        return
    where = "to a server off this machine " if allowed == "local" else ""
    raise ModelRequestsForbidden(
        f"{judge}: a request {where}was about to be sent, and model requests are forbidden here "
        f"({ALLOW_MODEL_REQUESTS_ENV}={'local' if allowed == 'local' else '0'} or "
        "allow_model_requests(...)); judge with summscore.judges.LexicalJudge() (offline), a "
        "function judge, or the compat judge server on 127.0.0.1 (with 'local')"
    )


def _is_loopback(base_url: str | None) -> bool:
    if not base_url:
        return False
    try:
        host = urlsplit(base_url).hostname
    except ValueError:
        return False
    if host is None:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
