"""``summscore compare BASE CANDIDATE``: did the candidate's summaries get worse?

Reads two results files (or one A/B results file), prints the comparison (the verdict in words,
the figures with their intervals, the worst regressions), and with ``--json`` prints one JSON
object for scripts instead; ``--report`` writes the HTML comparison; ``--fail-if-worse`` gates
CI. The comparison itself is ``summscore.compare`` (``summscore.comparison``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import textwrap
from pathlib import Path
from typing import Any, TextIO

from ..comparison import Comparison, ComparisonRefused, compare
from ..comparison.report import render_comparison
from ..comparison.stats import MIN_RESAMPLES
from ..files.places import unusable
from ..files.writer import OutputError
from ..masking.replies import redact_value
from .gates import add_worse_gate, check_gate_values, gate_options
from .outputs import check_staged, write_whole
from .usage import EXIT_GATE_FAILED, EXIT_OK, EXIT_OUTPUT_ERROR, UsageError

__all__ = [
    "add_compare_parser",
    "comparison_paths",
    "gate_status",
    "is_summscore_file",
    "print_comparison",
    "run_compare",
]

_EXAMPLES = """\
examples:
  # did the new prompt's summaries get worse? (results of two `summscore score` runs)
  summscore compare baseline.results.jsonl candidate.results.jsonl

  # in CI: fail when the candidate is worse by more than 0.02, keep the HTML for reviewers
  summscore compare baseline.jsonl candidate.jsonl --fail-if-worse --min-effect 0.02 \\
      --report comparison.html

  # the figures for a script
  summscore compare baseline.jsonl candidate.jsonl --json | jq .mean_difference

  # an A/B run (score --summary-column a,b): its first summary column against its second
  summscore compare summscore-out/ab.results.jsonl

  # two judges on the same summaries: different settings, compared on purpose
  summscore compare lexical.jsonl gpt.jsonl --allow-different

exit status: 0 compared (and no gate failed), 1 --fail-if-worse failed, 2 bad usage, a file that
cannot be read or holds no results, or runs scored differently (without --allow-different), 4 the
--report could not be written (disk full, file-size limit) or standard output was closed before
the comparison was printed whole (| head), 5 internal error (a bug: please report it); 'summscore
score --help' lists every status. --fail-if-worse also fails (1) when it cannot decide: fewer
than --min-paired cases (default 10) scored in both runs.
"""


def add_compare_parser(commands: Any) -> None:
    """The ``compare`` command's parser, in ``commands`` (the subparsers of ``summscore``)."""
    parser = commands.add_parser(
        "compare",
        help="compare two runs' results case by case: paired differences with intervals, "
        "regressions with their evidence, a CI gate",
        description=(
            "Compare the results of two runs of the same cases (BASE and CANDIDATE): the mean "
            "score difference with a paired bootstrap interval, the pass-rate change with "
            "McNemar's exact test, the regressed and improved cases with their evidence."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_EXAMPLES,
    )
    parser.add_argument(
        "base",
        metavar="BASE",
        help="the base run's results file (.jsonl, .csv, .tsv or .parquet, as summscore score "
        "writes it), e.g. baseline.results.jsonl",
    )
    parser.add_argument(
        "candidate",
        metavar="CANDIDATE",
        nargs="?",
        help="the candidate run's results file; left out when BASE is an A/B results file "
        "(score --summary-column a,b), e.g. candidate.results.jsonl",
    )
    parser.add_argument(
        "--base-column",
        metavar="NAME",
        help="the summary column of an A/B results file to take as the base (default: its "
        "first, or its second when --candidate-column names the first), e.g. --base-column "
        "summary_a",
    )
    parser.add_argument(
        "--candidate-column",
        metavar="NAME",
        help="the summary column to take as the candidate (default: the A/B file's second), "
        "e.g. --candidate-column summary_b",
    )
    gate = parser.add_argument_group("gate")
    add_worse_gate(gate)
    out = parser.add_argument_group("output")
    out.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object on stdout (matched, unmatched_base, unmatched_candidate, "
        "mean_difference, ci_low, ci_high, pass_rate_difference, improved, regressed, ...) "
        "and the summary on stderr, e.g. --json",
    )
    out.add_argument(
        "--report",
        metavar="PATH",
        help="also write a self-contained HTML comparison, e.g. --report comparison.html",
    )
    out.add_argument(
        "--force",
        action="store_true",
        help="replace a --report file that summscore did not write, e.g. --force",
    )
    stats = parser.add_argument_group("statistics")
    stats.add_argument(
        "--allow-different",
        action="store_true",
        help="compare runs scored with different presets, judges, models, prompt sets, "
        "thresholds or preset options (refused by default), e.g. to compare two judges: "
        "--allow-different",
    )
    stats.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the bootstrap: the same seed gives the same interval (default 0), "
        "e.g. --seed 7",
    )
    stats.add_argument(
        "--resamples",
        type=int,
        default=2000,
        metavar="N",
        help="bootstrap resamples (default 2000, at least 100; the time grows with N times the "
        "cases), e.g. --resamples 5000",
    )
    stats.add_argument(
        "--tolerance",
        type=float,
        default=0.0,
        metavar="T",
        help="a case whose score moved by T or less counts as unchanged (default 0), "
        "e.g. --tolerance 0.01",
    )


def run_compare(args: argparse.Namespace) -> int:
    check_gate_values(args)
    if args.resamples < MIN_RESAMPLES:
        raise UsageError(f"--resamples must be {MIN_RESAMPLES} or more, got {args.resamples}")
    if not math.isfinite(args.tolerance) or args.tolerance < 0:
        raise UsageError(f"--tolerance must be 0 or more, got {args.tolerance}")
    report = Path(args.report) if args.report else None
    inputs = [Path(p) for p in (args.base, args.candidate) if p]
    if report is not None:
        _check_report(report, inputs, args.force)
    for path in inputs:
        if not path.is_file():
            raise UsageError(f"{path}: no such file")
    try:
        comparison = compare(
            args.base,
            args.candidate,
            base_column=args.base_column,
            candidate_column=args.candidate_column,
            seed=args.seed,
            resamples=args.resamples,
            tolerance=args.tolerance,
            allow_different=args.allow_different,
        )
    except ComparisonRefused as exc:
        raise UsageError(str(exc)) from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    human = sys.stderr if args.json else sys.stdout
    try:
        print_comparison(comparison, args.min_effect, human)
        if args.json:
            print(
                json.dumps(comparison.to_dict(**gate_options(args)), ensure_ascii=False, indent=2)
            )
        sys.stdout.flush()
        cut = False
    except BrokenPipeError:  # (`| head`: its reader stopped; the rest goes nowhere)
        _let_go_of_stdout()
        cut = True
    if report is not None:
        try:
            write_whole(report, render_comparison(comparison, min_effect=args.min_effect))
        except OutputError as exc:  # (a full disk: the comparison is printed above)
            print(f"summscore: error: {exc}", file=sys.stderr)
            return EXIT_OUTPUT_ERROR
        print(f"report:  {report}", file=human)
    status = gate_status(comparison, args, sys.stderr)
    if cut:  # (the gate's verdict is printed above, but what it rests on was not delivered)
        print(
            "summscore: error: the comparison was not printed whole: its reader closed the "
            "pipe (as `| head` does); write it to a file instead (> comparison.json)",
            file=sys.stderr,
        )
        return EXIT_OUTPUT_ERROR
    return status


def _let_go_of_stdout() -> None:
    """Point standard output at /dev/null, so nothing more (nor the flush at exit) is written
    to the closed pipe, which would raise again with a traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # (no real descriptor: a captured stream)
        pass


def gate_status(comparison: Comparison, args: argparse.Namespace, stream: TextIO) -> int:
    """``--fail-if-worse``'s verdict, printed; the exit status it gives."""
    if not getattr(args, "fail_if_worse", False):
        return EXIT_OK
    gate = comparison.gate(**gate_options(args))
    label = f" ({comparison.candidate_name})"
    option = ""
    if gate.outcome == "too few cases":
        option = f"; --min-paired {gate.min_paired} sets the fewest"
    elif gate.outcome == "too many unmatched":
        option = f" (--max-unmatched {gate.max_unmatched:g})"
    if not gate.passed:
        print(f"summscore: gate failed: {gate.text}{option}{label}", file=stream)
        return EXIT_GATE_FAILED
    if gate.outcome == "not applied":
        print(f"summscore: gate not applied: {gate.text} (--min-paired {gate.min_paired})"
              f"{label}", file=stream)  # fmt: skip
    else:
        print(f"summscore: gate passed: {gate.text}{label}", file=stream)
    return EXIT_OK


def _check_report(report: Path, inputs: list[Path], force: bool) -> None:
    if report.suffix.lower() not in (".html", ".htm"):
        raise UsageError(f"--report {report}: the report is an .html file")
    if (problem := unusable(report)) is not None:  # (a pipe there would be waited on forever)
        raise UsageError(f"--report {report}: {problem}")
    check_staged(report, "--report")
    if any(report.exists() and p.exists() and report.samefile(p) for p in inputs):
        raise UsageError(f"--report {report} is an input file")
    if report.exists() and not force and not is_summscore_file(report):
        raise UsageError(
            f"--report {report} exists and is not a summscore report; pass --force to replace it"
        )


def is_summscore_file(path: Path) -> bool:
    """Whether ``path`` is empty or names summscore in its first 4 kB: a page summscore wrote."""
    try:
        with path.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return not head.strip() or b"summscore" in head


def _cases(n: int) -> str:
    return f"{n:,} case" if n == 1 else f"{n:,} cases"


def _fmt(value: float, signed: bool = False) -> str:
    if math.isnan(value):
        return "–"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def _short(text: str) -> str:
    return repr(textwrap.shorten(text, width=60, placeholder=" ..."))


def _ids(ids: list[Any], limit: int = 5) -> str:
    shown = ", ".join(repr(i) for i in ids[:limit])
    return shown + (", ..." if len(ids) > limit else "")


def print_comparison(comparison: Comparison, min_effect: float, stream: TextIO) -> None:
    """The comparison in a few lines: what was compared, the verdict, a table of the figures,
    the counts, the worst regressions with their new evidence, what was left out. Keys quoted
    in its texts (ids, claims, notes) are masked, as in the HTML comparison."""
    lines: list[str] = []
    say = lines.append
    c, d, p = comparison, comparison.score.difference, comparison.pass_rate
    say(
        f"summscore: {c.base_name} vs {c.candidate_name}: {_cases(c.matched)} matched by "
        f"{c.matched_by}, {c.paired:,} scored in both",
    )
    say(f"  {c.verdict(min_effect).text}")
    level = f"{d.confidence:.0%} interval"
    rows = [("measure", "base", "candidate", "difference", level)]
    for m in (c.score, *c.components.values()):
        rows.append(
            (
                m.name.removesuffix("_score"),
                _fmt(m.base_mean),
                _fmt(m.candidate_mean),
                _fmt(m.difference.value, True),
                f"{_fmt(m.difference.low, True)} to {_fmt(m.difference.high, True)}",
            )
        )
    rows.append(
        (
            "pass rate",
            "–" if math.isnan(p.base) else f"{p.base:.1%}",
            "–" if math.isnan(p.candidate) else f"{p.candidate:.1%}",
            _fmt(p.difference.value, True),
            f"{_fmt(p.difference.low, True)} to {_fmt(p.difference.high, True)}",
        )
    )
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for row in rows:
        cells = [row[0].ljust(widths[0]), *(v.rjust(w) for v, w in zip(row[1:], widths[1:]))]
        say("  " + "  ".join(cells))
    say(
        f"  pass -> fail {p.newly_failing}, fail -> pass {p.newly_passing} (McNemar's exact "
        f"test: p = {p.p_value:.3g})",
    )
    say(
        f"  regressed {len(c.regressed)}, improved {len(c.improved)}, unchanged {len(c.unchanged)}",
    )
    for case in c.regressions()[:5]:
        line = f"    {case.id!r}: {_fmt(case.base.score)} -> {_fmt(case.candidate.score)}"
        evidence = []
        if case.new_unsupported_claims:
            evidence.append(f"new unsupported claim {_short(case.new_unsupported_claims[0])}")
        if case.newly_missed_questions:
            evidence.append(f"now misses {_short(case.newly_missed_questions[0])}")
        say(line + (f" ({'; '.join(evidence)})" if evidence else ""))
    for label, ids in (
        ("not scored in the base", c.failed_base),
        ("not scored in the candidate", c.failed_candidate),
        ("only in the base", [x.id for x in c.unmatched_base]),
        ("only in the candidate", [x.id for x in c.unmatched_candidate]),
    ):
        if ids:
            say(f"  {len(ids)} {label}, left out: {_ids(ids)}")
    for difference in c.differences:
        say(f"  allowed difference in settings: {difference}")
    for note in c.notes:
        say(f"  note: {note}")
    print(redact_value("\n".join(lines)), file=stream)


def comparison_paths(out: Path, base: str, candidate: str) -> tuple[Path, Path]:
    """Where an A/B run writes its comparison of ``candidate`` with ``base``: beside the
    results, ``<results file name>.<base>-vs-<candidate>.compare.json`` and ``.html``. The
    results' whole name, format and all, so that runs with ``--out x.jsonl`` and ``--out x.csv``
    never write (and replace) each other's comparisons."""

    def safe(name: str) -> str:
        return re.sub(r"[^\w.-]+", "_", name).strip("._") or "_"

    name = f"{out.name}.{safe(base)}-vs-{safe(candidate)}.compare"
    return out.with_name(name + ".json"), out.with_name(name + ".html")
