"""``LexicalJudge``: an offline, deterministic judge built on classical text processing.

No network, no model download, no GPU. It performs every judge task the presets need
(keyphrases, questions, answers, truths, claims, alignment verdicts, reasons) from the structured
inputs of each request, so it never reads the prompts; results name it (``judge="lexical"``,
``prompt_set="none"``). It is an approximation of an LLM judge, good for a first look, for CI,
and for tests; see docs/offline-judge.md for what it does and where it falls short.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import JudgeError
from ..base import JudgeReply, JudgeRequest
from ._tasks import (
    answer_questions,
    assess_claims,
    assess_questions,
    explain,
    extract_claims,
    extract_keyphrases,
    extract_truths,
    keyphrase_questions,
    salient_questions,
    verdicts,
)

__all__ = ["LexicalJudge"]


class LexicalJudge:
    """Deterministic offline judge. ``LexicalJudge().run(task, inputs)`` is the synchronous core."""

    name = "lexical"
    reads_prompts = False
    # Each verdict carries a graded ``support`` (0 to 1) that the deepeval rule's alignment
    # averages (see summscore.result.ClaimVerdict); LLM judges have no such attribute.
    grades_claims = True
    # Answers in the event loop's own thread without awaiting anything: requests in flight at
    # once overlap no waiting, they only interleave cases, so that a case's source is analysed
    # again after other cases pushed it out of the memos. The scorer's default request limit
    # for such a judge is 1 (depth first); a max_concurrency the user sets is kept.
    in_process = True

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        return JudgeReply(output=self.run(request.task, request.inputs))

    def run(self, task: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
        """Perform ``task`` on ``inputs`` (see :class:`summscore.judges.JudgeRequest`)."""
        if task == "keyphrases":
            return {"keyphrases": extract_keyphrases(inputs["text"])}
        if task == "questions":
            if "keyphrases" in inputs:
                return {"questions": keyphrase_questions(inputs["text"], inputs["keyphrases"])}
            return {"questions": salient_questions(inputs["text"], int(inputs.get("n", 5)))}
        if task == "answers":
            yes, no = tuple(inputs.get("vocabulary", ("yes", "no")))[:2]
            found = answer_questions(inputs["text"], inputs["questions"])
            return {"answers": [yes if ok else no for ok in found]}
        if task == "truths":
            return {"truths": extract_truths(inputs["text"], inputs.get("limit"))}
        if task == "claims":
            return {"claims": extract_claims(inputs["text"])}
        if task == "verdicts":
            vocabulary = tuple(inputs.get("vocabulary", ("yes", "no", "borderline")))
            return {"verdicts": verdicts(inputs["claims"], inputs["evidence"], vocabulary)}
        if task == "reason":
            return {"reason": explain(inputs)}
        raise JudgeError(f"LexicalJudge cannot perform the task {task!r}")

    def assess(self, task: str, inputs: Mapping[str, Any]) -> tuple[dict[str, Any], list[float]]:
        """Like :meth:`run` for the judging tasks ("answers", "verdicts"), with a confidence
        (0 to 1) per answer or verdict: what a cascade decides by (see
        :class:`summscore.judges.cascade.CascadeJudge`)."""
        if task == "answers":
            yes, no = tuple(inputs.get("vocabulary", ("yes", "no")))[:2]
            found = assess_questions(inputs["text"], inputs["questions"])
            return {"answers": [yes if ok else no for ok, _ in found]}, [c for _, c in found]
        if task == "verdicts":
            vocabulary = tuple(inputs.get("vocabulary", ("yes", "no", "borderline")))
            judged = assess_claims(inputs["claims"], inputs["evidence"], vocabulary)
            return {"verdicts": [item for item, _ in judged]}, [c for _, c in judged]
        raise JudgeError(f"LexicalJudge gives no confidence for the task {task!r}")

    def __repr__(self) -> str:
        return "LexicalJudge()"
