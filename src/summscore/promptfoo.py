"""promptfoo face: a Python assertion for ``promptfooconfig.yaml``, shipped as this file.

    tests:
      - vars: {source: "The council approved the budget on Monday ..."}
        assert:
          - type: python
            value: file://summscore_assert.py     # one line: from summscore.promptfoo import get_assert
            config: {preset: deepeval, judge: openai, model: gpt-4o-mini}
            threshold: 0.7

promptfoo calls ``get_assert(output, context)`` with the provider's output (the summary); the
source is the test variable ``source`` (``config.source_var`` names another): a text, or a list
of passages scored as one source. ``config`` chooses the scorer as ``summscore score`` does:
``preset`` (default deepeval), ``judge`` (``lexical``, the offline default, or ``openai`` with
``model``, ``base_url``, ``api_key_env``) and the preset's options. The answer is promptfoo's
grading result: ``pass``, ``score``, ``reason`` (and the components and evidence as
``metadata``). ``python -m summscore.promptfoo`` prints this file's ``file://`` reference for
configs that point at it directly.

promptfoo splits a variable holding a YAML list into one test per element: a source of several
passages needs ``options: {disableVarExpansion: true}`` on its test (or on ``defaultTest``).
``extension_hook``, listed under ``extensions:``, stops a run whose source would be split.

promptfoo runs each Python assertion in a fresh interpreter; for many tests, or one judge shared
by every assertion, ask ``summscore serve`` instead: the JavaScript assertion whose reference
``python -m summscore.promptfoo --webhook`` prints carries the whole answer (metadata included);
promptfoo's own ``type: webhook`` (``value: http://127.0.0.1:8000/v1/promptfoo``) keeps only
pass, score and reason.
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
    case_fields,
    case_texts,
    expanded_sources,
    grading_result,
    scorer_from_settings,
)
from summscore.adapters.rows import score_fields
from summscore.calls.sync import run_sync
from summscore.scorer import SummarizationScorer

__all__ = ["extension_hook", "get_assert", "score_output"]

# The JavaScript assertion that asks `summscore serve` (see the module docstring).
WEBHOOK_ASSERTION = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "adapters", "promptfoo_webhook.cjs"
)


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
    """Grade ``output`` with ``scorer`` (tests share one scorer this way)."""
    try:
        source, summary = case_texts(context, output, var)
    except (TypeError, ValueError) as exc:
        return grading_result(scorer.failed_result(exc), threshold)
    fields = case_fields(var)
    result = run_sync(
        score_fields(
            scorer, source, summary, source_field=fields.source, summary_field=fields.summary
        )
    )
    return grading_result(result, threshold)


def extension_hook(hook_name: str, context: dict[str, Any]) -> None:
    """promptfoo's extension hook (``extensions: [file://summscore_assert.py:extension_hook]``):
    before the run, stop it when a test's source is a list of passages that promptfoo would split
    into one test per passage (each scored against one passage, silently), naming the test and
    the fix. Leaves the suite as it is."""
    if hook_name != "beforeAll" or not isinstance(context, dict):
        return
    problems = expanded_sources(context.get("suite") or {})
    if problems:
        raise ValueError("summscore: " + "; ".join(problems))


if __name__ == "__main__":  # pragma: no cover - prints the reference for promptfooconfig.yaml
    shown = WEBHOOK_ASSERTION if sys.argv[1:] == ["--webhook"] else os.path.abspath(__file__)
    print(f"file://{shown}")
