"""Score a Ray Data ``Dataset`` on a cluster (extra ``summscore[ray]``).

    import ray
    from summscore import SummarizationScorer
    from summscore.ray import score_dataset

    def make_scorer():  # runs inside each actor: the judge client is built there, never pickled
        from openai import AsyncOpenAI
        return SummarizationScorer(AsyncOpenAI(), model="gpt-4o-mini", preset="deepeval",
                                   reply_cache="/mnt/shared/summscore")

    scored = score_dataset(ray.data.read_parquet("s3://bucket/runs/"), make_scorer,
                           max_concurrency=64, actors=8)
    scored.write_parquet("s3://bucket/scored/")

Each actor holds one scorer (one judge client, one source cache) and scores its batches with the
scorer's async pipeline. ``max_concurrency`` is the judge requests in flight across the whole
cluster: each actor gets an equal share, so the judge's rate limit holds however many machines
run. Results are new columns beside the input columns (``score``, the components, ``success``,
``reason``, ``error``, ``missed_questions``, ``unsupported_claims``, ``warnings``); a row that
fails keeps its place with ``error`` set.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .errors import MissingExtraError
from .files.datasets import FIELDS, Columns, output_row, rows_from_records
from .files.writer import claim_support_type

if TYPE_CHECKING:
    import pyarrow
    import ray.data

    from .scorer import SummarizationScorer

__all__ = ["RESULT_COLUMNS", "score_dataset"]

# The columns score_dataset adds (the CLI's results file also has the id and the fingerprint).
RESULT_COLUMNS = tuple(name for name in FIELDS if name not in ("id", "fingerprint"))


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


class _Scorer:
    """The Ray actor: one scorer and one judge client for its whole life."""

    def __init__(
        self,
        make_scorer: Callable[[], SummarizationScorer],
        share: int,
        columns: Columns,
        prefix: str,
    ) -> None:
        self.scorer = make_scorer()
        self.share = share
        _bound_requests(self.scorer, share)
        self.columns = columns
        self.prefix = prefix

    def __call__(self, batch: pyarrow.Table) -> pyarrow.Table:
        import pyarrow as pa

        rows = rows_from_records(batch.to_pylist(), self.columns)
        cases = [(r.source, r.summary, r.assessment_questions) for r in rows if r.error is None]
        scored = iter(self.scorer.score_many(cases, max_concurrency=self.share, progress=False))
        outputs = []
        for row in rows:
            if row.error is None:
                result = next(scored)
            else:  # a row that cannot be read still gets its result row, with the reason
                result = self.scorer.failed_result(ValueError(row.error))
            outputs.append(output_row(row.id, result))
        types = _arrow_types()
        for name in RESULT_COLUMNS:
            column = pa.array([out[name] for out in outputs], type=types[name])
            batch = batch.append_column(self.prefix + name, column)
        return batch


def score_dataset(
    dataset: ray.data.Dataset,
    make_scorer: Callable[[], SummarizationScorer],
    *,
    max_concurrency: int = 8,
    actors: int = 2,
    batch_size: int = 64,
    columns: Columns | None = None,
    prefix: str = "",
    num_cpus: float = 1.0,
) -> ray.data.Dataset:
    """Score every row of ``dataset``; returns it lazily with the result columns added.

    Args:
        dataset: rows with a source column (``source``, ``contexts``, ``reference_contexts`` or
            ``input``; a list is several contexts), a summary column (``summary``, ``response`` or
            ``actual_output``) and optionally ``assessment_questions`` and ``id``; ``columns``
            names others, as ``--source-column`` and friends do on the command line.
        make_scorer: builds the scorer inside each actor, e.g. ``lambda: SummarizationScorer(
            AsyncOpenAI(), model="gpt-4o-mini")``; API keys come from the workers' environment
            (``runtime_env={"env_vars": ...}``), never through the dataset or the pickle.
            Give it ``reply_cache=<a directory every worker sees>`` to share judge replies.
        max_concurrency: judge requests in flight across all actors together.
        actors: scoring actors (at most ``max_concurrency``: each needs one request slot).
        prefix: put before each result column's name; a result column that would replace an
            input column is refused (nothing overwrites the user's data).
        num_cpus: CPUs each actor reserves (an actor waiting on a remote judge needs little;
            the offline judge is CPU-bound and wants 1).
    """
    try:
        import ray.data
    except ImportError as exc:
        raise MissingExtraError("ray", "ray", "summscore.ray", exc) from None
    for name, value in (("max_concurrency", max_concurrency), ("actors", actors)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    actors = min(actors, max_concurrency)
    share = max_concurrency // actors  # the total never exceeds max_concurrency
    existing = set(dataset.schema().names) if dataset.schema() is not None else set()
    clash = sorted(existing & {prefix + name for name in RESULT_COLUMNS})
    if clash:
        raise ValueError(
            f"the dataset already has column(s) {', '.join(clash)}; "
            "pass prefix= (e.g. prefix='summscore_') so the results do not replace them"
        )
    return dataset.map_batches(
        _Scorer,
        fn_constructor_args=(make_scorer, share, columns or Columns(), prefix),
        batch_format="pyarrow",
        batch_size=batch_size,
        compute=ray.data.ActorPoolStrategy(size=actors),
        num_cpus=num_cpus,
        zero_copy_batch=True,
    )


# ------------------------------------------------------------------ the command line


def run_score_file(args: Any, make_scorer: Callable[[Any], SummarizationScorer]) -> int:
    """``summscore score INPUT --engine ray [--address ...]``: the file's rows scored on Ray.

    Rows are read on the driver with the CLI's own reader (so a broken row is reported exactly as
    without Ray), scored by actors on the cluster, and written in input order to ``--out``.
    Returns the CLI's exit status; raises ValueError on bad usage.
    """
    import sys
    from pathlib import Path

    from .cases import check_questions, check_source, check_summary
    from .files.datasets import ResultWriter, read_rows
    from .files.fingerprint import fingerprint, run_settings
    from .results.stats import describe

    try:
        import ray
    except ImportError as exc:
        raise MissingExtraError("ray", "ray", "--engine ray", exc) from None
    path = Path(args.input)
    columns = Columns(
        args.source_column, args.summary_column, args.id_column, args.questions_column
    )
    out = Path(args.out) if args.out else Path("summscore-out") / f"{path.stem}.results.jsonl"
    local = make_scorer(args)  # checks the options here, before any cluster work
    settings = run_settings(local)  # each row's fingerprint, as the local engine writes it
    model = args.model if args.judge != "lexical" else None
    ids: list[Any] = []
    failed: dict[int, Any] = {}  # rows that cannot be scored, by index: their result
    items: list[dict[str, Any]] = []
    prints: dict[int, str | None] = {}  # the scored rows' fingerprints, by index
    rows = read_rows(path, columns, encoding=args.encoding, sheet=getattr(args, "sheet", None))
    for index, row in enumerate(rows):
        if args.limit is not None and index >= args.limit:
            break
        ids.append(row.id)
        try:
            if row.error is not None:
                raise ValueError(row.error)
            text = check_source(row.source)
            summary = check_summary(row.summary)
            questions = check_questions(row.assessment_questions)
        except (TypeError, ValueError) as exc:
            failed[index] = local.failed_result(exc)
            continue
        questions_list = list(questions) if questions else None
        items.append({"i": index, "source": text, "summary": summary, "q": questions_list})
        prints[index] = fingerprint(settings, text, summary, questions)
    if not ids:
        raise ValueError(f"{path}: the file has no rows")
    owner = not ray.is_initialized()  # a caller that already joined a cluster keeps it
    if owner:
        ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
    try:
        context = ray.data.DataContext.get_current()
        context.execution_options.preserve_order = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        actors = max(1, min(args.max_concurrency, cpus))
        scored_rows: Any = iter(())
        if items:
            dataset = ray.data.from_items(items, override_num_blocks=min(len(items), 4 * actors))
            scored = score_dataset(
                dataset,
                functools.partial(make_scorer, args),
                max_concurrency=args.max_concurrency,
                actors=actors,
                columns=Columns(source="source", summary="summary", id="i", questions="q"),
                prefix="result_",
            )
            scored_rows = iter(scored.iter_rows())
        scores: list[float | None] = []
        with ResultWriter(out) as writer:
            for index, row_id in enumerate(ids):
                if index in failed:
                    record = output_row(row_id, failed[index], model=model)
                else:
                    done = next(scored_rows)
                    assert done["i"] == index, "Ray returned rows out of order"
                    record = {"id": row_id}
                    for name in RESULT_COLUMNS:
                        value = done["result_" + name]
                        record[name] = value.tolist() if hasattr(value, "tolist") else value
                    record["model"] = model
                    record["fingerprint"] = prints[index]
                writer.write(record)
                scores.append(record["score"])
    finally:
        # Finish Ray's row iterator while Ray is up: left to the garbage collector after
        # shutdown, it reports its stats to a cluster that is gone (a logged traceback).
        close = getattr(scored_rows, "close", None)
        if callable(close):
            close()
        if owner:
            ray.shutdown()
    table = describe(scores).rows()
    width = max(len(label) for label, _ in table)
    print(f"summscore: {local.preset} preset, judge {local.judge.name}, on Ray", file=sys.stderr)
    print("\n".join(f"  {label:<{width}}  {value}" for label, value in table), file=sys.stderr)
    print(f"results: {'stdout' if str(out) == '-' else out}", file=sys.stderr)
    return 1 if failed or any(s is None for s in scores) else 0
