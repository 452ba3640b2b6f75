"""The mastra preset: Mastra's (legacy evals) SummarizationMetric rule.

Alignment: claims extracted from the summary, each judged yes/no/unsure against the source.
Coverage: ``n`` questions generated from the source (given questions are used as they are), each
answered yes/no from the summary. Each component is round2(#yes / #verdicts * scale) with
JavaScript rounding, 0 when there are no verdicts; score = min(alignment, coverage).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..formulas import mastra_component_score
from ..prompts.replies import (
    ReasonReply,
)
from ..result import AssessmentAnswer, ClaimVerdict
from .base import Context, Options, Preset, SourceWork, check_number

__all__ = ["MastraOptions", "MastraPreset"]

VERDICTS = ("yes", "no", "unsure")


@dataclass(frozen=True)
class MastraOptions(Options):
    scale: float = 1
    n: int = 5
    include_reason: bool = True

    def __post_init__(self) -> None:
        check_number("scale", self.scale)
        if self.scale <= 0:
            raise ValueError(f"scale must be > 0, got {self.scale!r}")
        check_number("n", self.n, low=1, integer=True)
        if not isinstance(self.include_reason, bool):
            raise TypeError("include_reason must be True or False")


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
        asked = await ctx.yes_no_questions(text, self.options.n)
        return MastraSource(questions=asked)

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
        coverage = mastra_component_score(answers, scale=opts.scale)
        score = min(alignment, coverage)
        claim_checks = [
            ClaimVerdict(
                claim=c,
                verdict=v.verdict.strip().lower(),
                reason=v.reason,
                supported=_yes(v.verdict),
            )
            for c, v in zip(claims, verdicts)
        ]
        assessment = [
            AssessmentAnswer(question=q, summary_answer=a, covered=_yes(a))
            for q, a in zip(work.questions, answers)
        ]
        missed = [a.question for a in assessment if not a.covered]
        unsupported = [(c.claim, c.verdict, c.reason) for c in claim_checks if not c.supported]
        if opts.include_reason:
            reply = await ctx.ask_one(
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
                    "unsupported": unsupported,
                    "questions": missed,
                },
            )
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
    parts = [f"The score is {score:g} = min(alignment {alignment:g}, coverage {coverage:g})."]
    for c in unsupported[:5]:
        parts.append(f"[{c.verdict}] {c.claim}" + (f" ({c.reason})" if c.reason else "") + ".")
    if missed:
        parts.append("Not covered: " + "; ".join(missed) + ".")
    return " ".join(parts)
