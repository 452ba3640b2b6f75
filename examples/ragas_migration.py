"""The one-line migration from ragas's collections SummaryScore.

    OPENAI_API_KEY=... python examples/ragas_migration.py

Only the import changes. With the same judge, summscore sends ragas's own prompts and returns the
same value, and also works where ragas's does not: score() inside a running event loop, a reason
stating the components, NaN with an explanation instead of ZeroDivisionError.
"""

from __future__ import annotations

import asyncio

from openai import AsyncOpenAI
from ragas.llms import llm_factory
from ragas.metrics.collections import SummaryScore as RagasSummaryScore

from summscore.ragas import SummaryScore  # was: from ragas.metrics.collections import SummaryScore

CONTEXTS = [
    "A company is launching a new product, a smartphone app designed to help users track their "
    "fitness goals. The app allows users to set daily exercise targets, log their meals, and track "
    "their water intake. It also provides personalized workout recommendations and sends "
    "motivational reminders throughout the day."
]
RESPONSE = (
    "A company is launching a fitness tracking app that helps users set exercise goals, log meals, "
    "and track water intake, with personalized workout suggestions and motivational reminders."
)


async def main() -> None:
    llm = llm_factory("gpt-4o-mini", client=AsyncOpenAI())
    theirs = await RagasSummaryScore(llm=llm).ascore(reference_contexts=CONTEXTS, response=RESPONSE)
    ours = await SummaryScore(llm=llm).ascore(reference_contexts=CONTEXTS, response=RESPONSE)
    print(f"ragas:     {theirs.value}")
    print(f"summscore: {ours.value}")
    print(f"reason:    {ours.reason}")
    print(
        "same value" if ours.value == theirs.value else "DIFFERENT (the judge is not deterministic)"
    )
    # Unlike ragas's, the synchronous call works here, inside a running event loop:
    print(f"score():   {SummaryScore(llm=llm).score(CONTEXTS, RESPONSE).value}")


asyncio.run(main())
