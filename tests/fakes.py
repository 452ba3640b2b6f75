"""Fakes at the judge boundary for the core's tests."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from typing import Any

from summscore import SummarizationScorer
from summscore.errors import TransientJudgeError
from summscore.judges.base import JudgeReply, JudgeRequest

FITNESS_SOURCE = (
    "A company is launching a new product, a smartphone app designed to help users track their "
    "fitness goals. The app allows users to set daily exercise targets, log their meals, and track "
    "their water intake. It also provides personalized workout recommendations and sends "
    "motivational reminders throughout the day."
)
FITNESS_SUMMARY = (
    "A company is launching a fitness tracking app that helps users set exercise goals, log meals, "
    "and track water intake, with personalized workout suggestions and motivational reminders."
)


class ScriptedJudge:
    """A Judge answering each task from a script: ``{task: reply or callable(request)}``.

    Records every request. A reply may be an exception instance (raised), a callable of the
    request, or a :class:`Seq` of replies consumed in order.
    """

    reads_prompts = True

    def __init__(
        self, script: dict[str, Any], *, name: str = "scripted", delay: float = 0.0
    ) -> None:
        self.script = script
        self.name = name
        self.delay = delay
        self.requests: list[JudgeRequest] = []
        self._cursor: dict[str, int] = {}

    def calls(self, task: str | None = None) -> list[JudgeRequest]:
        return [r for r in self.requests if task is None or r.task == task]

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        self.requests.append(request)
        if self.delay:
            await asyncio.sleep(self.delay)
        reply = self.script[request.task]
        if isinstance(reply, Seq):
            index = self._cursor.get(request.task, 0)
            self._cursor[request.task] = index + 1
            reply = reply[min(index, len(reply) - 1)]
        if isinstance(reply, Exception):
            raise reply
        if callable(reply):
            reply = reply(request)
        if isinstance(reply, JudgeReply):
            return reply
        return JudgeReply(output=reply)


def scorer(
    script: dict[str, Any], preset: str = "ragas", **options: Any
) -> tuple[SummarizationScorer, ScriptedJudge]:
    """A scorer on a ``ScriptedJudge`` of ``script`` (summscore's own prompts unless told)."""
    judge = ScriptedJudge(script)
    options.setdefault("prompts", "own")
    return SummarizationScorer(llm=judge, preset=preset, **options), judge


class Seq(list):  # type: ignore[type-arg]
    """Replies given in order to successive calls of one task; the last one repeats."""


def ragas_script(n_questions: int = 8, yes: int = 7) -> dict[str, Any]:
    return {
        "keyphrases": {"keyphrases": ["company", "smartphone app", "fitness goals"]},
        "questions": {"questions": [f"Question {i}?" for i in range(n_questions)]},
        "answers": {"answers": ["1"] * yes + ["0"] * (n_questions - yes)},
    }


def answers_for(
    request: JudgeRequest,
    rule: Callable[[int, str], bool],
    vocabulary: tuple[str, str] = ("yes", "no"),
) -> dict[str, Any]:
    questions = request.inputs["questions"]
    return {
        "answers": [vocabulary[0] if rule(i, q) else vocabulary[1] for i, q in enumerate(questions)]
    }


class CountingJudge(ScriptedJudge):
    """A scripted judge that takes a moment per request and records the most at once."""

    def __init__(self, script: dict[str, Any], *, cap: int | None = None) -> None:
        super().__init__(script)
        self.active = 0
        self.peak = 0
        self.cap = cap
        self.rejected = 0

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        if self.cap is not None and self.active >= self.cap:
            self.rejected += 1
            raise TransientJudgeError("RateLimitError (HTTP 429): busy", retry_after=0)
        self.active += 1
        self.peak = max(self.peak, self.active)
        try:
            await asyncio.sleep(0.005)
            return await super().complete(request)
        finally:
            self.active -= 1


class SleepyJudge:
    """A judge whose every answer takes ``inputs["seconds"]`` (default 30): a long text being
    judged, for stopping a pool of workers mid-task."""

    name = "sleepy"
    reads_prompts = False

    def run(self, task: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
        time.sleep(float(inputs.get("seconds", 30)))
        return {}


class HalfSentJudge:
    """A judge whose worker is stopped halfway through sending its answer back: it writes the
    start of a reply to its pool's result pipe (a length header announcing 1 MiB, then a few
    bytes), touches ``inputs["marker"]`` and waits to be killed, as a worker killed mid-write
    (its answers are tens of kilobytes: several writes, any of which a Ctrl-C may interrupt)."""

    name = "half-sent"
    reads_prompts = False

    def run(self, task: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
        import os
        import struct
        import sys
        from pathlib import Path

        frame = sys._getframe()
        while "result_queue" not in frame.f_locals:  # concurrent.futures' _process_worker
            assert frame.f_back is not None
            frame = frame.f_back
        writer = frame.f_locals["result_queue"]._writer
        os.write(writer.fileno(), struct.pack("!i", 1 << 20) + b"\x80" * 64)
        Path(inputs["marker"]).touch()
        time.sleep(600)
        return {}
