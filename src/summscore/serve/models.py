"""Request and response bodies of ``summscore serve`` (pydantic; they are the OpenAPI schema)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    Strict,
    WithJsonSchema,
    create_model,
    field_validator,
    model_validator,
)

from ..cases import check_questions, check_source, check_summary
from ..results import SummaryResult

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


def _not_both(schema: dict[str, Any]) -> None:
    if {"n", "maxQuestions"} <= set(schema.get("properties", {})):
        both: dict[str, Any] = {"required": ["n", "maxQuestions"]}
        both["properties"] = {"n": {"type": "integer"}, "maxQuestions": {"type": "integer"}}
        schema["not"] = both  # one of the two names, not both


def _not_text(value: Any) -> Any:
    if isinstance(value, (str, bytes)):
        raise ValueError("must be a number, not text")
    if isinstance(value, bool):  # pydantic would take true as 1; the core refuses a bool too
        raise ValueError("must be a number, not true or false")
    return value


# JSON numbers as JSON Schema reads them (2.0 is an integer), never numbers spelt as text or as
# true/false. The bounds go before the validator so that the OpenAPI document shows them as
# minimum/maximum.
_Positive = Annotated[float, Field(gt=0), BeforeValidator(_not_text)]
_Unit = Annotated[float, Field(ge=0, le=1), BeforeValidator(_not_text)]
_Count = Annotated[int, Field(ge=1), BeforeValidator(_not_text)]
_Flag = Annotated[bool, Strict()]


class _Options(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra=_not_both)

    @model_validator(mode="after")
    def _one_question_count(self) -> Any:
        if None not in (getattr(self, "n", None), getattr(self, "maxQuestions", None)):
            raise ValueError("give n or maxQuestions, not both")
        return self

    def given(self) -> dict[str, Any]:
        """The options the request set, ``maxQuestions`` spelt ``n``."""
        values = self.model_dump(exclude_none=True)
        if "maxQuestions" in values:
            values["n"] = values.pop("maxQuestions")
        return values


class ScoreOptions(_Options):
    """Preset options a request may set, where the server allows them (see ``/healthz``).

    Each applies only to the presets that have it; the server rejects the others by name.
    ``maxQuestions`` is Mastra's name for ``n``. A server's OpenAPI document lists only the
    options it accepts (see ``server_models``).
    """

    scale: _Positive | None = Field(None, description="mastra: maximum score, e.g. 10")
    n: _Count | None = Field(None, description="deepeval / mastra: questions to generate")
    maxQuestions: _Count | None = Field(None, description="mastra 1.x's name for n")
    version: Literal["1.x", "0.x"] | None = Field(
        None, description="mastra: the rule version, e.g. '0.x'"
    )
    threshold: _Unit | None = Field(None, description="deepeval: the pass mark")
    strict_mode: _Flag | None = Field(None, description="deepeval: strict mode")
    coeff: _Unit | None = Field(None, description="ragas: weight of conciseness")
    length_penalty: _Flag | None = Field(None, description="ragas: blend in conciseness")
    include_reason: _Flag | None = Field(None, description="deepeval / mastra: write a reason")


def _as_value_error(check: Any, value: Any) -> Any:
    try:
        return check(value)
    except TypeError as exc:  # pydantic reports ValueErrors with the field's location
        raise ValueError(str(exc)) from None


_CASES_SCHEMA = {
    "type": "array",
    "items": {"$ref": "#/components/schemas/ScoreRequest"},
    "description": "the cases, scored concurrently; results come back in this order. "
    "A case that does not match ScoreRequest is not scored: its result carries an "
    "error naming cases[i].<field>, and the other cases are scored.",
}


class ScoreRequest(BaseModel):
    """One case: a summary and the source it summarises."""

    model_config = ConfigDict(extra="forbid")

    source: Annotated[
        str | list[str],
        WithJsonSchema(
            {
                "anyOf": [
                    {"type": "string", "pattern": _NOT_BLANK},
                    {
                        "type": "array",
                        "items": {"type": "string"},
                        "minItems": 1,
                        "contains": {"type": "string", "pattern": _NOT_BLANK},
                    },
                ]
            }
        ),
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
    id: JsonValue = Field(None, description="anything; returned in the result (a key in it masked)")
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


def server_models(
    allowed: Sequence[str], max_questions: int, max_batch: int
) -> tuple[type[ScoreRequest], type[BatchRequest]]:
    """The request models of one server: only the options it accepts, ``n`` within its limit."""
    fields: dict[str, Any] = {}
    for name, info in ScoreOptions.model_fields.items():
        option = "n" if name == "maxQuestions" else name
        if option not in allowed:
            continue
        if option == "n":
            limited: Any = (
                Annotated[int, Field(ge=1, le=max_questions), BeforeValidator(_not_text)] | None
            )
            fields[name] = (limited, Field(None, description=info.description))
        else:
            fields[name] = (info.annotation, info)
    options = create_model("ScoreOptions", __base__=_Options, **fields)
    optional: Any = options | None
    request = create_model("ScoreRequest", __base__=ScoreRequest, options=(optional, None))
    cases_schema = {**_CASES_SCHEMA, "maxItems": max_batch}
    cases: Any = Annotated[list[Any], WithJsonSchema(cases_schema)]
    batch = create_model("BatchRequest", __base__=BatchRequest, cases=(cases, ...))
    return request, batch


class BatchRequest(BaseModel):
    """Many cases. Each is checked on its own: a bad case gets a result with its error."""

    model_config = ConfigDict(extra="forbid")

    cases: Annotated[list[Any], WithJsonSchema(_CASES_SCHEMA)]


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
    request_timeout: float | None = Field(
        None, description="seconds a request may take before a 504 (null: no deadline)"
    )
