"""What a preset is: options, source-side work (cached per source), and summary-side judging."""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar, cast

from pydantic import BaseModel

from ..calls.caller import CallLog, JudgeCaller, repair_feedback
from ..calls.checks import check_questions
from ..errors import JudgeError
from ..masking.secrets import redact
from ..prompts.base import Rendered
from ..prompts.replies import AnswersReply, ClaimsReply, QuestionsReply, VerdictItem, VerdictsReply

__all__ = [
    "Context",
    "Options",
    "Preset",
    "SourceWork",
    "SummaryFirst",
    "check_number",
    "summary_first",
]

M = TypeVar("M", bound=BaseModel)


def check_number(
    name: str,
    value: Any,
    *,
    low: float | None = None,
    high: float | None = None,
    integer: bool = False,
) -> None:
    """Raise TypeError/ValueError naming ``name`` unless ``value`` is a number in [low, high]."""
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds):
        kind = "an integer" if integer else "a number"
        raise TypeError(f"{name} must be {kind}, got {type(value).__name__}")
    if low is not None and value < low:
        raise ValueError(f"{name} must be >= {low:g}, got {value!r}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be <= {high:g}, got {value!r}")


@dataclass(frozen=True)
class Options:
    """Base of the per-preset option dataclasses (frozen: hashable into cache keys)."""

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))


@dataclass
class SourceWork:
    """Judge output about the source alone, shared by every summary of that source."""

    calls: int = 0
    warnings: list[str] = field(default_factory=list)


@dataclass
class Context:
    """What a preset needs to ask the judge while scoring one case."""

    caller: JudgeCaller
    log: CallLog
    prompts: Any

    @property
    def grades_claims(self) -> bool:
        """Does the judge grade each claim (``ClaimVerdict.support``: the offline judge)?"""
        return bool(getattr(self.caller.judge, "grades_claims", False))

    async def ask(
        self,
        task: str,
        rendered: Rendered,
        reply_model: type[BaseModel],
        field_name: str,
        *,
        inputs: Mapping[str, Any],
        expect_len: int | None = None,
        what: str = "items",
    ) -> list[Any]:
        return await self.caller.ask(
            self.log,
            task,
            rendered,
            reply_model,
            inputs=inputs,
            field_name=field_name,
            expect_len=expect_len,
            what=what,
        )

    async def ask_one(
        self, task: str, rendered: Rendered, reply_model: type[M], *, inputs: Mapping[str, Any]
    ) -> M | None:
        """Ask a side question whose answer does not change the score (the reason).

        Returns None when the judge failed on it after the retries; the failure is then recorded
        in the result's warnings (``"<task>: the judge failed ...; score kept"``) and the score and
        components computed so far are kept.
        """
        try:
            return await self.caller.ask_text(self.log, task, rendered, reply_model, inputs=inputs)
        except JudgeError as exc:
            self.log.warn(
                redact(
                    f"{task}: the judge failed on this call after retries "
                    f"({type(exc).__name__}: {exc}); score kept, {task} left empty"
                )
            )
            return None

    # The judge steps more than one preset takes, each asked the same way everywhere.

    async def yes_no_questions(self, text: str, n: int) -> list[str]:
        """``n`` closed questions the source answers (deepeval and mastra coverage)."""
        return await self.ask_checked(
            "questions",
            self.prompts.questions(text, n),
            QuestionsReply,
            "questions",
            inputs={"text": text, "n": n},
            check=check_questions,
        )

    @property
    def reads_prompts(self) -> bool:
        return bool(self.caller.judge.reads_prompts)

    async def ask_checked(
        self,
        task: str,
        rendered: Rendered,
        reply_model: type[BaseModel],
        field_name: str,
        *,
        inputs: Mapping[str, Any],
        check: Callable[[Sequence[str]], tuple[list[str], str | None]],
    ) -> list[Any]:
        """``ask``, then a check beyond the schema (see summscore.calls.checks): a reply that
        fails it is asked again once with the problem named; what still fails is dropped, with
        a warning. Judges that read no prompts (the offline judge) are not second-guessed."""
        items = await self.ask(task, rendered, reply_model, field_name, inputs=inputs)
        if not self.caller.judge.reads_prompts:
            return items
        kept, problem = check(items)
        if problem is None:
            return items
        if self.caller.policy.repair_retries > 0:
            feedback = repair_feedback(problem)
            again = Rendered(lambda: rendered.text + feedback, rendered.schema)
            items = await self.ask(task, again, reply_model, field_name, inputs=inputs)
            kept, problem = check(items)
            if problem is None:
                return items
        self.log.warn(f"{task}: {problem}; kept the {len(kept)} usable")
        return kept

    async def answers(
        self, text: str, questions: Sequence[str], vocabulary: tuple[str, str]
    ) -> list[str]:
        """One answer per question, each from ``vocabulary`` (yes, no), judged on ``text``."""
        if not questions:
            return []
        answers = await self.ask(
            "answers",
            self.prompts.answers(text, questions),
            AnswersReply,
            "answers",
            inputs={"text": text, "questions": list(questions), "vocabulary": vocabulary},
            expect_len=len(questions),
            what="questions",
        )
        return answers[: len(questions)]

    async def claim_verdicts(
        self,
        summary: str,
        evidence: str,
        vocabulary: tuple[str, str, str],
        *,
        prompt_for: Callable[[list[str]], Rendered],
    ) -> tuple[list[str], list[VerdictItem]]:
        """The summary's claims, then one verdict per claim against ``evidence``.

        ``prompt_for(claims)`` renders the verdicts prompt (it needs the claims first).
        """
        claims = await self.ask(
            "claims", self.prompts.claims(summary), ClaimsReply, "claims", inputs={"text": summary}
        )
        if not claims:
            return claims, []
        verdicts = await self.ask(
            "verdicts",
            prompt_for(claims),
            VerdictsReply,
            "verdicts",
            inputs={"claims": claims, "evidence": evidence, "vocabulary": vocabulary},
            expect_len=len(claims),
            what="claims",
        )
        return claims, verdicts[: len(claims)]


class Preset(ABC):
    """A family of scoring rules. Subclasses set ``name`` and ``options_type``."""

    name: ClassVar[str]
    options_type: ClassVar[type[Options]]

    def __init__(self, options: Options) -> None:
        self.options = options

    @property
    def threshold(self) -> float | None:
        """The pass mark results are judged against, if the preset has one."""
        return None

    def source_key(self, questions: Sequence[str] | None) -> Hashable:
        """What, besides the source text, the source-side work depends on."""
        return (self.name, self.options, tuple(questions) if questions is not None else None)

    @abstractmethod
    async def prepare_source(
        self, ctx: Context, text: str, questions: Sequence[str] | None
    ) -> SourceWork:
        """Judge calls that depend on the source only (cached per source by the scorer)."""

    @abstractmethod
    async def judge_summary(
        self, ctx: Context, work: Any, text: str, summary: str
    ) -> dict[str, Any]:
        """Judge one summary; return SummaryResult fields (score, components, evidence, reason)."""


class SummaryFirst(Protocol):
    """A preset with summary-side work that does not depend on the source (deepeval's claims)."""

    async def prepare_summary(self, ctx: Context, summary: str) -> Any: ...

    async def judge_prepared(
        self, ctx: Context, work: Any, early: Any, text: str, summary: str
    ) -> dict[str, Any]: ...


def summary_first(preset: Any) -> SummaryFirst | None:
    """The preset as a ``SummaryFirst``, or None. Decided once per preset class: a runtime
    protocol check walks the protocol's members on every call, and this one runs for every case."""
    kind = type(preset)
    known = _summary_first_classes.get(kind)
    if known is None:
        known = all(callable(getattr(kind, name, None)) for name in _SUMMARY_FIRST_METHODS)
        _summary_first_classes[kind] = known
    return cast(SummaryFirst, preset) if known else None


_SUMMARY_FIRST_METHODS = ("prepare_summary", "judge_prepared")
_summary_first_classes: dict[type, bool] = {}
