"""``POST /v1/promptfoo``: promptfoo's assertion answered by the server's scorer.

    assert:
      - type: webhook
        value: http://127.0.0.1:8000/v1/promptfoo?source_var=article&threshold=0.7

promptfoo's ``webhook`` assertion (and summscore's JavaScript assertion,
``summscore/adapters/promptfoo_webhook.cjs``) posts ``{"output": ..., "context": {"prompt": ...,
"vars": {...}}}``; the answer is the grading result the Python assertion gives for the same case:
``pass`` / ``score`` / ``reason`` and ``metadata`` (the components and evidence; promptfoo's
``type: webhook`` keeps only the first three, the JavaScript assertion all of them). promptfoo
ignores an assertion's ``threshold`` for webhooks, so the pass mark is the ``threshold`` query
parameter, else the preset's own, else any score above 0. A case that cannot be scored (no source
variable, an empty output, a judge failure) is a failed assertion whose reason is worded as the
Python assertion words it; the request still goes through the server's queue, limits, deadline
and token like ``/v1/score``.

promptfoo retries a webhook that times out (5 s by default, 4 retries) while the server is still
judging the first request: a request for a case already being judged waits for that judgement
instead of starting another (``OnceEach``), so a retry costs no judge call; a case asked
again after it finished is answered from the server's reply cache when it has one (``--cache``).
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from ..adapters.promptfoo import case_texts, grading_result
from ..results import SummaryResult
from .errors import ApiError, JSONAnswer
from .models import ScoreRequest
from .runner import Runner

__all__ = ["OnceEach", "PromptfooGrade", "PromptfooRequest", "add_promptfoo_route"]


class PromptfooRequest(BaseModel):
    """What promptfoo's webhook assertion posts."""

    model_config = ConfigDict(extra="allow")

    output: Any = Field(description="the provider's output: the summary")
    context: dict[str, Any] = Field(
        default_factory=dict, description="promptfoo's context: prompt and vars"
    )


class PromptfooGrade(BaseModel):
    """promptfoo's grading result."""

    model_config = ConfigDict(populate_by_name=True)

    pass_: bool = Field(alias="pass")
    score: float
    reason: str
    metadata: dict[str, Any] | None = None


class OnceEach:
    """Identical work in flight done once: every caller of ``run`` with the same key while
    the first is running waits for that run's answer. A caller that leaves (its deadline, its
    client gone) leaves the run to the others; the run is cancelled when the last one leaves,
    so its judge slot frees as for a single request."""

    def __init__(self) -> None:
        self._runs: dict[Any, tuple[asyncio.Task[Any], list[int]]] = {}

    @property
    def running(self) -> int:
        return len(self._runs)

    async def run(self, key: Any, work: Callable[[], Awaitable[Any]]) -> Any:
        entry = self._runs.get(key)
        if entry is None:
            task: asyncio.Task[Any] = asyncio.ensure_future(work())
            entry = (task, [0])
            self._runs[key] = entry
            task.add_done_callback(lambda _: self._runs.pop(key, None))
        task, waiting = entry
        waiting[0] += 1
        try:
            return await asyncio.shield(task)
        finally:
            waiting[0] -= 1
            if waiting[0] == 0 and not task.done():
                task.cancel()


def add_promptfoo_route(
    app: FastAPI,
    runner: Runner,
    guard: list[Any],
    responses: dict[int | str, dict[str, Any]],
) -> None:
    """Register ``POST /v1/promptfoo`` on ``app``, scoring through ``runner``; ``guard`` and
    ``responses`` are the service's token check and documented errors."""
    once = OnceEach()

    async def judge(case: ScoreRequest) -> dict[str, Any]:
        with runner.admit(1), runner.lane([case]):
            return await runner.score(runner.scorer, case)

    @app.post(
        "/v1/promptfoo",
        response_model=PromptfooGrade,
        responses=responses,
        dependencies=guard,
        tags=["promptfoo"],
    )
    async def promptfoo(
        request: Request,
        body: PromptfooRequest,
        source_var_name: str = Query(
            "source",
            alias="source_var",
            min_length=1,
            description="the test variable holding the source",
        ),
        threshold: float | None = Query(None, description="the pass mark (default: the preset's)"),
    ) -> JSONAnswer:
        """Grade promptfoo's output against the test's source variable."""
        _check_query(request)
        try:  # the Python assertion's checks and words (adapters/promptfoo.py)
            source, summary = case_texts(body.context, body.output, source_var_name)
            case = ScoreRequest.model_validate({"source": source, "summary": summary})
        except (TypeError, ValueError) as exc:  # a ValidationError is a ValueError
            return JSONAnswer(grading_result(runner.scorer.failed_result(exc), threshold))
        key = json.dumps([case.source, case.summary])  # promptfoo's retries: the same case
        data = await runner.within_deadline(once.run(key, lambda: judge(case)))
        score = data["score"]
        result = SummaryResult.model_validate(
            {**data, "score": math.nan if score is None else score}
        )
        return JSONAnswer(grading_result(result, threshold))


_QUERY = ("source_var", "threshold")


def _check_query(request: Request) -> None:
    """A query parameter this route does not take (a misspelt ``source_var`` in the webhook's
    URL) is refused, naming it, rather than ignored: an ignored one would score against the
    wrong variable without a word."""
    unknown = [name for name in request.query_params if name not in _QUERY]
    if unknown:
        raise ApiError(
            422,
            "invalid_option",
            f"unknown query parameter {unknown[0]!r}; this endpoint takes {' and '.join(_QUERY)}",
            field=f"query.{unknown[0]}",
        )
