"""ragas.evaluate() with summscore's legacy SummarizationScore.

    OPENAI_API_KEY=... python examples/ragas_evaluate.py

The metric takes its judge from evaluate(llm=...), as ragas's own metrics do. Point the client at
any OpenAI-compatible server with OPENAI_BASE_URL.
"""

from __future__ import annotations

from openai import AsyncOpenAI
from ragas import EvaluationDataset, evaluate
from ragas.llms import llm_factory

from summscore.ragas import SummarizationScore

dataset = EvaluationDataset.from_list(
    [
        {
            "reference_contexts": [
                "The European Central Bank raised its main interest rate by 0.25 percentage points "
                "to 4.5% on Thursday, its tenth consecutive increase."
            ],
            "response": "The ECB raised rates by a quarter point to 4.5%, its tenth rise in a row.",
        },
        {
            "reference_contexts": [
                "Tesla was founded in 2003 by Martin Eberhard and Marc Tarpenning. Elon Musk joined "
                "in 2004 as the largest investor."
            ],
            "response": "Tesla was founded in 2003 by Elon Musk.",
        },
    ]
)

llm = llm_factory("gpt-4o-mini", client=AsyncOpenAI())
result = evaluate(dataset, metrics=[SummarizationScore()], llm=llm, show_progress=False)
print(result.to_pandas()[["response", "summary_score"]].to_string())
