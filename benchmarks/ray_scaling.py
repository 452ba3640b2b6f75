"""summscore on Ray: judge calls with and without grouping by source, and the actors' speed-up.

    python benchmarks/ray_scaling.py [--sources 40] [--summaries 6] [--rows 1600] [--out FILE]

On a local Ray instance of the machine's cores, in one run:

* Calls: ``sources x summaries`` rows under the deepeval preset (7 judge calls a case, 3 of them
  source-side), in the order an export of several models' summaries has (every source once, then
  every source again), scored locally with ``score_many`` (the reference: each source's work
  once), by ``score_dataset`` on two actors without and with ``group_by_source``, and by the CLI's
  ``--engine ray`` (which groups on the driver). The offline judge counts its calls as an LLM
  judge would; the numbers of calls do not depend on the judge.
* Speed: ``--rows`` rows (distinct sources) with the offline judge, which is CPU-bound, on one
  actor and on two (one CPU each), in 16 blocks; the rows after the first block out, over the
  time from that block to the last (every actor is up before the first block goes out), after
  an untimed run that starts Ray and imports everything; rows per second and the ratio. The
  machine's load average is printed with the table: on busy cores the ratio means little.

Writes the calls table to docs/figures/ray.md (``--out``), which docs/ray.md includes; the speed
table is printed only (it describes the machine that ran it: benchmarks/README.md keeps it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def deepeval_scorer() -> Any:
    from summscore import SummarizationScorer
    from summscore.judges import LexicalJudge

    return SummarizationScorer(LexicalJudge(), preset="deepeval")


def _rows(sources: int, summaries: int) -> list[dict[str, Any]]:
    rows = []
    for round_ in range(summaries):  # every source once, then every source again
        for k in range(sources):
            rows.append(
                {
                    "id": f"s{k}-m{round_}",
                    "source": f"The council of ward {k} approved {100 + k} new homes in March "
                    f"after a debate about roads and schools that lasted {k % 9 + 2} hours. "
                    f"Work starts in {2026 + k % 4}, and the river path closes for {k % 5 + 1} "
                    "months while the bridge is rebuilt.",
                    "summary": f"Ward {k} approved {100 + k + round_ % 2} homes; work starts "
                    f"in {2026 + k % 4}.",
                }
            )
    return rows


def calls(sources: int, summaries: int, cpus: int) -> dict[str, int]:
    import ray

    from summscore.ray import score_dataset

    rows = _rows(sources, summaries)
    local = deepeval_scorer()
    local.score_many([(r["source"], r["summary"]) for r in rows], progress=False)
    found = {"local": local.usage.judge_calls}
    for name, group in (("spread", False), ("grouped", True)):
        dataset = ray.data.from_items(rows, override_num_blocks=4 * cpus)
        scored = score_dataset(
            dataset,
            deepeval_scorer,
            concurrency=cpus,
            num_cpus=0.5,  # (grouping shuffles with tasks: the actors leave CPUs free)
            batch_size=16,
            group_by_source=group,
        )
        found[name] = sum(r["judge_calls"] for r in scored.take_all())
    with tempfile.TemporaryDirectory() as folder:
        data, out = Path(folder) / "runs.jsonl", Path(folder) / "out.jsonl"
        data.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
        command = [sys.executable, "-m", "summscore.cli", "score", str(data), "--engine", "ray"]
        command += ["--address", "local", "--preset", "deepeval", "--no-progress"]
        subprocess.run([*command, "--out", str(out)], check=True, capture_output=True)
        found["cli"] = sum(json.loads(line)["judge_calls"] for line in out.open())
    return found


def speed(count: int, actors: int) -> float:
    import ray

    from summscore.ray import score_dataset

    rows = [
        {
            "id": i,
            "source": f"Report {i}: the plant in district {i % 97} made {1000 + i} units in "
            f"{2000 + i % 25}, up {i % 13 + 2} percent, and hired {i % 41 + 5} people.",
            "summary": f"District {i % 97} made {1000 + i} units, up {i % 13 + 2} percent.",
        }
        for i in range(count)
    ]
    dataset = ray.data.from_items(rows, override_num_blocks=16)
    scored = score_dataset(dataset, deepeval_scorer, concurrency=actors, batch_size=25)
    seen, started = 0, 0.0
    for batch in scored.iter_batches(batch_size=None, batch_format="pyarrow"):
        if not started:  # the actors are up and the pipeline full: time from here
            started = time.perf_counter()
        else:
            seen += batch.num_rows
    seconds = time.perf_counter() - started
    return seen / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=40)
    parser.add_argument("--summaries", type=int, default=6)
    parser.add_argument("--rows", type=int, default=1600)
    parser.add_argument("--out", default=str(ROOT / "docs" / "figures" / "ray.md"))
    args = parser.parse_args()
    import ray

    ray.init(include_dashboard=False, log_to_driver=False)
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    context.wait_for_min_actors_s = 300  # every actor up before the first block, as on a cluster
    cpus = max(2, int(ray.cluster_resources().get("CPU", 2)))
    speed(64, 1)  # untimed: Ray's first actors, imports
    found = calls(args.sources, args.summaries, 2)
    one, two = speed(args.rows, 1), speed(args.rows, 2)
    ray.shutdown()
    cases = args.sources * args.summaries
    lines = [
        f"Judge calls for {cases} rows ({args.sources} sources x {args.summaries} summaries, "
        "deepeval preset, two actors):",
        "",
        "| how | judge calls | vs local |",
        "|---|---:|---:|",
    ]
    names = {
        "local": "local `score_many` (each source's work once)",
        "spread": "`score_dataset`, rows as they come",
        "grouped": "`score_dataset(group_by_source=True)`",
        "cli": "`summscore score --engine ray` (groups on the driver)",
    }
    for key, label in names.items():
        lines.append(f"| {label} | {found[key]:,} | {found[key] / found['local']:.2f}x |")
    # The speed-up depends on the machine and its load: printed, with the load average, for the
    # benchmarks' README, not written to the docs page (which states what holds on any machine).
    speed_lines = [
        f"Offline judge, {args.rows:,} rows, actors of one CPU each on a {cpus}-core machine:",
        "",
        "| actors | rows/s | speed-up |",
        "|---:|---:|---:|",
        f"| 1 | {one:.0f} | 1.00x |",
        f"| 2 | {two:.0f} | {two / one:.2f}x |",
        "",
        f"(load average of the machine when measured: {os.getloadavg()[0]:.1f})",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    print("\n".join(speed_lines))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
