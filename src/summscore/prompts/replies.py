"""Lenient models for reading judge replies, and the schemas summscore's own prompts ask for.

Judges answer "answers": [1, 0] or "verdicts": ["yes"] as often as the exact shape; these models
accept such near misses (numbers and booleans become strings, a bare verdict string becomes an
item) so that a usable reply is never re-asked. Scoring rules then read the strings exactly as
upstream does.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, field_validator
from pydantic.json_schema import SkipJsonSchema

__all__ = [
    "AnswersReply",
    "ClaimsReply",
    "KeyphrasesReply",
    "QuestionsReply",
    "ReasonReply",
    "TruthsReply",
    "VerdictItem",
    "VerdictsReply",
]


def _strings(value: Any) -> Any:
    if value is None:
        return []
    if isinstance(value, (str, int, float)):
        value = [value]
    if isinstance(value, list):
        try:  # all strings (most replies): nothing to coerce, as one test in C finds
            "".join(value)
        except TypeError:
            return _coerce_items(value)
        return value
    return value


def _coerce_items(items: list[Any]) -> list[Any]:
    """Each item of a reply's list as a string where a judge wrote it otherwise: booleans as
    "1"/"0", whole numbers without ".0", a one-key object as its value; anything else as it is
    (pydantic then names what is wrong)."""
    out = []
    for item in items:
        if isinstance(item, bool):
            out.append("1" if item else "0")
        elif isinstance(item, (int, float)):
            out.append(str(int(item)) if float(item).is_integer() else str(item))
        elif isinstance(item, dict) and len(item) == 1:
            out.append(str(next(iter(item.values()))))
        else:
            out.append(item)
    return out


class KeyphrasesReply(BaseModel):
    keyphrases: list[str] = Field(description="Key phrases copied from the document")
    _coerce = field_validator("keyphrases", mode="before")(_strings)


class QuestionsReply(BaseModel):
    questions: list[str] = Field(description="Closed questions, one per string")
    _coerce = field_validator("questions", mode="before")(_strings)


class AnswersReply(BaseModel):
    answers: list[str] = Field(description="One answer per question, in order")
    _coerce = field_validator("answers", mode="before")(_strings)


class TruthsReply(BaseModel):
    truths: list[str] = Field(description="Factual statements made by the document")
    _coerce = field_validator("truths", mode="before")(_strings)


class ClaimsReply(BaseModel):
    claims: list[str] = Field(description="Factual claims made by the text")
    _coerce = field_validator("claims", mode="before")(_strings)


class VerdictItem(BaseModel):
    verdict: str = Field(description="The verdict word")
    reason: str | None = Field(default=None, description="Why, when the verdict is not yes")
    claim: str | None = Field(default=None, description="The claim judged (optional)")
    # Graded support (0 to 1) that only the offline LexicalJudge reports; kept out of the schema
    # the prompts ask an LLM for, so an LLM judge's replies and numbers stay upstream's.
    support: SkipJsonSchema[float | None] = None

    @field_validator("verdict", mode="before")
    @classmethod
    def _verdict_text(cls, value: Any) -> Any:
        if value is None:
            return ""
        return str(getattr(value, "value", value))

    @field_validator("support", mode="before")
    @classmethod
    def _support_share(cls, value: Any) -> float | None:
        # Never a reason to reject a reply: anything but a number from 0 to 1 is no support.
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        return float(value) if 0 <= value <= 1 else None


class VerdictsReply(BaseModel):
    verdicts: list[VerdictItem] = Field(description="One verdict per claim, in order")

    @field_validator("verdicts", mode="before")
    @classmethod
    def _items(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [{"verdict": v} if isinstance(v, (str, bool)) else v for v in value]
        return value


class ReasonReply(BaseModel):
    reason: str = Field(description="A short explanation of the score")
