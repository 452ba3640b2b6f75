"""What a prompt set provides: for each judge task, the prompt text and the output schema it asks for."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from pydantic import BaseModel

__all__ = ["DeepEvalPromptSet", "MastraPromptSet", "RagasPromptSet", "Rendered"]


class Rendered:
    """A prompt and the output model it asks the judge for (used for structured output).

    ``text`` may be given as a function that renders it: it is then rendered on first use only,
    so judges that read no prompts (the offline LexicalJudge) cost no rendering.
    """

    __slots__ = ("_render", "_text", "schema")

    def __init__(self, text: str | Callable[[], str], schema: type[BaseModel]) -> None:
        self._text: str | None = text if isinstance(text, str) else None
        self._render: Callable[[], str] | None = None if isinstance(text, str) else text
        self.schema = schema

    @property
    def text(self) -> str:
        if self._text is None:
            assert self._render is not None
            self._text = self._render()
        return self._text

    def __repr__(self) -> str:
        return f"Rendered(schema={self.schema.__name__})"


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
