"""Does every reason of the offline judge agree with its verdicts? Scores the development sets
under the deepeval and mastra rules (whose reason the judge writes) and checks each reason against
the result it explains.

    python benchmarks/lexical_reasons.py                 # the full development sets
    python benchmarks/lexical_reasons.py --sample        # the committed samples and the examples

A reason disagrees with its result when it says the summary "agrees with the source" while a
claim is not supported or the alignment is below full, says it "covers its key points" while the
coverage is below full, or counts contradicted or unsupported claims other than the verdicts do.
It prints each disagreement (set, pair, preset, what) and how many results were checked; the exit
status is 1 when any reason disagrees.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from factual_consistency import LOADERS, SAMPLES, load_sample  # noqa: E402

from summscore import SummarizationScorer, SummaryResult  # noqa: E402
from summscore.judges import LexicalJudge  # noqa: E402

PRESETS = ("deepeval", "mastra")
EXAMPLES = HERE.parent / "examples" / "news.jsonl"
_COUNT = re.compile(r"(\d+) claim\(s\) (contradict|are not supported by) the source")
_FULL = 1 - 1e-9


def disagreements(result: SummaryResult, full: float = 1.0) -> list[str]:
    """What the result's reason says that its verdicts and scores do not (``full``: the score at
    full marks, the mastra rule's ``scale``)."""
    reason = result.reason or ""
    claims = result.claims or []
    found: list[str] = []
    unsupported = [c for c in claims if not c.supported]
    alignment, coverage = result.alignment_score, result.coverage_score
    if "agrees with the source" in reason:
        if unsupported:
            found.append(f"says it agrees, yet {len(unsupported)} claim(s) are not supported")
        if alignment is not None and alignment < full * _FULL:
            found.append(f"says it agrees, yet the alignment is {alignment:.2f}")
    if "covers its key points" in reason and coverage is not None and coverage < full * _FULL:
        found.append(f"says it covers its key points, yet the coverage is {coverage:.2f}")
    counted = {kind: int(n) for n, kind in _COUNT.findall(reason)}
    contradicted = sum(1 for c in claims if c.verdict == "no")
    if counted.get("contradict", 0) != contradicted:
        found.append(f"counts {counted.get('contradict', 0)} contradicted, verdicts {contradicted}")
    other = len(unsupported) - contradicted
    if counted.get("are not supported by", 0) != other:
        found.append(
            f"counts {counted.get('are not supported by', 0)} unsupported, verdicts {other}"
        )
    return found


def _pairs(args: argparse.Namespace) -> Iterator[tuple[str, str, str, str]]:
    """(set, id, source, summary) of every pair checked."""
    if args.sample:
        for pair in (p for path in SAMPLES for p in load_sample(path)):
            yield pair.dataset, pair.id, pair.source, pair.summary
        for line in EXAMPLES.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            source = row.get("source") or "\n\n".join(row.get("contexts", []))
            yield "examples", str(row["id"]), source, row["summary"]
        return
    for load in LOADERS.values():
        for pair in load(Path(args.data)):
            yield pair.dataset, pair.id, pair.source, pair.summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=os.environ.get("SUMMSCORE_FC_DATA"))
    parser.add_argument("--sample", action="store_true", help="the committed samples, examples")
    args = parser.parse_args(argv)
    if not args.sample and not args.data:
        parser.error("no data: set SUMMSCORE_FC_DATA or pass --data DIR (or --sample)")
    work = list(_pairs(args))
    checked = wrong = 0
    for preset in PRESETS:
        scorer = SummarizationScorer(llm=LexicalJudge(), preset=preset, max_concurrency=1)
        results = scorer.score_many([(s, m) for _, _, s, m in work], progress=False)
        for (dataset, pair_id, _, _), result in zip(work, results, strict=True):
            checked += 1
            for problem in disagreements(result):
                wrong += 1
                print(f"{dataset} {pair_id} ({preset}): {problem}: {result.reason}")
    print(f"{checked} reasons checked ({len(work)} pairs, {', '.join(PRESETS)}): {wrong} disagree")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
