"""Does the offline judge agree with people? Scores public human-labelled factual-consistency
data and prints, per dataset, how well each score separates or ranks what people judged.

    python benchmarks/factual_consistency.py                # the full development sets
    python benchmarks/factual_consistency.py --sample       # the small committed samples (CI)
    python benchmarks/factual_consistency.py --only alignment --limit 200 --datasets summedits
    python benchmarks/factual_consistency.py --labels mine.csv --source-column doc  # your own

``--labels`` reads your own human-labelled pairs instead (any file ``summscore score`` reads, with
a label column: 1/0, true/false, consistent/inconsistent, ...; a graded column, the set and the
cut are optional; rows that cannot be used are named and left out): see ``fc_labels.py``.

The full sets are read, unchanged, from the data folders of their repositories, checked out (or
copied) under the folder named by ``SUMMSCORE_FC_DATA`` (or ``--data``):

* ``factualNLG/data/summedits/summedits_*.json``  (salesforce/factualNLG: SummEdits, binary)
* ``frank/data/human_annotations.json`` with the documents and summaries of either
  ``frank/data/benchmark_data.json`` (artidoro/frank today) or, where that file is missing, the
  repository's first version of them, ``frank/data/articles-wmetrics-reference-json/<hash>.json``
  (commit 5860706: one document per file, each system's summary under the system's name); graded
  (the share of the summary's sentences without error) and binary (no error at all)
* ``AggreFact/data/error_type_mapping/{CLIFF,Goyal21}_error_types.csv`` (Liyan06/AggreFact:
  the CLIFF and Goyal'21 parts, binary)

For FRANK it also measures, the same way, the scores of the reference metrics its authors
published for every pair (``frank/data/baseline_factuality_metrics_outputs.json``: QAGS, FEQA,
FactCC, DAE, BERTScore precision against the article), as ``pub:*`` rows.

A fresh folder is three clones (FRANK's clone has benchmark_data.json):

    git clone https://github.com/salesforce/factualNLG "$SUMMSCORE_FC_DATA/factualNLG"
    git clone https://github.com/artidoro/frank "$SUMMSCORE_FC_DATA/frank"
    git clone https://github.com/Liyan06/AggreFact "$SUMMSCORE_FC_DATA/AggreFact"

Development sets only: the rest of AggreFact (and any other public set) is held out, never
tuned on. Scores compared: the judge's alignment score (deepeval rule), the final scores of the
ragas and deepeval rules, and two trivial baselines, unigram and bigram precision of the summary
against the source (lower-cased alphanumeric tokens). For binary labels: ROC-AUC, and balanced
accuracy at the threshold that is best on the set's validation cut, applied to its test cut; for
graded labels, Spearman and Pearson correlation. A row the scorer could not score counts as 0.
Per dataset it prints the time each scorer took and its pairs per second, and at the end how many
development sets the judge's alignment score beats both baselines on (ROC-AUC on binary sets,
Spearman on FRANK's graded labels).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path

# The data, scores and report live in fc_data, fc_measure and fc_report; their names are
# importable from here, as before the split (tests and the lexical_* benchmarks import them).
from fc_data import (  # noqa: F401
    BASELINES,
    DATA,
    DEVELOPMENT_SETS,
    FRANK_DATASETS,
    FRANK_PUBLISHED,
    LOADERS,
    SAMPLES,
    SCORES,
    SUMMEDITS_DOMAINS,
    VALIDATION_FLOOR,
    Pair,
    load_aggrefact,
    load_frank,
    load_sample,
    load_summedits,
)
from fc_measure import (  # noqa: F401
    balanced_accuracy,
    best_threshold,
    cascade_report,
    measure,
    ngram_precision,
    roc_auc,
    score_pairs,
    tuned_balanced_accuracy,
)
from fc_report import published_systems, report, write_figures  # noqa: F401


def missing_sets(found: Iterable[str]) -> list[str]:
    """The development sets the issue names that the data folder did not provide."""
    return sorted(set(DEVELOPMENT_SETS) - set(found))


def _write_json(path: str, figures: dict[str, object]) -> None:
    """The figures as JSON, a figure that could not be computed (one class only) as null."""

    def plain(value: object) -> object:
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return value

    text = json.dumps(plain(figures), indent=1, allow_nan=False)
    Path(path).write_text(text, encoding="utf-8")


def _read_labels(args: argparse.Namespace) -> tuple[list[Pair], list[str]]:
    """The pairs of the ``--labels`` files, and the rows left out (see fc_labels)."""
    from fc_labels import read_labelled

    from summscore.cases import check_source
    from summscore.errors import MissingExtraError
    from summscore.files.datasets import Columns, InputError

    columns = Columns(source=args.source_column, summary=args.summary_column, id=args.id_column)
    pairs: list[Pair] = []
    problems: list[str] = []
    for path in args.labels:
        try:
            rows, left_out = read_labelled(
                path,
                columns=columns,
                label_column=args.label_column,
                graded_column=args.graded_column,
                dataset_columns=args.dataset_column,
                encoding=args.encoding,
                sheet=args.sheet,
            )
        except (InputError, MissingExtraError) as exc:
            raise SystemExit(f"error: {exc}") from None
        problems.extend(left_out)
        # A source given as a list of passages is one text, joined as the scorer joins it, for
        # the judge and the baselines alike.
        pairs.extend(
            Pair(r.dataset, r.id, check_source(r.source), r.summary, r.label, r.graded, r.cut)
            for r in rows
        )
    return pairs, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=os.environ.get("SUMMSCORE_FC_DATA"))
    parser.add_argument("--sample", action="store_true", help="the small committed sample")
    parser.add_argument("--datasets", nargs="*", help="prefixes of the dataset names to run")
    parser.add_argument("--only", nargs="*", choices=SCORES, default=list(SCORES))
    parser.add_argument("--limit", type=int, help="at most this many pairs per dataset")
    parser.add_argument(
        "--cut",
        choices=("val", "test"),
        help="only the validation or only the test cut of each set (tune on val, report both)",
    )
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument(
        "--figures",
        action="store_true",
        help="also write the docs' tables to docs/figures/offline-judge-*.md",
    )
    parser.add_argument(
        "--cascade",
        type=float,
        metavar="THRESHOLD",
        help="also compare judge='cascade' at this confidence threshold with the LLM alone",
    )
    parser.add_argument(
        "--cascade-base-url",
        help="--cascade: an OpenAI-compatible server for the LLM (default: the compat judge "
        "server standing in); the key is read from OPENAI_API_KEY",
    )
    parser.add_argument("--cascade-model", default="compat", help="--cascade: the model name")
    labelled = parser.add_argument_group(
        "your own labelled pairs (instead of the development sets; see benchmarks/fc_labels.py)"
    )
    labelled.add_argument(
        "--labels",
        nargs="+",
        metavar="FILE",
        help="JSONL, JSON, CSV, TSV or Parquet files of source, summary and a human label",
    )
    labelled.add_argument("--source-column", help="--labels: the source column (default: found)")
    labelled.add_argument("--summary-column", help="--labels: the summary column (default: found)")
    labelled.add_argument("--id-column", help="--labels: the id column (default: id if present)")
    labelled.add_argument("--label-column", help="--labels: 1/0, true/false, ... (default: label)")
    labelled.add_argument("--graded-column", help="--labels: a graded label (judged on Spearman)")
    labelled.add_argument(
        "--dataset-column",
        nargs="+",
        default=(),
        metavar="COLUMN",
        help="--labels: the column(s) naming each row's set (default: dataset, else the file)",
    )
    labelled.add_argument("--encoding", default="utf-8", help="--labels: the files' encoding")
    labelled.add_argument(
        "--sheet", help="--labels: the worksheet of Excel files (where several hold data)"
    )
    args = parser.parse_args(argv)
    described = "development sets"
    if args.labels:
        pairs, problems = _read_labels(args)
        described = "labelled sets"
        for problem in problems[:20]:
            print(f"left out: {problem}")
        if len(problems) > 20:
            print(f"left out: {len(problems) - 20} more rows")
        if problems:
            print(f"{len(problems)} row(s) left out of the figures, {len(pairs)} read")
    elif args.sample:
        pairs = [pair for path in SAMPLES for pair in load_sample(path)]
    elif args.data:
        root = Path(args.data)
        pairs = [p for load in LOADERS.values() for p in load(root)]
    else:
        parser.error("no data: set SUMMSCORE_FC_DATA or pass --data DIR (or --sample)")
    by_set: dict[str, list[Pair]] = {}
    for pair in pairs:
        if args.datasets and not any(pair.dataset.startswith(d) for d in args.datasets):
            continue
        if args.cut and (pair.cut == "val") != (args.cut == "val"):
            continue
        chosen = by_set.setdefault(pair.dataset, [])
        if args.limit is None or len(chosen) < args.limit:
            chosen.append(pair)
    if not by_set:
        if args.labels:
            parser.error(
                "no labelled pair left to score (see the rows left out, --cut, --datasets)"
            )
        parser.error("no pairs found: see the docstring for the expected folder layout")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)  # before the run, not after
    absent = [] if args.sample or args.labels or args.datasets else missing_sets(by_set)
    if absent:
        print(f"not in the data folder (no figure): {', '.join(absent)}")
    start = time.perf_counter()
    figures = report(dict(sorted(by_set.items())), set(args.only), described)
    print(f"total {sum(map(len, by_set.values()))} pairs in {time.perf_counter() - start:.0f} s")
    if args.json:
        _write_json(args.json, figures)
    if args.figures:
        setting = f"{sum(map(len, by_set.values())):,} development pairs"
        for path in write_figures(figures, setting):
            print(f"wrote {path}")
    if args.cascade is not None:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # compat/
        moved = cascade_report(
            dict(sorted(by_set.items())), args.cascade, args.cascade_base_url, args.cascade_model
        )
        if args.json:
            figures["cascade"] = {"threshold": args.cascade, **moved}
            _write_json(args.json, figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
