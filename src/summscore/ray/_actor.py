"""The Ray actor that scores batches: one scorer (one judge client, one source cache) for its
whole life, its share of the cluster's judge requests, and no more CPUs than Ray reserved."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import os
import pickle
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..cases import check_source
from ..files.datasets import FIELDS, Columns, output_row, rows_from_records
from ..files.writer import claim_support_type

if TYPE_CHECKING:
    import pyarrow

    from ..scorer import SummarizationScorer

__all__ = ["PICKLED", "RESULT_COLUMNS", "SOURCE_KEY", "ScoringActor", "reserved_cpus"]

# The columns score_dataset adds (the CLI's results file also has the id and the fingerprint).
RESULT_COLUMNS = tuple(name for name in FIELDS if name not in ("id", "fingerprint"))
"""The columns ``score_dataset`` adds to each row: the score, the components, ``success``,
``reason``, ``error``, the evidence, the provenance and the spend (``prefix=`` renames them)."""
SOURCE_KEY = "__summscore_source"  # what rows are grouped by (group_by_source), then dropped
PICKLED = "__summscore_result"  # the CLI's column: each row's whole SummaryResult, pickled


def reserved_cpus() -> int:
    """The whole CPUs Ray reserved for the calling actor or task (at least 1); outside Ray, the
    CPUs this process may use."""
    import ray

    if not ray.is_initialized():
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    cpus = ray.get_runtime_context().get_assigned_resources().get("CPU", 1.0)
    return max(1, int(cpus))


def model_name(judge: Any) -> str | None:
    """The model a judge asks (the ``model`` column), None for the offline judge."""
    judge = getattr(judge, "llm_judge", judge)  # a cascade's LLM
    model = getattr(judge, "model", None)
    if isinstance(model, str):
        return model
    name = getattr(model, "get_model_name", None)  # a deepeval model
    return str(name()) if callable(name) else None


def _arrow_types() -> dict[str, Any]:
    import pyarrow as pa

    texts = pa.list_(pa.string())
    floats = ("score", "qa_score", "conciseness_score", "alignment_score", "coverage_score")
    types: dict[str, Any] = {name: pa.float64() for name in floats}
    types.update(success=pa.bool_(), reason=pa.string(), error=pa.string())
    types.update(missed_questions=texts, unsupported_claims=texts, warnings=texts)
    types.update(claim_support=claim_support_type())  # the offline judge's graded claims
    for name in ("preset", "judge", "model", "prompt_set"):  # provenance
        types[name] = pa.string()
    types.update(threshold=pa.float64(), cost=pa.float64())
    for name in ("judge_calls", "input_tokens", "output_tokens"):
        types[name] = pa.int64()
    return types


def _bound_requests(scorer: SummarizationScorer, limit: int) -> None:
    """At most ``limit`` judge requests of this scorer in flight (a case may send several)."""
    judge = scorer.judge
    complete = judge.complete
    slots: asyncio.Semaphore | None = None

    @functools.wraps(complete)
    async def bounded(request: Any) -> Any:
        nonlocal slots
        if slots is None:
            slots = asyncio.Semaphore(limit)
        async with slots:
            return await complete(request)

    judge.complete = bounded  # type: ignore[method-assign]


def clashing(names: list[str], prefix: str) -> list[str]:
    """The result columns that would replace input columns of these names."""
    return sorted(set(names) & {prefix + name for name in RESULT_COLUMNS})


def clash_error(clash: list[str]) -> ValueError:
    return ValueError(
        f"the dataset already has column(s) {', '.join(clash)}; "
        "pass prefix= (e.g. prefix='summscore_') so the results do not replace them"
    )


def source_key(source: Any) -> str:
    """The source's text as the scorer's source cache sees it, hashed ("" when it cannot be
    read: such rows fail without a judge call)."""
    try:
        text = check_source(source)
    except (TypeError, ValueError):
        return ""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def with_source_key(batch: pyarrow.Table, columns: Columns) -> pyarrow.Table:
    """A Ray task: the batch with its rows' source keys (what group_by_source groups by)."""
    import pyarrow as pa

    rows = rows_from_records(batch.to_pylist(), columns, start=None)
    keys = pa.array([source_key(row.source) for row in rows], type=pa.string())
    return batch.append_column(SOURCE_KEY, keys)


class ScoringActor:
    """The actor: ``make_scorer()`` runs once, here, so the judge client is built on the worker
    (never pickled) and its source cache serves every batch this actor gets."""

    def __init__(
        self,
        make_scorer: Callable[[], SummarizationScorer],
        share: int,
        columns: Columns,
        prefix: str,
        pickled: bool = False,
    ) -> None:
        self.scorer = make_scorer()
        self.share = share
        _bound_requests(self.scorer, share)
        self.columns = columns
        self.prefix = prefix
        self.pickled = pickled  # the CLI's mode: the row's index and its whole result
        self.model = model_name(self.scorer.judge)

    def __call__(self, batch: pyarrow.Table) -> pyarrow.Table:
        import pyarrow as pa

        if SOURCE_KEY in batch.column_names:
            batch = batch.drop_columns([SOURCE_KEY])
        clash = clashing(batch.column_names, self.prefix)  # (when the schema was not known)
        if clash and not self.pickled:
            raise clash_error(clash)
        rows = rows_from_records(batch.to_pylist(), self.columns, start=None)
        cases = [(r.source, r.summary, r.assessment_questions) for r in rows if r.error is None]
        scored = iter(self.scorer.score_many(cases, max_concurrency=self.share, progress=False))
        results = [
            next(scored) if row.error is None else self.scorer.failed_result(ValueError(row.error))
            for row in rows  # a row that cannot be read keeps its place, with the reason
        ]
        if self.pickled:
            blobs = pa.array([pickle.dumps(r) for r in results], type=pa.binary())
            return pa.table({"i": batch.column("i"), PICKLED: blobs})
        outputs = [output_row(row.id, r, model=self.model) for row, r in zip(rows, results)]
        types = _arrow_types()
        for name in RESULT_COLUMNS:
            column = pa.array([out[name] for out in outputs], type=types[name])
            batch = batch.append_column(self.prefix + name, column)
        return batch
