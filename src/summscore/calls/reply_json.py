"""Read a judge's reply as JSON, however it was wrapped.

Judges wrap JSON in code fences, put prose before and after it, leave trailing commas, use Python
quoting, or answer with a bare list where an object was asked for. ``extract_json`` finds the
value; ``coerce_reply`` fits it to a reply model. Both raise ``JudgeOutputError`` with a
short message that can be fed back to the judge.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from collections.abc import Iterator
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import JudgeOutputError

__all__ = ["coerce_reply", "extract_json"]

M = TypeVar("M", bound=BaseModel)

_FENCE = re.compile(r"```(?:json|JSON|javascript|js)?\s*\n?(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([\]}])")
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)


def extract_json(text: str, *, allow_truncated: bool = False) -> Any:
    """Return the first JSON object or array found in ``text``.

    A reply cut off before its JSON closes (the judge ran out of tokens) is read only with
    ``allow_truncated``: its brackets are closed and what was written is kept.
    """
    if not isinstance(text, str):
        raise JudgeOutputError(f"expected text from the judge, got {type(text).__name__}")
    cleaned = _THINK.sub("", text).strip().lstrip("\ufeff")
    if not cleaned:
        raise JudgeOutputError("the judge returned an empty reply")
    for candidate in _candidates(cleaned, allow_truncated):
        value = _loads(candidate)
        if value is not _NOTHING and isinstance(value, (dict, list)):
            return value
    snippet = cleaned[:80].replace("\n", " ")
    raise JudgeOutputError(f"no JSON object found in the judge's reply (starts: {snippet!r})")


_NOTHING = object()


def _candidates(cleaned: str, allow_truncated: bool) -> Iterator[str]:
    """The whole reply, then each fenced block, then each bracketed span, produced lazily: most
    replies are plain JSON, and scanning for spans costs more than parsing them."""
    yield cleaned
    for match in _FENCE.finditer(cleaned):
        yield match.group(1).strip()
    yield from _balanced_spans(cleaned, allow_truncated=allow_truncated)


def _loads(candidate: str) -> Any:
    for attempt in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
        try:
            return json.loads(attempt)
        except (json.JSONDecodeError, ValueError):
            pass
    try:  # Python-style quoting: {'answers': ['1', '0']}
        value = ast.literal_eval(candidate)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return _NOTHING
    return value if isinstance(value, (dict, list)) else _NOTHING


def _balanced_spans(text: str, limit: int = 8, *, allow_truncated: bool = False) -> list[str]:
    """Substrings that open with { or [ and close at the matching bracket, string-aware."""
    spans: list[str] = []
    start = 0
    while len(spans) < limit:
        positions = [p for p in (text.find("{", start), text.find("[", start)) if p != -1]
        if not positions:
            break
        begin = min(positions)
        end = _match_bracket(text, begin)
        if end is None:
            # Unclosed: the reply was cut off. Offer the tail with closers appended.
            if allow_truncated:
                spans.append(_close_truncated(text[begin:]))
            break
        spans.append(text[begin : end + 1])
        start = begin + 1
    return spans


def _match_bracket(text: str, begin: int) -> int | None:
    stack: list[str] = []
    in_string = False
    quote = ""
    escaped = False
    pairs = {"{": "}", "[": "]"}
    for i in range(begin, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                in_string = False
            continue
        if ch in ('"', "'"):
            in_string, quote = True, ch
        elif ch in pairs:
            stack.append(pairs[ch])
        elif ch in ("}", "]"):
            if not stack or stack.pop() != ch:
                return None
            if not stack:
                return i
    return None


def _close_truncated(fragment: str) -> str:
    stack: list[str] = []
    in_string = False
    escaped = False
    for ch in fragment:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch == "{":
            stack.append("}")
        elif ch == "[":
            stack.append("]")
        elif ch in "}]" and stack:
            stack.pop()
    tail = fragment.rstrip().rstrip(",")
    if in_string:
        tail += '"'
    return tail + "".join(reversed(stack))


def coerce_reply(output: Any, model: type[M], *, allow_truncated: bool = False) -> M:
    """Fit a judge's output (model instance, dict, list or text) to ``model``.

    A bare list is accepted for a model with one list field; keys are matched case-insensitively.
    """
    if isinstance(output, BaseModel):
        output = output.model_dump(mode="json")
    elif isinstance(output, (str, bytes)):
        text = output.decode("utf-8", "replace") if isinstance(output, bytes) else output
        output = extract_json(text, allow_truncated=allow_truncated)
    data = _fit_shape(output, model)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise JudgeOutputError(_describe_validation_error(exc, model)) from None


@functools.lru_cache(maxsize=256)
def _field_names(model: type[BaseModel]) -> tuple[str, ...]:
    """A reply model's field names, read once per model (``model_fields`` is a property that
    runs Python code on every read, and every reply is fitted)."""
    return tuple(model.model_fields)


def _fit_shape(data: Any, model: type[BaseModel]) -> Any:
    fields = _field_names(model)
    if isinstance(data, list) and len(fields) == 1:
        return {fields[0]: data}
    if isinstance(data, dict):
        if all(f in data for f in fields):
            return data
        lowered = {str(k).lower().strip(): v for k, v in data.items()}
        fitted = dict(data)
        for name in fields:
            if name not in fitted and name.lower() in lowered:
                fitted[name] = lowered[name.lower()]
        if len(fields) == 1 and fields[0] not in fitted:
            # {"result": {"answers": [...]}} or {"output": [...]}: one level of nesting.
            values = list(data.values())
            if len(values) == 1:
                inner = values[0]
                if isinstance(inner, dict) and fields[0] in inner:
                    return inner
                if isinstance(inner, list):
                    return {fields[0]: inner}
        return fitted
    return data


def _describe_validation_error(exc: ValidationError, model: type[BaseModel]) -> str:
    problems = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err.get("loc", ())) or "reply"
        problems.append(f"{where}: {err.get('msg', 'invalid')}")
    expected = ", ".join(f'"{f}"' for f in model.model_fields)
    return f"the reply does not match the expected JSON (keys {expected}): " + "; ".join(problems)
