"""Mastra's result shape as JSON: {"score": ..., "info": {"reason", "alignmentScore", "coverageScore"}}.

    python examples/mastra_json.py [examples/news.jsonl] > scores.jsonl

One JSON object per line, as Mastra's SummarizationMetric.measure() returns them, for pipelines
that already read Mastra's output. Offline judge by default; pass any judge to SummarizationMetric.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from summscore.judges import LexicalJudge
from summscore.mastra import SummarizationMetric

path = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).with_name("news.jsonl"))
metric = SummarizationMetric(LexicalJudge(), scale=1)

for line in path.read_text(encoding="utf-8").splitlines():
    if not line.strip():
        continue
    row = json.loads(line)
    source = row.get("source") or "\n".join(row["contexts"])
    result = metric.measure(source, row["summary"])
    print(json.dumps({"id": row["id"], **result.to_dict()}, ensure_ascii=False))
