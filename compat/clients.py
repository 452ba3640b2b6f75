"""Real clients pointed at the compat judge server, shared by the parity suites."""

from __future__ import annotations

from typing import Any

import openai

from compat.corpus import CASES, Case
from compat.judge_server import JudgeServer

__all__ = [
    "ALL",
    "KEY",
    "MODEL",
    "PARITY",
    "async_client",
    "deepeval_model",
    "legacy_ragas_llm",
    "llm_test_case",
    "ragas_llm",
]

KEY = "sk-compat-not-a-real-key"
MODEL = "gpt-4o-mini"
PARITY = [c for c in CASES if c.kind != "injection"]
ALL = list(CASES)


def async_client(server: JudgeServer) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=server.url, api_key=KEY, max_retries=0)


def ragas_llm(server: JudgeServer) -> Any:
    """What ``ragas.llms.llm_factory`` gives: an instructor-based LLM over AsyncOpenAI (ragas
    0.3+), or on older ragas the LangChain wrapper its factory made then."""
    from ragas.llms import llm_factory

    try:
        return llm_factory(MODEL, client=async_client(server))
    except TypeError:  # ragas < 0.3: llm_factory(model, run_config, default_headers, base_url)
        from langchain_openai import ChatOpenAI
        from ragas.llms import LangchainLLMWrapper

        return LangchainLLMWrapper(ChatOpenAI(model=MODEL, base_url=server.url, api_key=KEY))


def ragas_version() -> tuple[int, ...]:
    import ragas

    return tuple(int(part) for part in ragas.__version__.split(".")[:2] if part.isdigit())


def legacy_ragas_llm(server: JudgeServer) -> Any:
    """An LLM ragas's legacy metrics accept in evaluate(): llm_factory's from ragas 0.4 on,
    the LangChain wrapper before (older legacy prompts do not know instructor LLMs)."""
    if ragas_version() >= (0, 4):
        return ragas_llm(server)
    from langchain_openai import ChatOpenAI
    from ragas.llms import LangchainLLMWrapper

    return LangchainLLMWrapper(ChatOpenAI(model=MODEL, base_url=server.url, api_key=KEY))


def deepeval_model(server: JudgeServer) -> Any:
    """deepeval's native OpenAI model, pointed at the server."""
    import inspect

    from deepeval.models import GPTModel

    accepted = inspect.signature(GPTModel.__init__).parameters
    key = {"api_key": KEY} if "api_key" in accepted else {"_openai_api_key": KEY}
    return GPTModel(model=MODEL, base_url=server.url, **key)


def llm_test_case(c: Case) -> Any:
    from deepeval.test_case import LLMTestCase

    return LLMTestCase(input=c.source, actual_output=c.summary)
