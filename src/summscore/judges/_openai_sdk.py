"""What ``OpenAIJudge`` needs to know about the ``openai`` client it is given.

Whether requests may skip ``chat.completions.create`` and go through the client's ``post``
(``_posts_directly``: only for the SDK's own, unwrapped methods) and the options and response
type that path passes; whether the client is async and owns its default connection pool; a copy
of the client without the SDK's own retries; and the host suffix of the judge's name.
"""

from __future__ import annotations

import functools
import inspect
import os
import types
from typing import Any
from urllib.parse import urlparse


def _posts_directly(client: Any) -> bool:
    """May requests skip ``chat.completions.create``? Only for the SDK's own clients whose
    ``create`` and ``post`` are the SDK's, unwrapped (SUMMSCORE_OPENAI_SDK_PATH=1 forbids it)."""
    if os.environ.get("SUMMSCORE_OPENAI_SDK_PATH", "") not in ("", "0"):
        return False
    try:
        import openai
    except ImportError:  # pragma: no cover - openai is a dependency
        return False
    if not isinstance(client, (openai.OpenAI, openai.AsyncOpenAI)):
        return False
    try:
        create = client.chat.completions.create
    except Exception:
        return False
    post = getattr(client, "post", None)
    return all(
        isinstance(method, types.MethodType) and _defined_in_openai(method.__func__)
        for method in (create, post)
    )


def _defined_in_openai(function: Any) -> bool:
    """Is ``function``, and every function it wraps, defined inside the openai package?"""
    import openai

    root = os.path.dirname(openai.__file__ or "") + os.sep
    for _ in range(8):
        code = getattr(function, "__code__", None)
        if not isinstance(function, types.FunctionType) or code is None:
            return False
        if not code.co_filename.startswith(root):
            return False
        function = getattr(function, "__wrapped__", None)
        if function is None:
            return True
    return False


def _post_options(timeout: float | None) -> dict[str, Any]:
    """The request options ``chat.completions.create`` passes to ``post``."""
    options: dict[str, Any] = {}
    if timeout is not None:
        options["timeout"] = timeout
    try:
        from openai._models import FinalRequestOptions

        fields = FinalRequestOptions.model_fields
    except (ImportError, AttributeError):  # pragma: no cover - a much older or newer SDK
        fields = {}
    if "security" in fields:  # openai >= 2.x: create() sends the bearer key, not the admin key
        options["security"] = {"bearer_auth": True}
    return options


@functools.cache
def _raw_response_type() -> Any:
    """The response class of the HTTP library the installed openai is built on (httpx for openai
    1.x and 2.x, httpx2 for 3.x): given as ``cast_to``, the SDK returns the response unparsed."""
    from openai import _base_client

    http = getattr(_base_client, "httpx", None) or getattr(_base_client, "httpx2", None)
    return http.Response if http is not None else None


def _is_async_client(client: Any) -> bool:
    import openai

    if isinstance(client, openai.AsyncOpenAI):
        return True
    if isinstance(client, openai.OpenAI):
        return False
    return inspect.iscoroutinefunction(client.chat.completions.create)


def _owns_default_pool(client: Any) -> bool:
    """Is the client's HTTP client the one openai made itself (not one the user passed)?"""
    from openai import _base_client

    wrapper = getattr(_base_client, "AsyncHttpxClientWrapper", None)
    return wrapper is not None and isinstance(getattr(client, "_client", None), wrapper)


def _without_sdk_retries(client: Any) -> Any:
    with_options = getattr(client, "with_options", None)
    if with_options is None:
        return client
    try:
        return with_options(max_retries=0)
    except TypeError:
        return client


def _host_suffix(client: Any) -> str:
    base_url = str(getattr(client, "base_url", "") or "")
    host = urlparse(base_url).hostname or ""
    if not host or host == "api.openai.com":
        return ""
    port = urlparse(base_url).port
    return f"@{host}:{port}" if port else f"@{host}"
