"""What ``throughput.py --faces`` runs for each framework loop: the systems that run interleaved
(``Group``) and the rows of the table drawn from their runs (``Pair``). The runners themselves are
in ``loop_runners.py``, the frameworks' own LLM-judge metrics in ``loop_judges.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from loop_runners import (
    Runner,
    braintrust_eval,
    core_rows_at_once,
    deepeval_evaluate,
    inspect_eval,
    langsmith_evaluate,
    mlflow_evaluate,
    opik_evaluate,
    phoenix_evaluate,
    ragas_evaluate,
    score_many,
)

PRESET = "ragas"
DEFAULT = "default"  # the loop's own concurrency: what a user who sets nothing meets
RAISED = "raised"  # the loop's knob set to the rows score_many has in flight


@dataclass(frozen=True)
class Pair:
    """One row of the table: ``face`` against ``against`` (names of the group's systems)."""

    knob: str  # DEFAULT, RAISED (the face's loop concurrency) or a setting as a user writes it
    against: str  # "score_many" or the name of the framework's own metric
    face: str
    other: str
    alone: str | None = None  # the loop alone (loop_alone.py) at the same concurrency
    core: str = "score_many"  # the core at the same rows at once (for the floor)


@dataclass
class Group:
    """The systems of one loop that run interleaved, and the rows drawn from their runs."""

    loop: str
    knob: str  # the setting that raises the loop's concurrency, as a user writes it
    systems: dict[str, Runner]
    pairs: list[Pair]


def rows_at_once(cases: int) -> int:
    """What the raised rows set the loop's knob to: every row at once, as ``score_many`` keeps
    them (its pool holds 8 rows per allowed request, 512 with the adaptive limit's ceiling of
    64, so a benchmark's 100 or 200 rows are all in flight)."""
    return min(cases, 512)


def groups(cases: int) -> list[Group]:
    """Every loop's systems: ragas and deepeval against their own summarization metrics; the
    others against ``score_many`` at the loop's default concurrency and with its knob raised,
    and against the framework's own LLM-judge metric (with the knob raised) where it has one."""
    rows = rows_at_once(cases)
    many_ragas, many_deepeval = score_many("ragas"), score_many("deepeval")
    own = "own summarization metric"
    out = [
        Group(
            "ragas evaluate()",
            "RunConfig(max_workers=)",
            {"face": ragas_evaluate(True), own: ragas_evaluate(False), "score_many": many_ragas},
            [Pair(DEFAULT, own, "face", own)],
        ),
        Group(
            "deepeval evaluate()",
            "AsyncConfig(max_concurrent=)",
            {
                "face": deepeval_evaluate(True),
                own: deepeval_evaluate(False),
                "score_many": many_deepeval,
            },
            [Pair(DEFAULT, own, "face", own)],
        ),
    ]
    # (loop, knob, runner, own LLM-judge metric, rows the loop holds at once by default: None
    # where it has no fixed cap, Braintrust none at all and Inspect an adaptive limit from 20
    # samples up, so the core's bound is score_many's)
    frameworks: list[tuple[str, str, Callable[..., Runner], str | None, int | None]] = [
        (
            "MLflow genai.evaluate()",
            "MLFLOW_GENAI_EVAL_MAX_WORKERS=",
            mlflow_evaluate,
            "Guidelines",
            10,
        ),
        (
            "Opik evaluate_on_dict_items()",
            "scoring_threads=",
            opik_evaluate,
            "Hallucination",
            16,
        ),
        ("Inspect eval()", "max_samples=", inspect_eval, None, None),
        ("LangSmith evaluate()", "max_concurrency=", langsmith_evaluate, None, 1),
        ("Braintrust Eval()", "max_concurrency=", braintrust_eval, "autoevals Summary", None),
        (
            "Phoenix async_evaluate_dataframe()",
            "concurrency=",
            phoenix_evaluate,
            "HallucinationEvaluator",
            3,
        ),
    ]
    for loop, knob, runner, judge, default_rows in frameworks:
        systems = {
            "face": runner(PRESET),
            "face, knob raised": runner(PRESET, rows),
            "score_many": many_ragas,
            "loop alone": runner(PRESET, alone=True),
            "loop alone, knob raised": runner(PRESET, rows, alone=True),
        }
        alone, raised = "loop alone", "loop alone, knob raised"
        core = "score_many"
        if default_rows is not None:
            core = f"core, {default_rows} rows at once"
            systems[core] = core_rows_at_once(PRESET, default_rows)
        pairs = [
            Pair(DEFAULT, "score_many", "face", "score_many", alone, core),
            Pair(RAISED, "score_many", "face, knob raised", "score_many", raised),
        ]
        if judge is not None and loop.startswith("Phoenix"):
            # Phoenix's own evaluators throttle themselves after a 429 (to about 3 requests a
            # second, each refused row requeued): with every row at once against a server that
            # takes 32, 200 rows had not finished in 15 minutes. Compared where a user who sets
            # nothing runs them, at the loop's default concurrency.
            systems[judge] = runner(PRESET, own=True)
            pairs.append(Pair(DEFAULT, judge, "face", judge, alone, core))
        elif judge is not None:
            systems[judge] = runner(PRESET, rows, own=True)
            pairs.append(Pair(RAISED, judge, "face, knob raised", judge, raised))
        out.append(Group(loop, knob, systems, pairs))
    return out
