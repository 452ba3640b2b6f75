"""promptfoo face: a Python assertion for ``promptfooconfig.yaml``, shipped as this file.

    tests:
      - vars: {source: "The council approved the budget on Monday ..."}
        assert:
          - type: python
            value: file://summscore_assert.py     # one line: from summscore.promptfoo import get_assert
            config: {preset: deepeval, judge: openai, model: gpt-4o-mini}
            threshold: 0.7

promptfoo calls ``get_assert(output, context)`` with the provider's output (the summary); the
source is the test variable ``source`` (``config.source_var`` names another). ``config`` chooses
the scorer as ``summscore score`` does: ``preset`` (default ragas), ``judge`` (``lexical``, the
offline default, or ``openai`` with ``model``, ``base_url``, ``api_key_env``) and the preset's
options. The answer is promptfoo's grading result: ``pass``, ``score``, ``reason`` (and the
components and evidence as ``metadata``). ``python -m summscore.promptfoo`` prints this file's
``file://`` reference for configs that point at it directly.

promptfoo runs each Python assertion in a fresh interpreter; for many tests, or one judge shared
by every assertion, use the webhook form against ``summscore serve`` instead
(``type: webhook``, ``value: http://127.0.0.1:8000/v1/promptfoo``; see the service).
"""

from __future__ import annotations

import os
import sys

if not __package__:  # pragma: no cover - loaded by path through promptfoo's `file://`
    # promptfoo puts this file's folder first on sys.path; summscore's folder holds modules named
    # like frameworks (inspect, mlflow, ray ...), which must not shadow them.
    _here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]

from typing import Any

# Absolute imports: this file also runs outside its package (see above).
from summscore.adapters.promptfoo import (
    grading_result,
    scorer_from_settings,
    source_var,
)
from summscore.adapters.rows import score_fields
from summscore.calls.sync import run_sync
from summscore.scorer import SummarizationScorer

__all__ = ["get_assert", "score_output"]


def get_assert(output: Any, context: dict[str, Any]) -> dict[str, Any]:
    """promptfoo's entry point: grade ``output`` against the test's source variable."""
    config = dict(context.get("config") or {}) if isinstance(context, dict) else {}
    try:
        scorer = scorer_from_settings(config)
    except (TypeError, ValueError, ImportError) as exc:
        return {"pass": False, "score": 0, "reason": f"summscore config: {exc}"}
    return score_output(scorer, output, context, config.get("source_var", "source"))


def score_output(
    scorer: SummarizationScorer,
    output: Any,
    context: Any,
    var: str = "source",
    threshold: float | None = None,
) -> dict[str, Any]:
    """Grade ``output`` with ``scorer`` (the webhook route and tests share one scorer)."""
    try:
        source = source_var(context, var)
    except ValueError as exc:
        return {"pass": False, "score": 0, "reason": f"summscore could not score: {exc}"}
    result = run_sync(
        score_fields(scorer, source, output, source_field=f"vars.{var}", summary_field="output")
    )
    return grading_result(result, threshold)


if __name__ == "__main__":  # pragma: no cover - prints the reference for promptfooconfig.yaml
    print(f"file://{os.path.abspath(__file__)}")
