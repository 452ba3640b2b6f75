"""Request and response bodies of ``summscore serve`` (pydantic; they are the OpenAPI schema)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from .._inputs import check_questions, check_source, check_summary
from ..result import SummaryResult

__all__ = [
    "BatchRequest",
    "BatchResponse",
    "ErrorBody",
    "ErrorDetail",
    "HealthResponse",
    "ScoreOptions",
    "ScoreRequest",
    "ScoreResponse",
]

_NOT_BLANK = r"\S"  # JSON Schema patterns search: at least one non-space character


class ScoreOptions(BaseModel):
    """Preset options a request may set, where the server allows them (see ``/healthz``).

    Each applies only to the presets that have it; the server rejects the others by name.
    ``maxQuestions`` is Mastra's name for ``n``.
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    scale: float | None = Field(None, gt=0, description="mastra: maximum score, e.g. 10")
    n: int | None = Field(None, ge=1, description="deepeval / mastra: questions to generate")
    maxQuestions: int | None = Field(None, ge=1, description="mastra 1.x's name for n")
    version: str | None = Field(None, description="mastra: the rule version, e.g. '0.x'")
    threshold: float | None = Field(None, ge=0, le=1, description="deepeval: the pass mark")
    strict_mode: bool | None = Field(None, description="deepeval: strict mode")
    coeff: float | None = Field(None, ge=0, le=1, description="ragas: weight of conciseness")
    length_penalty: bool | None = Field(None, description="ragas: blend in conciseness")
    include_reason: bool | None = Field(None, description="deepeval / mastra: write a reason")

    @model_validator(mode="after")
    def _one_question_count(self) -> ScoreOptions:
        if None not in (self.n, self.maxQuestions) and self.n != self.maxQuestions:
            raise ValueError("give n or maxQuestions, not both")
        return self

    def given(self) -> dict[str, Any]:
        """The options the request set, ``maxQuestions`` spelt ``n``."""
        values = self.model_dump(exclude_none=True)
        if "maxQuestions" in values:
            values["n"] = values.pop("maxQuestions")
        return values


def _as_value_error(check: Any, value: Any) -> Any:
    try:
        return check(value)
    except TypeError as exc:  # pydantic reports ValueErrors with the field's location
        raise ValueError(str(exc)) from None


class ScoreRequest(BaseModel):
    """One case: a summary and the source it summarises."""

    model_config = ConfigDict(extra="forbid")

    source: Annotated[
        str | list[str],
        Field(
            description="the source text, or a list of contexts (joined with a newline)",
            examples=["The council approved the budget on Monday. Taxes stay flat."],
        ),
    ]
    summary: str = Field(
        json_schema_extra={"pattern": _NOT_BLANK},
        description="the summary to score",
        examples=["The council approved the budget."],
    )
    assessment_questions: (
        list[Annotated[str, Field(json_schema_extra={"pattern": _NOT_BLANK})]] | None
    ) = Field(None, description="closed questions to check coverage with (default: generated)")
    id: JsonValue = Field(None, description="anything; returned unchanged in the result")
    options: ScoreOptions | None = None

    @field_validator("source")
    @classmethod
    def _source(cls, value: Any) -> Any:
        _as_value_error(check_source, value)
        return value

    @field_validator("summary")
    @classmethod
    def _summary(cls, value: Any) -> Any:
        return _as_value_error(check_summary, value)

    @field_validator("assessment_questions")
    @classmethod
    def _questions(cls, value: Any) -> Any:
        _as_value_error(check_questions, value)
        return value


class BatchRequest(BaseModel):
    """Many cases. Each is checked on its own: a bad case gets a result with its error."""

    model_config = ConfigDict(extra="forbid")

    cases: Annotated[
        list[Any],
        WithJsonSchema(
            {
                "type": "array",
                "items": {"$ref": "#/components/schemas/ScoreRequest"},
                "description": "the cases, scored concurrently; results come back in this order",
            }
        ),
    ]


class ScoreResponse(SummaryResult):
    """``SummaryResult.to_dict()`` and the request's ``id``; ``score`` is null when ``error`` is set."""

    score: float | None  # type: ignore[assignment]
    id: JsonValue = None


class BatchResponse(BaseModel):
    results: list[ScoreResponse]


class ErrorDetail(BaseModel):
    type: str = Field(description="e.g. invalid_input, invalid_json, unauthorized, overloaded")
    message: str
    field: str | None = Field(None, description="the request field at fault, e.g. cases[2].summary")


class ErrorBody(BaseModel):
    error: ErrorDetail


class HealthResponse(BaseModel):
    status: str
    preset: str
    judge: str
    prompt_set: str
    version: str
    options: dict[str, JsonValue] = Field(description="the server's preset options")
    request_options: list[str] = Field(description="options a request may set")
    max_questions: int
    max_batch: int
    max_concurrency: int = Field(description="cases judged at once, shared by all requests")
    max_queue: int = Field(description="cases waiting beyond that before a 503")
    in_flight: int
    queued: int
