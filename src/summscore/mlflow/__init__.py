"""MLflow face: a scorer for ``mlflow.genai.evaluate()`` (MLflow 3's GenAI scorer API).

    from summscore.mlflow import Summarization
    mlflow.genai.evaluate(data=rows, scorers=[Summarization(model="openai:/gpt-4o-mini")])

The judge is named as MLflow's built-in judges name theirs: ``model=`` takes MLflow's judge model
URIs (``"openai:/gpt-4o-mini"``, ``"anthropic:/..."``, ``"gateway:/<endpoint>"``,
``"databricks"``) and defaults to MLflow's default judge (``MLFLOW_GENAI_JUDGE_DEFAULT_MODEL``,
else ``"databricks"`` on Databricks, else ``"openai:/gpt-4.1-mini"``), called through MLflow
(``summscore.judges.MLflowJudge``). ``llm=`` takes any judge object summscore accepts (a
string there is read as a model URI too), ``scorer=`` shares one
``summscore.SummarizationScorer`` (and number) with every other face.

Each row's source and summary are read the way MLflow's own ragas and deepeval summarization
scorers read them: the summary from ``outputs``; the source from ``inputs`` (a string, or the
first of source/document/text/context/... in a dict), falling back to the trace's retrieved
contexts. ``source_from="expectations"`` reads it from ``expectations`` instead, and
``source_key=`` / ``summary_key=`` name the dict keys. The result is an MLflow ``Feedback``: the
score as value, the reason as rationale, the judge model as source, and the components, missed
questions and unsupported claims as metadata.

``register()`` / ``start()`` / ``update()`` / ``stop()`` and ``model_dump()`` work as on MLflow's
scorers for a scorer built from ``model=`` (or the default judge), literals and options: MLflow
stores custom scorers as ``@scorer`` source code, so it is stored as a small function that
rebuilds this scorer from its configuration (kept as a parameter default) where it runs. That
function, like every custom scorer outside Databricks, needs
``MLFLOW_SERVER_ENABLE_CUSTOM_SCORERS=true``, and MLflow's open-source tracking store starts
(schedules) only scorers judged by a ``gateway:/`` built-in judge, so ``start()`` works on
Databricks. A scorer built from a judge object or ``scorer=`` lives in this process only and
says so.
"""

from __future__ import annotations

from typing import Any

from .face import SummarizationFace

__all__ = ["Summarization"]


def summscore_summarization(
    inputs: Any = None,
    outputs: Any = None,
    expectations: Any = None,
    trace: Any = None,
    summscore_config: str = "{}",
) -> Any:
    """The registered form's body (MLflow stores the body and the signature, not this module)."""
    from summscore.mlflow import Summarization

    scorer = Summarization.from_config(summscore_config)
    return scorer(inputs=inputs, outputs=outputs, expectations=expectations, trace=trace)


# This class only names SummarizationFace (summscore/mlflow/face.py), and stays this small:
# mlflow.genai.evaluate() hashes a scorer's definition for every row it scores, and for one it
# cannot serialize (built from a judge object) it hashes the class's source, read with
# inspect.getsource, which parses this module and tokenizes the class again each time.
class Summarization(SummarizationFace):
    """Summarization score for ``mlflow.genai.evaluate``: ``Summarization(model=..., preset=...)``.

    Takes ``llm=`` or ``model=`` or ``scorer=``, ``preset=``, ``name=``, ``source_from=``,
    ``source_key=``, ``summary_key=``, ``inference_params=`` and the preset's options.
    """

    registered_body = staticmethod(summscore_summarization)
