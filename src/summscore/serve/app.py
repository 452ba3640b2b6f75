"""The ASGI app: ``POST /v1/score``, ``POST /v1/score:batch``, ``GET /healthz``, ``GET /metrics``,
``/openapi.json``, ``/docs`` (Swagger UI served from the package: it needs no network) and
``POST /v1/promptfoo`` (promptfoo's webhook assertion, ``promptfoo``)."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi_offline import FastAPIOffline
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from .._version import __version__
from ..calls.pool import ProcessPoolJudge
from ..masking.secrets import redact, register_secret
from ..scorer import SummarizationScorer
from .errors import ApiError, BodyGuard, json_error_message
from .errors import error_response as _error
from .models import (
    BatchRequest,
    BatchResponse,
    ErrorBody,
    HealthResponse,
    ScoreRequest,
    ScoreResponse,
    server_models,
)
from .observe import CONTENT_TYPE_LATEST, Metrics, Observe
from .promptfoo import add_promptfoo_route
from .runner import DeadlineExceeded, OptionError, Overloaded, Runner, ServeConfig

__all__ = ["create_app"]

log = logging.getLogger("summscore.serve")

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "an empty body, or one that is not valid JSON"},
    401: {"model": ErrorBody, "description": "missing or wrong bearer token"},
    413: {"model": ErrorBody, "description": "the body is larger than the server allows"},
    415: {"model": ErrorBody, "description": "the body was not sent as application/json"},
    422: {"model": ErrorBody, "description": "bad input; error.field names the field"},
    503: {"model": ErrorBody, "description": "the judge queue is full; see Retry-After"},
    504: {"model": ErrorBody, "description": "the request ran past the server's deadline"},
}
_SCORING_PATHS = ("/v1/score", "/v1/score:batch", "/v1/promptfoo")


def field_path(loc: tuple[Any, ...] | list[Any]) -> str | None:
    """``("body", "cases", 2, "summary")`` -> ``"cases[2].summary"``; None for the body itself."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part != "body" and not _is_union_tag(str(part)):
            path += f".{part}" if path else str(part)
    return path or None


def _is_union_tag(part: str) -> bool:
    """pydantic names the union member it tried ("str", "list[str]"); the client never sent it."""
    return part in ("str", "int", "float", "bool") or part.startswith(
        ("list[", "dict[", "function-", "json-or-python")
    )


def _describe(
    errors: list[Any], prefix: str = "", runner: Runner | None = None
) -> tuple[str, str, str | None]:
    """(type, message, field) of the first pydantic error, the field spelt as the client sent it."""
    first = errors[0]
    loc = [part for part in first.get("loc", ()) if part != "body"]
    field = field_path(loc)
    if prefix:
        field = f"{prefix}.{field}" if field else prefix
    if runner and first.get("type") == "extra_forbidden" and loc[:1] == ["options"]:
        problem = runner.option_problem(str(loc[-1]), field or "options")
        if problem:  # say why the server refuses it, not just "extra input"
            return "invalid_option", problem, field
    message = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
    if field:
        leaf = field.rsplit(".", 1)[-1]
        if leaf.isidentifier() and message.startswith(leaf):  # "summary cannot be empty"
            message = field[: -len(leaf)] + message
        else:
            message = f"{field}: {message}"
    more = len(errors) - 1
    if more:
        message += f" (and {more} more problem{'s' if more > 1 else ''})"
    return str(first.get("type", "invalid_input")), message, field


def _stopping_workers(scorer: SummarizationScorer) -> Any:
    """The app's lifespan: the offline judge's worker processes stop with the server (uvicorn
    re-raises SIGTERM once it has shut down, so code after ``uvicorn.run()`` may never run)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            if isinstance(scorer.llm, ProcessPoolJudge):
                scorer.llm.close()

    return lifespan


def create_app(scorer: SummarizationScorer, config: ServeConfig | None = None) -> FastAPI:
    """The service over ``scorer``; every request shares it (its caches, its judge client)."""
    config = config or ServeConfig()
    runner = Runner(scorer, config)
    metrics = Metrics(
        lambda: runner.in_flight,
        lambda: runner.queued,
        preset=scorer.preset,
        judge=scorer.judge.name,
    )
    runner.on_case = metrics.case_done
    request_model, batch_model = server_models(
        runner.request_options, config.max_questions, config.max_batch
    )
    register_secret(config.token)
    about: dict[str, Any] = {
        "title": "summscore",
        "version": __version__,
        "description": (
            "Summarization scores under the ragas, deepeval or Mastra rule, with the judge "
            f"configured on the server. This server: the {scorer.preset} preset."
        ),
        # Swagger UI would send the schema's URL to validator.swagger.io: nothing leaves.
        "swagger_ui_parameters": {"validatorUrl": None},
        "lifespan": _stopping_workers(scorer),
    }
    # Swagger UI's script and style come from the package (fastapi-offline), not a CDN.
    app = (
        FastAPIOffline(redoc_url=None, **about)
        if config.docs
        else FastAPI(docs_url=None, redoc_url=None, **about)
    )
    app.state.runner = runner
    app.state.metrics = metrics

    bearer = HTTPBearer(auto_error=False, description="--token-env on the server")

    async def authorized(
        credentials: HTTPAuthorizationCredentials | None = Depends(bearer),
    ) -> None:
        if config.token is None:
            return
        given = credentials.credentials if credentials is not None else ""
        if not hmac.compare_digest(given.encode(), config.token.encode()):
            raise ApiError(
                401,
                "unauthorized",
                "a valid 'Authorization: Bearer <token>' header is required",
                field="Authorization",
                headers={"WWW-Authenticate": "Bearer"},
            )

    # The security scheme appears in the OpenAPI document only when a token is required.
    guard = [Depends(authorized)] if config.token is not None else []

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.type, str(exc), exc.field, exc.headers)

    @app.exception_handler(DeadlineExceeded)
    async def _deadline(request: Request, exc: DeadlineExceeded) -> JSONResponse:
        metrics.cases.labels("timeout").inc(exc.cases)
        return _error(504, "timeout", str(exc))

    @app.exception_handler(OptionError)
    async def _option_error(request: Request, exc: OptionError) -> JSONResponse:
        return _error(422, "invalid_option", str(exc), exc.field)

    @app.exception_handler(Overloaded)
    async def _overloaded(request: Request, exc: Overloaded) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)}
        return _error(503, "overloaded", str(exc), headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = list(exc.errors())
        if errors and errors[0].get("type") == "json_invalid":
            first = errors[0]
            loc = first.get("loc", ())
            reason = (first.get("ctx") or {}).get("error") or first.get("msg", "")
            position = loc[1] if len(loc) > 1 else None
            return _error(400, "invalid_json", json_error_message(exc.body, position, reason))
        if not errors:
            return _error(422, "invalid_input", "invalid request")
        type_, message, field = _describe(errors, runner=runner)
        if field is None and type_ == "missing":
            return _error(400, "empty_body", "the request needs a JSON body")
        return _error(422, type_, message, field)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> JSONResponse:
        kind = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _error(exc.status_code, kind, str(exc.detail), headers=exc.headers)

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:
        log.error("internal error on %s: %s", request.url.path, redact(repr(exc)))
        return _error(500, "internal", "internal error; see the server log")

    @app.get("/healthz", response_model=HealthResponse, tags=["service"])
    async def healthz() -> dict[str, Any]:
        """Liveness and configuration (no secrets); needs no token, for load balancers."""
        return {
            "status": "ok",
            "preset": scorer.preset,
            "judge": scorer.judge.name,
            "prompt_set": scorer.prompt_set,
            "version": __version__,
            "options": scorer.options,
            "request_options": runner.request_options,
            "max_questions": config.max_questions,
            "max_batch": config.max_batch,
            "max_concurrency": runner.max_concurrency,
            "max_queue": config.max_queue,
            "in_flight": runner.in_flight,
            "queued": runner.queued,
            "request_timeout": config.request_timeout,
        }

    @app.get("/metrics", include_in_schema=False)
    async def prometheus_metrics() -> Response:
        """Prometheus metrics (text exposition format); needs no token, as /healthz."""
        return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

    async def score(case: ScoreRequest) -> JSONResponse:
        """Score one summary. A judge failure is still a 200: ``error`` set, ``score`` null."""
        variant = runner.scorer_for(case.options.given() if case.options else {})
        with runner.admit(1):
            return JSONResponse(await runner.within_deadline(runner.score(variant, case)))

    # The request model of this server: only the options it accepts, within its limits.
    score.__annotations__["case"] = request_model
    app.post(
        "/v1/score",
        response_model=ScoreResponse,
        responses=_ERRORS,
        dependencies=guard,
        tags=["scoring"],
    )(score)

    async def score_batch(batch: BatchRequest) -> JSONResponse:
        """Score many cases concurrently; ``results`` are in input order, each with its error.

        A case with bad input is not scored: its result carries the error (naming
        ``cases[i].field``) and the other cases are scored as usual.
        """
        if len(batch.cases) > config.max_batch:
            raise ApiError(
                422,
                "too_many_cases",
                f"cases: at most {config.max_batch} per request on this server, "
                f"got {len(batch.cases)}; split the batch",
                field="cases",
            )
        with runner.admit(len(batch.cases)):
            jobs = [
                _batch_case(runner, metrics, request_model, index, item)
                for index, item in enumerate(batch.cases)
            ]
            results = await runner.within_deadline(asyncio.gather(*jobs), len(jobs))
        return JSONResponse({"results": results})

    score_batch.__annotations__["batch"] = batch_model
    app.post(
        "/v1/score:batch",
        response_model=BatchResponse,
        responses=_ERRORS,
        dependencies=guard,
        tags=["scoring"],
    )(score_batch)

    add_promptfoo_route(app, runner, guard, _ERRORS)  # promptfoo's webhook assertion
    app.add_middleware(BodyGuard, limit=config.max_body_bytes, paths=_SCORING_PATHS)
    routes = lambda: [getattr(route, "path", "") for route in app.routes]  # noqa: E731
    app.add_middleware(Observe, metrics=metrics, routes=routes)  # outermost: sees every answer
    return app


async def _batch_case(
    runner: Runner, metrics: Metrics, model: type[ScoreRequest], index: int, item: Any
) -> dict[str, Any]:
    prefix = f"cases[{index}]"
    id = item.get("id", index) if isinstance(item, dict) else index
    try:
        case = model.model_validate(item)
        variant = runner.scorer_for(
            case.options.given() if case.options else {}, prefix=f"{prefix}.options"
        )
    except ValidationError as exc:
        metrics.cases.labels("invalid").inc()
        _, message, _ = _describe(list(exc.errors()), prefix, runner)
        return runner.failed(message, id)
    except (OptionError, ValueError) as exc:
        metrics.cases.labels("invalid").inc()
        return runner.failed(str(exc), id)
    if case.id is None and "id" not in item:
        case = case.model_copy(update={"id": index})
    return await runner.score(variant, case)
