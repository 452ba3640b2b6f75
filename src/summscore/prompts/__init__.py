"""Prompt sets: the project's own (``summscore-v1``) and the upstream ones rendered by ragas/deepeval.

``choice`` is "auto" (upstream where the preset's package is installed, else own), "upstream"
(error if the package is missing) or "own".
"""

from __future__ import annotations

import importlib.util
import warnings
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
    "check_prompt_set",
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


_TASKS = {
    "ragas": ("keyphrases", "questions", "answers"),
    "deepeval": ("truths", "claims", "questions", "answers", "verdicts", "reason"),
    "mastra": ("claims", "verdicts", "questions", "answers", "reason"),
}


def check_prompt_set(preset: str, prompts: Any) -> Any:
    """Validate a prompt-set object given as ``prompts=``: it needs a ``name`` and one method per
    judge task of the preset (see ``summscore.prompts.base``)."""
    tasks = _TASKS.get(preset)
    if tasks is None:
        raise ValueError(f"unknown preset {preset!r}")
    missing = [t for t in tasks if not callable(getattr(prompts, t, None))]
    if missing or not isinstance(getattr(prompts, "name", None), str):
        raise TypeError(
            f"prompts must be 'auto', 'upstream', 'own' or a {preset} prompt set (a str name and "
            f"the methods {', '.join(tasks)}); got {type(prompts).__name__}"
            + (f" without {', '.join(missing)}" if missing else "")
        )
    return prompts


def load_prompt_set(preset: str, choice: str) -> Any:
    """Return the prompt set the preset should use under ``choice``.

    Under "auto", an upstream package that is installed but does not import (a broken or
    incompatible install) falls back to summscore's own prompts with a warning; under
    "upstream" it raises.
    """
    package = _UPSTREAM_PACKAGE.get(preset)
    use_upstream = choice == "upstream" or (
        choice == "auto" and package is not None and _installed(package)
    )
    if preset == "mastra":
        return OwnMastraPrompts()
    if preset not in ("ragas", "deepeval"):
        raise ValueError(f"unknown preset {preset!r}")
    own = OwnRagasPrompts() if preset == "ragas" else OwnDeepEvalPrompts()
    if not use_upstream:
        return own
    try:
        if preset == "ragas":
            from .ragas_upstream import UpstreamRagasPrompts

            return UpstreamRagasPrompts()
        from .deepeval_upstream import UpstreamDeepEvalPrompts

        return UpstreamDeepEvalPrompts()
    except ImportError as exc:
        if choice == "upstream":
            raise
        warnings.warn(
            f"{package} is installed but its prompts could not be loaded ({exc}); the {preset} "
            f"preset uses summscore's own prompts (prompt_set {own.name!r})",
            RuntimeWarning,
            stacklevel=3,
        )
        return own
