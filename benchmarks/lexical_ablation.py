"""Which rules of the offline judge earn their keep? Switches each rule family off in turn and
prints, per development set, how the judge's agreement with people changes.

    python benchmarks/lexical_ablation.py                      # every family, full sets
    python benchmarks/lexical_ablation.py --families negation-flip opposites
    python benchmarks/lexical_ablation.py --together surnames initial-and-number
    python benchmarks/lexical_ablation.py --sample --families units   # the committed samples

The data are the development sets of ``factual_consistency.py`` (``SUMMSCORE_FC_DATA`` or
``--data``; ``--sample`` for the small committed samples). The families are in
``lexical_families.py``: each is the set of patches that switches it off, applied in a fresh
process (``--jobs`` of them at once).

The figure is the one ``factual_consistency.py`` judges the judge by: the deepeval rule's
alignment score, ROC-AUC on binary labels and Spearman correlation on FRANK's graded ones
(``--score deepeval``: the rule's final score instead). For each family it prints, per set, the
change "family off minus on" with its 95% paired bootstrap interval (2,000 resamples, within each
class on binary labels: ``fc_stats.py``; marked ``*`` where the interval leaves out 0), then the
mean margin over the better trivial baseline (unigram or bigram precision) on the validation and
the test cuts, with the family on and off.

The rule a family is judged by (issue #36): it earns its keep if switching it off moves a set
beyond its interval the wrong way, or lowers the validation or the test margin (as printed, to
three decimals). A family that does neither is deleted from the judge. ``--json`` writes every
figure; ``--cache DIR`` keeps each configuration's scores, keyed by the judge's code.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from factual_consistency import LOADERS, SAMPLES, Pair, load_sample, ngram_precision  # noqa: E402
from fc_stats import Difference, cut_margin, paired_bootstrap, primary  # noqa: E402
from lexical_families import BY_NAME, FAMILIES, switch_off  # noqa: E402

LEXICAL = HERE.parent / "src" / "summscore" / "judges" / "lexical"
CUTS = ("val", "test")


# ----------------------------------------------------------------------------------- worker


def _work(families: list[str], pairs_file: Path, out: Path) -> None:
    """Score every pair with ``families`` switched off: [alignment, deepeval score] per pair."""
    from summscore import SummarizationScorer
    from summscore.judges import LexicalJudge

    switch_off(families)
    rows = json.loads(pairs_file.read_text(encoding="utf-8"))
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="deepeval", max_concurrency=1)
    results = scorer.score_many([(source, summary) for source, summary in rows], progress=False)
    scores = [[_value(r.alignment_score), _value(r.score)] for r in results]
    out.write_text(json.dumps(scores), encoding="utf-8")


def _value(x: float | None) -> float:
    return 0.0 if x is None or math.isnan(x) else float(x)


# ----------------------------------------------------------------------------------- parent


def _code_key() -> str:
    digest = hashlib.sha256()
    for path in sorted(LEXICAL.glob("*.py")):
        digest.update(path.name.encode() + path.read_bytes())
    for name in ("lexical_families.py", "lexical_patches.py"):
        digest.update((HERE / name).read_bytes())
    return digest.hexdigest()[:16]


def _scores(
    configs: list[tuple[str, list[str]]], pairs: list[Pair], jobs: int, cache: Path | None
) -> dict[str, list[list[float]]]:
    """Each configuration's scores, computed in fresh processes (or read from ``cache``)."""
    rows = [[p.source, p.summary] for p in pairs]
    blob = json.dumps(rows).encode()
    data_key = hashlib.sha256(blob).hexdigest()[:16]
    code_key = _code_key()
    found: dict[str, list[list[float]]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        pairs_file = Path(scratch) / "pairs.json"
        pairs_file.write_bytes(blob)

        def run(config: tuple[str, list[str]]) -> None:
            label, families = config
            cached = cache / f"{code_key}-{data_key}-{label}.json" if cache else None
            if cached is not None and cached.exists():
                found[label] = json.loads(cached.read_text(encoding="utf-8"))
                return
            out = Path(scratch) / f"{label}.json"
            start = time.perf_counter()
            command = [sys.executable, __file__, "--worker", ",".join(families)]
            command += ["--pairs-file", str(pairs_file), "--out", str(out)]
            subprocess.run(command, check=True)
            found[label] = json.loads(out.read_text(encoding="utf-8"))
            print(f"  scored {label} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
            if cached is not None:
                cached.parent.mkdir(parents=True, exist_ok=True)
                cached.write_text(out.read_text(encoding="utf-8"), encoding="utf-8")

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            list(pool.map(run, configs))
    return found


def _by_set(pairs: list[Pair]) -> dict[str, list[int]]:
    sets: dict[str, list[int]] = {}
    for i, pair in enumerate(pairs):
        sets.setdefault(pair.dataset, []).append(i)
    return dict(sorted(sets.items()))


def _change(pairs: list[Pair], off: list[float], on: list[float]) -> Difference:
    if off == on:  # nothing moved: no interval to draw
        return Difference(0.0, 0.0, 0.0)
    graded = all(p.graded is not None for p in pairs)
    return paired_bootstrap(
        off,
        on,
        labels=[p.label for p in pairs],
        graded=[float(p.graded or 0) for p in pairs] if graded else None,
    )


def measure(
    pairs: list[Pair],
    scores: dict[str, list[float]],
    baselines: dict[str, list[float]],
    configs: list[str],
) -> dict[str, dict[str, object]]:
    """Per configuration: per set the figure and its change against "none" (with the paired
    bootstrap interval), and the mean margins over the better baseline per cut."""
    sets = _by_set(pairs)
    figures: dict[str, dict[str, object]] = {}
    for label in configs:
        per_set: dict[str, object] = {}
        for name, index in sets.items():
            chosen = [pairs[i] for i in index]
            mine = [scores[label][i] for i in index]
            entry: dict[str, object] = {"figure": primary(chosen, mine)}
            if label != "none":
                entry["change"] = vars(_change(chosen, mine, [scores["none"][i] for i in index]))
            per_set[name] = entry
        margins = {
            cut: cut_margin(pairs, scores[label], baselines, sets, cut) for cut in ("all", *CUTS)
        }
        figures[label] = {"sets": per_set, "margins": margins}
    return figures


def verdict(figures: dict[str, dict[str, object]], label: str) -> tuple[bool, list[str]]:
    """Does the family earn its keep, and why (the sets it moves beyond their interval the
    wrong way, the margins it lowers as printed)."""
    reasons: list[str] = []
    for name, entry in figures[label]["sets"].items():  # type: ignore[union-attr]
        change = entry.get("change")
        if change and change["high"] < 0:
            reasons.append(f"{name} {change['value']:+.3f}")
    on = figures["none"]["margins"]
    off = figures[label]["margins"]
    for cut in CUTS:
        if round(off[cut], 3) < round(on[cut], 3):  # type: ignore[index]
            reasons.append(f"{cut} margin {on[cut]:+.3f} -> {off[cut]:+.3f}")  # type: ignore[index]
    return bool(reasons), reasons


def _fmt_change(change: dict[str, float] | None) -> str:
    if not change or math.isnan(change["value"]):
        return "-"
    mark = "*" if change["low"] > 0 or change["high"] < 0 else ""
    return f"{change['value']:+.3f}{mark} [{change['low']:+.3f}, {change['high']:+.3f}]"


def print_table(
    figures: dict[str, dict[str, object]], labels: list[str], markdown: bool = False
) -> list[str]:
    """The table: a row per configuration, a column per set, the margins and the verdict."""
    sets = list(figures["none"]["sets"])  # type: ignore[arg-type]
    head = ["family off", *sets, "val margin", "test margin", "earns its keep"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    on = figures["none"]["margins"]
    lines.append(
        "| (none: the judge as it is) | "
        + " | ".join(f"{figures['none']['sets'][s]['figure']:.3f}" for s in sets)  # type: ignore[index]
        + f" | {on['val']:+.3f} | {on['test']:+.3f} | |"  # type: ignore[index]
    )
    for label in labels:
        if label == "none":
            continue
        keep, reasons = verdict(figures, label)
        margins = figures[label]["margins"]
        cells = [_fmt_change(figures[label]["sets"][s].get("change")) for s in sets]  # type: ignore[index]
        lines.append(
            f"| {label} | "
            + " | ".join(cells)
            + f" | {margins['val']:+.3f} | {margins['test']:+.3f} | "  # type: ignore[index]
            + ("yes: " + "; ".join(reasons) if keep else "no")
            + " |"
        )
    if not markdown:
        for line in lines:
            print(line)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=os.environ.get("SUMMSCORE_FC_DATA"))
    parser.add_argument("--sample", action="store_true", help="the small committed samples")
    parser.add_argument("--datasets", nargs="*", help="prefixes of the dataset names to run")
    parser.add_argument("--families", nargs="*", help="these families (default: every one)")
    parser.add_argument(
        "--together", nargs="*", help="also these families switched off at once (one row)"
    )
    parser.add_argument("--score", choices=("alignment", "deepeval"), default="alignment")
    parser.add_argument("--jobs", type=int, default=1, help="configurations scored at once")
    parser.add_argument("--cache", type=Path, help="keep each configuration's scores here")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--pairs-file", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        _work([f for f in args.worker.split(",") if f], args.pairs_file, args.out)
        return 0
    unknown = sorted((set(args.families or ()) | set(args.together or ())) - set(BY_NAME))
    if unknown:
        parser.error(f"no such family: {', '.join(unknown)} (see lexical_families.py)")
    if args.sample:
        pairs = [pair for path in SAMPLES for pair in load_sample(path)]
    elif args.data:
        pairs = [p for load in LOADERS.values() for p in load(Path(args.data))]
    else:
        parser.error("no data: set SUMMSCORE_FC_DATA or pass --data DIR (or --sample)")
    if args.datasets:
        pairs = [p for p in pairs if any(p.dataset.startswith(d) for d in args.datasets)]
    chosen = args.families if args.families is not None else [f.name for f in FAMILIES]
    configs = [("none", []), *((name, [name]) for name in chosen)]
    if args.together:
        configs.append(("+".join(args.together), list(args.together)))
    start = time.perf_counter()
    found = _scores(configs, pairs, args.jobs, args.cache)
    column = 0 if args.score == "alignment" else 1
    scores = {label: [row[column] for row in rows] for label, rows in found.items()}
    baselines = {
        n: [ngram_precision(p.source, p.summary, k) for p in pairs]
        for k, n in ((1, "unigram"), (2, "bigram"))
    }
    labels = [label for label, _ in configs]
    figures = measure(pairs, scores, baselines, labels)
    print(
        f"{len(pairs)} pairs, {len(labels) - 1} configurations, {args.score} "
        f"({time.perf_counter() - start:.0f} s). Change: family off minus on (ROC-AUC; Spearman "
        "on graded labels), 95% paired bootstrap interval, * where it leaves out 0."
    )
    lines = print_table(figures, labels)
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
