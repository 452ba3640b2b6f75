"""A request body read as strict JSON, every refusal placed at a line and column.

Python's ``json`` reads more than JSON and fails on some JSON in ways that name no place: bytes
that are not UTF-8 (``UnicodeDecodeError``), arrays nested a thousand deep (``RecursionError``),
an integer of 5,000 digits (``ValueError`` from Python's integer-conversion limit), and it
accepts ``NaN`` and ``Infinity``, which JSON does not have (and reads ``1e999`` as infinity). ``parse_json_body`` refuses each
of these with ``InvalidBody``, whose message ends "at line L, column C" (counted as an
editor does, in characters), so a client sees the same ``invalid_json`` error for every body it
cannot send.

Limits: arrays and objects nest at most ``MAX_DEPTH`` levels deep (a batch request needs 3;
the rest is room for the free-form ``id``), an integer has at most ``MAX_INTEGER_DIGITS``
digits, and a number must fit a float (``1e999`` is refused, as ``Infinity`` is). A UTF-8 byte-order mark at the start is allowed (RFC 8259 lets a reader ignore
it). Escaped lone surrogates (``"\\udfff"``) are JSON and are kept: the service scores them as the
CLI does.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

__all__ = ["MAX_DEPTH", "MAX_INTEGER_DIGITS", "InvalidBody", "parse_json_body", "place"]

MAX_DEPTH = 64
MAX_INTEGER_DIGITS = 100

_BOM = "\ufeff"
_INT_LIMIT = 10**MAX_INTEGER_DIGITS
_INTEGER = re.compile(r"-?\d+")
_LIMITED = "the body is not valid JSON for this server"
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
# The tokens that place a refusal: strings (skipped whole, so that brackets and digits inside
# them never count; an unterminated one runs to the end), numbers, NaN and Infinity, brackets.
_TOKENS = re.compile(
    _STRING + r'|"[\s\S]*'
    r"|(?P<number>-?\d[\d.eE+-]*)"
    r"|(?P<constant>-?Infinity|NaN)"
    r"|(?P<open>[\[{])"
    r"|(?P<close>[\]}])"
)


class InvalidBody(ValueError):
    """A body that is not (acceptable) JSON; the message says why and where."""


def place(text: str, position: int) -> str:
    """ "line 3, column 12" for character ``position`` of ``text`` (both counted from 1)."""
    position = max(0, min(position, len(text)))
    line = text.count("\n", 0, position) + 1
    column = position - text.rfind("\n", 0, position)
    return f"line {line}, column {column}"


def parse_json_body(body: bytes) -> Any:
    """The JSON value of ``body``; InvalidBody naming the line and column of the first problem."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = body[: exc.start].decode("utf-8")
        raise InvalidBody(
            f"the body is not valid JSON: it is not UTF-8 text (byte 0x{body[exc.start]:02x}) "
            f"at {place(before, len(before))}"
        ) from None
    offset = 1 if text.startswith(_BOM) else 0
    try:
        value = json.loads(text[offset:])
    except json.JSONDecodeError as exc:
        reason = exc.msg.removesuffix(" at")  # "Unterminated string starting at"
        raise InvalidBody(
            f"the body is not valid JSON: {reason} at {place(text, exc.pos + offset)}"
        ) from None
    except (RecursionError, ValueError):  # nested too deep; an integer past Python's limit
        raise InvalidBody(_first_refusal(text) or "the body is not valid JSON") from None
    if _refused_inside(value):
        raise InvalidBody(_first_refusal(text) or "the body is not valid JSON")
    return value


def _refused_inside(value: Any) -> bool:
    """Whether ``value`` nests arrays and objects past MAX_DEPTH or holds a number the service
    refuses (a walk without recursion, quick for a usual body: a few containers, long strings)."""
    if not isinstance(value, (dict, list)):
        return _refused_number(value)
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, (dict, list)):
                if depth >= MAX_DEPTH:
                    return True
                stack.append((child, depth + 1))
            elif _refused_number(child):
                return True
    return False


def _refused_number(value: Any) -> bool:
    """NaN, an infinity (``Infinity``, or ``1e999`` past a float's range), an integer of more
    than MAX_INTEGER_DIGITS digits."""
    kind = type(value)
    if kind is float:
        return not math.isfinite(value)
    return kind is int and not -_INT_LIMIT < value < _INT_LIMIT


def _first_refusal(text: str) -> str | None:
    """Why the first refused token (a long number, NaN or Infinity, a bracket past the depth
    limit) is refused, and where; None when there is none (the runs were inside strings)."""
    depth = 0
    for token in _TOKENS.finditer(text):
        kind = token.lastgroup
        if kind == "open":
            depth += 1
            if depth > MAX_DEPTH:
                why = f"arrays and objects nest more than {MAX_DEPTH} levels deep"
                return f"{_LIMITED}: {why} at {place(text, token.start())}"
        elif kind == "close":
            depth -= 1
        elif kind == "number":
            refused = _number_refusal(token.group())
            if refused:
                return f"{_LIMITED}: {refused} at {place(text, token.start())}"
        elif kind == "constant":
            why = f"{token.group()} is not JSON (send null or a number)"
            return f"the body is not valid JSON: {why} at {place(text, token.start())}"
    return None


def _number_refusal(literal: str) -> str | None:
    if _INTEGER.fullmatch(literal):
        digits = len(literal.lstrip("-"))
        if digits > MAX_INTEGER_DIGITS:
            return f"an integer of {digits:,} digits (at most {MAX_INTEGER_DIGITS})"
        return None
    try:
        number = float(literal)
    except ValueError:  # pragma: no cover - the decoder read it
        return None
    if not math.isfinite(number):
        return f"the number {literal[:20]}{'...' if len(literal) > 20 else ''} is too large"
    return None
