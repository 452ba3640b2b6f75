"""Find the credentials inside whatever object a user hands summscore as a judge, and register them.

A judge object carries its key in many shapes: ``openai.OpenAI.api_key``, LangChain's
``openai_api_key`` (a pydantic ``SecretStr``), deepeval's ``api_key`` SecretStr, a ragas LLM that
wraps an instructor client that wraps an OpenAI client, an ``Authorization: Bearer ...`` default
header, a function whose closure holds a client. ``register_secrets_in`` walks the object's
attributes (no properties are evaluated, nothing is called), its mappings and sequences, and a
function's closure, bound instance and the globals its code names, a bounded number of steps
deep, and registers every string held under a credential-like name with
``summscore.masking.register_secret``, so it is masked in everything summscore emits.
"""

from __future__ import annotations

import functools
import re
import types
from collections.abc import Mapping
from typing import Any

from ..masking.secrets import register_secret

__all__ = ["is_secret_name", "register_secrets_in"]

_MAX_DEPTH = 7
_MAX_NODES = 5000
_MAX_ITEMS = 200
_SECRET_WORDS = frozenset(
    {"key", "apikey", "token", "secret", "password", "passwd", "credential", "credentials"}
)
_SECRET_NAMES = frozenset({"authorization", "proxy-authorization", "x-api-key", "api-key"})
_WORD_SPLIT = re.compile(r"[_\-\s.]+|(?<=[a-z0-9])(?=[A-Z])")
_LEAVES = (int, float, complex, bool, type(None), range, slice)
_SKIP = (types.ModuleType, type, types.CodeType, types.FrameType)


def is_secret_name(name: Any) -> bool:
    """Does an attribute, field or header called ``name`` hold a credential?

    ``api_key``, ``openai_api_key``, ``_api_key``, ``access_token``, ``secret``, ``apiKey``,
    ``Authorization``, ``x-api-key``: yes. ``max_tokens``, ``tiktoken_model_name``,
    ``token_usage``: no (the last word decides).
    """
    if not isinstance(name, str) or not name:
        return False
    if name.lower() in _SECRET_NAMES:
        return True
    words = [w.lower() for w in _WORD_SPLIT.split(name) if w]
    return bool(words) and words[-1] in _SECRET_WORDS


def register_secrets_in(obj: Any) -> None:
    """Register every credential found inside ``obj`` (see the module docstring)."""
    seen: set[int] = set()
    stack: list[tuple[Any, int]] = [(obj, 0)]
    while stack and len(seen) < _MAX_NODES:
        node, depth = stack.pop()
        if isinstance(node, (str, bytes, *_LEAVES, *_SKIP)):
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        for name, value in _children(node):
            if name is not None and is_secret_name(name) and _is_secret_value(value):
                register_secret(value)
            elif depth < _MAX_DEPTH and not isinstance(value, (str, bytes, *_LEAVES)):
                stack.append((value, depth + 1))


def _is_secret_value(value: Any) -> bool:
    return isinstance(value, (str, bytes)) or callable(getattr(value, "get_secret_value", None))


def _children(node: Any) -> list[tuple[Any, Any]]:
    """(name or None, value) pairs one step inside ``node``, read without running user code."""
    try:
        if isinstance(node, Mapping):
            return [(k, v) for k, v in list(node.items())[:_MAX_ITEMS]]
        if isinstance(node, (list, tuple, set, frozenset)):
            return [(None, v) for v in list(node)[:_MAX_ITEMS]]
        found: list[tuple[Any, Any]] = []
        if isinstance(node, functools.partial):
            found += [(None, node.func), (None, node.args), (None, node.keywords)]
        if isinstance(node, types.MethodType):
            found += [(None, node.__self__), (None, node.__func__)]
        if isinstance(node, types.FunctionType):
            found += _function_children(node)
        attributes = getattr(node, "__dict__", None)
        if isinstance(attributes, dict):
            found += list(attributes.items())[:_MAX_ITEMS]
        for name in _slot_names(type(node)):
            if hasattr(node, name):
                found.append((name, getattr(node, name)))
        return found
    except Exception:  # an exotic object: nothing to read in it
        return []


def _function_children(fn: types.FunctionType) -> list[tuple[Any, Any]]:
    found: list[tuple[Any, Any]] = []
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            found.append((name, cell.cell_contents))
        except ValueError:  # an empty cell
            continue
    # Only the globals the function's code names (a client at module level, say).
    names = set(fn.__code__.co_names)
    for name in names:
        if name in fn.__globals__:
            found.append((name, fn.__globals__[name]))
    wrapped = getattr(fn, "__wrapped__", None)
    if wrapped is not None:
        found.append((None, wrapped))
    return found


def _slot_names(cls: type) -> list[str]:
    names: list[str] = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        if isinstance(slots, str):
            slots = (slots,)
        names.extend(s for s in slots if s not in ("__dict__", "__weakref__"))
    return names
