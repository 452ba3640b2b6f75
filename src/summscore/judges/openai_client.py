"""Judge backend for an ``openai.OpenAI`` / ``openai.AsyncOpenAI`` client and any compatible server.

Works against api.openai.com and against OpenAI-compatible servers (vLLM, Ollama, llama.cpp server,
LM Studio) through the client's ``base_url``. Structured output is negotiated once per judge: a
JSON-schema ``response_format`` first; if the server rejects it, JSON mode; if that is rejected too,
plain text, which the core parses. Retries belong to summscore's retry loop, so the client's own
retries are switched off on the copy this judge uses.

Requests to an ``openai.OpenAI`` / ``openai.AsyncOpenAI`` whose ``chat.completions.create`` is the
SDK's own go through the client's ``post`` with the finished JSON body, and the reply is read as
JSON: the same request through the same client (base URL, default headers and query, API key or
key provider, timeout, ``http_client`` and its event hooks, Azure's deployment routing), without
the SDK's per-call walk of the typed parameters and its ``ChatCompletion`` model, which cost
several milliseconds of CPU per call. A ``create`` replaced by a tracing library (langfuse,
opik, ...) is called as before, so what it records is unchanged. When the client also uses the
SDK's default HTTP client, the same request (URL and headers built by the SDK) is sent with
aiohttp instead of httpx, a sixth of the CPU (see ``_fastpost``).

Structured-output negotiation lives in ``_openai_format``; what the judge needs to know about
the client it is given (direct posting, async or not, its connection pool) in ``_openai_sdk``.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from typing import Any
from urllib.parse import urlparse

from ..errors import JudgeError
from ._errors import classify_exception
from ._fastpost import FastPost, fast_post_for
from ._openai_format import (
    _FORMAT_ORDER,
    ResponseFormat,
    _json_schema_format,
    _negotiated,
    _negotiated_lock,
    _rejects_format,
)
from ._openai_sdk import (
    _host_suffix,
    _is_async_client,
    _owns_default_pool,
    _post_options,
    _posts_directly,
    _raw_response_type,
    _without_sdk_retries,
)
from ._secrets import register_secrets_in
from .base import JudgeReply, JudgeRequest
from .guard import check_model_request

__all__ = ["OpenAIJudge"]

_LOOPBACK = ("127.0.0.1", "localhost", "::1", "0.0.0.0")


class OpenAIJudge:
    """Ask an OpenAI-compatible chat-completions endpoint.

    Args:
        client: an ``openai.OpenAI`` or ``openai.AsyncOpenAI`` instance (sync clients run in a
            worker thread).
        model: the model name the server expects.
        temperature: sent with every request; None leaves the server default (some reasoning
            models accept only their default).
        max_tokens: optional completion cap.
        response_format: "auto" asks for a JSON schema and falls back to JSON mode, then plain
            text, when the server refuses (remembered per server and model); or force one of
            "json_schema", "json_object", "text".
        system_prompt: optional system message.
        timeout: per-request timeout in seconds given to the client.
        cost_per_input_token: US dollars per prompt token, to fill ``Usage.cost`` (default: the
            model's list price, where genai-prices knows it).
        cost_per_output_token: US dollars per completion token, likewise.
        extra_body: extra JSON merged into every request (server-specific options).
    """

    reads_prompts = True

    def __init__(
        self,
        client: Any,
        model: str,
        *,
        temperature: float | None = 0.0,
        max_tokens: int | None = None,
        response_format: ResponseFormat = "auto",
        system_prompt: str | None = None,
        timeout: float | None = None,
        cost_per_input_token: float | None = None,
        cost_per_output_token: float | None = None,
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        if not isinstance(model, str) or not model.strip():
            raise ValueError("model: an OpenAI-compatible client needs model='<model name>'")
        if response_format not in ("auto", *_FORMAT_ORDER):
            raise ValueError(
                f"response_format must be one of auto, json_schema, json_object, text; got {response_format!r}"
            )
        register_secrets_in(client)
        self._client = _without_sdk_retries(client)
        self._async = _is_async_client(client)
        self._home_loop: Any = None
        self._loop_clients: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
        self.model = model
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.system_prompt = system_prompt
        self.timeout = timeout
        self.cost_per_input_token = cost_per_input_token
        self.cost_per_output_token = cost_per_output_token
        self.extra_body = dict(extra_body or {})
        self._auto = response_format == "auto"
        self._lean = _posts_directly(self._client)
        self._post_options: dict[str, Any] = _post_options(timeout) if self._lean else {}
        # Built on the first request, inside the running loop (the SDK's headers name it).
        self._fast: FastPost | None = None
        self._fast_checked = not self._lean
        self.base_url = str(getattr(client, "base_url", "") or "")
        self._server_key = (self.base_url, model)
        remembered = _negotiated.get(self._server_key) if self._auto else None
        self._format: str = remembered or ("json_schema" if self._auto else response_format)
        self.name = f"openai:{model}{_host_suffix(client)}"

    @property
    def response_format(self) -> str:
        """The structured-output mode in use (after negotiation)."""
        return self._format

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        check_model_request(self.name, self.base_url)
        messages = []
        if self.system_prompt:
            messages.append({"role": "system", "content": self.system_prompt})
        messages.append({"role": "user", "content": request.prompt})
        while True:
            mode = self._format
            try:
                if self._lean:
                    return self._reply_from_body(await self._post(request, messages, mode))
                kwargs = self._request_kwargs(request, messages, mode)
                if self._async:
                    client = self._client_for_this_loop()
                    response = await client.chat.completions.create(**kwargs)
                else:
                    response = await asyncio.to_thread(
                        self._client.chat.completions.create, **kwargs
                    )
            except Exception as exc:
                if self._auto and mode != "text" and _rejects_format(exc):
                    self._downgrade(mode)
                    continue
                error = self._explain(classify_exception(exc))
            else:
                return self._reply(response)
            # Raised outside the except block: the SDK's exception (and the raw error body it
            # quotes) is not even reachable through __context__.
            raise error

    async def _post(
        self, request: JudgeRequest, messages: list[dict[str, str]], mode: str
    ) -> dict[str, Any]:
        """Send the finished body through the client's own ``post``; the reply's JSON body."""
        body: dict[str, Any] = {"messages": messages, "model": self.model}
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if self.temperature is not None:
            body["temperature"] = self.temperature
        body.update(self.extra_body)  # as the SDK merges extra_body: last, over the rest
        if mode == "json_schema":
            body["response_format"] = _json_schema_format(request.schema)
        elif mode == "json_object":
            body["response_format"] = {"type": "json_object"}
        if not self._fast_checked:
            self._fast = fast_post_for(self._client, self._post_options)
            self._fast_checked = True
        if self._fast is not None:
            return await self._fast.post(body)
        raw_response = _raw_response_type()
        if self._async:
            raw = await self._client_for_this_loop().post(
                "/chat/completions", cast_to=raw_response, body=body, options=self._post_options
            )
        else:
            raw = await asyncio.to_thread(
                self._client.post,
                "/chat/completions",
                cast_to=raw_response,
                body=body,
                options=self._post_options,
            )
        data = json.loads(raw.content)
        return data if isinstance(data, dict) else {}

    def _reply_from_body(self, data: dict[str, Any]) -> JudgeReply:
        """``_reply`` for the JSON body of a chat completion (read as leniently as the SDK)."""
        content: Any = ""
        choices = data.get("choices")
        if isinstance(choices, list) and choices and isinstance(choices[0], dict):
            message = choices[0].get("message")
            if isinstance(message, dict):
                content = message.get("content") or ""
                calls = message.get("tool_calls")
                if not content and isinstance(calls, list) and calls:
                    function = calls[0].get("function") if isinstance(calls[0], dict) else None
                    if isinstance(function, dict):
                        content = function.get("arguments") or ""
        usage = data.get("usage")
        usage = usage if isinstance(usage, dict) else {}
        if isinstance(content, list):  # content parts: [{"type": "text", "text": ...}, ...]
            content = "".join(
                str(part.get("text") or "") for part in content if isinstance(part, dict)
            )
        return self._judge_reply(
            content if isinstance(content, str) else str(content),
            _int_or_none(usage.get("prompt_tokens")),
            _int_or_none(usage.get("completion_tokens")),
        )

    def _client_for_this_loop(self) -> Any:
        """The async client for the running event loop. An httpx connection pool belongs to the
        loop that opened its connections, and one judge can be used from several loops (a
        notebook's, summscore's background loop for score(), Inspect's eval()): each further loop
        gets a copy of the client with a pool of its own. A client built on the user's own
        http_client is used as given: its pool is the user's to manage."""
        loop = asyncio.get_running_loop()
        if self._home_loop is None:
            self._home_loop = weakref.ref(loop)
        if self._home_loop() is loop or not _owns_default_pool(self._client):
            return self._client
        client = self._loop_clients.get(loop)
        if client is None:
            import openai

            client = self._client.copy(http_client=openai.DefaultAsyncHttpxClient())
            self._loop_clients[loop] = client
        return client

    def _downgrade(self, failed: str) -> None:
        index = _FORMAT_ORDER.index(failed)
        if self._format == failed:  # another request may have downgraded already
            self._format = _FORMAT_ORDER[min(index + 1, len(_FORMAT_ORDER) - 1)]
            with _negotiated_lock:
                _negotiated[self._server_key] = self._format

    def _explain(self, error: JudgeError) -> JudgeError:
        """Name the server when it cannot be reached; advise on a local server that is slow."""
        text = str(error)
        host = urlparse(self.base_url).hostname or ""
        where = self.base_url or "the OpenAI API"
        addition = ""
        if any(marker in text for marker in ("APIConnectionError", "ConnectError", "Connection")):
            addition = f" (judge server: {where})"
        elif "Timeout" in text and host in _LOOPBACK:
            addition = (
                f" (the local server at {where} was too slow; a server that answers one request "
                "at a time queues the others: use max_concurrency=1 and a larger timeout, or "
                "timeout=None)"
            )
        if not addition:
            return error
        error.args = (text + addition, *error.args[1:])
        return error

    def _request_kwargs(
        self, request: JudgeRequest, messages: list[dict[str, str]], mode: str
    ) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages}
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if self.max_tokens is not None:
            kwargs["max_tokens"] = self.max_tokens
        if self.timeout is not None:
            kwargs["timeout"] = self.timeout
        # response_format goes in the raw body: as a typed parameter the SDK walks the whole JSON
        # schema on every call (several ms of CPU), and it sends the same JSON either way.
        body = dict(self.extra_body)
        if mode == "json_schema":
            body["response_format"] = _json_schema_format(request.schema)
        elif mode == "json_object":
            body["response_format"] = {"type": "json_object"}
        if body:
            kwargs["extra_body"] = body
        return kwargs

    def _reply(self, response: Any) -> JudgeReply:
        choices = getattr(response, "choices", None) or []
        content = ""
        if choices:
            message = choices[0].message
            content = message.content or ""
            if not content and getattr(message, "tool_calls", None):
                content = message.tool_calls[0].function.arguments or ""
        usage = getattr(response, "usage", None)
        prompt_tokens = getattr(usage, "prompt_tokens", None)
        completion_tokens = getattr(usage, "completion_tokens", None)
        return self._judge_reply(content, prompt_tokens, completion_tokens)

    def _judge_reply(
        self, content: str, prompt_tokens: int | None, completion_tokens: int | None
    ) -> JudgeReply:
        cost = None
        if (
            self.cost_per_input_token is not None
            and self.cost_per_output_token is not None
            and prompt_tokens is not None
            and completion_tokens is not None
        ):
            cost = (
                prompt_tokens * self.cost_per_input_token
                + completion_tokens * self.cost_per_output_token
            )
        elif prompt_tokens is not None and completion_tokens is not None:
            # No prices given: the model's list price from genai-prices (None when unknown).
            from .pricing import price

            cost = price(
                self.model,
                prompt_tokens,
                completion_tokens,
                base_url=str(getattr(self._client, "base_url", "") or "") or None,
            )
        return JudgeReply(
            output=content,
            input_tokens=prompt_tokens,
            output_tokens=completion_tokens,
            cost=cost,
        )

    def __repr__(self) -> str:
        return f"OpenAIJudge(name={self.name!r}, response_format={self._format!r})"


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
