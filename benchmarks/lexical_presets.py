"""Which rule's score agrees best with people when the offline judge is the judge? Scores the
development sets and ``examples/news.jsonl`` under the ragas, deepeval and mastra rules (each
rule's final score) and compares them with people's labels and with each other.

    python benchmarks/lexical_presets.py                     # the full development sets
    python benchmarks/lexical_presets.py --sample            # the committed samples
    python benchmarks/lexical_presets.py --figures           # also docs/figures/presets.md

Per development set: each rule's ROC-AUC (Spearman correlation on FRANK's graded labels) and
its margin over the better trivial baseline (unigram or bigram precision) with the 95% paired
bootstrap interval (``fc_stats.py``). Then, per rule, the mean margin over the sets on every pair,
the validation cuts and the test cuts, each with a 95% bootstrap interval (every set's pairs drawn
again, within each class), and the mean difference between each two rules with its interval: an
interval that leaves out 0 says one rule agrees with people better than the other.

``examples/news.jsonl`` has no labels of its own: a summary whose id names its flaw
(misattributed, wrong-number, omits, hallucinates, swapped-names, negation-flip) counts as flawed,
the others as faithful. For it the table gives each rule's ROC-AUC and how many summaries its
score passes at 0.5 (the deepeval rule's default threshold), faithful and flawed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
import time
from itertools import combinations
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from factual_consistency import (  # noqa: E402
    LOADERS,
    SAMPLES,
    Pair,
    load_sample,
    ngram_precision,
    roc_auc,
)
from fc_stats import mean_margin, paired_bootstrap, primary  # noqa: E402

PRESETS = ("ragas", "deepeval", "mastra")
EXAMPLES = HERE.parent / "examples" / "news.jsonl"
FLAWS = ("misattributed", "wrong-number", "omits", "hallucinates", "swapped-names", "negation-flip")
PASS = 0.5


def example_pairs() -> list[Pair]:
    """The examples, labelled by their ids (flawed: the id names the flaw)."""
    pairs = []
    for line in EXAMPLES.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        source = row.get("source") or "\n\n".join(row.get("contexts", []))
        flawed = any(str(row["id"]).endswith(flaw) for flaw in FLAWS)
        pairs.append(Pair("examples", str(row["id"]), source, row["summary"], int(not flawed)))
    return pairs


def score(pairs: list[Pair], preset: str, cache: Path | None) -> list[float]:
    """Every pair's final score under ``preset`` (a failed row counts as 0)."""
    from summscore import SummarizationScorer
    from summscore.judges import LexicalJudge

    key = hashlib.sha256(json.dumps([[p.source, p.summary] for p in pairs]).encode())
    for path in sorted((HERE.parent / "src" / "summscore").rglob("*.py")):
        key.update(path.read_bytes())
    cached = cache / f"{preset}-{key.hexdigest()[:16]}.json" if cache else None
    if cached is not None and cached.exists():
        return json.loads(cached.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    start = time.perf_counter()
    scorer = SummarizationScorer(llm=LexicalJudge(), preset=preset, max_concurrency=1)
    results = scorer.score_many([(p.source, p.summary) for p in pairs], progress=False)
    scores = [0.0 if r.score is None or math.isnan(r.score) else float(r.score) for r in results]
    print(f"  scored {preset} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(scores), encoding="utf-8")
    return scores


def _ci(d: object) -> str:
    value, low, high = (getattr(d, k) for k in ("value", "low", "high"))
    if math.isnan(value):
        return "-"
    mark = "*" if low > 0 or high < 0 else ""
    return f"{value:+.3f}{mark} [{low:+.3f}, {high:+.3f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=os.environ.get("SUMMSCORE_FC_DATA"))
    parser.add_argument("--sample", action="store_true", help="the committed samples")
    parser.add_argument("--cache", type=Path, help="keep each rule's scores here")
    parser.add_argument(
        "--resamples", type=int, default=1000, help="bootstrap resamples of every interval"
    )
    parser.add_argument(
        "--figures", action="store_true", help="also write the tables to docs/figures/presets.md"
    )
    args = parser.parse_args(argv)
    if args.sample:
        pairs = [pair for path in SAMPLES for pair in load_sample(path)]
    elif args.data:
        pairs = [p for load in LOADERS.values() for p in load(Path(args.data))]
    else:
        parser.error("no data: set SUMMSCORE_FC_DATA or pass --data DIR (or --sample)")
    examples = example_pairs()
    everything = pairs + examples
    scores = {preset: score(everything, preset, args.cache) for preset in PRESETS}
    n = len(pairs)
    dev = {preset: values[:n] for preset, values in scores.items()}
    baselines = {
        name: [ngram_precision(p.source, p.summary, k) for p in pairs]
        for k, name in ((1, "unigram"), (2, "bigram"))
    }
    sets: dict[str, list[int]] = {}
    for i, pair in enumerate(pairs):
        sets.setdefault(pair.dataset, []).append(i)
    sets = dict(sorted(sets.items()))
    lines = [
        "| set | pairs | " + " | ".join(f"{p}: figure, margin [95% CI]" for p in PRESETS) + " |",
        "|---|---|" + "---|" * len(PRESETS),
    ]
    for name, index in sets.items():
        chosen = [pairs[i] for i in index]
        graded = all(p.graded is not None for p in chosen)
        cells = []
        for preset in PRESETS:
            mine = [dev[preset][i] for i in index]
            figures = {b: primary(chosen, [v[i] for i in index]) for b, v in baselines.items()}
            better = max(figures, key=lambda b: -math.inf if math.isnan(figures[b]) else figures[b])
            difference = paired_bootstrap(
                mine,
                [baselines[better][i] for i in index],
                labels=[p.label for p in chosen],
                graded=[float(p.graded or 0) for p in chosen] if graded else None,
                resamples=args.resamples,
            )
            figure = primary(chosen, mine)
            cells.append("-" if math.isnan(figure) else f"{figure:.3f}, {_ci(difference)}")
        lines.append(
            f"| {name}{' (ρ)' if graded else ''} | {len(index)} | " + " | ".join(cells) + " |"
        )
    lines += [
        "",
        "| rule | mean margin, all pairs | validation cuts | test cuts |",
        "|---|---|---|---|",
    ]
    for preset in PRESETS:
        cells = [
            _ci(mean_margin(pairs, dev[preset], baselines, sets, cut=cut, resamples=args.resamples))
            for cut in ("all", "val", "test")
        ]
        lines.append(f"| {preset} | " + " | ".join(cells) + " |")
    lines += ["", "| difference | mean over the sets, all pairs | validation cuts | test cuts |"]
    lines.append("|---|---|---|---|")
    for a, b in combinations(PRESETS, 2):
        cells = [
            _ci(mean_margin(pairs, dev[a], {b: dev[b]}, sets, cut=cut, resamples=args.resamples))
            for cut in ("all", "val", "test")
        ]
        lines.append(f"| {a} minus {b} | " + " | ".join(cells) + " |")
    labels = [p.label for p in examples]
    lines += ["", f"| examples/news.jsonl ({sum(labels)} faithful, {len(labels) - sum(labels)} "
              f"flawed) | ROC-AUC | faithful passed at {PASS} | flawed passed at {PASS} |",
              "|---|---|---|---|"]  # fmt: skip
    for preset in PRESETS:
        mine = scores[preset][n:]
        faithful = sum(1 for s, y in zip(mine, labels, strict=True) if y and s >= PASS)
        flawed = sum(1 for s, y in zip(mine, labels, strict=True) if not y and s >= PASS)
        lines.append(
            f"| {preset} | {roc_auc(labels, mine):.3f} | {faithful} of {sum(labels)} | "
            f"{flawed} of {len(labels) - sum(labels)} |"
        )
    print(
        f"{n} development pairs in {len(sets)} sets, {len(examples)} examples; figure: ROC-AUC "
        "(ρ: Spearman); margin: minus the better baseline; * where the interval leaves out 0"
    )
    print("\n".join(lines))
    if args.figures:
        import figures

        setting = f"{n:,} development pairs in {len(sets)} sets, {len(examples)} examples"
        path = figures.write(
            "presets",
            "\n".join(lines),
            command="python benchmarks/lexical_presets.py --figures",
            setting=setting,
        )
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
