"""The parts the families of ``lexical_families.py`` are made of: a ``Patch`` (an attribute of a
module of ``summscore.judges.lexical`` replaced), a ``Family`` (a rule as the patches that switch
it off), the stand-ins the patches put in place (a check that never fires, a rewrite that leaves
the text as it is), and the setting of an attribute and the emptying of the package's memos."""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PACKAGE = "summscore.judges.lexical"
_NEVER = re.compile(r"(?!)")  # a pattern that matches nothing


def _false(*_: Any, **__: Any) -> bool:
    return False


def _none(*_: Any, **__: Any) -> None:
    return None


def _empty(*_: Any, **__: Any) -> list[Any]:
    return []


def _same(value: Any, *_: Any, **__: Any) -> Any:
    return value


@dataclass(frozen=True)
class Patch:
    """Replace ``attribute`` of ``module`` (relative to the package) with ``value``; with
    ``everywhere``, also every other module of the package that imported the same object."""

    module: str
    attribute: str
    value: Any
    everywhere: bool = True


@dataclass(frozen=True)
class Family:
    name: str
    what: str
    patches: tuple[Patch, ...]
    # Only the lenient question check reads it: alignment cannot move, the final score can.
    questions_only: bool = False


def _family(name: str, what: str, *patches: Patch, questions_only: bool = False) -> Family:
    return Family(name, what, patches, questions_only)


def _function_opposites_off() -> dict[str, frozenset[str]]:
    return {}


def _negation_at_without_denying_verbs() -> re.Pattern[str]:
    return re.compile(
        r"(?:\b(?:not|no|never|none|nobody|nothing|neither|nor|cannot)\b|n't\b)([^.;:!?,]{0,80})",
        re.IGNORECASE,
    )


def _listed_opposites(token: str) -> frozenset[str]:
    opposites = importlib.import_module(f"{PACKAGE}._opposites")
    return opposites.OPPOSITES.get(token, frozenset())  # type: ignore[no-any-return]


def _split_of_off(words: list[Any]) -> list[list[Any]]:
    return [words]


def _every_unit(units: list[str]) -> list[bool]:
    return [True] * len(units)


def _split_numbers_units() -> tuple[re.Pattern[str], re.Pattern[str]]:
    words = importlib.import_module(f"{PACKAGE}._words")
    return (
        re.compile(f"[0-9a-z\u00c0-\u024f]+|[{words.CJK}]|{words.OTHER_WORD}"),
        re.compile(r"[0-9a-z]+"),
    )


def _anchors_anywhere(statement: Any, doc: Any) -> frozenset[str]:
    match = importlib.import_module(f"{PACKAGE}._match")
    return frozenset(a for a in statement.anchors if match.anchor_in_doc(a, statement, doc))


def _whole_window(statement: Any, window: Any) -> Any:
    return window


def _as_laid_out(text: str) -> str:
    """The judge's reading before its whitespace was read as layout: every space as written."""
    return text


def _fold_quotes_and_widths_only(text: str) -> str:
    """The judge's reading before Unicode folding: full-width forms and curly single quotes."""
    import unicodedata

    if not text.isascii():
        if re.search("[\uff01-\uff5e]", text):
            text = unicodedata.normalize("NFKC", text)
        text = text.replace("\u2019", "'").replace("\u2018", "'")
    return text


def _target(module: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.{module}" if module else PACKAGE)


def _set(owner: Any, attribute: str, value: Any) -> Any:
    """Set a (possibly dotted: "Class.attribute") attribute; the old value."""
    *path, last = attribute.split(".")
    for step in path:
        owner = getattr(owner, step)
    if not hasattr(owner, last):
        raise AttributeError(f"{owner!r} has no {last!r}: was the family removed from the judge?")
    old = getattr(owner, last)
    setattr(owner, last, value)
    return old


def _clear_memos() -> None:
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith(PACKAGE):
            continue
        for value in vars(module).values():
            if isinstance(value, type):
                continue
            clear: Callable[[], None] | None = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()
    docs = importlib.import_module(f"{PACKAGE}._doc")
    docs._cache.cache_clear()
