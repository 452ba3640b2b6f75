"""The deepeval preset: deepeval's SummarizationMetric rule.

Source side: truths (FaithfulnessMetric's truth extraction, with ``truths_extraction_limit``),
assessment questions (given, or ``n`` generated), and the source's yes/no answers to them.
Summary side: claims, the summary's answers, alignment verdicts of the claims against the truths,
then the reason.

Three dependent rounds per case where deepeval takes five: (1) truths, questions and the
summary's claims, which need nothing else; (2) the source's and the summary's answers and the
verdicts; (3) the reason. The source's answers are asked once per source like the rest of the
source side, but alongside the summary's own round-2 calls rather than before them. alignment = #yes / #verdicts (0 when none); coverage = #(source yes and summary
yes) / #(source yes) (0 when none); score = min(alignment, coverage); ``strict_mode`` sets the
threshold to 1 and zeroes a component below it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..calls.caller import CallLog
from ..calls.source_cache import SourceCache
from ..formulas import (
    deepeval_alignment_score,
    deepeval_coverage_score,
    deepeval_graded_alignment,
    deepeval_normalize_verdict,
)
from ..masking.replies import shared_work
from ..prompts.replies import (
    ClaimsReply,
    ReasonReply,
    TruthsReply,
    VerdictItem,
    VerdictsReply,
)
from ..results import AssessmentAnswer, ClaimVerdict
from .base import Context, Options, Preset, SourceWork, check_number

__all__ = ["DeepEvalOptions", "DeepEvalPreset"]

A = TypeVar("A")
B = TypeVar("B")

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
    # The source's answers, asked by the first summary that needs them (once per source).
    answered: SourceCache[tuple[list[str], CallLog]] = field(
        default_factory=lambda: SourceCache(1), repr=False
    )

    async def source_answers(self, ctx: Context, text: str) -> list[str]:
        async def ask() -> tuple[list[str], CallLog]:
            log = CallLog()
            # Asked for whichever summary needs them first, used by all: masked with the keys
            # of the source and its questions only (see masking.replies).
            with shared_work(text, *self.questions):
                answers = await Context(ctx.caller, log, ctx.prompts).answers(
                    text, self.questions, YES_NO
                )
            return answers, log

        (answers, log), reused = await self.answered.get_or_compute("answers", ask)
        if reused:
            ctx.log.usage.reused_calls += log.usage.judge_calls
            ctx.caller.count_reused(log.usage.judge_calls)
        else:
            ctx.log.usage.add(log.usage)
        for warning in log.warnings:
            ctx.log.warn(warning)
        return answers


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

        async def assessment_questions() -> list[str]:
            asked = (
                list(questions)
                if questions is not None
                else await ctx.yes_no_questions(text, opts.n)
            )
            if not asked:
                ctx.log.warn(
                    "questions: the judge generated no assessment questions; coverage is 0"
                )
            return asked

        found_truths, asked = await _both(truths(), assessment_questions())
        return DeepEvalSource(truths=found_truths, questions=asked)

    async def prepare_summary(self, ctx: Context, summary: str) -> list[str]:
        """The summary's claims: they need nothing from the source, so they are asked in the
        same round as the source side."""
        return await ctx.ask(
            "claims", ctx.prompts.claims(summary), ClaimsReply, "claims", inputs={"text": summary}
        )

    async def judge_summary(
        self, ctx: Context, work: DeepEvalSource, text: str, summary: str
    ) -> dict[str, Any]:
        return await self.judge_prepared(
            ctx, work, await self.prepare_summary(ctx, summary), text, summary
        )

    async def judge_prepared(
        self, ctx: Context, work: DeepEvalSource, claims: list[str], text: str, summary: str
    ) -> dict[str, Any]:
        """``judge_summary`` once the claims are known (see ``prepare_summary``)."""
        opts = self.options

        async def judged_claims() -> list[VerdictItem]:
            if not claims:
                return []
            verdicts = await ctx.ask(
                "verdicts",
                ctx.prompts.verdicts(claims, work.truths),
                VerdictsReply,
                "verdicts",
                inputs={
                    "claims": claims,
                    "evidence": "\n\n".join(work.truths),
                    "vocabulary": VERDICTS,
                },
                expect_len=len(claims),
                what="claims",
            )
            return verdicts[: len(claims)]

        (verdicts, source_answers), answers = await _both(
            _both(judged_claims(), work.source_answers(ctx, text)),
            ctx.answers(summary, work.questions, YES_NO),
        )
        normalized = [deepeval_normalize_verdict(v.verdict) for v in verdicts]
        threshold = opts.effective_threshold
        alignment = deepeval_alignment_score(
            normalized, strict_mode=opts.strict_mode, threshold=threshold
        )
        # The offline judge grades each claim (ClaimVerdict.support): alignment is then the mean
        # support, so summaries rank by how much of them the source carries, not 0 or 1. Only a
        # judge that says so is read this way: an LLM's numbers stay upstream's.
        grades = ctx.grades_claims
        kept = [v.support for v, n in zip(verdicts, normalized) if n is not None]
        graded = [s for s in kept if s is not None] if grades else []
        if graded and len(graded) == len(kept):
            alignment = deepeval_graded_alignment(
                graded, strict_mode=opts.strict_mode, threshold=threshold
            )
        judged = min(len(work.questions), len(source_answers), len(answers))
        if work.questions and judged < len(work.questions):
            ctx.log.warn(
                f"coverage: {judged} of {len(work.questions)} assessment questions were answered "
                "on both the source and the summary; coverage is over those"
            )
        pairs = list(zip(source_answers[:judged], answers[:judged]))
        coverage = deepeval_coverage_score(pairs, strict_mode=opts.strict_mode, threshold=threshold)
        score = min(alignment, coverage)

        claim_checks = [
            ClaimVerdict(
                claim=c,
                verdict=n or v.verdict,
                reason=v.reason,
                supported=n == "yes",
                support=v.support if grades else None,
            )
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
                    "alignment": alignment,
                    "coverage": coverage,
                    "contradictions": contradictions,
                    "redundancies": redundancies,
                    "questions": missed,
                },
            )
            fields["reason"] = reply.reason if reply is not None else None
        else:
            fields["reason"] = _explain(score, alignment, coverage, claim_checks, missed)
        return fields


async def _both(first: Awaitable[A], second: Awaitable[B]) -> tuple[A, B]:
    """Both results; when one fails the other is cancelled (no call left running unowned)."""
    one, two = asyncio.ensure_future(first), asyncio.ensure_future(second)
    try:
        return await one, await two
    except BaseException:
        one.cancel()
        two.cancel()
        await asyncio.gather(one, two, return_exceptions=True)
        raise


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
