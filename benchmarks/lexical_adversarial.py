"""How long can one text keep the offline judge busy? Scores adversarial families of text, from
1 kB up to the judge's cap per text, and prints the worst seconds per MB.

    python benchmarks/lexical_adversarial.py                  # every family, 1 kB to the cap
    python benchmarks/lexical_adversarial.py --largest 262144 --families digit-groups prose
    python benchmarks/lexical_adversarial.py --figures  # also docs/figures/offline-judge-bounds.md
    python benchmarks/lexical_adversarial.py --plots    # also docs/images/offline-judge-time.svg

Each family is a generator of text of a given size (``family(size, variant)``): long digit runs,
repeated groups of digits (what a property-based search found: 22 MB and 75 MB of them ran past
20 s each before the cap), numbers that never repeat, one huge word, one huge capitalised word,
one token repeated, one sentence repeated, many distinct sentences with numbers, deep brackets,
mixed scripts, a list of names in one sentence, names joined by "of", punctuation alone, and
ordinary prose. Each is scored under the deepeval rule (the most work: truths, claims, verdicts,
questions and answers on both texts) in three shapes: the source grows and the summary is one
sentence; the summary grows against a fixed source; and both grow (a summary of the same family,
the other variant). Sizes double from 1 kB to the cap, and one text past the cap shows the row
error it gets. The table gives, per family and shape, the seconds at the largest size and the
worst seconds per MB over the sizes of 64 kB and more (smaller texts are mostly fixed cost); the
last line the worst of all.

Seconds measure this host at this minute: a busy host doubles them. That work grows linearly is
checked with a work counter, not a clock, by ``tests/test_lexical_bounds.py``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

Generator = Callable[[int, int], str]


def _fill(unit: str, size: int) -> str:
    return (unit * (size // max(len(unit), 1) + 1))[:size]


def _joined(make: Callable[[int], str], size: int, sep: str = " ") -> str:
    parts: list[str] = []
    total = i = 0
    while total < size:
        part = make(i)
        parts.append(part)
        total += len(part) + len(sep)
        i += 1
    return sep.join(parts)[:size]


def _prose(size: int, variant: int) -> str:
    from lexical_speed import make_pair

    rng = random.Random(variant)
    parts: list[str] = []
    total = 0
    while total < size:
        source, _ = make_pair(rng)
        parts.append(source)
        total += len(source) + 2
    return "\n\n".join(parts)[:size]


FAMILIES: dict[str, Generator] = {
    "digit-run": lambda n, v: _fill("1234567890" if v == 0 else "9876543210", n),
    "digit-groups": lambda n, v: _fill("12 345 6789 " if v == 0 else "98 765 4321 ", n),
    "distinct-numbers": lambda n, v: _joined(lambda i: str(i * (v + 1)), n),
    "huge-word": lambda n, v: _fill("ab"[v], n),
    "huge-name": lambda n, v: "AB"[v] + _fill("bc", n - 1),
    "repeated-token": lambda n, v: _fill(("Paris ", "London ")[v], n),
    "repeated-sentence": lambda n, v: _fill(
        ("The cat sat on the mat. ", "The mat did not sit on a cat. ")[v], n
    ),
    "distinct-sentences": lambda n, v: _joined(
        lambda i: f"Company {i} sold {i * (7 + v)} cars in {1900 + i % 200}.", n
    ),
    "deep-brackets": lambda n, v: (
        "(" * (n // 2) + ")" * (n - n // 2)
        if v == 0
        else _fill("([{<", n // 2) + _fill(">}])", n - n // 2)
    ),
    "mixed-scripts": lambda n, v: _fill(
        ("東京Moscowモスクワ Москва ٣ हिन्दी 1.5% ", "Αθήνα 北京 Berlin ١٢ 서울 2,5 € ")[v], n
    ),
    "names-in-one-sentence": lambda n, v: _joined(lambda i: f"Name{i + v} met Other{i} and", n),
    "names-joined-by-of": lambda n, v: _fill(("Alpha of Beta ", "Gamma of Delta ")[v], n),
    "punctuation": lambda n, v: _fill((".,;:!?", "\n\n- * 1. ")[v], n),
    "prose": _prose,
}

SHAPES = ("source grows", "summary grows", "both grow")
_SHORT = "The company sold 12,345 cars in Paris in 2019."
_FIXED_SOURCE_SIZE = 4096


def texts(family: str, shape: str, size: int) -> tuple[str, str]:
    """(source, summary) of ``family`` in ``shape`` at ``size`` characters."""
    make = FAMILIES[family]
    if shape == "source grows":
        return make(size, 0), _SHORT
    if shape == "summary grows":
        return _prose(_FIXED_SOURCE_SIZE, 0), make(size, 1)
    return make(size, 0), make(size, 1)


def score(source: str, summary: str) -> tuple[float, str | None]:
    """Seconds one deepeval-rule score takes, and the row's error (None when scored)."""
    from summscore import SummarizationScorer
    from summscore.judges import LexicalJudge

    scorer = SummarizationScorer(llm=LexicalJudge(), preset="deepeval", max_concurrency=1)
    start = time.perf_counter()
    result = scorer.score_many([(source, summary)], progress=False)[0]
    return time.perf_counter() - start, result.error


def main(argv: list[str] | None = None) -> int:
    from summscore.judges.lexical import MAX_TEXT_CHARS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--families", nargs="*", choices=sorted(FAMILIES), default=None)
    parser.add_argument("--shapes", nargs="*", choices=SHAPES, default=list(SHAPES))
    parser.add_argument("--smallest", type=int, default=1024)
    parser.add_argument(
        "--largest", type=int, default=MAX_TEXT_CHARS, help="default: the cap per text"
    )
    parser.add_argument(
        "--figures",
        action="store_true",
        help="also write the table to docs/figures/offline-judge-bounds.md",
    )
    parser.add_argument(
        "--plots",
        action="store_true",
        help="also draw seconds against size to docs/images/offline-judge-time.svg (matplotlib)",
    )
    args = parser.parse_args(argv)
    families = args.families or list(FAMILIES)
    timed: dict[tuple[str, str], list[tuple[int, float]]] = {}
    sizes = []
    size = args.smallest
    while size < args.largest:
        sizes.append(size)
        size *= 2
    sizes.append(args.largest)
    worst = (0.0, "", "")
    rows = []
    print(f"sizes: {', '.join(f'{s:,}' for s in sizes)} characters; cap {MAX_TEXT_CHARS:,}")
    for family in families:
        for shape in args.shapes:
            per_mb = 0.0
            seconds = 0.0
            for size in sizes:
                seconds, error = score(*texts(family, shape, size))
                timed.setdefault((family, shape), []).append((size, seconds))
                if error:
                    print(f"  {family}, {shape}, {size:,}: ERROR {error}")
                if size >= 65536:
                    per_mb = max(per_mb, seconds / (size / 1e6))
            rows.append((family, shape, seconds, per_mb))
            if per_mb > worst[0]:
                worst = (per_mb, family, shape)
            print(f"{family:<24}{shape:<15}{seconds:>9.2f} s at {sizes[-1]:,}{per_mb:>9.2f} s/MB")
            sys.stdout.flush()
    source, summary = texts("prose", "source grows", MAX_TEXT_CHARS + 1)
    _, refused = score(source, summary)
    print(f"past the cap ({MAX_TEXT_CHARS + 1:,} characters): {refused}")
    print(f"worst: {worst[0]:.2f} s/MB ({worst[1]}, {worst[2]})")
    if args.figures:
        import figures

        rows_out = [(f, s, f"{sec:.2f}", f"{mb:.2f}") for f, s, sec, mb in rows]
        rows_out.append(("**worst**", f"{worst[1]}, {worst[2]}", "", f"**{worst[0]:.2f}**"))
        header = ("family", "shape", f"seconds at {sizes[-1]:,} characters", "worst seconds per MB")
        command = "python benchmarks/lexical_adversarial.py --figures"
        setting = f"{sizes[0]:,} to {sizes[-1]:,} characters, deepeval rule"
        figures.write(
            "offline-judge-bounds",
            figures.table(header, rows_out),
            command=command,
            setting=setting,
        )
    if args.plots:
        import plots

        plots.offline_judge_time(
            timed,
            note=f"Measured by python benchmarks/lexical_adversarial.py --plots ({sizes[0]:,} to "
            f"{sizes[-1]:,} characters) on {plots.machine()}.",
        )
    return 0 if not math.isnan(worst[0]) else 1


if __name__ == "__main__":
    raise SystemExit(main())
