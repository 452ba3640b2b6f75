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
from ._reason import explain
from ._tasks import (
    answer_questions,
    assess_claims,
    assess_questions,
    extract_claims,
    extract_keyphrases,
    extract_truths,
    keyphrase_questions,
    salient_questions,
    verdicts,
)

__all__ = ["MAX_TEXT_CHARS", "LexicalJudge"]

# The most characters the judge reads in one text (a source, a summary, the evidence of one
# request). Its work grows linearly with a text's length (benchmarks/lexical_adversarial.py
# prints the worst seconds per MB); past the cap a row fails with an error naming the limit and
# the text's size, as an LLM judge's context window does, instead of running for minutes.
MAX_TEXT_CHARS = 1_000_000
# The inputs of a request that hold whole texts (claims and questions are parts of them), and how
# many times the cap each may be: the deepeval rule's evidence is the source's clauses joined
# again, a little longer than the source.
_TEXTS = (("text", 1), ("evidence", 2))


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

    def __init__(self, *, max_text_chars: int = MAX_TEXT_CHARS) -> None:
        if not max_text_chars > 0:
            raise ValueError(f"max_text_chars must be positive, got {max_text_chars!r}")
        self.max_text_chars = max_text_chars

    def check_fits(self, text: str, field: str = "source") -> None:
        """Raise ValueError naming ``field`` when ``text`` is longer than the judge reads (see
        ``MAX_TEXT_CHARS``); the scorer calls it on a case's source and summary before judging."""
        if len(text) > self.max_text_chars:
            raise ValueError(
                f"{field} is {len(text):,} characters, more than the offline judge reads in one "
                f"text ({self.max_text_chars:,}); shorten it, split it, or use an LLM judge"
            )

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        return JudgeReply(output=self.run(request.task, request.inputs))

    def run(self, task: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
        """Perform ``task`` on ``inputs`` (see ``summscore.judges.JudgeRequest``)."""
        self._check_inputs(inputs)
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
        """Like ``run`` for the judging tasks ("answers", "verdicts"), with a confidence
        (0 to 1) per answer or verdict: what a cascade decides by (see
        ``summscore.judges.cascade.CascadeJudge``)."""
        self._check_inputs(inputs)
        if task == "answers":
            yes, no = tuple(inputs.get("vocabulary", ("yes", "no")))[:2]
            found = assess_questions(inputs["text"], inputs["questions"])
            return {"answers": [yes if ok else no for ok, _ in found]}, [c for _, c in found]
        if task == "verdicts":
            vocabulary = tuple(inputs.get("vocabulary", ("yes", "no", "borderline")))
            judged = assess_claims(inputs["claims"], inputs["evidence"], vocabulary)
            return {"verdicts": [item for item, _ in judged]}, [c for _, c in judged]
        raise JudgeError(f"LexicalJudge gives no confidence for the task {task!r}")

    def _check_inputs(self, inputs: Mapping[str, Any]) -> None:
        """Every text of a request within the cap, whoever calls (the scorer checked the case's
        texts already; a request's evidence may join the source's sentences)."""
        for key, times in _TEXTS:
            text = inputs.get(key)
            if isinstance(text, str) and len(text) > self.max_text_chars * times:
                raise ValueError(
                    f"the {key} of a judge request is {len(text):,} characters, more than the "
                    f"offline judge reads in one text ({self.max_text_chars * times:,}); shorten "
                    "the source or the summary, split it, or use an LLM judge"
                )

    def __repr__(self) -> str:
        if self.max_text_chars == MAX_TEXT_CHARS:
            return "LexicalJudge()"
        return f"LexicalJudge(max_text_chars={self.max_text_chars})"
