"""Judge backends, detected by type. One module per backend; SDKs load only when used.

``resolve_judge(llm, model)`` accepts:

* an object implementing the ``Judge`` protocol (``LexicalJudge``, ``OpenAIJudge``, yours);
* an ``openai.OpenAI`` / ``openai.AsyncOpenAI`` client plus ``model=``;
* a langchain-core ``BaseChatModel``;
* a ragas ``InstructorBaseRagasLLM`` (from ``llm_factory``) or legacy ``BaseRagasLLM``;
* a deepeval ``DeepEvalBaseLLM`` or a deepeval model name string;
* an Inspect AI ``Model``; an Opik ``OpikBaseModel`` (``LiteLLMChatModel``, ...);
* a callable ``(prompt, schema) -> BaseModel`` (async or sync).

Detection never imports a framework the caller has not imported already: an object can only be a
ragas LLM if ragas is loaded. An MLflow judge model URI is a string, which this resolver reads as
a deepeval model name: the MLflow face wraps it in ``MLflowJudge`` first.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

from .base import Judge, JudgeReply, JudgeRequest
from .guard import ModelRequestsForbidden, allow_model_requests, check_model_request

if TYPE_CHECKING:
    from .cascade import CascadeJudge
    from .deepeval_model import DeepEvalJudge
    from .function import FunctionJudge
    from .inspect_model import InspectJudge
    from .langchain_chat import LangChainJudge
    from .lexical import LexicalJudge
    from .mlflow_model import MLflowJudge
    from .openai_client import OpenAIJudge
    from .opik_model import OpikJudge
    from .ragas_llm import RagasJudge

__all__ = [
    "CascadeJudge",
    "DeepEvalJudge",
    "FunctionJudge",
    "InspectJudge",
    "Judge",
    "JudgeReply",
    "JudgeRequest",
    "LangChainJudge",
    "LexicalJudge",
    "MLflowJudge",
    "ModelRequestsForbidden",
    "OpenAIJudge",
    "OpikJudge",
    "RagasJudge",
    "allow_model_requests",
    "check_model_request",
    "resolve_judge",
]

_LAZY = {
    "CascadeJudge": ".cascade",
    "DeepEvalJudge": ".deepeval_model",
    "FunctionJudge": ".function",
    "InspectJudge": ".inspect_model",
    "LangChainJudge": ".langchain_chat",
    "LexicalJudge": ".lexical",
    "MLflowJudge": ".mlflow_model",
    "OpenAIJudge": ".openai_client",
    "OpikJudge": ".opik_model",
    "RagasJudge": ".ragas_llm",
}

_SUPPORTED = (
    "an openai.OpenAI/AsyncOpenAI client with model=..., a LangChain BaseChatModel, a ragas LLM "
    "(llm_factory(...) or LangchainLLMWrapper), a deepeval DeepEvalBaseLLM or model name, "
    "an Inspect AI Model, an Opik OpikBaseModel, "
    "an async callable (prompt, schema) -> BaseModel, or summscore.judges.LexicalJudge() for offline use"
)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module = importlib.import_module(_LAZY[name], __name__)
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _loaded(module: str) -> bool:
    return module in sys.modules


def _is_judge(obj: Any) -> bool:
    return (
        hasattr(obj, "complete")
        and isinstance(getattr(obj, "name", None), str)
        and hasattr(obj, "reads_prompts")
    )


def resolve_judge(llm: Any, model: str | None = None, **judge_options: Any) -> Judge:
    """Wrap ``llm`` in the backend its type calls for. ``judge_options`` go to OpenAIJudge."""
    if llm is None:
        raise TypeError(f"llm is required: pass {_SUPPORTED}")
    if _is_judge(llm):
        _no_model(model, llm)
        from ._secrets import register_secrets_in

        register_secrets_in(llm)  # a judge of the user's own may hold a client with a key
        return llm
    if _loaded("openai"):
        import openai

        if isinstance(llm, (openai.OpenAI, openai.AsyncOpenAI)):
            if model is None:
                raise TypeError(
                    "model is required with an OpenAI client: model='gpt-4o-mini' (for example)"
                )
            from .openai_client import OpenAIJudge

            return OpenAIJudge(llm, model, **judge_options)
    if _loaded("ragas"):
        from .ragas_llm import RagasJudge, is_ragas_llm

        if is_ragas_llm(llm):
            _no_model(model, llm)
            return RagasJudge(llm)
    if _loaded("deepeval"):
        from deepeval.models import DeepEvalBaseLLM

        if isinstance(llm, DeepEvalBaseLLM):
            _no_model(model, llm)
            from .deepeval_model import DeepEvalJudge

            return DeepEvalJudge(llm)
    if _loaded("inspect_ai"):
        from .inspect_model import InspectJudge, is_inspect_model

        if is_inspect_model(llm):
            _no_model(model, llm)
            return InspectJudge(llm)
    if _loaded("opik"):
        from .opik_model import OpikJudge, is_opik_model

        if is_opik_model(llm):
            _no_model(model, llm)
            return OpikJudge(llm)
    if _loaded("langchain_core"):
        from langchain_core.language_models import BaseChatModel

        if isinstance(llm, BaseChatModel):
            _no_model(model, llm)
            from .langchain_chat import LangChainJudge

            return LangChainJudge(llm)
    if isinstance(llm, str):
        _no_model(model, llm)
        from .deepeval_model import DeepEvalJudge

        return DeepEvalJudge(llm)
    if callable(llm):
        _no_model(model, llm)
        from .function import FunctionJudge

        return FunctionJudge(llm)
    raise TypeError(f"llm: unsupported judge of type {type(llm).__name__}; pass {_SUPPORTED}")


def _no_model(model: str | None, llm: Any) -> None:
    if model is not None:
        raise TypeError(
            f"model= is only used with an OpenAI client; {type(llm).__name__} already names its model"
        )
