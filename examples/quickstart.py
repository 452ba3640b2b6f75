"""Offline quickstart: score a file of summaries with no API key and no network.

    python examples/quickstart.py [examples/news.jsonl]

The offline LexicalJudge stands in for an LLM judge (numbers, names, dates and content words
instead of a model), so the numbers are an approximation; switch to a real judge by passing
``llm=AsyncOpenAI(), model="gpt-4o-mini"`` instead.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge

path = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).with_name("news.jsonl"))
rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]

scorer = SummarizationScorer(llm=LexicalJudge(), preset="deepeval")
results = scorer.score_many(rows, progress=False)

for row, result in zip(rows, results):
    print(
        f"{row['id']:<28} {result.score:.2f}  alignment {result.alignment_score:.2f}  "
        f"coverage {result.coverage_score:.2f}"
    )
    for claim in result.unsupported_claims:
        print(f"    not supported [{claim.verdict}]: {claim.claim}")

worst = min(zip(rows, results), key=lambda pair: pair[1].score)
print(f"\nlowest: {worst[0]['id']}: {worst[1].reason}")
print(
    f"judge calls: {scorer.usage.judge_calls} ({scorer.usage.reused_calls} saved by the source cache)"
)
