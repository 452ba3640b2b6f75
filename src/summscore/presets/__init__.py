"""The scoring rules of ragas, deepeval and Mastra, side by side."""

from __future__ import annotations

from typing import Any

from .base import Context, Options, Preset, SourceWork
from .deepeval import DeepEvalOptions, DeepEvalPreset
from .mastra import MastraOptions, MastraPreset
from .ragas import RagasOptions, RagasPreset

__all__ = [
    "PRESETS",
    "Context",
    "DeepEvalOptions",
    "DeepEvalPreset",
    "MastraOptions",
    "MastraPreset",
    "Options",
    "Preset",
    "RagasOptions",
    "RagasPreset",
    "SourceWork",
    "make_preset",
]

PRESETS: dict[str, type[Preset]] = {
    "ragas": RagasPreset,
    "deepeval": DeepEvalPreset,
    "mastra": MastraPreset,
}


def make_preset(name: str, options: dict[str, Any]) -> Preset:
    """Build preset ``name`` with ``options``; unknown names and options raise, naming them."""
    if not isinstance(name, str) or name not in PRESETS:
        raise ValueError(f"preset must be one of {', '.join(PRESETS)}; got {name!r}")
    cls = PRESETS[name]
    valid = cls.options_type.names()
    unknown = sorted(set(options) - set(valid))
    if unknown:
        raise TypeError(
            f"unknown option(s) for the {name} preset: {', '.join(unknown)}. "
            f"Its options are: {', '.join(valid)}"
        )
    return cls(cls.options_type(**options))
