"""A pydantic validation error as the service reports it: one message naming the field the way
the client spelt it (``cases[2].summary``), and why the server refuses an option."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .runner import Runner

__all__ = ["describe_errors", "field_path"]


def field_path(loc: tuple[Any, ...] | list[Any]) -> str | None:
    """``("body", "cases", 2, "summary")`` -> ``"cases[2].summary"``; None for the body itself."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part != "body" and not _is_union_tag(str(part)):
            path += f".{part}" if path else str(part)
    return path or None


def _is_union_tag(part: str) -> bool:
    """pydantic names the union member it tried ("str", "list[str]"); the client never sent it."""
    return part in ("str", "int", "float", "bool") or part.startswith(
        ("list[", "dict[", "function-", "json-or-python")
    )


def describe_errors(
    errors: list[Any], prefix: str = "", runner: Runner | None = None
) -> tuple[str, str, str | None]:
    """(type, message, field) of the first pydantic error, the field spelt as the client sent it."""
    first = errors[0]
    loc = [part for part in first.get("loc", ()) if part != "body"]
    field = field_path(loc)
    if prefix:
        field = f"{prefix}.{field}" if field else prefix
    if runner and first.get("type") == "extra_forbidden" and loc[:1] == ["options"]:
        problem = runner.option_problem(str(loc[-1]), field or "options")
        if problem:  # say why the server refuses it, not just "extra input"
            return "invalid_option", problem, field
    message = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
    if field:
        leaf = field.rsplit(".", 1)[-1]
        if leaf.isidentifier() and message.startswith(leaf):  # "summary cannot be empty"
            message = field[: -len(leaf)] + message
        else:
            message = f"{field}: {message}"
    more = len(errors) - 1
    if more:
        message += f" (and {more} more problem{'s' if more > 1 else ''})"
    return str(first.get("type", "invalid_input")), message, field
