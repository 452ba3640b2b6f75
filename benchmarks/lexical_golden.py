"""Does the offline judge give exactly the same results as a reference version of the code?

    python benchmarks/lexical_golden.py --reference <commit, branch or worktree> [--pairs 200]

A speed-up of ``LexicalJudge`` must not change one number. This scores a fixed set of inputs under
the ragas, deepeval and mastra presets with the code of this checkout and with the reference's
code (a git commit, checked out into a temporary directory, or another worktree), and compares
every ``SummaryResult.to_dict()`` (scores, truths, claims and their verdicts, reasons and graded
support, questions and answers) and the confidence of every answer and verdict (what a cascade
decides by) as JSON text, byte for byte. The inputs, generated or read by this checkout's copy of
this script, are:

* ``--pairs`` generated pairs of ``benchmarks/lexical_speed.py`` (its default seed);
* every summary of ``tests/lexical_cases.py``;
* the committed samples of ``benchmarks/data`` (SummEdits and FRANK: tokenised research text);
* the rows of ``examples/news.jsonl`` (Chinese and Japanese among them).

It prints the number of results compared and, for each difference, the case and the first field
that differs; the exit status is 1 when anything differs. ``--ignore reason`` leaves result fields
out (a change of wording only). ``--dump FILE`` writes this checkout's results (JSON lines)
instead of comparing.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PRESETS = ("ragas", "deepeval", "mastra")


def cases(pairs: int) -> Iterator[tuple[str, str, str]]:
    """(case id, source, summary) for every fixed input, in a fixed order."""
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(ROOT))
    import random

    from lexical_speed import make_pair
    from tests.lexical_cases import QUADS

    rng = random.Random(7)
    for i in range(pairs):
        source, summary = make_pair(rng)
        yield f"speed-{i}", source, summary
    for quad in QUADS:
        for kind in ("faithful", "omits", "wrong_number", "swapped"):
            yield f"quad-{quad.id}-{kind}", quad.source, getattr(quad, kind)
    for name in sorted((HERE / "data").glob("*.jsonl")):
        for n, line in enumerate(name.read_text(encoding="utf-8").splitlines()):
            row = json.loads(line)
            yield f"{name.stem}-{n}", row["source"], row["summary"]
    news = ROOT / "examples" / "news.jsonl"
    for line in news.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        source = row.get("source") or "\n\n".join(row.get("contexts", []))
        yield f"news-{row['id']}", source, row["summary"]


def results(pairs: int) -> Iterator[str]:
    """One JSON line per (case, preset): the result and the judge's confidences."""
    from summscore import SummarizationScorer
    from summscore.judges import LexicalJudge

    work = list(cases(pairs))
    judge = LexicalJudge()
    for preset in PRESETS:
        scorer = SummarizationScorer(llm=judge, preset=preset, max_concurrency=1)
        scored = scorer.score_many([(s, m) for _, s, m in work], progress=False)
        for (case, source, summary), result in zip(work, scored, strict=True):
            data = result.to_dict()
            claims = [c["claim"] for c in data["claims"]]
            confidence: dict[str, Any] = {}
            if claims:
                inputs = {"claims": claims, "evidence": source}
                confidence["verdicts"] = judge.assess("verdicts", inputs)
            questions = [q["question"] for q in data["assessment"]] or [
                q["question"] for q in data["questions"]
            ]
            if questions:
                for side, text in (("source", source), ("summary", summary)):
                    inputs = {"text": text, "questions": questions}
                    confidence[f"answers-{side}"] = judge.assess("answers", inputs)
            record = {"case": case, "preset": preset, "result": data, "confidence": confidence}
            yield json.dumps(record, sort_keys=True, ensure_ascii=False)


def _reference_src(reference: str, scratch: Path) -> Path:
    """The ``src`` folder of a worktree, or of a commit exported into ``scratch``."""
    folder = Path(reference)
    if (folder / "src" / "summscore").is_dir():
        return folder / "src"
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", reference, "src"],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        sys.exit(f"--reference {reference!r}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(scratch)], input=archive.stdout, check=True)
    return scratch / "src"


def _run(src: Path, pairs: int, out: Path) -> None:
    """This script, importing summscore from ``src``, writing its results to ``out``."""
    env = {**os.environ, "SUMMSCORE_GOLDEN_SRC": str(src)}
    command = [sys.executable, str(Path(__file__).resolve()), "--pairs", str(pairs)]
    subprocess.run([*command, "--dump", str(out)], env=env, check=True)


def _first_difference(mine: Any, theirs: Any, where: str = "") -> str:
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for key in sorted(set(mine) | set(theirs)):
            if mine.get(key, "<absent>") != theirs.get(key, "<absent>"):
                return _first_difference(mine.get(key), theirs.get(key), f"{where}.{key}")
    if isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
        for i, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{where}[{i}]")
    return f"{where or '.'}: {json.dumps(mine, ensure_ascii=False)[:200]} (here) vs " + (
        f"{json.dumps(theirs, ensure_ascii=False)[:200]} (reference)"
    )


def _without(line: str, ignored: tuple[str, ...]) -> str:
    """A result line without the result fields ``ignored`` (e.g. "reason")."""
    if not ignored:
        return line
    record = json.loads(line)
    for field in ignored:
        record["result"].pop(field, None)
    return json.dumps(record, sort_keys=True, ensure_ascii=False)


def compare(mine: list[str], theirs: list[str], ignored: tuple[str, ...] = ()) -> int:
    """Print the differences (``ignored``: result fields left out); the number of differing
    lines."""
    mine = [_without(line, ignored) for line in mine]
    theirs = [_without(line, ignored) for line in theirs]
    if mine == theirs:
        return 0
    if len(mine) != len(theirs):
        print(f"{len(mine)} results here, {len(theirs)} in the reference")
        for line in difflib.unified_diff(theirs, mine, lineterm="", n=0):
            print(line[:300])
        return max(len(mine), len(theirs))
    differing = 0
    for a, b in zip(mine, theirs, strict=True):
        if a != b:
            differing += 1
            here, there = json.loads(a), json.loads(b)
            detail = _first_difference(here, there)
            print(f"DIFFERS {here['case']} ({here['preset']}): {detail}")
    return differing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", help="a git commit or branch, or a worktree folder")
    parser.add_argument("--pairs", type=int, default=200, help="generated lexical_speed pairs")
    parser.add_argument("--dump", type=Path, help="write this checkout's results to a file")
    parser.add_argument(
        "--ignore",
        nargs="*",
        default=(),
        metavar="FIELD",
        help="result fields left out of the comparison (e.g. reason: a change of wording only)",
    )
    args = parser.parse_args()
    src = os.environ.get("SUMMSCORE_GOLDEN_SRC")
    sys.path.insert(0, src or str(ROOT / "src"))
    if args.dump:
        import summscore

        imported = Path(summscore.__file__).resolve()
        if not imported.is_relative_to(Path(src or ROOT / "src").resolve()):
            sys.exit(f"summscore was imported from {imported}, not from {src}")
        args.dump.write_text("".join(line + "\n" for line in results(args.pairs)), "utf-8")
        return
    if not args.reference:
        parser.error("--reference or --dump is required")
    with tempfile.TemporaryDirectory() as scratch:
        where = Path(scratch)
        _run(ROOT / "src", args.pairs, where / "mine.jsonl")
        _run(_reference_src(args.reference, where), args.pairs, where / "theirs.jsonl")
        mine = (where / "mine.jsonl").read_text("utf-8").splitlines()
        theirs = (where / "theirs.jsonl").read_text("utf-8").splitlines()
    differing = compare(mine, theirs, tuple(args.ignore))
    print(
        f"{len(mine)} results ({len(PRESETS)} presets) compared with {args.reference}"
        + (f" (without {', '.join(args.ignore)})" if args.ignore else "")
        + ": "
        + ("identical, byte for byte" if not differing else f"{differing} DIFFER")
    )
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
