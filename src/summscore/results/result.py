"""What a scorer returns: ``SummaryResult``, its evidence and its ``Usage``."""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, Field

from .html import CSS, cell, number
from .usage import Usage, format_cost

__all__ = [
    "AssessmentAnswer",
    "ClaimVerdict",
    "QuestionAnswer",
    "SummaryResult",
    "Usage",
]


class QuestionAnswer(BaseModel):
    """A ragas-preset question generated from the source and the judge's answer on the summary.

    Attributes:
        question: The closed question, generated from the source and its keyphrases.
        answer: The judge's answer from the summary, as given ("1" or "0" under ragas's prompts).
        answered: True when the answer counts as answered (ragas's rule: it equals "1").
    """

    question: str
    answer: str
    answered: bool


class ClaimVerdict(BaseModel):
    """A claim taken from the summary and the judge's verdict against the source.

    ``support`` (0 to 1) is how much of the claim the source carries, reported by the offline
    judge (``judge="lexical"``) only: the share of the claim's words, word pairs and word
    triples found in the source, 0 for a contradicted claim, scaled down for a claim the judge
    could neither confirm nor contradict. The deepeval and mastra rules' alignment is then the
    mean support (graded; mastra rounds it as its rule does) instead of the share of "yes"
    verdicts. None for LLM judges.

    Attributes:
        claim: The statement, as the judge took it from the summary.
        verdict: The judge's verdict, lower-cased: "yes", "no", or "borderline" / "unsure" where
            the preset has such a verdict.
        reason: The judge's reason for the verdict (the offline judge names its evidence); None
            when the judge gave none.
        supported: True when the verdict counts as supported under the preset's rule.
        support: How much of the claim the source carries, 0 to 1 (the offline judge only; see
            above), else None.
    """

    claim: str
    verdict: str
    reason: str | None = None
    supported: bool
    support: float | None = None


class AssessmentAnswer(BaseModel):
    """An assessment (coverage) question with its answer on the source and on the summary.

    ``source_answer`` is None under the mastra preset, which answers from the summary only.

    Attributes:
        question: The closed (yes/no) question about the source.
        source_answer: The judge's answer from the source; None under the mastra preset.
        summary_answer: The judge's answer from the summary.
        covered: True when the question counts as covered by the summary under the preset's rule.
    """

    question: str
    source_answer: str | None = None
    summary_answer: str
    covered: bool


class SummaryResult(BaseModel):
    """The score of one summary, every component the preset computed, and the evidence behind it.

    ``score`` is NaN when the preset could not compute it (ragas's convention for a failed row);
    ``error`` then says why. Components a preset does not compute are None.

    Attributes:
        score: The preset's final score: 0 to 1 (0 to ``scale`` under the mastra preset), or NaN
            when the case could not be scored.
        preset: The rule that computed it: "ragas", "deepeval" or "mastra".
        prompt_set: The prompts the judge was sent: "ragas-0.4.3", "deepeval-4.3.1",
            "summscore-v1", ..., or "none" for a judge that reads no prompt (the offline judge).
        judge: The judge's name, e.g. "openai:gpt-4o-mini" or "lexical"; never a credential.
        qa_score: ragas: the share of the source's questions the summary answers.
        conciseness_score: ragas: 1 - len(summary) / len(source), in characters.
        alignment_score: deepeval and mastra: the share of the summary's claims the source
            supports (the mean support with the offline judge; on ``scale`` under mastra).
        coverage_score: deepeval and mastra: the share of the source's questions the summary
            also answers "yes" (on ``scale`` under mastra).
        keyphrases: ragas: the keyphrases extracted from the source.
        questions: ragas: each question about the source with the summary's answer.
        truths: deepeval: the truths extracted from the source.
        claims: deepeval and mastra: each claim of the summary with its verdict and reason.
        assessment: deepeval and mastra: each coverage question with its answers.
        reason: The judge's explanation of the score (``include_reason=True``); None otherwise.
        error: Why the case could not be scored (the score is then NaN); None when it was.
        warnings: What went wrong without failing the case (a list of answers of the wrong
            length scored as far as it was judged, ...).
        threshold: The pass mark ``success`` compares the score with; None when the preset has
            none.
        usage: What judging this case cost: calls, retries, tokens, cost.
        id: The case's id (``Case.id``, a mapping's "id", else its position) when scored in a
            batch; None for a single call.
    """

    score: float
    preset: str
    prompt_set: str
    judge: str
    qa_score: float | None = None
    conciseness_score: float | None = None
    alignment_score: float | None = None
    coverage_score: float | None = None
    keyphrases: list[str] = Field(default_factory=list)
    questions: list[QuestionAnswer] = Field(default_factory=list)
    truths: list[str] = Field(default_factory=list)
    claims: list[ClaimVerdict] = Field(default_factory=list)
    assessment: list[AssessmentAnswer] = Field(default_factory=list)
    reason: str | None = None
    error: str | None = None
    warnings: list[str] = Field(default_factory=list)
    threshold: float | None = None
    usage: Usage = Field(default_factory=Usage)
    id: Any = None
    """The case's id (``Case.id``, a mapping's "id", else its position) when scored in a batch."""

    @property
    def ok(self) -> bool:
        """True when a score was computed (no error, not NaN)."""
        return self.error is None and not math.isnan(self.score)

    @property
    def success(self) -> bool | None:
        """Whether the score reaches ``threshold``; None when the preset has no threshold."""
        if self.threshold is None:
            return None
        return self.ok and self.score >= self.threshold

    @property
    def missed_questions(self) -> list[str]:
        """Questions the source answers and the summary does not."""
        missed = [q.question for q in self.questions if not q.answered]
        missed += [
            a.question
            for a in self.assessment
            if not a.covered and (a.source_answer is None or _is_yes(a.source_answer))
        ]
        return missed

    @property
    def unsupported_claims(self) -> list[ClaimVerdict]:
        """Claims of the summary that the judge did not find supported by the source."""
        return [c for c in self.claims if not c.supported]

    def components(self) -> dict[str, float]:
        """The computed components by name (only those the preset computed)."""
        names = ("qa_score", "conciseness_score", "alignment_score", "coverage_score")
        return {n: v for n in names if (v := getattr(self, n)) is not None}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict. NaN becomes None, so the output is strict JSON."""
        data = self.model_dump(mode="json")
        return _nan_to_none(data)

    def __repr__(self) -> str:
        parts = [] if self.id is None else [f"id={self.id!r}"]
        parts.append(f"score={_short(self.score)}")
        parts += [f"{k.removesuffix('_score')}={_short(v)}" for k, v in self.components().items()]
        if self.success is not None:
            parts.append(f"success={self.success}")
        parts.append(f"preset={self.preset!r}")
        if self.error:
            error = self.error if len(self.error) <= 80 else self.error[:79] + "…"
            parts.append(f"error={error!r}")
        return f"SummaryResult({', '.join(parts)})"

    __str__ = __repr__

    def _repr_html_(self) -> str:
        """A small table for notebooks: score, components, verdict, evidence, spend."""
        return _result_html(self)


def _short(value: float) -> str:
    return "nan" if math.isnan(value) else f"{value:.3f}"


def _is_yes(answer: str) -> bool:
    return answer.strip().lower() == "yes"


def _nan_to_none(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _nan_to_none(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_nan_to_none(v) for v in value]
    return value


def _result_html(result: SummaryResult) -> str:
    """One result as a small HTML table (``SummaryResult._repr_html_``)."""
    rows: list[tuple[str, str]] = []
    if result.id is not None:
        rows.append(("id", cell(result.id)))
    rows.append(("score", f"<b>{number(result.score)}</b>"))
    rows += [(n.removesuffix("_score"), number(v)) for n, v in result.components().items()]
    if result.success is not None:
        verdict = "pass" if result.success else "fail"
        tone = "ok" if result.success else "bad"
        rows.append(("verdict", f"<span class='{tone}'>{verdict} (≥ {result.threshold:g})</span>"))
    rows.append(("preset / judge", cell(f"{result.preset} / {result.judge}")))
    if result.error:
        rows.append(("error", f"<span class='bad'>{cell(result.error)}</span>"))
    unsupported = result.unsupported_claims
    if unsupported:
        items = "".join(f"<li>{cell(c.verdict)}: {cell(c.claim)}</li>" for c in unsupported)
        rows.append((f"unsupported claims ({len(unsupported)})", f"<ul>{items}</ul>"))
    missed = result.missed_questions
    if missed:
        items = "".join(f"<li>{cell(q)}</li>" for q in missed)
        rows.append((f"missed questions ({len(missed)})", f"<ul>{items}</ul>"))
    if result.reason:
        rows.append(("reason", cell(result.reason)))
    for warning in result.warnings:
        rows.append(("warning", cell(warning)))
    usage = result.usage
    spend = f"{usage.judge_calls} judge calls"
    if usage.input_tokens is not None:
        spend += f", {usage.input_tokens:,} / {usage.output_tokens or 0:,} tokens"
    cost = "none (offline judge)" if result.judge == "lexical" else format_cost(usage.cost)
    rows.append(("spend", cell(f"{spend}, {cost}")))
    body = "".join(f"<tr><th>{cell(k)}</th><td>{v}</td></tr>" for k, v in rows)
    return f"{CSS}<table class='summscore-r'>{body}</table>"
