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

import functools
import weakref
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
    ragas has them). ``owner`` holds the prompts (under ``COLLECTIONS_PROMPTS`` or
    ``LEGACY_PROMPTS``); without one this object holds ragas's defaults itself.
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
        return tuple(_cached_signature(p) for p in self.prompts)

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
            return Rendered(lambda: render(prompt, data), prompt.output_model)
        return Rendered(lambda: render(prompt, data), schema)

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


# ----------------------------------------------------------------- rendering at the cost of a join
#
# ragas's to_string rebuilds the whole prompt on every call: the output model's JSON schema and
# every few-shot example are serialised again (about a millisecond of CPU per judge call). Only
# the input changes between calls, and ragas's own to_string methods put it in the text as
# ``data.model_dump_json(...)`` and nowhere else. So a prompt is rendered once around a marker
# input, and later renderings join that frame's two halves around the real input's JSON: the same
# text, byte for byte. The frame is rebuilt when what it was built from is replaced (the prompt
# object, its instruction, output model, language or examples list). Prompt classes with a
# to_string of their own are rendered by it, every time.


class _Frame:
    """A prompt rendered around a marker input (``head`` + input JSON + ``tail``); ``head`` is
    None for a prompt that does not fit a frame."""

    __slots__ = ("dump_kwargs", "head", "key", "tail")

    def __init__(
        self,
        key: tuple[Any, ...],
        head: str | None = None,
        tail: str = "",
        dump_kwargs: dict[str, Any] | None = None,
    ) -> None:
        self.key = key
        self.head = head
        self.tail = tail
        self.dump_kwargs = dump_kwargs or {}


class _MarkerInput:
    """Stands in for a prompt's input while its frame is rendered; records how it was dumped."""

    TEXT = "\x00summscore-ragas-input\x00"

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def model_dump_json(self, **kwargs: Any) -> str:
        self.calls.append(kwargs)
        return self.TEXT


_frames: weakref.WeakKeyDictionary[Any, _Frame] = weakref.WeakKeyDictionary()
_signatures: weakref.WeakKeyDictionary[Any, tuple[tuple[Any, ...], tuple[Any, ...]]] = (
    weakref.WeakKeyDictionary()
)


@functools.cache
def _stock_renderers() -> tuple[Any, ...]:
    """ragas's own to_string methods, the ones known to embed the input once, as its JSON."""
    found: list[Any] = []
    try:
        from ragas.prompt.metrics.base_prompt import BasePrompt

        found.append(BasePrompt.to_string)
    except ImportError:
        pass
    try:
        from ragas.prompt.pydantic_prompt import PydanticPrompt

        found.append(PydanticPrompt.to_string)
    except ImportError:
        pass
    return tuple(found)


def _frame_key(prompt: Any) -> tuple[Any, ...]:
    """What a prompt's frame is built from, compared cheaply (examples by identity)."""
    examples = getattr(prompt, "examples", None) or ()
    return (
        type(prompt),
        getattr(prompt, "instruction", None),
        getattr(prompt, "language", None),
        getattr(prompt, "output_model", None),
        id(examples),
        tuple(id(part) for example in examples for part in example),
    )


def _build_frame(prompt: Any, key: tuple[Any, ...]) -> _Frame:
    if getattr(type(prompt), "to_string", None) not in _stock_renderers():
        return _Frame(key)
    marker = _MarkerInput()
    try:
        text = prompt.to_string(marker)
    except Exception:  # a prompt that reads its input otherwise: rendered directly
        return _Frame(key)
    if len(marker.calls) != 1 or text.count(_MarkerInput.TEXT) != 1:
        return _Frame(key)
    head, tail = text.split(_MarkerInput.TEXT)
    return _Frame(key, head, tail, marker.calls[0])


def render(prompt: Any, data: Any) -> str:
    """``prompt.to_string(data)``, from a cached frame when the prompt allows it."""
    try:
        key = _frame_key(prompt)
        frame = _frames.get(prompt)
        if frame is None or frame.key != key:
            frame = _frames[prompt] = _build_frame(prompt, key)
    except TypeError:  # a prompt that cannot be weakly referenced or hashed
        return str(prompt.to_string(data))
    if frame.head is None:
        return str(prompt.to_string(data))
    return frame.head + data.model_dump_json(**frame.dump_kwargs) + frame.tail


def _cached_signature(prompt: Any) -> tuple[Any, ...]:
    """``prompt_signature``, recomputed only when the frame key changes."""
    try:
        key = _frame_key(prompt)
        cached = _signatures.get(prompt)
        if cached is not None and cached[0] == key:
            return cached[1]
        signature = prompt_signature(prompt)
        _signatures[prompt] = (key, signature)
        return signature
    except TypeError:
        return prompt_signature(prompt)
