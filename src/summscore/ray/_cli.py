"""``summscore score INPUT --engine ray``: the file's rows scored by actors on a Ray cluster.

The driver reads the rows with the CLI's own reader (a broken row is reported exactly as on the
local engine), keeps what ``--resume`` may reuse, sends the rest to the actors grouped by source
(a source's work is done once, as locally) and writes every row in input order through the local
engine's sink: the same results file, fingerprints and closing summary.
"""

from __future__ import annotations

import argparse
import functools
import logging
import pickle
import sys
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from ..errors import MissingExtraError
from ..files.datasets import Columns, ResultWriter, Row, open_rows
from ..files.fingerprint import run_settings
from ..files.job import RunSink, flush_ready, print_summary, settled
from ..files.provenance import RunProvenance
from ..files.resume import open_resume
from ..results import SummaryResult, Usage
from ..scorer import SummarizationScorer
from ._actor import PICKLED, ScoringActor, reserved_cpus, source_key
from ._dataset import _map_batches

__all__ = ["run_score_file"]

# The CLI's exit statuses (summscore.cli.usage): this layer sits below the CLI.
_OK, _FAILED_ROWS, _INTERRUPTED = 0, 3, 130
_BLOCKS_PER_ACTOR = 4  # blocks to share out: a slow block holds up no more than its actor


def run_score_file(
    args: argparse.Namespace, make_scorer: Callable[[Any], SummarizationScorer]
) -> int:
    """Score the file ``args.input`` on Ray into ``args.out`` (``-``: stdout); returns the CLI's
    exit status and raises ValueError or OSError on bad usage. ``make_scorer(args)`` builds a
    scorer: here to check the options before any cluster work, and in each actor."""
    try:
        import ray
    except ImportError as exc:
        raise MissingExtraError("ray", "ray", "--engine ray", exc) from None
    path = Path(args.input)
    out = None if args.out == "-" else Path(args.out)
    if args.limit is not None and args.limit < 0:
        raise ValueError("--limit must be 0 or more")
    local = make_scorer(args)
    columns = Columns(
        args.source_column, args.summary_column, args.id_column, args.questions_column
    )
    reader = open_rows(path, columns, encoding=args.encoding, sheet=getattr(args, "sheet", None))
    rows_left = iter(reader)
    rows = list(rows_left if args.limit is None else islice(rows_left, args.limit))
    if not rows and args.limit != 0:
        raise ValueError(f"{path}: the file has no rows")
    raw_csv = bool(getattr(args, "raw_csv", False))
    resume = open_resume(out, raw_csv=raw_csv) if args.resume and out is not None else None
    # (finished by an atomic rename on close)
    writer = ResultWriter("-" if out is None else out, raw_csv=raw_csv)
    sink = RunSink(
        writer,
        model=args.model,
        top=float(args.scale) if args.preset == "mastra" and args.scale else 1.0,
        keep_for_report=False,
        resume=resume,
        settings=run_settings(local),
        positional_ids=reader.columns.id is None,
        provenance=RunProvenance(
            local.options, summary_column=reader.columns.summary, id_column=reader.columns.id
        ),
    )
    sink.cut_short = args.limit is not None and next(rows_left, None) is not None
    run = _Run(rows, sink, local, args)
    owner = False  # (Ray starts only when a row is left to score)
    try:
        if run.todo:
            owner = not ray.is_initialized()  # a caller that already joined a cluster keeps it
            if owner:
                ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
            run.score(functools.partial(_actor_scorer, make_scorer, args))
    except KeyboardInterrupt:
        run.stopped = "interrupted"
    except Exception as exc:  # a lost actor or node: keep what is finished, say how to go on
        run.stopped = f"the Ray run stopped ({type(exc).__name__}: {_last_line(exc)})"
    finally:
        run.close()
        if owner:
            ray.shutdown()
    where = "stdout" if out is None else str(out)
    if run.stopped:
        again = "; the same command with --resume scores only the rest" if out else ""
        print(
            f"summscore: {run.stopped}; the rows finished so far are in {where}{again}",
            file=sys.stderr,
        )
        return _INTERRUPTED if run.stopped == "interrupted" else _FAILED_ROWS
    if run.actors:
        print(f"summscore: scored on Ray by {run.actors} actors", file=sys.stderr)
    print_summary(sink, local, sys.stderr, usage=run.usage)
    print(f"results: {where}", file=sys.stderr)
    return _FAILED_ROWS if sink.stats.failed else _OK


def _actor_scorer(
    make_scorer: Callable[..., SummarizationScorer], args: Any
) -> SummarizationScorer:
    """The scorer an actor builds: the offline judge gets the CPUs Ray reserved for the actor
    (not the machine's, which every actor on it would start a process each for), a process
    each when there are several."""
    if args.judge != "lexical":
        return make_scorer(args)
    if getattr(args, "workers", None) is None:
        args = argparse.Namespace(**{**vars(args), "workers": reserved_cpus()})
    return make_scorer(args, pool=True)


def _last_line(exc: BaseException) -> str:
    """What went wrong, in a line: a Ray task error's text is a whole traceback, the cause last."""
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return lines[-1].strip() if lines else type(exc).__name__


class _Run:
    """One run: rows settled without a judge (kept by --resume, unreadable) are written at
    once; the others go to Ray and are written in input order as they come back."""

    def __init__(self, rows: list[Row], sink: RunSink, local: SummarizationScorer, args: Any):
        from tqdm.auto import tqdm

        self.rows, self.sink, self.args = rows, sink, args
        self.ready: dict[int, SummaryResult | dict[str, Any]] = {}
        self.todo: list[int] = []
        for index, row in enumerate(rows):
            outcome = settled(sink, local, row)
            if outcome is None:
                self.todo.append(index)
            else:
                self.ready[index] = outcome
        self.bar = tqdm(
            total=len(rows),
            desc="scoring",
            unit="row",
            file=sys.stderr,
            disable=args.no_progress,
            dynamic_ncols=True,
        )
        self.position = flush_ready(rows, self.ready, 0, sink, self.bar)
        self.usage = Usage()  # what the actors spent
        self.actors = 0
        self.stopped: str | None = None
        self._batches: Iterator[Any] | None = None

    def score(self, factory: Callable[[], SummarizationScorer]) -> None:
        import ray

        context = ray.data.DataContext.get_current()
        context.execution_options.preserve_order = True  # blocks come back in the order made
        context.enable_progress_bars = False  # the run's own bar counts rows written
        # (and Ray's warning that its bars are off would only say what was asked of it)
        logging.getLogger("ray.data._internal.progress").setLevel(logging.ERROR)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.actors = max(1, min(self.args.max_concurrency, cpus, len(self.todo)))
        blocks = _blocks(self.rows, self.todo, self.actors * _BLOCKS_PER_ACTOR)
        scored = _map_batches(
            ray.data.from_arrow(blocks),
            ScoringActor,
            {"num_cpus": 1, "max_restarts": 0},
            fn_constructor_args=(
                factory,
                self.args.max_concurrency // self.actors,
                Columns("source", "summary", "i", "q"),
                "",
                True,
            ),
            batch_format="pyarrow",
            batch_size=64,
            compute=ray.data.ActorPoolStrategy(size=self.actors),
            zero_copy_batch=True,
        )
        self._batches = iter(scored.iter_batches(batch_format="pyarrow", batch_size=None))
        for batch in self._batches:
            for index, blob in zip(
                batch.column("i").to_pylist(), batch.column(PICKLED).to_pylist()
            ):
                result: SummaryResult = pickle.loads(blob)
                self.usage.add(result.usage)
                self.ready[index] = result
            self.position = flush_ready(self.rows, self.ready, self.position, self.sink, self.bar)

    def close(self) -> None:
        # Finish Ray's iterator while Ray is up: left to the garbage collector after shutdown,
        # it reports its stats to a cluster that is gone (a logged traceback).
        close = getattr(self._batches, "close", None)
        if callable(close):
            close()
        if self.stopped:  # rows finished after one still missing: written too, for --resume
            for index in sorted(self.ready):
                self.sink.emit(self.rows[index], self.ready.pop(index))
        self.bar.close()
        self.sink.finish(self.stopped is not None)
        self.sink.writer.close()


def _blocks(rows: list[Row], todo: list[int], count: int) -> list[Any]:
    """The rows to score as Arrow tables, one per block: each source's rows together (one actor
    does its source-side work once), sources in order of first appearance, about
    ``len(todo) / count`` rows a block."""
    import pyarrow as pa

    groups: dict[str, list[int]] = {}
    for index in todo:
        groups.setdefault(source_key(rows[index].source), []).append(index)
    size = -(-len(todo) // max(1, min(count, len(todo))))
    schema = pa.schema(
        [
            ("i", pa.int64()),
            ("source", pa.string()),
            ("summary", pa.string()),
            ("q", pa.list_(pa.string())),
        ]
    )
    tables, current = [], []
    for members in groups.values():
        current.extend(members)
        if len(current) >= size:
            tables.append(_table(rows, current, schema))
            current = []
    if current:
        tables.append(_table(rows, current, schema))
    return tables


def _table(rows: list[Row], indexes: list[int], schema: Any) -> Any:
    import pyarrow as pa

    from ..cases import check_source

    items = [
        {
            "i": i,
            "source": check_source(rows[i].source),
            "summary": rows[i].summary,
            "q": rows[i].assessment_questions,
        }
        for i in sorted(indexes)
    ]
    return pa.Table.from_pylist(items, schema=schema)
