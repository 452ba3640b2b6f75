"""A lean HTTP path for the SDK's own OpenAI clients: the same request, sent with aiohttp.

An ``openai.AsyncOpenAI`` spends about 3 ms of CPU per request in httpx and httpcore (request
and header models, the connection pool's bookkeeping, h11 in pure Python); aiohttp's C parser
sends the same request for about 0.5 ms. For a client that uses the SDK's default HTTP client
(the user passed no ``http_client``), a plain API key and no provider hooks, the judge builds the
request's URL and headers once with the SDK itself (``_build_request``: base URL, default query,
API key, organisation and project, the user's ``default_headers``, the SDK's platform headers)
and posts each finished JSON body with aiohttp. Errors come back as the SDK's own exception types
(``APIStatusError`` and subclasses with the server's status, headers and body;
``APIConnectionError``; ``APITimeoutError``), so retries, Retry-After and key redaction work as
on the SDK path. Anything unusual (a custom ``http_client``, Azure, a key provider, a proxy the
SDK would configure differently) keeps the SDK path; ``SUMMSCORE_OPENAI_SDK_PATH=1`` forces it.

One ``aiohttp.ClientSession`` serves each event loop (every judge on that loop shares its
connection pool). It is closed when the loop shuts its async generators down (``asyncio.run``
and most runners do), when a later session finds its loop closed, and at interpreter exit.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

__all__ = ["FastPost", "fast_post_for"]

# Headers aiohttp sets itself (or that describe httpx's own connection handling).
_DROPPED_HEADERS = {"host", "content-length", "connection", "accept-encoding", "transfer-encoding"}


@dataclass(frozen=True)
class FastPost:
    """The finished URL, headers and timeouts of one client's chat-completions requests."""

    url: str
    headers: dict[str, str]
    connect_timeout: float | None
    read_timeout: float | None
    client: Any  # the SDK client: it builds the status errors, exactly as the SDK would

    async def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """POST ``body`` as JSON; the reply's JSON object (``{}`` when it is not an object).

        Raises the SDK's ``APIStatusError`` (by status), ``APITimeoutError`` or
        ``APIConnectionError``, raised outside any ``except`` block so that no aiohttp exception
        (which may quote the URL) travels along as context."""
        import aiohttp

        data = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        timeout = aiohttp.ClientTimeout(
            total=None, sock_connect=self.connect_timeout, sock_read=self.read_timeout
        )
        session = await _session_for_this_loop()
        failure: str | None = None
        for attempt in (1, 2):
            try:
                async with session.post(
                    self.url, data=data.encode(), headers=self.headers, timeout=timeout
                ) as response:
                    content = await response.read()
                    status = response.status
                    headers = list(response.headers.items())
            except aiohttp.ServerDisconnectedError:
                # A kept-alive connection the server had closed: one fresh connection at once.
                failure = "connection"
                if attempt == 1:
                    continue
            except (asyncio.TimeoutError, aiohttp.ServerTimeoutError):
                failure = "timeout"
            except (aiohttp.ClientError, OSError):
                failure = "connection"
            else:
                failure = None
            break
        if failure is not None:
            raise self._connection_error(failure)
        if 200 <= status < 300:
            try:
                parsed = json.loads(content)
            except ValueError:
                parsed = {}
            return parsed if isinstance(parsed, dict) else {}
        raise self._status_error(status, headers, content)

    def _request(self) -> Any:
        http = _http_module()
        return http.Request("POST", self.url)

    def _connection_error(self, kind: str) -> BaseException:
        import openai

        request = self._request()
        if kind == "timeout":
            return openai.APITimeoutError(request=request)
        return openai.APIConnectionError(request=request)

    def _status_error(self, status: int, headers: list[tuple[str, str]], content: bytes) -> Any:
        http = _http_module()
        response = http.Response(status, headers=headers, content=content, request=self._request())
        return self.client._make_status_error_from_response(response)


def fast_post_for(client: Any, options: dict[str, Any]) -> FastPost | None:
    """The lean path for ``client``, or None when the request must go through the SDK.

    ``options`` are the request options ``chat.completions.create`` would give ``post``."""
    if os.environ.get("SUMMSCORE_OPENAI_SDK_PATH", "") not in ("", "0"):
        return None
    try:
        import aiohttp  # noqa: F401
        import openai
        from openai import _base_client
        from openai._models import FinalRequestOptions
    except ImportError:
        return None
    if type(client) not in (openai.OpenAI, openai.AsyncOpenAI):
        return None  # Azure and other subclasses route and authenticate requests their own way
    wrappers = tuple(
        getattr(_base_client, name)
        for name in ("AsyncHttpxClientWrapper", "SyncHttpxClientWrapper")
        if hasattr(_base_client, name)
    )
    if not wrappers or not isinstance(getattr(client, "_client", None), wrappers):
        return None  # the user's own http_client (transport, hooks, proxies): theirs to use
    if getattr(client, "_api_key_provider", None) is not None:
        return None
    if getattr(client, "_provider_runtime", None) is not None:
        return None
    if getattr(client, "custom_auth", None) is not None:
        return None
    try:
        request_options = FinalRequestOptions.construct(
            method="post", url="/chat/completions", json_data={}, **options
        )
        request = client._build_request(request_options)
    except Exception:
        return None
    url = str(request.url)
    if not url.startswith(("http://", "https://")) or _proxied(url):
        return None
    headers = {
        name: value
        for name, value in request.headers.items()
        if name.lower() not in _DROPPED_HEADERS
    }
    connect, read = _timeouts(options.get("timeout", client.timeout))
    return FastPost(url, headers, connect, read, client)


def _timeouts(timeout: Any) -> tuple[float | None, float | None]:
    """(connect, read) seconds from an httpx ``Timeout``, a number, or None."""
    if timeout is None:
        return None, None
    if isinstance(timeout, (int, float)):
        return float(timeout), float(timeout)
    connect = getattr(timeout, "connect", None)
    read = getattr(timeout, "read", None)
    return (
        float(connect) if isinstance(connect, (int, float)) else None,
        float(read) if isinstance(read, (int, float)) else None,
    )


def _proxied(url: str) -> bool:
    """Would the environment's proxy settings apply to ``url``? (The SDK path handles those.)"""
    import urllib.request
    from urllib.parse import urlparse

    proxies = urllib.request.getproxies()
    scheme = urlparse(url).scheme
    if not (proxies.get(scheme) or proxies.get("all")):
        return False
    host = urlparse(url).hostname or ""
    return not urllib.request.proxy_bypass(host)


def _http_module() -> Any:
    """httpx (openai 1.x, 2.x) or httpx2 (3.x): the module whose Request/Response the SDK uses."""
    from openai import _base_client

    return getattr(_base_client, "httpx", None) or _base_client.httpx2  # type: ignore[attr-defined]


# ------------------------------------------------------------------ one session per event loop

_sessions: dict[asyncio.AbstractEventLoop, tuple[Any, AsyncIterator[None]]] = {}
_sessions_lock = threading.Lock()


async def _session_for_this_loop() -> Any:
    loop = asyncio.get_running_loop()
    entry = _sessions.get(loop)
    if entry is not None and not entry[0].closed:
        return entry[0]
    import aiohttp

    _forget_closed_loops()
    session = aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=0, ssl=_ssl_context()),
        trust_env=False,  # proxied URLs never get here (see _proxied)
        auto_decompress=True,
        skip_auto_headers=("User-Agent",),  # the SDK's headers carry its own
    )
    closer = _close_at_loop_shutdown(session)
    with _sessions_lock:
        _sessions[loop] = (session, closer)
    await closer.__anext__()  # registered with the loop: shutdown_asyncgens() closes it
    return session


async def _close_at_loop_shutdown(session: Any) -> AsyncIterator[None]:
    try:
        yield
    finally:
        with _sessions_lock:
            for loop, (held, _) in list(_sessions.items()):
                if held is session:
                    del _sessions[loop]
        await session.close()


def _forget_closed_loops() -> None:
    with _sessions_lock:
        for loop in [loop for loop in _sessions if loop.is_closed()]:
            session, _ = _sessions.pop(loop)
            _close_now(session)


def _close_now(session: Any) -> None:
    """Close a session whose loop is closed or not ours to run. aiohttp's ``close`` is a
    coroutine; with the loop closed it has nothing to wait for and finishes on its first step."""
    if session.closed:
        return
    closing = session.close()
    try:
        closing.send(None)
    except StopIteration:
        return
    except Exception:
        pass
    closing.close()  # it wanted to wait on a loop that will not run again: leave it


@atexit.register
def _close_all() -> None:
    with _sessions_lock:
        entries = list(_sessions.items())
        _sessions.clear()
    for loop, (session, _) in entries:
        try:
            if loop.is_running():  # a loop in another thread (summscore's background loop)
                asyncio.run_coroutine_threadsafe(session.close(), loop).result(timeout=2)
                continue
            if not loop.is_closed():
                loop.run_until_complete(session.close())
                continue
        except Exception:
            pass
        _close_now(session)


_ssl: Any = None


def _ssl_context() -> Any:
    """The CA bundle httpx would use (certifi, or SSL_CERT_FILE / SSL_CERT_DIR), built once."""
    global _ssl
    if _ssl is None:
        try:
            http = _http_module()
            _ssl = http.create_ssl_context()
        except Exception:
            import ssl

            _ssl = ssl.create_default_context()
    return _ssl
