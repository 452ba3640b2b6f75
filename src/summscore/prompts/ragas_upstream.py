"""The ragas preset's upstream prompt set, rendered by the installed ragas at run time.

ragas >= 0.3.9 ships the collections ``SummaryScore`` prompt classes
(``ragas.metrics.collections.summary_score.util``); they are rendered with ``.to_string(Input(...))``
and their output models are what the judge is asked for, exactly as the collections metric does.
The legacy ``SummarizationScore`` has its own ``PydanticPrompt`` objects
(``ragas.metrics._summarization``), rendered the way ``PydanticPrompt.generate`` renders them and
used when asked for (``legacy=True``) or when the installed ragas has no collections API.

The prompts can live on another object (``owner=``, a framework face), under the attribute names
ragas's metric uses. They are read at every rendering, so assigning a modified prompt to the
metric, or ragas's ``set_prompts()``, changes what the judge is sent, as in ragas.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import MissingExtraError
from .base import Rendered

__all__ = ["COLLECTIONS_PROMPTS", "LEGACY_PROMPTS", "UpstreamRagasPrompts", "prompt_signature"]

# The attribute names under which ragas's metrics hold their prompts (keyphrases, questions, answers).
COLLECTIONS_PROMPTS = (
    "extract_keyphrases_prompt",
    "generate_questions_prompt",
    "generate_answers_prompt",
)
LEGACY_PROMPTS = (
    "extract_keyphrases_prompt",
    "question_generation_prompt",
    "answer_generation_prompt",
)


def prompt_signature(prompt: Any) -> tuple[Any, ...]:
    """What makes a ragas prompt render differently: its class, instruction, language, examples."""
    examples = getattr(prompt, "examples", None) or []
    return (
        type(prompt).__module__,
        type(prompt).__qualname__,
        getattr(prompt, "instruction", None),
        getattr(prompt, "language", None),
        tuple(
            tuple(
                part.model_dump_json() if hasattr(part, "model_dump_json") else repr(part)
                for part in example
            )
            for example in examples
        ),
    )


def default_prompts(legacy: bool) -> tuple[Any, Any, Any]:
    """Fresh instances of ragas's own prompts (keyphrases, questions, answers)."""
    if legacy:
        from ragas.metrics import _summarization as lg

        return lg.ExtractKeyphrasePrompt(), lg.GenerateQuestionsPrompt(), lg.GenerateAnswersPrompt()
    from ragas.metrics.collections.summary_score import util

    return (
        util.ExtractKeyphrasesPrompt(),
        util.GenerateQuestionsPrompt(),
        util.GenerateAnswersPrompt(),
    )


class UpstreamRagasPrompts:
    """Render the ragas summary-score prompts with the installed ragas.

    ``legacy`` picks the legacy metric's prompts (None: the collections ones when the installed
    ragas has them). ``owner`` holds the prompts (under :data:`COLLECTIONS_PROMPTS` or
    :data:`LEGACY_PROMPTS`); without one this object holds ragas's defaults itself.
    """

    def __init__(self, owner: Any = None, *, legacy: bool | None = None) -> None:
        try:
            import ragas
        except ImportError as exc:
            raise MissingExtraError("ragas", "ragas", "The ragas upstream prompt set", exc) from exc
        self._version = getattr(ragas, "__version__", "unknown")
        if legacy is None:
            try:
                from ragas.metrics.collections.summary_score import util
            except ImportError:
                legacy = True
            else:
                legacy = False
        self.legacy = legacy
        if legacy:
            from ragas.metrics import _summarization

            self._module: Any = _summarization
        else:
            from ragas.metrics.collections.summary_score import util

            self._module = util
        self.attributes = LEGACY_PROMPTS if legacy else COLLECTIONS_PROMPTS
        self._owner = owner if owner is not None else self
        if owner is None:
            for attribute, prompt in zip(self.attributes, default_prompts(legacy)):
                setattr(self, attribute, prompt)
        self._defaults = tuple(prompt_signature(p) for p in default_prompts(legacy))

    @property
    def prompts(self) -> tuple[Any, Any, Any]:
        """The prompts in use now: keyphrases, questions, answers."""
        kp, q, a = (getattr(self._owner, attribute) for attribute in self.attributes)
        return kp, q, a

    def signature(self) -> tuple[Any, ...]:
        return tuple(prompt_signature(p) for p in self.prompts)

    @property
    def customised(self) -> bool:
        """True when a prompt differs from ragas's own (assigned, set_prompts, adapt_prompts)."""
        return self.signature() != self._defaults

    @property
    def name(self) -> str:
        base = f"ragas-{self._version}" + ("-legacy" if self.legacy else "")
        return base + "+custom" if self.customised else base

    def _render(self, prompt: Any, data: Any, schema: type[Any]) -> Rendered:
        if self.legacy:  # as PydanticPrompt.generate: processed input, the prompt's output model
            process = getattr(prompt, "process_input", None)
            if process is not None:
                data = process(data)
            return Rendered(lambda: prompt.to_string(data), prompt.output_model)
        return Rendered(lambda: prompt.to_string(data), schema)

    def keyphrases(self, text: str) -> Rendered:
        prompt = self.prompts[0]
        m = self._module
        if self.legacy:
            from ragas.prompt import StringIO

            return self._render(prompt, StringIO(text=text), m.ExtractedKeyphrases)
        return self._render(prompt, m.ExtractedKeyphrasesInput(text=text), m.ExtractedKeyphrases)

    def questions(self, text: str, keyphrases: Sequence[str]) -> Rendered:
        prompt = self.prompts[1]
        m = self._module
        model = m.GenerateQuestionsPromptInput if self.legacy else m.GenerateQuestionsInput
        return self._render(
            prompt, model(text=text, keyphrases=list(keyphrases)), m.QuestionsGenerated
        )

    def answers(self, summary: str, questions: Sequence[str]) -> Rendered:
        prompt = self.prompts[2]
        m = self._module
        model = m.SummaryAndQuestions if self.legacy else m.GenerateAnswersInput
        return self._render(
            prompt, model(summary=summary, questions=list(questions)), m.AnswersGenerated
        )
