"""The ASGI app: ``POST /v1/score``, ``POST /v1/score:batch``, ``GET /healthz``, ``GET /metrics``,
``/openapi.json``, ``/docs`` (Swagger UI served from the package: it needs no network) and
``POST /v1/promptfoo`` (promptfoo's webhook assertion, ``promptfoo``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi_offline import FastAPIOffline
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from .._version import __version__
from ..masking.secrets import redact, register_secret
from ..scorer import SummarizationScorer
from .describe import describe_errors
from .errors import ApiError, JSONAnswer, json_error_message
from .errors import error_response as _error
from .guard import PARSED_BODY, RequestGuard, token_matches
from .models import (
    BatchRequest,
    BatchResponse,
    ErrorBody,
    HealthResponse,
    ScoreRequest,
    ScoreResponse,
    given_options,
    server_models,
)
from .observe import CONTENT_TYPE_LATEST, Metrics, Observe, bounded
from .promptfoo import add_promptfoo_route
from .runner import DeadlineExceeded, OptionError, Overloaded, Runner, ServeConfig, ShuttingDown

__all__ = ["create_app"]

log = logging.getLogger("summscore.serve")

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "an empty body, or one that is not valid JSON"},
    401: {"model": ErrorBody, "description": "missing or wrong bearer token"},
    408: {"model": ErrorBody, "description": "the body did not arrive within the server's time"},
    413: {"model": ErrorBody, "description": "the body is larger than the server allows"},
    415: {"model": ErrorBody, "description": "the body was not sent as application/json"},
    422: {"model": ErrorBody, "description": "bad input; error.field names the field"},
    503: {
        "model": ErrorBody,
        "description": "the judge queue is full, or the server is stopping; see Retry-After",
    },
    504: {"model": ErrorBody, "description": "the request ran past the server's deadline"},
}
_SCORING_PATHS = ("/v1/score", "/v1/score:batch", "/v1/promptfoo")
_MISSING = object()


class _ParsedBodyRoute(APIRoute):
    """A route that takes the body ``guard.RequestGuard`` has already parsed (strictly)
    instead of parsing it again (Starlette's ``Request.json()`` returns what it holds)."""

    def get_route_handler(self) -> Callable[[Request], Any]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            parsed = request.scope.get(PARSED_BODY, _MISSING)
            if parsed is not _MISSING:
                request._json = parsed
            return await handler(request)

        return route


def _stopping_workers(scorer: SummarizationScorer) -> Any:
    """The app's lifespan: the offline judge's worker processes stop with the server (uvicorn
    re-raises SIGTERM once it has shut down, so code after ``uvicorn.run()`` may never run).
    They are killed, not asked to finish: by then no request is left for them, and a worker
    holding much memory took seconds to tear it down."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            stop = getattr(scorer.llm, "terminate", None)
            if callable(stop):
                stop()

    return lifespan


def create_app(scorer: SummarizationScorer, config: ServeConfig | None = None) -> FastAPI:
    """The service over ``scorer``; every request shares it (its caches, its judge client)."""
    config = config or ServeConfig()
    runner = Runner(scorer, config)
    metrics = Metrics(
        lambda: runner.in_flight,
        lambda: runner.queued,
        preset=scorer.preset,
        judge=runner.names.public,
    )
    runner.on_case = metrics.case_done
    runner.on_reused = metrics.case_reused
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
        "default_response_class": JSONAnswer,
    }
    # Swagger UI's script and style come from the package (fastapi-offline), not a CDN.
    app = (
        FastAPIOffline(redoc_url=None, **about)
        if config.docs
        else FastAPI(docs_url=None, redoc_url=None, **about)
    )
    app.router.route_class = _ParsedBodyRoute
    app.state.runner = runner
    app.state.metrics = metrics

    bearer = HTTPBearer(auto_error=False, description="--token-env on the server")

    async def authorized(
        request: Request, credentials: HTTPAuthorizationCredentials | None = Depends(bearer)
    ) -> None:
        if config.token is not None and not token_matches(request.scope["headers"], config.token):
            raise ApiError(
                401,
                "unauthorized",
                "a valid 'Authorization: Bearer <token>' header is required",
                field="Authorization",
                headers={"WWW-Authenticate": "Bearer"},
            )

    # The security scheme appears in the OpenAPI document only when a token is required.
    guard = [Depends(authorized)] if config.token is not None else []
    _add_handlers(app, runner, metrics)

    @app.get("/healthz", response_model=HealthResponse, tags=["service"])
    async def healthz() -> dict[str, Any]:
        """Liveness and configuration (no secrets, no addresses); needs no token, for probes."""
        return {
            "status": "ok",
            "preset": scorer.preset,
            "judge": runner.names.public,
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

    @app.get(
        "/metrics",
        include_in_schema=False,
        dependencies=[] if config.public_metrics else guard,
    )
    async def prometheus_metrics() -> Response:
        """Prometheus metrics (text exposition format); needs the token when the server has one,
        unless it was started with --public-metrics."""
        return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

    async def score(case: ScoreRequest) -> JSONAnswer:
        """Score one summary. A judge failure is still a 200: ``error`` set, ``score`` null."""
        variant = runner.scorer_for(given_options(case.options))
        with runner.admit(1), runner.lane([case]):
            return JSONAnswer(await runner.within_deadline(runner.score(variant, case)))

    # The request model of this server: only the options it accepts, within its limits.
    score.__annotations__["case"] = request_model
    app.post(
        "/v1/score",
        response_model=ScoreResponse,
        responses=_ERRORS,
        dependencies=guard,
        tags=["scoring"],
    )(score)

    async def score_batch(batch: BatchRequest) -> JSONAnswer:
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
        # One lane for the whole batch: its cases' texts together decide (``Runner.lane``).
        with runner.admit(len(batch.cases)), runner.lane(batch.cases):
            jobs = [
                _batch_case(runner, metrics, request_model, index, item)
                for index, item in enumerate(batch.cases)
            ]
            results = await runner.within_deadline(asyncio.gather(*jobs), len(jobs))
        return JSONAnswer({"results": results})

    score_batch.__annotations__["batch"] = batch_model
    app.post(
        "/v1/score:batch",
        response_model=BatchResponse,
        responses=_ERRORS,
        dependencies=guard,
        tags=["scoring"],
    )(score_batch)

    add_promptfoo_route(app, runner, guard, _ERRORS)  # promptfoo's webhook assertion
    app.add_middleware(
        RequestGuard,
        limit=config.max_body_bytes,
        paths=_SCORING_PATHS,
        token=config.token,
        body_timeout=config.body_timeout,
        memory=config.max_body_memory,
        stopping=lambda: runner.stopping,
        on_body_timeout=lambda: metrics.slow_clients.labels("body").inc(),
    )
    routes = lambda: [getattr(route, "path", "") for route in app.routes]  # noqa: E731
    app.add_middleware(Observe, metrics=metrics, routes=routes)  # outermost: sees every answer
    return app


def _add_handlers(app: FastAPI, runner: Runner, metrics: Metrics) -> None:
    """Every error in the service's one shape (see ``errors``)."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONAnswer:
        return _error(exc.status, exc.type, str(exc), exc.field, exc.headers)

    @app.exception_handler(DeadlineExceeded)
    async def _deadline(request: Request, exc: DeadlineExceeded) -> JSONAnswer:
        metrics.cases.labels("timeout").inc(exc.cases)
        return _error(504, "timeout", str(exc))

    @app.exception_handler(ShuttingDown)
    async def _shutting_down(request: Request, exc: ShuttingDown) -> JSONAnswer:
        headers = {"Retry-After": "1", "Connection": "close"}
        return _error(503, "shutting_down", str(exc), headers=headers)

    @app.exception_handler(OptionError)
    async def _option_error(request: Request, exc: OptionError) -> JSONAnswer:
        return _error(422, "invalid_option", str(exc), exc.field)

    @app.exception_handler(Overloaded)
    async def _overloaded(request: Request, exc: Overloaded) -> JSONAnswer:
        headers = {"Retry-After": str(exc.retry_after)}
        return _error(503, "overloaded", str(exc), headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONAnswer:
        errors = list(exc.errors())
        if errors and errors[0].get("type") == "json_invalid":
            first = errors[0]
            loc = first.get("loc", ())
            reason = (first.get("ctx") or {}).get("error") or first.get("msg", "")
            position = loc[1] if len(loc) > 1 else None
            return _error(400, "invalid_json", json_error_message(exc.body, position, reason))
        if not errors:
            return _error(422, "invalid_input", "invalid request")
        type_, message, field = describe_errors(errors, runner=runner)
        if field is None and type_ == "missing":
            return _error(400, "empty_body", "the request needs a JSON body")
        return _error(422, type_, message, field)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> JSONAnswer:
        kind = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _error(exc.status_code, kind, str(exc.detail), headers=exc.headers)

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONAnswer:
        # The exception's type and a bounded, masked message: never its repr, which may hold a
        # whole request or response body (UnicodeEncodeError's does).
        text = bounded(redact(f"{type(exc).__name__}: {exc}"), 500)
        log.error("internal error on %s: %s", request.url.path, text)
        return _error(500, "internal", "internal error; see the server log")


async def _batch_case(
    runner: Runner, metrics: Metrics, model: type[ScoreRequest], index: int, item: Any
) -> dict[str, Any]:
    prefix = f"cases[{index}]"
    id = item.get("id", index) if isinstance(item, dict) else index
    try:
        case = model.model_validate(item)
        variant = runner.scorer_for(given_options(case.options), prefix=f"{prefix}.options")
    except ValidationError as exc:
        metrics.cases.labels("invalid").inc()
        _, message, _ = describe_errors(list(exc.errors()), prefix, runner)
        return runner.failed(message, id)
    except (OptionError, ValueError) as exc:
        metrics.cases.labels("invalid").inc()
        return runner.failed(str(exc), id)
    if case.id is None and "id" not in item:
        case = case.model_copy(update={"id": index})
    return await runner.score(variant, case)
