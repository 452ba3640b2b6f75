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
    "given_options",
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


class ScoreOptions(_Options):
    """Preset options a request may set, where the server allows them (see ``/healthz``).

    Each applies only to the presets that have it; the server rejects the others by name.
    ``maxQuestions`` is Mastra's name for ``n``. A server's OpenAPI document lists only the
    options it accepts (see ``server_models``).

    Attributes:
        scale: mastra: the maximum score, e.g. 10.
        n: deepeval / mastra: the questions to generate (at most the server's
            ``max_questions``).
        maxQuestions: Mastra 1.x's name for ``n`` (give one of the two).
        version: mastra: the rule's version, ``"1.x"`` or ``"0.x"``.
        threshold: deepeval: the pass mark, 0 to 1.
        strict_mode: deepeval: strict mode (the pass mark is 1 and a score below it is 0).
        coeff: ragas: the weight of conciseness, 0 to 1.
        length_penalty: ragas: whether conciseness is blended in.
        include_reason: deepeval / mastra: whether the judge writes a reason.
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


def given_options(options: BaseModel | None) -> dict[str, Any]:
    """The options a request set (those it left out absent; none: empty), ``maxQuestions``
    spelt ``n``: what the server's scorer takes."""
    values = options.model_dump(exclude_none=True) if options is not None else {}
    if "maxQuestions" in values:
        values["n"] = values.pop("maxQuestions")
    return values


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
    """One case: a summary and the source it summarises.

    Attributes:
        source: The source text, or a list of contexts (joined with a line break).
        summary: The summary to score.
        assessment_questions: Closed questions to check coverage with (default: generated).
        id: Anything JSON; returned in the result as sent (a key in it masked).
        options: The preset options this case sets (see ``ScoreOptions``).
    """

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
    """Many cases. Each is checked on its own: a bad case gets a result with its error.

    Attributes:
        cases: The cases (``ScoreRequest`` each, at most the server's ``max_batch``), scored
            concurrently; the results come back in this order.
    """

    model_config = ConfigDict(extra="forbid")

    cases: Annotated[list[Any], WithJsonSchema(_CASES_SCHEMA)]


class ScoreResponse(SummaryResult):
    """``SummaryResult.to_dict()`` and the request's ``id``; ``score`` is null when ``error`` is set.

    Attributes:
        score: The score, or null when ``error`` is set; the other fields are
            ``SummaryResult``'s.
        id: The request's ``id``, as sent (a key in it masked).
    """

    score: float | None  # type: ignore[assignment]
    id: JsonValue = None


class BatchResponse(BaseModel):
    """The answer to ``POST /v1/score:batch``.

    Attributes:
        results: One ``ScoreResponse`` per case, in the order of the request's cases.
    """

    results: list[ScoreResponse]


class ErrorDetail(BaseModel):
    """What went wrong with a request.

    Attributes:
        type: The kind of error, e.g. ``invalid_input``, ``invalid_json``, ``unauthorized``,
            ``overloaded``.
        message: What went wrong, for a person (no key in it).
        field: The request field at fault, e.g. ``cases[2].summary`` (null: the request).
    """

    type: str = Field(description="e.g. invalid_input, invalid_json, unauthorized, overloaded")
    message: str
    field: str | None = Field(None, description="the request field at fault, e.g. cases[2].summary")


class ErrorBody(BaseModel):
    """The body of every error response (4xx and 5xx).

    Attributes:
        error: What went wrong.
    """

    error: ErrorDetail


class HealthResponse(BaseModel):
    """The answer to ``GET /healthz``: what the server scores with and how busy it is.

    Attributes:
        status: ``"ok"`` while the server takes requests.
        preset: The preset it scores with (``ragas``, ``deepeval`` or ``mastra``).
        judge: The judge's name (the offline judge's, or the model and host of a server).
        prompt_set: The prompt set the judge is asked with.
        version: summscore's version.
        options: The server's preset options.
        request_options: The options a request may set.
        max_questions: The most questions a request may ask for (``n``).
        max_batch: The most cases in one batch.
        max_concurrency: Cases judged at once, shared by all requests.
        max_queue: Cases waiting beyond that before a 503.
        in_flight: Cases being judged now.
        queued: Cases waiting now.
        request_timeout: Seconds a request may take before a 504 (null: no deadline).
    """

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
