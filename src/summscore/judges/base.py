"""The one small protocol every judge backend implements."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

__all__ = ["Judge", "JudgeReply", "JudgeRequest"]


@dataclass(frozen=True)
class JudgeRequest:
    """One question to the judge.

    ``prompt`` is the full rendered prompt and ``schema`` the output model the prompt asks for
    (what structured-output APIs are given). ``task`` and ``inputs`` carry the same request in
    structured form for judges that do not read prompts, such as the offline LexicalJudge:

    | task | inputs |
    | --- | --- |
    | keyphrases | text |
    | questions | text; keyphrases (ragas style, answers "1"/"0") or n (yes/no) |
    | answers | text (the text the questions are asked of), questions, vocabulary |
    | truths | text, limit (None for no limit) |
    | claims | text |
    | verdicts | claims, evidence, vocabulary (("yes","no","borderline") or ("yes","no","unsure")) |
    | reason | preset, score and the evidence lists of the preset |

    ``affinity`` is the source text of the case the request belongs to (None outside a case): a
    hint for judges that spread requests over processes, which may send one source's requests to
    one process. It is never part of what is asked.
    """

    task: str
    prompt: str
    schema: type[BaseModel]
    inputs: Mapping[str, Any] = field(default_factory=dict)
    affinity: str | None = field(default=None, compare=False, repr=False)


@dataclass
class JudgeReply:
    """What a judge answered.

    ``output`` is a model instance, a dict/list, or raw text; the core parses and validates it.
    Token counts and cost are None where the backend does not report them.
    """

    output: Any
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost: float | None = None


@runtime_checkable
class Judge(Protocol):
    """A judge backend: one async method and a printable name.

    ``name`` identifies the judge in results and cache keys (for example ``openai:gpt-4o-mini``);
    it must never contain credentials. ``reads_prompts`` is False for judges that answer from
    ``JudgeRequest.inputs`` only, so results do not claim a prompt set was used.
    """

    name: str
    reads_prompts: bool

    async def complete(self, request: JudgeRequest) -> JudgeReply: ...
