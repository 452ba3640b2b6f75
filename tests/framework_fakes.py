"""Fake judges built on the frameworks' own LLM base classes.

Each one answers every prompt through ``compat.oracle`` (deterministic answers read off the texts
inside the prompt), records the prompts it was sent, and can be told to answer a task its own way.
Upstream metrics and summscore's faces can then be run on the same judge and compared prompt by
prompt and number by number. Import only where ragas / deepeval are installed.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from compat.oracle import answer, recognise
from pydantic import BaseModel

Override = Callable[[str, dict[str, Any]], dict[str, Any] | None]


class Oracle:
    """The shared brain: records prompts, answers through compat.oracle or an override."""

    def __init__(self, override: Override | None = None) -> None:
        self.prompts: list[str] = []
        self.override = override

    def reply(self, prompt: str, schema: dict[str, Any] | None) -> dict[str, Any]:
        self.prompts.append(prompt)
        if self.override is not None:
            found = recognise(prompt)
            custom = self.override(found.task if found else "", found.inputs if found else {})
            if custom is not None:
                return custom
        return answer(prompt, schema)

    def tasks(self) -> list[str]:
        return [found.task if (found := recognise(p)) else "?" for p in self.prompts]


def ragas_instructor_llm(oracle: Oracle) -> Any:
    """An ``InstructorBaseRagasLLM``, what ``ragas.llms.llm_factory`` returns."""
    from ragas.llms.base import InstructorBaseRagasLLM

    class OracleInstructorLLM(InstructorBaseRagasLLM):
        is_async = True
        model = "oracle"

        def generate(self, prompt: str, response_model: type[BaseModel]) -> Any:
            data = oracle.reply(prompt, response_model.model_json_schema())
            return response_model.model_validate(data)

        async def agenerate(self, prompt: str, response_model: type[BaseModel]) -> Any:
            await asyncio.sleep(0)
            return self.generate(prompt, response_model)

    return OracleInstructorLLM()


def ragas_llm(oracle: Oracle) -> Any:
    """The kind of LLM the installed ragas makes: instructor-based where it has them (0.3+),
    else a legacy BaseRagasLLM."""
    try:
        from ragas.llms.base import InstructorBaseRagasLLM  # noqa: F401
    except ImportError:
        return ragas_legacy_llm(oracle)
    return ragas_instructor_llm(oracle)


def ragas_metric_llm(oracle: Oracle) -> Any:
    """An LLM ragas's own legacy metrics accept: instructor-based from ragas 0.4 on (their
    prompts call it), the legacy interface before."""
    import ragas

    major_minor = tuple(int(p) for p in ragas.__version__.split(".")[:2] if p.isdigit())
    return ragas_llm(oracle) if major_minor >= (0, 4) else ragas_legacy_llm(oracle)


def ragas_legacy_llm(oracle: Oracle) -> Any:
    """A legacy ``BaseRagasLLM`` (the interface of ``LangchainLLMWrapper``) answering in text."""
    from langchain_core.outputs import Generation, LLMResult
    from ragas.llms.base import BaseRagasLLM

    class OracleLegacyLLM(BaseRagasLLM):
        def generate_text(
            self,
            prompt: Any,
            n: int = 1,
            temperature: float | None = None,
            stop: Any = None,
            callbacks: Any = None,
        ) -> LLMResult:
            text = json.dumps(oracle.reply(prompt.to_string(), None), ensure_ascii=False)
            return LLMResult(generations=[[Generation(text=text)]])

        async def agenerate_text(
            self,
            prompt: Any,
            n: int = 1,
            temperature: float | None = None,
            stop: Any = None,
            callbacks: Any = None,
        ) -> LLMResult:
            return self.generate_text(prompt, n, temperature, stop, callbacks)

        def is_finished(self, response: LLMResult) -> bool:
            return True

    return OracleLegacyLLM()


def deepeval_llm(oracle: Oracle, *, structured: bool = True) -> Any:
    """A custom ``DeepEvalBaseLLM``: takes a schema and returns its instances (``structured``),
    or, as deepeval's docs write a text-only model, takes only a prompt and returns JSON text."""
    from deepeval.models import DeepEvalBaseLLM

    class OracleDeepEvalLLM(DeepEvalBaseLLM):
        def __init__(self) -> None:
            super().__init__("oracle")

        def load_model(self) -> Any:
            return self

        def get_model_name(self) -> str:
            return "oracle"

        def generate(self, prompt: str, schema: type[BaseModel] | None = None) -> Any:
            data = oracle.reply(prompt, schema.model_json_schema() if schema else None)
            return schema.model_validate(data) if schema is not None else json.dumps(data)

        async def a_generate(self, prompt: str, schema: type[BaseModel] | None = None) -> Any:
            await asyncio.sleep(0)
            return self.generate(prompt, schema)

    class OracleTextDeepEvalLLM(OracleDeepEvalLLM):
        def generate(self, prompt: str) -> str:  # type: ignore[override]
            return json.dumps(oracle.reply(prompt, None), ensure_ascii=False)

        async def a_generate(self, prompt: str) -> str:  # type: ignore[override]
            await asyncio.sleep(0)
            return self.generate(prompt)

    return OracleDeepEvalLLM() if structured else OracleTextDeepEvalLLM()
