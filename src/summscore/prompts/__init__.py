"""Prompt sets: the project's own (``summscore-v1``) and the upstream ones rendered by ragas/deepeval.

``choice`` is "auto" (upstream where the preset's package is installed, else own), "upstream"
(error if the package is missing) or "own".
"""

from __future__ import annotations

import importlib.util
from typing import Any, Literal

from ..errors import MissingExtraError
from .base import DeepEvalPromptSet, MastraPromptSet, RagasPromptSet, Rendered
from .own import OWN_PROMPT_SET, OwnDeepEvalPrompts, OwnMastraPrompts, OwnRagasPrompts

__all__ = [
    "OWN_PROMPT_SET",
    "DeepEvalPromptSet",
    "MastraPromptSet",
    "PromptChoice",
    "RagasPromptSet",
    "Rendered",
    "check_prompt_choice",
    "load_prompt_set",
]

PromptChoice = Literal["auto", "upstream", "own"]
_UPSTREAM_PACKAGE = {"ragas": "ragas", "deepeval": "deepeval"}


def _installed(package: str) -> bool:
    return importlib.util.find_spec(package) is not None


def check_prompt_choice(preset: str, choice: str) -> None:
    """Fail early (at scorer construction) on a choice that cannot be honoured."""
    if choice not in ("auto", "upstream", "own"):
        raise ValueError(f"prompts must be 'auto', 'upstream' or 'own', got {choice!r}")
    if choice == "upstream":
        package = _UPSTREAM_PACKAGE.get(preset)
        if package is None:
            raise ValueError(
                f"prompts='upstream': the {preset} preset has no Python upstream; use 'own' or 'auto'"
            )
        if not _installed(package):
            raise MissingExtraError(package, package, f"prompts='upstream' for the {preset} preset")


def load_prompt_set(preset: str, choice: str) -> Any:
    """Return the prompt set the preset should use under ``choice``."""
    package = _UPSTREAM_PACKAGE.get(preset)
    use_upstream = choice == "upstream" or (
        choice == "auto" and package is not None and _installed(package)
    )
    if preset == "ragas":
        if use_upstream:
            from .ragas_upstream import UpstreamRagasPrompts

            return UpstreamRagasPrompts()
        return OwnRagasPrompts()
    if preset == "deepeval":
        if use_upstream:
            from .deepeval_upstream import UpstreamDeepEvalPrompts

            return UpstreamDeepEvalPrompts()
        return OwnDeepEvalPrompts()
    if preset == "mastra":
        return OwnMastraPrompts()
    raise ValueError(f"unknown preset {preset!r}")
