"""Judge with a model on your own machine, through any OpenAI-compatible server.

    ollama serve & ollama pull llama3.1
    python examples/local_server.py                      # Ollama at localhost:11434
    JUDGE_BASE_URL=http://localhost:8000/v1 JUDGE_MODEL=Qwen/Qwen2.5-7B-Instruct \
        python examples/local_server.py                  # vLLM
    JUDGE_BASE_URL=http://localhost:8080/v1 python examples/local_server.py   # llama.cpp server

summscore asks for JSON-schema structured output, falls back to JSON mode and then to plain text
when the server refuses, and reads JSON wrapped in code fences or prose, so small local models
work too. Local servers need no API key.
"""

from __future__ import annotations

import os

from openai import AsyncOpenAI

from summscore import SummarizationScorer

client = AsyncOpenAI(
    base_url=os.environ.get("JUDGE_BASE_URL", "http://localhost:11434/v1"),
    api_key=os.environ.get("JUDGE_API_KEY", "not-needed"),
)
scorer = SummarizationScorer(
    llm=client,
    model=os.environ.get("JUDGE_MODEL", "llama3.1"),
    preset="mastra",
    max_concurrency=2,  # local servers serve a few requests at a time
    timeout=300,
)

source = (
    "Tesla, the electric car company, was founded in 2003 by Martin Eberhard and Marc Tarpenning. "
    "Elon Musk joined in 2004 as the largest investor and became CEO in 2008. The company's first "
    "car, the Roadster, was launched in 2008."
)
summary = "Tesla was founded in 2003 by Elon Musk and launched the Roadster in 2008."

result = scorer.score(source, summary)
print(f"score {result.score}  alignment {result.alignment_score}  coverage {result.coverage_score}")
print(f"reason: {result.reason}")
print(
    f"judge: {result.judge}, {result.usage.judge_calls} calls, "
    f"{result.usage.input_tokens} input / {result.usage.output_tokens} output tokens"
)
