"""``summscore.compare(base, candidate)``: load two runs, check they were scored the same way,
match their cases, and work out the paired figures (see ``result.Comparison``)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from .changes import CaseChange, MetricChange, PassRateChange
from .matching import match_runs
from .result import Comparison
from .runs import COMPONENTS, Run, load_run
from .settings import ComparisonRefused, differences, version_note
from .stats import MIN_RESAMPLES, Interval, mcnemar_exact, paired_bootstrap

__all__ = ["compare", "split_columns"]


def compare(
    base: Any,
    candidate: Any = None,
    *,
    base_column: str | None = None,
    candidate_column: str | None = None,
    seed: int = 0,
    resamples: int = 2000,
    confidence: float = 0.95,
    tolerance: float = 0.0,
    allow_different: bool = False,
    base_name: str | None = None,
    candidate_name: str | None = None,
) -> Comparison:
    """Compare two runs case by case: did the candidate's summaries get worse?

    Args:
        base: a results file's path (any format ``summscore score`` writes), a list of
            ``summscore.SummaryResult`` (``score_many``'s), a list of results records (dicts) or
            a pandas DataFrame of them. An A/B run (``summscore score --summary-column a,b``)
            alone: its first summary column is the base, its second the candidate.
        candidate: the same kinds as ``base``; left out when ``base`` holds an A/B run.
        base_column: the summary column to take from the base when it holds several (an A/B
            results file).
        candidate_column: the same, for the candidate.
        seed: the paired bootstrap's seed (the same seed gives the same interval on any
            machine).
        resamples: the paired bootstrap's number of resamples (at least 100).
        confidence: the interval's confidence level (0.95: a 95% interval).
        tolerance: a case whose score moved by no more than this is "unchanged" (default 0:
            any change counts).
        allow_different: compare runs scored under different presets, judges, models, prompt
            sets, thresholds or preset options (refused by default with
            ``summscore.comparison.ComparisonRefused``, a ValueError).
        base_name: how the base run is named in the output.
        candidate_name: how the candidate run is named in the output.

    Cases are matched by id, or, where the ids are row numbers, by fingerprints of the source
    and summary they were scored from. The figures cover the matched cases scored in both runs;
    failed and unmatched cases are counted and listed, never dropped silently.
    """
    if resamples < MIN_RESAMPLES:
        raise ValueError(f"resamples must be {MIN_RESAMPLES} or more, got {resamples}")
    if tolerance < 0 or math.isnan(tolerance):
        raise ValueError(f"tolerance must be 0 or more, got {tolerance}")
    first = load_run(base)
    if candidate is None:
        first, second = split_columns(first, base_column, candidate_column)
    else:
        second = load_run(candidate)
        first = _one_column(first, base_column, "base")
        second = _one_column(second, candidate_column, "candidate")
    first = replace(first, name=base_name) if base_name else first
    second = replace(second, name=candidate_name) if candidate_name else second
    found = differences(first, second)
    if found and not allow_different:
        raise ComparisonRefused(found)
    matching = match_runs(first, second)
    cases = [CaseChange(a.id, a, b, tolerance) for a, b in matching.pairs]
    notes = _notes(first, second, matching.method, matching.source_changed)
    both = [c for c in cases if c.base.scored and c.candidate.scored]
    score, pass_rate, components = _figures(both, seed, resamples, confidence, notes)
    return Comparison(
        base_name=first.name,
        candidate_name=second.name,
        cases=cases,
        unmatched_base=matching.unmatched_base,
        unmatched_candidate=matching.unmatched_candidate,
        matched_by=matching.method,
        score=score,
        components=components,
        pass_rate=pass_rate,
        seed=seed,
        resamples=resamples,
        tolerance=tolerance,
        top=max(first.top, second.top),
        source_changed=matching.source_changed,
        differences=found,
        notes=notes,
    )


def split_columns(run: Run, base: str | None, candidate: str | None) -> tuple[Run, Run]:
    """The two runs of an A/B results file: ``base`` (default its first summary column, or its
    second when the candidate is the first) and ``candidate`` (default its first other than the
    base)."""
    columns = run.columns
    if len(columns) < 2:
        raise ValueError(
            f"{run.name}: one run only (summary columns: {', '.join(columns) or 'not recorded'}); "
            "give a second results file to compare it with"
        )
    base = base or next(c for c in columns if c != candidate)
    candidate = candidate or next(c for c in columns if c != base)
    if base == candidate:
        raise ValueError(f"base and candidate are the same summary column, {base!r}")
    return run.column(base), run.column(candidate)


def _one_column(run: Run, column: str | None, role: str) -> Run:
    if column is not None:
        return run.column(column)
    if len(run.columns) > 1:
        raise ValueError(
            f"{run.name} holds the results of {len(run.columns)} summary columns "
            f"({', '.join(run.columns)}): choose one with {role}_column= (--{role}-column)"
        )
    return run


def _notes(base: Run, candidate: Run, method: str, changed: list[Any]) -> list[str]:
    notes = list(dict.fromkeys([*base.notes, *candidate.notes]))  # (an A/B file: both)
    if method == "fingerprint":
        notes.append(
            "ids are row numbers, so cases were matched by the source (and summary) they were "
            "scored from"
        )
    elif method == "row number":
        notes.append(
            "ids are row numbers and a run records no fingerprints (results in memory, or a "
            "file of an older summscore), so cases were matched by row number: rows added, "
            "removed or moved pair wrongly (give each case an id)"
        )
    if changed:
        shown = ", ".join(repr(i) for i in changed[:5]) + (", ..." if len(changed) > 5 else "")
        notes.append(
            f"{len(changed)} ids name another source text in the candidate ({shown}): not "
            "compared, listed as unmatched"
        )
    note = version_note(base, candidate)
    if note:
        notes.append(note)
    return notes


def _figures(
    both: list[CaseChange], seed: int, resamples: int, confidence: float, notes: list[str]
) -> tuple[MetricChange, PassRateChange, dict[str, MetricChange]]:
    """The paired figures over the cases scored in both runs (one bootstrap for the score, the
    pass indicator and every component every case has: the same resamples for all)."""
    base_scores = [c.base.score for c in both]
    candidate_scores = [c.candidate.score for c in both]
    passes = [(bool(c.base.passed), bool(c.candidate.passed)) for c in both]
    columns = [
        [b - a for a, b in zip(base_scores, candidate_scores)],
        [float(q) - float(p) for p, q in passes],
    ]
    names = [
        n
        for n in COMPONENTS
        if any(n in c.base.components and n in c.candidate.components for c in both)
    ]
    complete = [
        n
        for n in names
        if all(n in c.base.components and n in c.candidate.components for c in both)
    ]
    for name in complete:
        columns.append([c.candidate.components[name] - c.base.components[name] for c in both])
    intervals = paired_bootstrap(columns, resamples=resamples, seed=seed, confidence=confidence)
    score = MetricChange("score", _mean(base_scores), _mean(candidate_scores), intervals[0])
    worse = sum(1 for p, q in passes if p and not q)
    better = sum(1 for p, q in passes if q and not p)
    pass_rate = PassRateChange(
        base=_mean([float(p) for p, _ in passes]),
        candidate=_mean([float(q) for _, q in passes]),
        difference=intervals[1],
        newly_failing=worse,
        newly_passing=better,
        p_value=mcnemar_exact(worse, better),
    )
    components = {}
    by_name = dict(zip(complete, intervals[2:]))
    for name in names:
        have = [c for c in both if name in c.base.components and name in c.candidate.components]
        a = [c.base.components[name] for c in have]
        b = [c.candidate.components[name] for c in have]
        interval: Interval
        if name in by_name:
            interval = by_name[name]
        else:
            notes.append(f"{name}: {len(both) - len(have)} of the cases scored in both lack it")
            diffs = [y - x for x, y in zip(a, b)]
            interval = paired_bootstrap(
                [diffs], resamples=resamples, seed=seed, confidence=confidence
            )[0]
        components[name] = MetricChange(name, _mean(a), _mean(b), interval)
    return score, pass_rate, components


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values) if values else math.nan
