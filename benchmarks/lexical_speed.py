"""How fast is the offline LexicalJudge? Prints pairs scored per second on one core.

    python benchmarks/lexical_speed.py [--pairs 300] [--seed 7]

Each pair is a distinct generated news-style source of about 500 words and a summary of about 60
words (so no cache is warm across pairs), scored end to end through SummarizationScorer under each
preset. The process is pinned to one CPU where the OS allows it. Each preset runs ``--repeats``
times from cold caches; the best run is the figure least disturbed by other work on a shared
machine, and the median is shown beside it. The target is 100 pairs/s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge

FIRST = "Anna Ben Carla David Elena Farid Greta Hugo Ines Jonas Kemal Lena Marco Nadia Omar Priya".split()
LAST = "Alvarez Brandt Costa Dubois Eriksen Fischer Garcia Hansen Ivanova Jensen Kowalski Larsen".split()
CITIES = "Lisbon Gdansk Tampere Porto Lyon Graz Aarhus Bilbao Ghent Split Brno Turku Malmo".split()
ORGS = "Northwind Helios Vantage Kestrel Arbor Lumen Quarry Meridian Solace Tidewater".split()
THINGS = "bridge hospital rail line school port stadium library data centre wind farm".split(" ")
VERBS = ("approved", "opened", "delayed", "expanded", "funded", "cancelled", "reviewed")
TEMPLATES = (
    "{org} {verb} a {amount} million euro plan for a new {thing} in {city} on {day}.",
    "Mayor {person} said the {thing} would employ {count} people by {year}.",
    "The project, first proposed in {year2}, drew {count2} objections during consultation.",
    "Critics led by councillor {person2} argued the budget could rise by {pct}%.",
    "Construction is expected to take {months} months, with work starting in {month}.",
    "{org2} will supply {count3} tonnes of steel, the company said in a statement.",
    "Residents of {city2} will vote on a related proposal in {month2} {year}.",
    "According to the regional office, traffic near the site fell {pct2}% last year.",
    "The council also set aside {amount2} million euros for cycling routes.",
    "Officials in {city} expect about {count4} visitors a day once the {thing} opens.",
)
MONTHS = "January February March April June July August September October November".split()
DAYS = "Monday Tuesday Wednesday Thursday Friday".split()


def _facts(rng: random.Random) -> dict[str, object]:
    def person() -> str:
        return f"{rng.choice(FIRST)} {rng.choice(LAST)}"

    return {
        "org": rng.choice(ORGS), "org2": rng.choice(ORGS), "verb": rng.choice(VERBS),
        "amount": rng.randint(20, 900), "amount2": rng.randint(2, 90), "thing": rng.choice(THINGS),
        "city": rng.choice(CITIES), "city2": rng.choice(CITIES), "day": rng.choice(DAYS),
        "person": person(), "person2": person(), "count": rng.randint(50, 4000),
        "count2": rng.randint(10, 900), "count3": rng.randint(100, 9000),
        "count4": rng.randint(500, 20000), "year": rng.randint(2025, 2031),
        "year2": rng.randint(1995, 2020), "pct": rng.randint(5, 60), "pct2": rng.randint(2, 30),
        "months": rng.randint(6, 48), "month": rng.choice(MONTHS), "month2": rng.choice(MONTHS),
    }  # fmt: skip


def make_pair(rng: random.Random, words: int = 500) -> tuple[str, str]:
    """A distinct source of about ``words`` words and a summary of about 60."""
    paragraphs: list[str] = []
    first: dict[str, object] | None = None
    while sum(len(p.split()) for p in paragraphs) < words:
        facts = _facts(rng)
        first = first or facts
        sentences = rng.sample(TEMPLATES, k=len(TEMPLATES))
        paragraphs.append(" ".join(t.format(**facts) for t in sentences[:5]))
    assert first is not None
    summary = (
        f"{first['org']} {first['verb']} a {first['amount']} million euro {first['thing']} plan for "
        f"{first['city']}. Mayor {first['person']} expects {first['count']} jobs by {first['year']}, "
        f"though critics led by {first['person2']} warn costs may rise {first['pct']}%. Work is "
        f"due to start in {first['month']} and last {first['months']} months, and the council "
        f"also set aside money for cycling routes, while residents of {first['city2']} will vote on "
        f"a related proposal."
    )
    return "\n\n".join(paragraphs), summary


def _clear_analysis_caches() -> None:
    """Empty every memo of the offline judge, so a repeat starts as cold as the first run."""
    from summscore.judges import lexical

    for module in (
        lexical._anchors,
        lexical._doc,
        lexical._graded,
        lexical._match,
        lexical._text,
        lexical._words,
    ):
        for value in vars(module).values():
            if not isinstance(value, type) and callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
    lexical._doc._cache.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--repeats", type=int, default=3, help="runs per preset; best and median shown"
    )
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rng = random.Random(args.seed)
    pairs = [make_pair(rng) for _ in range(args.pairs)]
    source_words = statistics.mean(len(s.split()) for s, _ in pairs)
    summary_words = statistics.mean(len(m.split()) for _, m in pairs)
    print(
        f"{len(pairs)} distinct pairs: source {source_words:.0f} words, summary {summary_words:.0f} words, one core"
    )
    for preset in ("ragas", "deepeval", "mastra"):
        rates = []
        for _ in range(args.repeats):
            # A fresh scorer and judge caches each time: nothing is reused across repeats.
            scorer = SummarizationScorer(llm=LexicalJudge(), preset=preset, max_concurrency=1)
            start = time.perf_counter()
            results = scorer.score_many(pairs, progress=False)
            rates.append(len(pairs) / (time.perf_counter() - start))
            assert all(r.ok for r in results)
            _clear_analysis_caches()
        best, median = max(rates), statistics.median(rates)
        verdict = "meets" if best >= 100 else "BELOW"
        print(
            f"  {preset:<9} best {best:6.1f} pairs/s, median {median:6.1f}  ({verdict} the 100 target)"
        )


if __name__ == "__main__":
    main()
