"""What ``factual_consistency.py`` prints and writes: the per-set report with the acceptance
rule's verdict, and the docs' tables (``--figures``)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from fc_data import BASELINES, VALIDATION_FLOOR, Pair
from fc_measure import _fmt, measure, score_pairs
from fc_stats import cut_margin, paired_bootstrap

_TIMED = {"deepeval": "judge, deepeval rule", "ragas": "judge, ragas rule"}


def _primary(figures: dict[str, float]) -> tuple[str, float]:
    """The figure a set is judged on: Spearman where people gave graded labels, else ROC-AUC."""
    if "spearman" in figures:
        return "Spearman", figures["spearman"]
    return "ROC-AUC", figures["auc"]


def report(
    by_set: dict[str, list[Pair]], only: set[str], described: str = "development sets"
) -> dict[str, dict[str, object]]:
    figures: dict[str, dict[str, object]] = {}
    verdicts: list[bool] = []
    ties = 0
    behind: list[str] = []  # sets where the judge is behind the better baseline beyond doubt
    # Every pair's judge and baseline scores, for the margins per cut.
    pooled: list[Pair] = []
    judged: list[float] = []
    baseline_scores: dict[str, list[float]] = {b: [] for b in BASELINES}
    indexes: dict[str, list[int]] = {}
    print(
        f"{'dataset':<22}{'pairs':>6} {'score':<10}{'ROC-AUC':>8}{'BAcc':>8}"
        f"{'Spearman':>9}{'Pearson':>9}{'seconds':>9}"
    )
    for name, pairs in by_set.items():
        columns, seconds = score_pairs(pairs, only)
        figures[name] = {
            "pairs": len(pairs),
            "positive": sum(p.label for p in pairs),
            "test_pairs": sum(1 for p in pairs if p.cut != "val"),
        }
        measured: dict[str, dict[str, float]] = {}
        for score, values in columns.items():
            m = measure(pairs, values)
            measured[score] = m
            spent = seconds.get("deepeval" if score == "alignment" else score, 0.0)
            figures[name][score] = {**m, "seconds": spent}
            print(
                f"{name:<22}{len(pairs):>6} {score:<10}{_fmt(m['auc']):>8}{_fmt(m['bacc']):>8}"
                f"{_fmt(m.get('spearman')):>9}{_fmt(m.get('pearson')):>9}{spent:>9.1f}"
            )
        for system in published_systems(pairs):
            values = [dict(p.published).get(system, math.nan) for p in pairs]
            if any(math.isnan(v) for v in values):
                continue
            m = measure(pairs, values)
            figures[name][system] = m
            print(
                f"{name:<22}{len(pairs):>6} {system:<10}{_fmt(m['auc']):>8}{_fmt(m['bacc']):>8}"
                f"{_fmt(m.get('spearman')):>9}{_fmt(m.get('pearson')):>9}{'-':>9}"
            )
        rates = {
            rule: len(pairs) / spent if spent > 0 else math.inf for rule, spent in seconds.items()
        }
        figures[name]["pairs_per_second"] = rates
        print(
            "    time: "
            + ", ".join(
                f"{_TIMED.get(rule, rule)} {seconds[rule]:.1f} s ({rates[rule]:,.0f} pairs/s)"
                for rule in seconds
            )
        )
        baselines = [b for b in BASELINES if b in measured]
        if "alignment" in measured and len(baselines) == len(BASELINES):
            indexes[name] = list(range(len(pooled), len(pooled) + len(pairs)))
            pooled.extend(pairs)
            judged.extend(columns["alignment"])
            for b in BASELINES:
                baseline_scores[b].extend(columns[b])
        if "alignment" in measured and baselines:
            metric, judge = _primary(measured["alignment"])
            found = {b: _primary(measured[b])[1] for b in baselines}
            better = max(
                (b for b in found if not math.isnan(found[b])), key=found.__getitem__, default=None
            )
            if math.isnan(judge) or better is None:
                continue  # one class only (a --limit cut): nothing to compare
            best = found[better]
            beats = judge > best
            verdicts.append(beats)
            difference = paired_bootstrap(
                columns["alignment"],
                columns[better],
                labels=[p.label for p in pairs],
                graded=[float(p.graded or 0) for p in pairs] if metric == "Spearman" else None,
            )
            ties += not difference.decided
            if difference.high < 0:
                behind.append(name)
            figures[name]["judge_beats_baselines"] = beats
            figures[name]["difference"] = vars(difference)
            verdict = "beats" if beats else "does not beat"
            print(
                f"{name:<22}       judge {verdict} the better baseline "
                f"({metric} {judge:.3f} vs {best:.3f} {better}; difference {difference}"
                f"{'' if difference.decided else ': a tie at 95%'})"
            )
        sys.stdout.flush()
    if verdicts:
        print(
            f"judge beats both baselines on {sum(verdicts)} of {len(verdicts)} {described} "
            f"(ROC-AUC; Spearman on graded labels); a tie at 95% (the bootstrap interval of the "
            f"difference includes 0) on {ties} of the {len(verdicts)}"
        )
    if indexes:
        margins = {
            cut: cut_margin(pooled, judged, baseline_scores, indexes, cut)
            for cut in ("all", "val", "test")
        }
        figures["margins"] = dict(margins)
        figures["behind_beyond_interval"] = list(behind)
        print(
            "mean margin over the better baseline: "
            + ", ".join(f"{cut} {_signed(value)}" for cut, value in margins.items())
        )
        floor_kept = not math.isnan(margins["val"]) and round(margins["val"], 3) >= VALIDATION_FLOOR
        where = f"on {', '.join(behind)}" if behind else "on no set"
        print(
            f"acceptance rule: behind the better baseline beyond its 95% interval {where}; "
            f"validation margin {_signed(margins['val'])} "
            f"{'>=' if floor_kept else '<'} {VALIDATION_FLOOR:+.3f}: "
            + ("kept" if floor_kept and not behind else "NOT KEPT")
        )
    return figures


def _cell(figures: dict[str, object], score: str) -> str:
    """A score's figure on a set: ROC-AUC, with Spearman's ρ where people gave graded labels."""
    m = figures.get(score)
    if not isinstance(m, dict):
        return "-"
    auc, rho = m.get("auc", math.nan), m.get("spearman")
    text = "-" if math.isnan(auc) else f"{auc:.3f}"
    return text if rho is None else f"{text} (ρ {rho:.3f})"


_CUT_NAMES = (("all", "all pairs"), ("val", "validation cuts"), ("test", "test cuts"))


def write_figures(figures: dict[str, dict[str, object]], setting: str = "") -> list[Path]:
    """The tables of the docs' offline-judge page, from this run's figures (``--figures``:
    ``docs/figures/offline-judge-*.md``): the agreement per set with the margin over the better
    baseline, and the sets' figures next to those published for reference systems
    (``fc_published.py``)."""
    import figures as docs_figures
    from fc_published import AGGREFACT_BACC, AGGREFACT_SYSTEMS, SUMMEDITS_BACC, SUMMEDITS_SYSTEMS

    sets = {k: v for k, v in figures.items() if isinstance(v, dict) and "pairs" in v}
    agreement = [
        "| set | pairs | offline judge | unigram | bigram | judge minus the better baseline "
        "(95% CI) |",
        "|---|---|---|---|---|---|",
    ]
    for name, f in sets.items():
        d = f.get("difference")
        diff = "-"
        if isinstance(d, dict) and not math.isnan(d["value"]):
            tie = "" if d["low"] > 0 or d["high"] < 0 else ", a tie"
            diff = f"{d['value']:+.3f} [{d['low']:+.3f}, {d['high']:+.3f}]{tie}"
        agreement.append(
            f"| {name} | {f['pairs']:,} | {_cell(f, 'alignment')} | {_cell(f, 'unigram')} | "
            f"{_cell(f, 'bigram')} | {diff} |"
        )
    margins = figures.get("margins")
    if isinstance(margins, dict):
        agreement += [
            "",
            "Mean margin over the better baseline: "
            + ", ".join(f"{label} {_signed(margins[cut])}" for cut, label in _CUT_NAMES)
            + ".",
        ]
    summedits = [
        "| domain | summscore offline | " + " | ".join(SUMMEDITS_SYSTEMS) + " |",
        "|---|---|" + "---|" * len(SUMMEDITS_SYSTEMS),
    ]
    for domain, published in SUMMEDITS_BACC.items():
        f = sets.get(f"summedits-{domain}", {})
        m = f.get("alignment") if isinstance(f, dict) else None
        ours = f"{100 * m['bacc']:.1f}" if isinstance(m, dict) else "(no data)"
        summedits.append(
            f"| {domain} | {ours} | " + " | ".join(f"{x:.1f}" for x in published) + " |"
        )
    aggrefact = [
        "| set (test pairs) | summscore offline | " + " | ".join(AGGREFACT_SYSTEMS) + " |",
        "|---|---|" + "---|" * len(AGGREFACT_SYSTEMS),
    ]
    for name, published in AGGREFACT_BACC.items():
        f = sets.get(name, {})
        m = f.get("alignment") if isinstance(f, dict) else None
        ours = f"{m['bacc']:.3f}" if isinstance(m, dict) else "(no data)"
        tests = f.get("test_pairs", "-") if isinstance(f, dict) else "-"
        aggrefact.append(
            f"| {name} ({tests}) | {ours} | " + " | ".join(f"{x:.3f}" for x in published) + " |"
        )
    systems = sorted({k for f in sets.values() for k in f if str(k).startswith("pub:")})
    head = [
        "set",
        "summscore offline",
        *(s.removeprefix("pub:") for s in systems),
        "unigram",
        "bigram",
    ]
    frank = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, f in sets.items():
        if name.startswith("frank"):
            frank.append(
                f"| {name} ({f['pairs']:,}) | "
                + " | ".join(_cell(f, s) for s in ("alignment", *systems, "unigram", "bigram"))
                + " |"
            )
    written = []
    for stem, lines in (
        ("offline-judge-agreement", agreement),
        ("offline-judge-summedits", summedits),
        ("offline-judge-aggrefact", aggrefact),
        ("offline-judge-frank", frank),
    ):
        command = "python benchmarks/factual_consistency.py --figures"
        written.append(docs_figures.write(stem, "\n".join(lines), command=command, setting=setting))
    return written


def _signed(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:+.3f}"


def published_systems(pairs: list[Pair]) -> list[str]:
    """The systems whose published scores every pair of the set carries (measured like ours,
    never counted as baselines)."""
    names = [name for name, _ in pairs[0].published] if pairs else []
    return [n for n in names if all(n in dict(p.published) for p in pairs)]
