"""Each framework's loop alone: a scorer in the framework's own form that calls no judge and
returns 1.0 at once, run in the same loop with the same concurrency as the face. Its seconds are
what the loop itself costs (MLflow's traces, Inspect's sample logs, Phoenix's data frame work):
no scorer run in that loop can finish sooner, so a face is compared with the larger of this and
``score_many``'s seconds, the floor that the loop and the judge set together.
"""

from __future__ import annotations

from typing import Any

NAME = "loop_alone"
MLFLOW_COLUMN = f"{NAME}/value"
PHOENIX_COLUMN = f"{NAME}_score"


def mlflow() -> Any:
    from mlflow.genai.scorers import scorer

    @scorer(name=NAME)
    def loop_alone(outputs: Any) -> float:
        return 1.0

    return loop_alone


def opik() -> Any:
    from opik.evaluation.metrics import base_metric, score_result

    class LoopAlone(base_metric.BaseMetric):  # type: ignore[misc]
        def score(self, **ignored: Any) -> score_result.ScoreResult:
            return score_result.ScoreResult(name=NAME, value=1.0)

    return LoopAlone(name=NAME, track=False)


def inspect() -> Any:
    from inspect_ai.scorer import Score, Target, mean, scorer
    from inspect_ai.solver import TaskState

    @scorer(metrics=[mean()], name=NAME)
    def loop_alone() -> Any:
        async def score(state: TaskState, target: Target) -> Score:
            return Score(value=1.0)

        return score

    return loop_alone()


def langsmith() -> Any:
    def loop_alone(run: Any, example: Any) -> dict[str, Any]:
        return {"key": NAME, "score": 1.0}

    return loop_alone


def braintrust() -> Any:
    def loop_alone(input: Any, output: Any, **rest: Any) -> float:
        return 1.0

    return loop_alone


def phoenix() -> Any:
    from phoenix.evals import create_evaluator

    @create_evaluator(name=NAME)
    def loop_alone(output: str) -> float:
        return 1.0

    return loop_alone
