"""What a prompt set provides: for each judge task, the prompt text and the output schema it asks for."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from pydantic import BaseModel

__all__ = ["DeepEvalPromptSet", "MastraPromptSet", "RagasPromptSet", "Rendered"]


@dataclass(frozen=True)
class Rendered:
    """A rendered prompt and the output model it asks the judge for (used for structured output)."""

    text: str
    schema: type[BaseModel]


class RagasPromptSet(Protocol):
    name: str

    def keyphrases(self, text: str) -> Rendered: ...
    def questions(self, text: str, keyphrases: Sequence[str]) -> Rendered: ...
    def answers(self, summary: str, questions: Sequence[str]) -> Rendered: ...


class DeepEvalPromptSet(Protocol):
    name: str

    def truths(self, text: str, limit: int | None) -> Rendered: ...
    def claims(self, text: str) -> Rendered: ...
    def questions(self, text: str, n: int) -> Rendered: ...
    def answers(self, text: str, questions: Sequence[str]) -> Rendered: ...
    def verdicts(self, claims: Sequence[str], truths: Sequence[str]) -> Rendered: ...
    def reason(
        self,
        score: float,
        contradictions: Sequence[str | None],
        redundancies: Sequence[str | None],
        questions: Sequence[str],
    ) -> Rendered: ...


class MastraPromptSet(Protocol):
    name: str

    def claims(self, text: str) -> Rendered: ...
    def verdicts(self, claims: Sequence[str], source: str) -> Rendered: ...
    def questions(self, text: str, n: int) -> Rendered: ...
    def answers(self, summary: str, questions: Sequence[str]) -> Rendered: ...
    def reason(
        self,
        *,
        score: float,
        alignment: float,
        coverage: float,
        scale: float,
        unsupported: Sequence[tuple[str, str, str | None]],
        missed: Sequence[str],
    ) -> Rendered: ...
