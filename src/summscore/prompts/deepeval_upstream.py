"""The deepeval preset's upstream prompt set, rendered by the installed deepeval at run time.

deepeval 4 renders metric prompts with ``deepeval.templates.resolver.resolve_template`` (what
``BaseMetric._get_prompt`` calls); SummarizationMetric borrows FaithfulnessMetric's
``generate_truths`` and ``generate_claims``. Older deepeval has Python template classes with static
methods, used when the resolver is absent. The output schemas are deepeval's own classes, so native
models get the same structured-output request as under deepeval's metric.

The reason prompt is the one place where SummarizationMetric adds text after rendering (the
missed questions, then ``JSON:``); that tail is reproduced here so the judge sees the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import MissingExtraError
from .base import Rendered

__all__ = ["UpstreamDeepEvalPrompts", "truths_limit_phrase"]


def truths_limit_phrase(limit: int | None) -> str:
    """deepeval's wording of ``truths_extraction_limit`` inside the truths prompt."""
    try:
        from deepeval.metrics.faithfulness.faithfulness import _faithfulness_truths_limit_phrase
    except ImportError:
        if limit is None:
            return " FACTUAL, undisputed truths"
        if limit == 1:
            return " the single most important FACTUAL, undisputed truth"
        return f" the {limit} most important FACTUAL, undisputed truths per document"
    return str(_faithfulness_truths_limit_phrase(limit))


class UpstreamDeepEvalPrompts:
    """Render deepeval's SummarizationMetric prompts with the installed deepeval.

    ``template`` is a user's ``evaluation_template`` (a subclass of deepeval's
    ``SummarizationTemplate``): its methods render the SummarizationMetric prompts, as deepeval's
    ``_get_prompt`` does, each given only the variables it declares. The truths and claims prompts
    stay FaithfulnessMetric's, which a SummarizationMetric template does not reach in deepeval.
    """

    def __init__(self, template: type | None = None) -> None:
        try:
            import deepeval
            from deepeval.metrics.faithfulness import schema as faith_schema
            from deepeval.metrics.summarization import schema as summ_schema
        except ImportError as exc:
            raise MissingExtraError(
                "deepeval", "deepeval", "The deepeval upstream prompt set", exc
            ) from exc
        self._faith: Any = faith_schema
        self._summ: Any = summ_schema
        version = getattr(deepeval, "__version__", None)
        if version is None:
            from importlib.metadata import version as dist_version

            version = dist_version("deepeval")
        self.name = f"deepeval-{version}"
        self.template = template
        if template is not None:
            self.name += f"+{getattr(template, '__qualname__', type(template).__name__)}"
        try:
            from deepeval.templates.resolver import resolve_template
        except ImportError:
            self._resolve: Any = None
            from deepeval.metrics.faithfulness.template import FaithfulnessTemplate
            from deepeval.metrics.summarization.template import SummarizationTemplate

            self._templates: dict[str, Any] = {
                "FaithfulnessMetric": FaithfulnessTemplate,
                "SummarizationMetric": SummarizationTemplate,
            }
        else:
            self._resolve = resolve_template

    def _render(self, template_class: str, method: str, **kwargs: Any) -> str:
        if template_class == "SummarizationMetric" and self.template is not None:
            render = getattr(self.template, method, None)
            if render is not None:
                return _call_declared(render, {**kwargs, "multimodal": False, "strict": True})
        if self._resolve is not None:
            return str(self._resolve("metrics", template_class, method, multimodal=False, **kwargs))
        return _render_legacy(self._templates[template_class], method, kwargs)

    def truths(self, text: str, limit: int | None) -> Rendered:
        prompt = self._render(
            "FaithfulnessMetric",
            "generate_truths",
            retrieval_context=text,
            limit=truths_limit_phrase(limit),
            extraction_limit=limit,
            multimodal_instruction="",
        )
        return Rendered(prompt, self._faith.Truths)

    def claims(self, text: str) -> Rendered:
        prompt = self._render(
            "FaithfulnessMetric", "generate_claims", actual_output=text, multimodal_instruction=""
        )
        return Rendered(prompt, self._faith.Claims)

    def questions(self, text: str, n: int) -> Rendered:
        return Rendered(
            self._render("SummarizationMetric", "generate_questions", text=text, n=n),
            self._summ.Questions,
        )

    def answers(self, text: str, questions: Sequence[str]) -> Rendered:
        prompt = self._render(
            "SummarizationMetric", "generate_answers", questions=list(questions), text=text
        )
        return Rendered(prompt, self._summ.Answers)

    def verdicts(self, claims: Sequence[str], truths: Sequence[str]) -> Rendered:
        prompt = self._render(
            "SummarizationMetric",
            "generate_alignment_verdicts",
            summary_claims=list(claims),
            original_text="\n\n".join(truths),
        )
        return Rendered(prompt, self._summ.Verdicts)

    def reason(
        self,
        score: float,
        contradictions: Sequence[str | None],
        redundancies: Sequence[str | None],
        questions: Sequence[str],
    ) -> Rendered:
        prompt = self._render(
            "SummarizationMetric",
            "generate_reason",
            contradictions=list(contradictions),
            redundancies=list(redundancies),
            questions=list(questions),
            score=format(score, ".2f"),
        )
        if questions:
            prompt += (
                "Questions the original text can answer but not the summary:\n"
                f"{list(questions)}\n\n"
            )
        prompt += "JSON:\n"
        return Rendered(prompt, self._summ.SummarizationScoreReason)


def _call_declared(fn: Any, kwargs: dict[str, Any]) -> str:
    """Call a template method with the variables it declares (all of them if it takes
    ``**kwargs``), as deepeval's ``filter_template_kwargs`` does."""
    import inspect

    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return str(fn(**kwargs))
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return str(fn(**kwargs))
    return str(fn(**{k: v for k, v in kwargs.items() if k in params}))


def _render_legacy(template: Any, method: str, kwargs: dict[str, Any]) -> str:
    """Call an old-style static template method with the arguments it declares."""
    import inspect

    fn = getattr(template, method)
    params = inspect.signature(fn).parameters
    if method == "generate_truths" and "extraction_limit" in params:
        kwargs = {k: v for k, v in kwargs.items() if k != "limit"}
    return _call_declared(fn, kwargs)
