"""The mastra preset: Mastra's summarization rule, 1.x (default) or the legacy 0.x metric.

Mastra 1.x (``createSummarizationScorer`` in @mastra/evals 1.x): the summary's claims are judged
against the source (supported or not); up to ``max_questions`` (default 10)
questions drawn from the source alone are answered from the summary alone. alignment = supported
/ claims, coverage = answered / questions; score = round2(min(alignment, coverage) * scale), 0 when
the summary yields no claims or the source no questions.

Mastra 0.x (``SummarizationMetric`` in @mastra/evals 0.x, ``version="0.x"``): the same judging with
5 questions by default and claims judged yes/no/unsure; each component is round2(share * scale)
and the score is their min. Rounding is monotone, so round2(min(a, c) * s) = min(round2(a * s),
round2(c * s)): both versions report round2(share * scale) components whose min is the score.

Rounding is JavaScript's (``Math.round((x + Number.EPSILON) * 100) / 100``). Given assessment
questions are used as they are.

Under a judge that grades each claim (``grades_claims``: the offline ``LexicalJudge``) alignment is
the mean claim support instead of the share of "yes", as under the deepeval rule (see
``ClaimVerdict.support``), read to hundredths and then scaled (round2(round2(mean) * scale)), so
that a scale multiplies the scale-1 figure exactly; an LLM judge's numbers are Mastra's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..formulas import mastra_component_score, mastra_graded_alignment
from ..prompts.replies import ReasonReply
from ..results import AssessmentAnswer, ClaimVerdict
from .base import Context, Options, Preset, SourceWork, check_number

__all__ = ["MASTRA_VERSIONS", "MastraOptions", "MastraPreset"]

VERDICTS = ("yes", "no", "unsure")
MASTRA_VERSIONS = ("1.x", "0.x")
DEFAULT_QUESTIONS = {"1.x": 10, "0.x": 5}


@dataclass(frozen=True)
class MastraOptions(Options):
    """``scale``; ``max_questions``: questions drawn from the source (Mastra 1.x's
    ``maxQuestions``; None is 10 for 1.x and 5 for 0.x); ``version``: "1.x" or "0.x";
    ``include_reason``: ask the judge for the reason (else one is written from the evidence)."""

    scale: float = 1
    max_questions: int | None = None
    version: str = "1.x"
    include_reason: bool = True

    def __post_init__(self) -> None:
        check_number("scale", self.scale)
        if self.scale <= 0:
            raise ValueError(f"scale must be > 0, got {self.scale!r}")
        if self.version not in MASTRA_VERSIONS:
            raise ValueError(f"version must be '1.x' or '0.x', got {self.version!r}")
        # None stays None (not 10 or 5), so that a change of version alone changes the count.
        if self.max_questions is not None:
            check_number("max_questions", self.max_questions, low=1, integer=True)
        if not isinstance(self.include_reason, bool):
            raise TypeError("include_reason must be True or False")

    @property
    def questions(self) -> int:
        """The question count in force: ``max_questions``, else the version's default."""
        if self.max_questions is None:
            return DEFAULT_QUESTIONS[self.version]
        return self.max_questions


@dataclass
class MastraSource(SourceWork):
    questions: list[str] = field(default_factory=list)


def _yes(value: str) -> bool:
    return value.strip().lower() == "yes"


class MastraPreset(Preset):
    name = "mastra"
    options_type = MastraOptions
    options: MastraOptions

    async def prepare_source(
        self, ctx: Context, text: str, questions: Sequence[str] | None
    ) -> MastraSource:
        if questions is not None:
            return MastraSource(questions=list(questions))
        n = self.options.questions
        # Mastra 1.x asks for "at most" maxQuestions and uses the first maxQuestions it gets.
        asked = await ctx.yes_no_questions(text, n)
        return MastraSource(questions=asked[:n])

    async def judge_summary(
        self, ctx: Context, work: MastraSource, text: str, summary: str
    ) -> dict[str, Any]:
        opts = self.options
        claimed = ctx.claim_verdicts(
            summary, text, VERDICTS, prompt_for=lambda claims: ctx.prompts.verdicts(claims, text)
        )
        coverage_answers = ctx.answers(summary, work.questions, ("yes", "no"))
        (claims, verdicts), answers = await asyncio.gather(claimed, coverage_answers)
        alignment = mastra_component_score([v.verdict for v in verdicts], scale=opts.scale)
        # The offline judge grades each claim: alignment is then the mean support, so summaries
        # rank by how much of them the source carries. Only a judge that says so is read this
        # way: an LLM's numbers stay Mastra's.
        grades = ctx.grades_claims
        supports = [v.support for v in verdicts] if grades else []
        graded = [s for s in supports if s is not None]
        if graded and len(graded) == len(verdicts):
            alignment = mastra_graded_alignment(graded, scale=opts.scale)
        coverage = mastra_component_score(answers, scale=opts.scale)
        score = min(alignment, coverage)
        claim_checks = [
            ClaimVerdict(
                claim=c,
                verdict=v.verdict.strip().lower(),
                reason=v.reason,
                supported=_yes(v.verdict),
                support=v.support if grades else None,
            )
            for c, v in zip(claims, verdicts)
        ]
        assessment = [
            AssessmentAnswer(question=q, summary_answer=a, covered=_yes(a))
            for q, a in zip(work.questions, answers)
        ]
        missed = [a.question for a in assessment if not a.covered]
        unsupported = [(c.claim, c.verdict, c.reason) for c in claim_checks if not c.supported]
        reason: str | None
        if opts.include_reason:
            reply: ReasonReply | None = await ctx.ask_one(
                "reason",
                ctx.prompts.reason(
                    score=score,
                    alignment=alignment,
                    coverage=coverage,
                    scale=opts.scale,
                    unsupported=unsupported,
                    missed=missed,
                ),
                ReasonReply,
                inputs={
                    "preset": self.name,
                    "score": score,
                    "alignment": alignment,
                    "coverage": coverage,
                    "scale": opts.scale,
                    "unsupported": unsupported,
                    "questions": missed,
                },
            )
            # A reason call that failed after its retries keeps the score (reason None).
            reason = reply.reason if reply is not None else None
        else:
            reason = _explain(score, alignment, coverage, claim_checks, missed)
        return {
            "score": float(score),
            "alignment_score": float(alignment),
            "coverage_score": float(coverage),
            "claims": claim_checks,
            "assessment": assessment,
            "reason": reason,
        }


def _explain(
    score: float, alignment: float, coverage: float, claims: list[ClaimVerdict], missed: list[str]
) -> str:
    unsupported = [c for c in claims if not c.supported]
    if not claims:
        return f"The score is {score:g} because the summary makes no claims to judge."
    parts = [f"The score is {score:g} = min(alignment {alignment:g}, coverage {coverage:g})."]
    for c in unsupported[:5]:
        parts.append(f"[{c.verdict}] {c.claim}" + (f" ({c.reason})" if c.reason else "") + ".")
    if missed:
        parts.append("Not covered: " + "; ".join(missed) + ".")
    return " ".join(parts)
