"""Mastra faces: the 1.x summarization scorer and the 0.x ``SummarizationMetric``, in Python.

Mastra 1.x (@mastra/evals ``createSummarizationScorer({ model, options: { scale, maxQuestions }
})``, ``await scorer.run({ input, output })``) is ``create_summarization_scorer``; ``run`` takes
Mastra's run shapes (agent runs: source = the first user message of ``input``, summary = the last
assistant message with text in ``output``; or plain strings) and returns Mastra's result shape:
``score``, ``reason``, ``preprocessStepResult`` (``alignment``: claim, supported, reason;
``questions``) and ``analyzeStepResult`` (``coverage``: question, answered, reason).

Mastra 0.x (@mastra/evals 0.x ``new SummarizationMetric(model, { scale })``, ``await
metric.measure(input, output)``) is ``SummarizationMetric``, with ``{score, info: {reason,
alignmentScore, coverageScore}}``; it follows the 0.x rule (5 questions) unless ``scorer=`` says
otherwise.

Both are synchronous (working inside a running event loop too) with async twins (``arun``,
``ameasure``). As in Mastra, an empty summary (or source) scores 0 without asking the judge; a run
whose input holds no user message or whose output holds no assistant message (a shape Mastra cannot
read either) raises ``TypeError`` naming the field and its shape. The rule itself is the core's
mastra preset; these classes translate types only. Needs no framework.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .adapters.options import check_scorer
from .calls.sync import run_sync
from .cases import FieldNames
from .results import SummaryResult
from .scorer import SummarizationScorer

__all__ = [
    "MastraResult",
    "MastraScorerResult",
    "MastraSummarizationScorer",
    "SummarizationMetric",
    "create_summarization_scorer",
]

_FIELDS = FieldNames(source="input", summary="output")
_INFO_NAMES = {
    "alignment_score": "alignmentScore",
    "coverage_score": "coverageScore",
    "qa_score": "qaScore",
    "conciseness_score": "concisenessScore",
}
_EMPTY_REASON = "The score is 0 because the {} is empty, so there is nothing to judge."


def _given(**options: Any) -> dict[str, tuple[Any, Any]]:
    """The options the caller passed (not None), each with Mastra's default, for check_scorer."""
    defaults = {"scale": 1, "max_questions": None}
    return {name: (value, defaults[name]) for name, value in options.items() if value is not None}


def _blank(value: Any) -> bool:
    return isinstance(value, str) and not value.strip()


async def _score(
    scorer: SummarizationScorer, source: Any, summary: Any, names: FieldNames
) -> SummaryResult:
    """The core's result, or a score of 0 for a blank summary or source (Mastra's answer)."""
    for text, name, label in (
        (summary, names.summary, "summary"),
        (source, names.source, "source"),
    ):
        if _blank(text):
            return SummaryResult(
                score=0.0,
                preset=scorer.preset,
                prompt_set="",
                judge=scorer.judge.name,
                alignment_score=0.0,
                coverage_score=0.0,
                reason=_EMPTY_REASON.format(label),
                warnings=[f"{name} is empty: scored 0 without asking the judge, as Mastra does"],
                threshold=scorer.threshold,
            )
    return await scorer.ascore_named(
        source, summary, source_name=names.source, summary_name=names.summary
    )


# ------------------------------------------------------------------------------------------ 0.x


@dataclass
class MastraResult:
    """Mastra's metric result: ``score`` and ``info``; ``details`` keeps the full SummaryResult.

    Attributes:
        score: The smaller component, on ``scale`` (NaN when the case could not be scored).
        info: Mastra's ``info``: ``reason``, ``alignmentScore`` and ``coverageScore``.
        details: The full ``SummaryResult`` behind it (claims, questions, usage).
    """

    score: float
    info: dict[str, Any]
    details: SummaryResult | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """``{"score": ..., "info": {...}}``, JSON-serialisable (NaN becomes None)."""
        score = None if math.isnan(self.score) else self.score
        return {"score": score, "info": dict(self.info)}


class SummarizationMetric:
    """Mastra 0.x's SummarizationMetric: min(alignment, coverage), each round2(fraction * scale).

    ``model`` is any judge the core accepts. For an OpenAI-compatible endpoint pass
    ``summscore.judges.OpenAIJudge(client, "gpt-4o-mini")``, the counterpart of Mastra's
    ``openai("gpt-4o-mini")``; ``scorer=`` shares an existing scorer instead.
    """

    def __init__(
        self,
        model: Any = None,
        scale: float | None = None,
        scorer: SummarizationScorer | None = None,
    ) -> None:
        if scorer is None:
            if model is None:
                raise TypeError(
                    "SummarizationMetric needs a model (any judge summscore accepts) or scorer="
                )
            scale = 1 if scale is None else scale
            scorer = SummarizationScorer(llm=model, preset="mastra", scale=scale, version="0.x")
        else:
            check_scorer(
                "SummarizationMetric", scorer, llm=("model", model), options=_given(scale=scale)
            )
        self.model = model
        self.scale = scorer.options.get("scale", 1) if scale is None else scale
        self.scorer = scorer

    async def ameasure(self, input: str, output: str) -> MastraResult:
        """Score ``output`` (the summary) against ``input`` (the original text)."""
        result = await _score(self.scorer, input, output, _FIELDS)
        info: dict[str, Any] = {
            "reason": result.reason if result.error is None else result.error,
            "alignmentScore": result.alignment_score,
            "coverageScore": result.coverage_score,
        }
        for name, value in result.components().items():
            info.setdefault(_INFO_NAMES[name], value)
        return MastraResult(score=result.score, info=info, details=result)

    def measure(self, input: str, output: str) -> MastraResult:
        """Synchronous ``ameasure``; works inside a running event loop too."""
        return run_sync(self.ameasure(input, output))


# ------------------------------------------------------------------------------------------ 1.x

SourceExtractor = Callable[[Any, Any], str]


@dataclass
class MastraScorerResult:
    """What Mastra 1.x's ``scorer.run()`` returns for the summarization scorer.

    ``to_dict()`` gives Mastra's key names; ``details`` keeps the full SummaryResult.

    Attributes:
        run_id: The run's id, when the run carried one (Mastra's ``runId``).
        input: The run's input, as given.
        output: The run's output, as given.
        score: The score, on ``scale`` (NaN when the case could not be scored).
        reason: The judge's explanation; None without ``include_reason``.
        preprocess_step_result: Mastra's ``preprocessStepResult``: the claims with whether each
            is supported, and the questions.
        analyze_step_result: Mastra's ``analyzeStepResult``: each question with whether the
            summary answers it.
        details: The full ``SummaryResult`` behind it (claims, questions, usage).
    """

    run_id: str | None
    input: Any
    output: Any
    score: float
    reason: str | None
    preprocess_step_result: dict[str, Any]
    analyze_step_result: dict[str, Any]
    details: SummaryResult = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Mastra's keys (``preprocessStepResult``, ...); NaN becomes None."""
        data: dict[str, Any] = {
            "runId": self.run_id,
            "input": self.input,
            "output": self.output,
            "score": None if math.isnan(self.score) else self.score,
            "reason": self.reason,
            "preprocessStepResult": self.preprocess_step_result,
            "analyzeStepResult": self.analyze_step_result,
        }
        return {k: v for k, v in data.items() if v is not None or k in ("score", "reason")}


class MastraSummarizationScorer:
    """Mastra 1.x's summarization scorer (``id`` "summarization-scorer"); build it with
    ``create_summarization_scorer``."""

    id = "summarization-scorer"
    name = "Summarization Scorer"
    description = (
        "A scorer that evaluates whether a summary stays faithful to its source text and "
        "preserves the information the source states"
    )

    def __init__(
        self,
        scorer: SummarizationScorer,
        *,
        source: str | None = None,
        source_extractor: SourceExtractor | None = None,
    ) -> None:
        self.scorer = scorer
        self.source = source
        self.source_extractor = source_extractor

    async def arun(self, run: Mapping[str, Any]) -> MastraScorerResult:
        """Score one Mastra run: ``{"input": ..., "output": ..., "runId"?: ...}``."""
        if not isinstance(run, Mapping) or "output" not in run:
            raise TypeError("run must be a mapping with an 'output' (and usually an 'input')")
        run_input, run_output = run.get("input"), run["output"]
        if self.source_extractor is not None:
            source: Any = self.source_extractor(run_input, run_output)
        elif self.source is not None:
            source = self.source
        else:
            source = user_message(run_input)
            if source is None:
                raise TypeError(
                    f"{self.id}: run['input'] ({_shape(run_input)}) has no user message to take "
                    "the source from; pass a string or an agent run's input "
                    "({'inputMessages': [{'role': 'user', 'content': ...}], ...}), "
                    "or source= / source_extractor="
                )
        summary = assistant_message(run_output)
        if summary is None:
            raise TypeError(
                f"{self.id}: run['output'] ({_shape(run_output)}) has no assistant message to take "
                "the summary from; pass a string or an agent run's output "
                "([{'role': 'assistant', 'content': ...}, ...])"
            )
        result = await _score(self.scorer, source, summary, _FIELDS)
        if result.error is not None:
            raise RuntimeError(f"summarization-scorer: {result.error}")
        alignment = [
            {"claim": c.claim, "supported": c.supported, "reason": c.reason or ""}
            for c in result.claims
        ]
        coverage = [
            {"question": a.question, "answered": a.covered, "reason": a.summary_answer}
            for a in result.assessment
        ]
        return MastraScorerResult(
            run_id=run.get("runId"),
            input=run_input,
            output=run_output,
            score=result.score,
            reason=result.reason,
            preprocess_step_result={
                "alignment": alignment,
                "questions": [a.question for a in result.assessment],
            },
            analyze_step_result={"coverage": coverage},
            details=result,
        )

    def run(self, run: Mapping[str, Any]) -> MastraScorerResult:
        """Synchronous ``arun``; works inside a running event loop too."""
        return run_sync(self.arun(run))


def create_summarization_scorer(
    model: Any = None,
    *,
    scale: float | None = None,
    max_questions: int | None = None,
    source: str | None = None,
    source_extractor: SourceExtractor | None = None,
    scorer: SummarizationScorer | None = None,
) -> MastraSummarizationScorer:
    """Mastra 1.x's ``createSummarizationScorer({ model, options })``: the mastra preset's 1.x rule.

    ``source`` / ``source_extractor(input, output)`` replace the default source (the run's first
    user message), as Mastra's options of those names do. ``max_questions`` defaults to Mastra's
    10 and ``scale`` to 1. ``scorer=`` shares an existing scorer (whose rule then decides; an
    option given here beside it must agree with it, one left out is the scorer's).
    """
    if scorer is None:
        if model is None:
            raise TypeError("create_summarization_scorer needs a model (any judge) or scorer=")
        scorer = SummarizationScorer(
            llm=model,
            preset="mastra",
            scale=1 if scale is None else scale,
            max_questions=max_questions,
            version="1.x",
        )
    else:
        options = _given(scale=scale, max_questions=max_questions)
        check_scorer("create_summarization_scorer", scorer, llm=("model", model), options=options)
    return MastraSummarizationScorer(scorer, source=source, source_extractor=source_extractor)


# ------------------------------------------------------------------ Mastra's run shapes, read


def _text(value: Any) -> str | None:
    """The text of a message, its content, or a list of parts (the last text part), as Mastra."""
    if isinstance(value, str):
        return value or None
    if isinstance(value, list):
        texts = [
            p["text"]
            for p in value
            if isinstance(p, Mapping) and p.get("type") == "text" and isinstance(p.get("text"), str)
        ]
        return texts[-1] if texts else None
    if not isinstance(value, Mapping):
        return None
    for key in ("content", "text", "body", "parts"):
        found = _text(value.get(key)) if key in ("content", "parts") else value.get(key)
        if isinstance(found, str) and found:
            return found
    return None


def _role(message: Any) -> str | None:
    return message.get("role") if isinstance(message, Mapping) else None


def user_message(run_input: Any) -> str | None:
    """The source of a run: its first user message (or the input itself when it is text)."""
    if isinstance(run_input, str):
        return run_input
    if not isinstance(run_input, Mapping):
        return None
    for key in ("inputMessages", "messages"):
        messages = run_input.get(key)
        if isinstance(messages, list):
            first = next((m for m in messages if _role(m) == "user"), None)
            if first is not None:
                return _text(first) or ""  # a user message without text: an empty source
    for key in ("prompt", "text"):
        if isinstance(run_input.get(key), str):
            return str(run_input[key])
    for key in ("content", "input", "user"):
        found = _text(run_input.get(key))
        if found:
            return found
    if any(run_input.get(k) == "" for k in ("content", "input", "user")):
        return ""  # a text field that is empty: an empty source
    return None


def assistant_message(run_output: Any) -> str | None:
    """The summary of a run: its last assistant message with text (or the output's own text)."""
    if isinstance(run_output, str):
        return run_output
    if isinstance(run_output, list):
        replies = [m for m in run_output if _role(m) == "assistant"]
        if not replies:
            return None
        texts = [t for t in map(_text, replies) if t and t.strip()]
        return texts[-1] if texts else ""  # replies without text (tool calls): an empty summary
    if isinstance(run_output, Mapping) and _role(run_output) in (None, "assistant"):
        found = _text(run_output)
        if found is None and any(k in run_output for k in ("content", "text", "body", "parts")):
            return ""  # a message whose text is empty: an empty summary
        return found
    return None


def _shape(value: Any) -> str:
    """How a run field looks, for an error message (its type, and its keys or roles)."""
    if isinstance(value, Mapping):
        return f"a mapping with keys {sorted(map(str, value))}"
    if isinstance(value, list):
        roles = sorted({str(_role(m)) for m in value})
        return f"a list of {len(value)} item(s), roles {roles}"
    return "None" if value is None else f"a {type(value).__name__}"
