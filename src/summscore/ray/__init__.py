"""Score a Ray Data ``Dataset`` on a cluster (extra ``summscore[ray]``).

    import ray
    from summscore import SummarizationScorer
    from summscore.ray import score_dataset

    def make_scorer():  # runs inside each actor: the judge client is built there, never pickled
        from openai import AsyncOpenAI
        return SummarizationScorer(AsyncOpenAI(), model="gpt-4o-mini", preset="deepeval")

    scored = score_dataset(ray.data.read_parquet("s3://bucket/runs/"), make_scorer,
                           concurrency=(2, 8), judge_concurrency=64, num_cpus=0.25)
    scored.write_parquet("s3://bucket/scored/")

Each actor holds one scorer (one judge client, one source cache) and scores its batches with the
scorer's async pipeline. ``judge_concurrency`` is the judge requests in flight across the whole
cluster: each actor gets an equal share, so the judge's rate limit holds however many machines
run. Results are new columns beside the input columns (``score``, the components, ``success``,
``reason``, ``error``, the evidence, the provenance and the spend); a row that fails keeps its
place with ``error`` set. ``summscore score --engine ray`` (the CLI) is ``run_score_file``.

The face of Ray: may import files/, the scorer and below; Ray itself only inside functions.
"""

from __future__ import annotations

from ._actor import RESULT_COLUMNS
from ._cli import run_score_file as run_score_file  # the CLI engine (summscore.cli)
from ._dataset import score_dataset

__all__ = ["RESULT_COLUMNS", "score_dataset"]
