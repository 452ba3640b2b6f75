"""The frameworks' own LLM-judge metrics that run in the same loops as summscore's faces, on the
same scripted judge: Braintrust's autoevals ``Summary``, Opik's ``Hallucination``, Phoenix's
``HallucinationEvaluator`` and MLflow's built-in ``Guidelines`` judge. None of them scores a
summary the way summscore does (one verdict per row, not questions and claims), so the rows
compare seconds and judge calls, not scores. LangSmith and Inspect ship no such metric for a
summary and a source (LangSmith's live in the separate openevals package; Inspect's
``model_graded_fact`` needs a target answer).

Their clients are built with the SDK's own retries off (``max_retries=0``, ``num_retries=0``), as
the faces' ``AsyncOpenAI`` client is (summscore retries by itself); a 429 that the framework does
not retry shows as a failed row.
"""

from __future__ import annotations

import os
from typing import Any

MODEL = "gpt-4o-mini"
KEY = "sk-benchmark-not-a-real-key"

BRAINTRUST_NAME = "Summary"
MLFLOW_COLUMN = "guidelines/value"
PHOENIX_COLUMN = "hallucination_score"


def braintrust_judge(url: str) -> Any:
    """autoevals' ``Summary`` (input, output, expected) over an ``AsyncOpenAI`` client on ``url`` (``Eval`` awaits its
    ``eval_async``)."""
    import openai
    from autoevals import Summary

    return Summary(model=MODEL, client=openai.AsyncOpenAI(base_url=url, api_key=KEY, max_retries=0))


def opik_judge(url: str) -> Any:
    """Opik's ``Hallucination`` (input, output, context) through LiteLLM on ``url``."""
    from opik.evaluation.metrics import Hallucination
    from opik.evaluation.models import LiteLLMChatModel

    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no download
    model = LiteLLMChatModel(
        model_name=f"openai/{MODEL}", track=False, api_base=url, api_key=KEY, num_retries=0
    )
    return Hallucination(model=model, track=False)


def phoenix_judge(url: str) -> Any:
    """Phoenix's ``HallucinationEvaluator`` (input, output, context) on an OpenAI client."""
    from phoenix.evals.llm import LLM
    from phoenix.evals.metrics import HallucinationEvaluator

    llm = LLM(provider="openai", model=MODEL, base_url=url, api_key=KEY)
    return HallucinationEvaluator(llm=llm)


def mlflow_judge(url: str) -> Any:
    """MLflow's built-in ``Guidelines`` judge (the document and the summary against one
    guideline) through LiteLLM on ``url``."""
    from mlflow.genai.scorers import Guidelines

    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ["OPENAI_BASE_URL"] = os.environ["OPENAI_API_BASE"] = url
    os.environ["OPENAI_API_KEY"] = KEY
    return Guidelines(
        name="guidelines",
        guidelines="The response states only facts found in the request's document.",
        model=f"openai:/{MODEL}",
    )
