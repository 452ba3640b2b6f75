"""The ragas preset's upstream prompt set, rendered by the installed ragas at run time.

ragas >= 0.3.x ships the collections ``SummaryScore`` prompt classes
(``ragas.metrics.collections.summary_score.util``); they are rendered with ``.to_string(Input(...))``
and their output models are what the judge is asked for, exactly as the collections metric does.
Older ragas has only the legacy ``PydanticPrompt`` objects of ``ragas.metrics._summarization``,
which are used instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import MissingExtraError
from .base import Rendered

__all__ = ["UpstreamRagasPrompts"]


class UpstreamRagasPrompts:
    """Render the ragas SummaryScore prompts with the installed ragas."""

    def __init__(self) -> None:
        try:
            import ragas
        except ImportError as exc:
            raise MissingExtraError("ragas", "ragas", "The ragas upstream prompt set", exc) from exc
        version = getattr(ragas, "__version__", "unknown")
        try:
            from ragas.metrics.collections.summary_score import util
        except ImportError:
            self._collections = False
            from ragas.metrics import _summarization as legacy

            self._legacy: Any = legacy
            self._kp_prompt: Any = legacy.ExtractKeyphrasePrompt()
            self._q_prompt: Any = legacy.GenerateQuestionsPrompt()
            self._a_prompt: Any = legacy.GenerateAnswersPrompt()
            self.name = f"ragas-{version}-legacy"
        else:
            self._collections = True
            self._util: Any = util
            self._kp_prompt = util.ExtractKeyphrasesPrompt()
            self._q_prompt = util.GenerateQuestionsPrompt()
            self._a_prompt = util.GenerateAnswersPrompt()
            self.name = f"ragas-{version}"

    def keyphrases(self, text: str) -> Rendered:
        if self._collections:
            u = self._util
            return Rendered(
                self._kp_prompt.to_string(u.ExtractedKeyphrasesInput(text=text)),
                u.ExtractedKeyphrases,
            )
        from ragas.prompt import StringIO

        return Rendered(
            self._kp_prompt.to_string(StringIO(text=text)), self._legacy.ExtractedKeyphrases
        )

    def questions(self, text: str, keyphrases: Sequence[str]) -> Rendered:
        if self._collections:
            u = self._util
            data = u.GenerateQuestionsInput(text=text, keyphrases=list(keyphrases))
            return Rendered(self._q_prompt.to_string(data), u.QuestionsGenerated)
        lg = self._legacy
        data = lg.GenerateQuestionsPromptInput(text=text, keyphrases=list(keyphrases))
        return Rendered(self._q_prompt.to_string(data), lg.QuestionsGenerated)

    def answers(self, summary: str, questions: Sequence[str]) -> Rendered:
        if self._collections:
            u = self._util
            data = u.GenerateAnswersInput(summary=summary, questions=list(questions))
            return Rendered(self._a_prompt.to_string(data), u.AnswersGenerated)
        lg = self._legacy
        data = lg.SummaryAndQuestions(summary=summary, questions=list(questions))
        return Rendered(self._a_prompt.to_string(data), lg.AnswersGenerated)
