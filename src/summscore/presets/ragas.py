"""The ragas preset: ragas's SummaryScore rule.

keyphrases (source) -> closed questions the source answers "1" (source) -> "1"/"0" answers on the
summary. qa = #"1" / #answers; conciseness = 1 - min(len(summary), len(text)) / (len(text) + 1e-10);
score = qa*(1-coeff) + conciseness*coeff with ``length_penalty``, else qa. Two judge calls per
source, one per summary.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..calls.checks import check_keyphrases, check_questions
from ..formulas import ragas_conciseness_score, ragas_final_score, ragas_qa_score
from ..prompts.replies import KeyphrasesReply, QuestionsReply
from ..results import QuestionAnswer
from .base import Context, Options, Preset, SourceWork

__all__ = ["RagasOptions", "RagasPreset"]


@dataclass(frozen=True)
class RagasOptions(Options):
    """``coeff``: weight of conciseness (0..1); ``length_penalty``: use conciseness at all."""

    coeff: float = 0.5
    length_penalty: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.coeff, bool) or not isinstance(self.coeff, (int, float)):
            raise TypeError(f"coeff must be a number, got {type(self.coeff).__name__}")
        if not (0.0 <= self.coeff <= 1.0):
            raise ValueError(f"Coefficient must be between 0.0 and 1.0, got {self.coeff}")
        if not isinstance(self.length_penalty, bool):
            raise TypeError(
                f"length_penalty must be True or False, got {type(self.length_penalty).__name__}"
            )


@dataclass
class RagasSource(SourceWork):
    keyphrases: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)


class RagasPreset(Preset):
    name = "ragas"
    options_type = RagasOptions
    options: RagasOptions

    async def prepare_source(
        self, ctx: Context, text: str, questions: Sequence[str] | None
    ) -> RagasSource:
        if questions is not None:
            return RagasSource(questions=list(questions))
        prompt = ctx.prompts.keyphrases(text)
        keyphrases = await ctx.ask_checked(
            "keyphrases",
            prompt,
            KeyphrasesReply,
            "keyphrases",
            inputs={"text": text},
            check=lambda items: check_keyphrases(
                items, text, prompt.text.replace(text, "") if ctx.reads_prompts else ""
            ),
        )
        if not keyphrases:
            # ragas logs this and carries on with no keyphrases; so do we, visibly.
            ctx.log.warn("keyphrases: the judge extracted no keyphrases from the source")
        generated = await ctx.ask_checked(
            "questions",
            ctx.prompts.questions(text, keyphrases),
            QuestionsReply,
            "questions",
            inputs={"text": text, "keyphrases": keyphrases},
            check=check_questions,
        )
        return RagasSource(keyphrases=keyphrases, questions=generated)

    async def judge_summary(
        self, ctx: Context, work: RagasSource, text: str, summary: str
    ) -> dict[str, Any]:
        opts = self.options
        fields: dict[str, Any] = {"keyphrases": work.keyphrases}
        if not work.questions:
            return fields | _failed(
                "the judge generated no questions from the source "
                f"({len(work.keyphrases)} keyphrases), so the QA score is undefined"
            )
        answers = await ctx.answers(summary, work.questions, ("1", "0"))
        judged = answers[: len(work.questions)]
        if not judged:
            return fields | _failed(
                f"the judge returned no answers for {len(work.questions)} questions, "
                "so the QA score is undefined"
            )
        qa = ragas_qa_score(judged)
        conciseness = ragas_conciseness_score(text, summary) if opts.length_penalty else None
        score = ragas_final_score(
            qa, conciseness, coeff=opts.coeff, length_penalty=opts.length_penalty
        )
        checks = [
            QuestionAnswer(question=q, answer=a, answered=a.lower() == "1")
            for q, a in zip(work.questions, judged)
        ]
        fields.update(
            score=float(score),
            qa_score=qa,
            conciseness_score=conciseness,
            questions=checks,
            reason=_explain(score, qa, conciseness, checks, text, summary, opts),
        )
        return fields


def _failed(message: str) -> dict[str, Any]:
    return {"score": math.nan, "error": message, "reason": None}


def _explain(
    score: float,
    qa: float,
    conciseness: float | None,
    checks: list[QuestionAnswer],
    text: str,
    summary: str,
    opts: RagasOptions,
) -> str:
    answered = sum(c.answered for c in checks)
    parts = []
    if conciseness is None:
        parts.append(f"The score is {score:.2f}: the QA score (no length penalty).")
    else:
        parts.append(
            f"The score is {score:.2f} = {1 - opts.coeff:g} x QA {qa:.2f} "
            f"+ {opts.coeff:g} x conciseness {conciseness:.2f}."
        )
    parts.append(f"QA: the summary answers {answered} of {len(checks)} questions about the source.")
    missed = [c.question for c in checks if not c.answered]
    if missed:
        parts.append("Missed: " + "; ".join(missed) + ".")
    if conciseness is not None:
        ratio = min(len(summary), len(text)) / max(len(text), 1)
        parts.append(f"Conciseness: the summary is {ratio:.0%} of the source's length.")
    return " ".join(parts)
