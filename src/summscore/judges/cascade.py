"""``CascadeJudge``: the offline judge first, an LLM judge only where the offline judge is unsure.

The judging requests (the verdicts on a summary's claims, the answers to a text's questions) are
first put to ``LexicalJudge``, which gives a confidence per claim or
question. When every item of a request is at least ``threshold`` confident, its answers stand and
no LLM call is made; otherwise the LLM judge answers that request. Extraction (keyphrases,
questions, truths, claims) and the reason always go to the LLM judge, so the statements judged
are the LLM's.

Not the default: it changes the numbers relative to upstream's LLM-only metrics (by as much as
the offline judge disagrees with the LLM on the items it is sure of). Each claim verdict the
offline judge gave says so in its reason ("offline judge: ..."), and ``CascadeJudge.decisions``
records which judge answered each request.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

from .base import Judge, JudgeReply, JudgeRequest
from .lexical import LexicalJudge

__all__ = ["CascadeDecision", "CascadeJudge"]

_JUDGING = frozenset({"answers", "verdicts"})
OFFLINE_MARK = "offline judge"


@dataclass(frozen=True)
class CascadeDecision:
    """Which judge answered one request, and the offline judge's confidence per item."""

    task: str
    judge: str  # "offline" or "llm"
    confidences: tuple[float, ...]
    unsure: int  # items below the threshold (any sends the request to the LLM)


class CascadeJudge:
    """``CascadeJudge(llm_judge, threshold=0.8)``: see the module docstring.

    ``llm_judge`` is any ``Judge`` (an ``OpenAIJudge``, a ``FunctionJudge``
    ...). ``threshold`` is the confidence (0 to 1) the offline judge needs on every item of a
    request for its answers to stand: 0 answers every judging request offline, above 1 asks the
    LLM everything. The last ``keep`` decisions are kept in ``decisions``; the counters cover
    all requests.
    """

    reads_prompts = True

    def __init__(
        self,
        llm_judge: Judge,
        threshold: float = 0.8,
        *,
        offline: LexicalJudge | None = None,
        keep: int = 10_000,
    ) -> None:
        if not threshold >= 0.0:
            raise ValueError(f"threshold must be 0 or more, got {threshold!r}")
        self.llm_judge = llm_judge
        self.threshold = float(threshold)
        self.offline = offline or LexicalJudge()
        self.name = f"cascade({llm_judge.name}, threshold={self.threshold:g})"
        self.decisions: deque[CascadeDecision] = deque(maxlen=keep)
        self.offline_answers = 0  # judging requests answered offline (LLM calls saved)
        self.llm_answers = 0  # judging requests the LLM answered
        self._lock = threading.Lock()

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        if request.task not in _JUDGING:
            return await self.llm_judge.complete(request)
        output, confidences = self.offline.assess(request.task, request.inputs)
        unsure = sum(1 for c in confidences if c < self.threshold)
        sure = unsure == 0
        with self._lock:
            if sure:
                self.offline_answers += 1
            else:
                self.llm_answers += 1
            self.decisions.append(
                CascadeDecision(
                    request.task, "offline" if sure else "llm", tuple(confidences), unsure
                )
            )
        if not sure:
            return await self.llm_judge.complete(request)
        for item in output.get("verdicts", ()):
            # The cascade stands in for the LLM: its verdicts count as upstream's (share of
            # "yes"), not graded, whichever judge answered.
            item.pop("support", None)
            reason = item.get("reason")
            item["reason"] = f"{OFFLINE_MARK}: {reason}" if reason else OFFLINE_MARK
        return JudgeReply(output=output, input_tokens=0, output_tokens=0, cost=0.0)

    @property
    def saved_share(self) -> float:
        """Share of the judging requests answered offline."""
        total = self.offline_answers + self.llm_answers
        return self.offline_answers / total if total else 0.0

    def __repr__(self) -> str:
        return f"CascadeJudge({self.llm_judge!r}, threshold={self.threshold:g})"
