"""What differs between deepeval releases (3.3 to 4.x), in one place for the deepeval face.

Names that moved or appeared (``SingleTurnParams``, ``prepare_measure``, the progress indicator,
``SummarizationTemplate``), the test-case check whose signature changed, and ``eval_mode``.
compat/matrix.py runs the face against released versions.
"""

from __future__ import annotations

import contextlib
import os
import warnings
from typing import Any

from deepeval.test_case import LLMTestCase

from ..judges.deepeval_model import is_deepeval_model

try:
    from deepeval.metrics.utils import prepare_measure
except ImportError:  # pragma: no cover - deepeval < 4
    prepare_measure = None  # type: ignore[assignment]

try:
    from deepeval.test_case import SingleTurnParams as Params
except ImportError:  # pragma: no cover - deepeval < 4
    from deepeval.test_case import LLMTestCaseParams as Params  # type: ignore[no-redef]

try:
    from deepeval.metrics.indicator import metric_progress_indicator
except ImportError:  # pragma: no cover
    metric_progress_indicator = None  # type: ignore[assignment]

try:  # the class users subclass for evaluation_template= (deepeval 4 builds it from its bundle)
    from deepeval.metrics.summarization import SummarizationTemplate
except ImportError:  # pragma: no cover - deepeval 3
    from deepeval.metrics.summarization.template import (  # type: ignore[no-redef]
        SummarizationTemplate,
    )

_EVAL_MODES = ("llm", "hybrid", "system_one")

__all__ = ["Params", "SummarizationTemplate", "llm_eval_mode", "prepare", "progress_indicator"]


def progress_indicator(metric: Any, show: bool, in_component: bool, *, async_mode: bool) -> Any:
    """deepeval's per-metric progress indicator, where the release has one."""
    if metric_progress_indicator is None:  # pragma: no cover
        return contextlib.nullcontext()
    return metric_progress_indicator(
        metric, async_mode=async_mode, _show_indicator=show, _in_component=in_component
    )


def prepare(metric: Any, test_case: LLMTestCase) -> None:
    """What deepeval does before measuring ``metric`` (the face's ``SummarizationMetric``): check
    the test case, zero the cost counters."""
    if getattr(test_case, "multimodal", False) and not is_deepeval_model(metric.model):
        raise ValueError(
            f"SummarizationMetric: the test case is multimodal and the judge "
            f"({metric.scorer.judge.name}) reads text only; pass a deepeval model that supports "
            "multimodal input as model="
        )
    if prepare_measure is not None:
        prepare_measure(metric, test_case)
        return
    # Older deepeval (covered by compat/matrix.py): the check's signature changed over releases.
    import inspect  # pragma: no cover

    from deepeval.metrics.utils import check_llm_test_case_params  # pragma: no cover

    params = inspect.signature(check_llm_test_case_params).parameters  # pragma: no cover
    if "input_image_count" in params:  # 3.7 to 4.2  # pragma: no cover
        check_llm_test_case_params(
            test_case,
            metric._required_params,
            None,
            None,
            metric,
            metric.model,
            getattr(test_case, "multimodal", False),
        )
    else:  # 3.0 to 3.6  # pragma: no cover
        check_llm_test_case_params(test_case, metric._required_params, metric)
    native = metric.using_native_model  # pragma: no cover
    for counter in ("evaluation_cost", "input_tokens", "output_tokens"):  # pragma: no cover
        setattr(metric, counter, 0 if native else None)


def llm_eval_mode(eval_mode: Any) -> Any:
    """deepeval's ``eval_mode``, resolved as deepeval does; only "llm" (the default) is run.

    An explicit "hybrid" or "system_one" (deepeval's experimental System One judge) raises; the
    same mode set globally (DEEPEVAL_EVAL_MODE) runs this metric with its LLM judge, with a warning.
    deepeval 3, which has no eval modes, gets the same answers (and "llm" as a plain string).
    """
    try:
        from deepeval.config.eval_mode import EvalMode, resolve_eval_mode
    except ImportError:  # deepeval 3: no eval modes
        mode = _eval_mode_name(eval_mode)
        llm: Any = "llm"
    else:
        mode = resolve_eval_mode(eval_mode).value
        llm = EvalMode.LLM
    if mode == "llm":
        return llm
    if eval_mode is not None:
        raise ValueError(
            f"summscore.deepeval.SummarizationMetric: eval_mode={mode!r} (deepeval's "
            "experimental System One judge) is not supported; use eval_mode='llm'"
        )
    warnings.warn(
        f"DEEPEVAL_EVAL_MODE={mode}: summscore's SummarizationMetric judges with its LLM "
        "(deepeval's System One judge is not supported)",
        UserWarning,
        stacklevel=3,
    )
    return llm


def _eval_mode_name(eval_mode: Any) -> str:
    """deepeval 4's resolution (explicit, then DEEPEVAL_EVAL_MODE, then "llm"), for deepeval 3."""
    if eval_mode is None:
        value = os.environ.get("DEEPEVAL_EVAL_MODE", "").strip().lower()
        return value if value in _EVAL_MODES else "llm"
    value = str(getattr(eval_mode, "value", eval_mode)).strip().lower()
    if value not in _EVAL_MODES:
        raise ValueError(
            f"Unsupported eval_mode {eval_mode!r}. Valid values: {', '.join(_EVAL_MODES)}."
        )
    return value
