"""``score_dataset``: a lazy Ray Data step that adds the result columns to a dataset."""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import MissingExtraError
from ..files.datasets import Columns
from ._actor import SOURCE_KEY, ScoringActor, clash_error, clashing, with_source_key

if TYPE_CHECKING:
    import ray.data

    from ..scorer import SummarizationScorer

__all__ = ["score_dataset"]


def score_dataset(
    dataset: ray.data.Dataset,
    make_scorer: Callable[[], SummarizationScorer],
    *,
    concurrency: int | tuple[int, int] = 2,
    judge_concurrency: int = 8,
    batch_size: int = 64,
    columns: Columns | None = None,
    prefix: str = "",
    group_by_source: bool = False,
    num_cpus: float = 1.0,
    num_gpus: float | None = None,
    memory: float | None = None,
    resources: dict[str, float] | None = None,
    scheduling_strategy: Any = None,
    ray_remote_args: dict[str, Any] | None = None,
    **renamed: Any,
) -> ray.data.Dataset:
    """Score every row of ``dataset``; returns a lazy dataset with the result columns added.

    Nothing runs at call time: the rows are read and scored when the result is consumed
    (``write_parquet``, ``iter_batches``, ``take_all``, ...), as any Ray Data step.

    Args:
        dataset: rows with a source column (``source``, ``contexts``, ``reference_contexts`` or
            ``input``; a list is several contexts), a summary column (``summary``, ``response`` or
            ``actual_output``) and optionally ``assessment_questions`` and ``id``; ``columns``
            names others, as ``--source-column`` and friends do on the command line.
        make_scorer: builds the scorer inside each actor, e.g. ``lambda: SummarizationScorer(
            AsyncOpenAI(), model="gpt-4o-mini")``. The client reads its key from the node's own
            environment; never put a key in the dataset, the factory or ``runtime_env`` (Ray
            writes ``runtime_env`` to its logs). Give it ``reply_cache=<a directory every worker
            sees>`` to share judge replies.
        concurrency: scoring actors, as ``map_batches`` takes it: a number, or ``(min, max)``
            for a pool Ray grows and shrinks with the work.
        judge_concurrency: judge requests in flight across all actors together: each actor
            gets ``judge_concurrency // max actors`` (not Ray's per-actor thread count).
        batch_size: rows per batch handed to an actor.
        columns: other column names, ``Columns(source=..., summary=..., id=..., questions=...)``.
        prefix: put before each result column's name; a result column that would replace an
            input column is refused (nothing overwrites the user's data).
        group_by_source: send all rows of one source to one actor, so its source-side judge
            work (keyphrases, questions, truths) is done once across the cluster. Costs a shuffle
            (nothing is scored until every row is read) and the rows come back grouped by
            source, not in input order.
        num_cpus: CPUs reserved by each actor, as ``map_batches`` takes it: an actor waiting on
            a remote judge needs little (``0.25``); the offline judge is CPU-bound and wants 1.
        num_gpus: GPUs reserved by each actor (Ray's option, passed as given).
        memory: bytes of memory reserved by each actor (Ray's option, passed as given).
        resources: custom Ray resources each actor needs, e.g. ``{"judge_quota": 1}``.
        scheduling_strategy: where Ray places the actors, e.g. ``"SPREAD"``.
        ray_remote_args: any other ``ray.remote`` option of the actors. summscore starts them
            with ``max_restarts=0`` (see the docs, "Ray"); ``{"max_restarts": -1}`` restores Ray's
            default.
        **renamed: the old names ``actors`` (now ``concurrency``) and ``max_concurrency`` (now
            ``judge_concurrency``), accepted with a warning.
    """
    try:
        import ray.data
    except ImportError as exc:
        raise MissingExtraError("ray", "ray", "summscore.ray", exc) from None
    concurrency, judge_concurrency = _renamed(renamed, concurrency, judge_concurrency)
    low, high = _pool_size(concurrency)
    _positive("judge_concurrency", judge_concurrency)
    _positive("batch_size", batch_size)
    high = min(high, judge_concurrency)  # each actor needs one request slot
    low = min(low, high)
    share = judge_concurrency // high  # the total never exceeds judge_concurrency
    schema = dataset.schema(fetch_if_missing=False)  # known without running anything, or None
    if schema is not None and (clash := clashing(list(schema.names), prefix)):
        raise clash_error(clash)  # (else the actor checks its first batch)
    columns = columns or Columns()
    if group_by_source:
        _check_room_to_shuffle(low * num_cpus)
        dataset = _grouped(dataset, columns, blocks=4 * high)
    pool = (
        ray.data.ActorPoolStrategy(size=low)
        if low == high
        else ray.data.ActorPoolStrategy(min_size=low, max_size=high)
    )
    options: dict[str, Any] = {"max_restarts": 0, **(ray_remote_args or {})}
    named: dict[str, Any] = {"num_cpus": num_cpus, "num_gpus": num_gpus, "memory": memory}
    named.update(resources=resources, scheduling_strategy=scheduling_strategy)
    options.update({name: value for name, value in named.items() if value is not None})
    return _map_batches(
        dataset,
        ScoringActor,
        options,
        fn_constructor_args=(make_scorer, share, columns, prefix),
        batch_format="pyarrow",
        batch_size=batch_size,
        compute=pool,
        zero_copy_batch=True,
    )


def _map_batches(
    dataset: ray.data.Dataset, fn: Any, options: dict[str, Any], **kwargs: Any
) -> ray.data.Dataset:
    """``map_batches`` with the actors' Ray options: named where this Ray has the parameter,
    else as ``**ray_remote_args``. Ray 2.59+ warns that those are deprecated; our own
    ``max_restarts=0`` goes that way without the warning, a user's option with it."""
    parameters = inspect.signature(type(dataset).map_batches).parameters
    takes_more = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    extra = {k: v for k, v in options.items() if k not in parameters}
    if not takes_more and set(extra) == {"max_restarts"}:
        extra = {}  # a Ray that takes no remote args: keep its default restarts
    kwargs.update({k: v for k, v in options.items() if k in parameters}, **extra)
    with warnings.catch_warnings():
        if set(extra) <= {"max_restarts"}:
            warnings.filterwarnings("ignore", message=".*ray_remote_args.* is deprecated")
        return dataset.map_batches(fn, **kwargs)


def _grouped(dataset: ray.data.Dataset, columns: Columns, blocks: int) -> ray.data.Dataset:
    """The rows of each source in one block (so one actor), by a hash of the source's text."""
    keyed = dataset.map_batches(
        with_source_key,  # type: ignore[arg-type, unused-ignore]  # typed only with ray installed
        fn_kwargs={"columns": columns},
        batch_format="pyarrow",
    )
    if "keys" in inspect.signature(type(dataset).repartition).parameters:
        return keyed.repartition(blocks, keys=[SOURCE_KEY], sort=True)
    return keyed.sort(SOURCE_KEY)  # (older Ray: a source may straddle two blocks)


def _check_room_to_shuffle(held: float) -> None:
    """Grouping shuffles the rows with Ray tasks before anything is scored, and Ray starts the
    actors' minimum pool at once: if those actors hold every CPU, the shuffle never runs."""
    import ray

    if not ray.is_initialized():
        return  # (Ray starts at execution; it cannot be checked here)
    cpus = ray.cluster_resources().get("CPU", 0.0)
    if held >= cpus:
        raise ValueError(
            f"group_by_source: the actors would hold all {cpus:g} CPUs of the cluster and leave "
            "none for the shuffle that groups the rows (it would never finish); use fewer "
            "actors (concurrency=(1, n) starts one), a smaller num_cpus, or a bigger cluster"
        )


def _renamed(renamed: dict[str, Any], concurrency: Any, judge_concurrency: int) -> tuple[Any, int]:
    """The old names: ``actors`` is ``concurrency``, ``max_concurrency`` ``judge_concurrency``
    (it read as Ray's per-actor thread count)."""
    for old, new in (("actors", "concurrency"), ("max_concurrency", "judge_concurrency")):
        if old in renamed:
            warnings.warn(
                f"score_dataset({old}=...) is now {new}=", DeprecationWarning, stacklevel=3
            )
    unknown = sorted(set(renamed) - {"actors", "max_concurrency"})
    if unknown:
        raise TypeError(f"score_dataset() got an unexpected keyword argument {unknown[0]!r}")
    return renamed.get("actors", concurrency), renamed.get("max_concurrency", judge_concurrency)


def _pool_size(concurrency: Any) -> tuple[int, int]:
    if isinstance(concurrency, tuple) and len(concurrency) == 2:
        low, high = concurrency
        _positive("concurrency", low)
        _positive("concurrency", high)
        if low > high:
            raise ValueError(f"concurrency=(min, max) needs min <= max, got {concurrency!r}")
        return low, high
    if isinstance(concurrency, tuple):
        raise ValueError(f"concurrency must be a number or (min, max), got {concurrency!r}")
    _positive("concurrency", concurrency)
    return concurrency, concurrency


def _positive(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
