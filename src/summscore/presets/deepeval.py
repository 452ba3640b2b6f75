"""The deepeval preset: deepeval's SummarizationMetric rule.

Source side: truths (FaithfulnessMetric's truth extraction, with ``truths_extraction_limit``),
assessment questions (given, or ``n`` generated), and the source's yes/no answers to them.
Summary side: claims, the summary's answers, alignment verdicts of the claims against the truths,
then the reason. alignment = #yes / #verdicts (0 when none); coverage = #(source yes and summary
yes) / #(source yes) (0 when none); score = min(alignment, coverage); ``strict_mode`` sets the
threshold to 1 and zeroes a component below it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..formulas import deepeval_alignment_score, deepeval_coverage_score, deepeval_normalize_verdict
from ..prompts.replies import (
    ReasonReply,
    TruthsReply,
)
from ..result import AssessmentAnswer, ClaimVerdict
from .base import Context, Options, Preset, SourceWork, check_number

__all__ = ["DeepEvalOptions", "DeepEvalPreset"]

VERDICTS = ("yes", "no", "borderline")
YES_NO = ("yes", "no")


@dataclass(frozen=True)
class DeepEvalOptions(Options):
    threshold: float = 0.5
    strict_mode: bool = False
    truths_extraction_limit: int | None = None
    include_reason: bool = True
    n: int = 5

    def __post_init__(self) -> None:
        check_number("threshold", self.threshold, low=0, high=1)
        check_number("n", self.n, low=1, integer=True)
        for name in ("strict_mode", "include_reason"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be True or False")
        limit = self.truths_extraction_limit
        if limit is not None:
            check_number("truths_extraction_limit", limit, integer=True)
            # deepeval clamps negative limits to 0.
            object.__setattr__(self, "truths_extraction_limit", max(limit, 0))

    @property
    def effective_threshold(self) -> float:
        return 1 if self.strict_mode else self.threshold


@dataclass
class DeepEvalSource(SourceWork):
    truths: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    source_answers: list[str] = field(default_factory=list)


class DeepEvalPreset(Preset):
    name = "deepeval"
    options_type = DeepEvalOptions
    options: DeepEvalOptions

    @property
    def threshold(self) -> float:
        return self.options.effective_threshold

    async def prepare_source(
        self, ctx: Context, text: str, questions: Sequence[str] | None
    ) -> DeepEvalSource:
        opts = self.options

        async def truths() -> list[str]:
            return await ctx.ask(
                "truths",
                ctx.prompts.truths(text, opts.truths_extraction_limit),
                TruthsReply,
                "truths",
                inputs={"text": text, "limit": opts.truths_extraction_limit},
            )

        async def questions_and_answers() -> tuple[list[str], list[str]]:
            asked = (
                list(questions)
                if questions is not None
                else await ctx.yes_no_questions(text, opts.n)
            )
            if not asked:
                ctx.log.warn(
                    "questions: the judge generated no assessment questions; coverage is 0"
                )
            return asked, await ctx.answers(text, asked, YES_NO)

        found_truths, (asked, answers) = await asyncio.gather(truths(), questions_and_answers())
        return DeepEvalSource(truths=found_truths, questions=asked, source_answers=answers)

    async def judge_summary(
        self, ctx: Context, work: DeepEvalSource, text: str, summary: str
    ) -> dict[str, Any]:
        opts = self.options

        evidence = "\n\n".join(work.truths)
        claimed = ctx.claim_verdicts(
            summary,
            evidence,
            VERDICTS,
            prompt_for=lambda claims: ctx.prompts.verdicts(claims, work.truths),
        )
        summary_answers = ctx.answers(summary, work.questions, YES_NO)
        (claims, verdicts), answers = await asyncio.gather(claimed, summary_answers)
        normalized = [deepeval_normalize_verdict(v.verdict) for v in verdicts]
        threshold = opts.effective_threshold
        alignment = deepeval_alignment_score(
            normalized, strict_mode=opts.strict_mode, threshold=threshold
        )
        judged = min(len(work.questions), len(work.source_answers), len(answers))
        if work.questions and judged < len(work.questions):
            ctx.log.warn(
                f"coverage: {judged} of {len(work.questions)} assessment questions were answered "
                "on both the source and the summary; coverage is over those"
            )
        pairs = list(zip(work.source_answers[:judged], answers[:judged]))
        coverage = deepeval_coverage_score(pairs, strict_mode=opts.strict_mode, threshold=threshold)
        score = min(alignment, coverage)

        claim_checks = [
            ClaimVerdict(claim=c, verdict=n or v.verdict, reason=v.reason, supported=n == "yes")
            for c, v, n in zip(claims, verdicts, normalized)
        ]
        assessment = [
            AssessmentAnswer(
                question=q,
                source_answer=s,
                summary_answer=m,
                covered=s.strip().lower() == "yes" and m.strip().lower() == "yes",
            )
            for q, (s, m) in zip(work.questions, pairs)
        ]
        fields: dict[str, Any] = {
            "score": float(score),
            "alignment_score": float(alignment),
            "coverage_score": float(coverage),
            "truths": work.truths,
            "claims": claim_checks,
            "assessment": assessment,
        }
        # deepeval's reason inputs: reasons of "no" and "borderline" verdicts, and the questions
        # the source answers yes and the summary answers no.
        contradictions = [v.reason for v, n in zip(verdicts, normalized) if n == "no"]
        redundancies = [v.reason for v, n in zip(verdicts, normalized) if n == "borderline"]
        missed = [
            a.question
            for a in assessment
            if a.source_answer is not None
            and a.source_answer.strip().lower() == "yes"
            and a.summary_answer.strip().lower() == "no"
        ]
        if opts.include_reason:
            reply = await ctx.ask_one(
                "reason",
                ctx.prompts.reason(score, contradictions, redundancies, missed),
                ReasonReply,
                inputs={
                    "preset": self.name,
                    "score": score,
                    "contradictions": contradictions,
                    "redundancies": redundancies,
                    "questions": missed,
                },
            )
            fields["reason"] = reply.reason if reply is not None else None
        else:
            fields["reason"] = _explain(score, alignment, coverage, claim_checks, missed)
        return fields


def _explain(
    score: float, alignment: float, coverage: float, claims: list[ClaimVerdict], missed: list[str]
) -> str:
    unsupported = [c for c in claims if not c.supported]
    parts = [f"The score is {score:.2f} = min(alignment {alignment:.2f}, coverage {coverage:.2f})."]
    if claims:
        parts.append(
            f"{len(claims) - len(unsupported)} of {len(claims)} claims agree with the source."
        )
    for c in unsupported[:5]:
        parts.append(f"[{c.verdict}] {c.claim}" + (f" ({c.reason})" if c.reason else "") + ".")
    if missed:
        parts.append("Not covered: " + "; ".join(missed) + ".")
    return " ".join(parts)
