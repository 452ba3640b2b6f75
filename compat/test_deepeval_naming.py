"""deepeval's naming rule for metric packages, applied to summscore.deepeval.

deepeval (4.1.6 and later) checks each of its metrics: the package holding the module that defines
``<Name>Metric`` exports ``<Name>Template`` in ``__all__``, that class is the metric's generated
template (``_template_class == "<Name>Metric"``), and the metric's ``evaluation_template``
defaults to it. A user moving from ``deepeval.metrics`` to ``summscore.deepeval`` changes only the
import, so the same rule must hold here.
"""

from __future__ import annotations

import importlib
import inspect

import pytest

pytest.importorskip("deepeval")
templates = pytest.importorskip("deepeval.templates", reason="deepeval < 4.1.6 has no naming rule")

pytestmark = pytest.mark.upstream


@pytest.mark.parametrize("faces", ["deepeval.metrics", "summscore.deepeval"])
def test_the_metric_package_exports_its_template_class(faces: str) -> None:
    metric = importlib.import_module(faces).SummarizationMetric
    package = importlib.import_module(metric.__module__.rsplit(".", 1)[0])
    name = templates.template_class_name("SummarizationMetric")
    template = getattr(package, name)
    assert (template.__name__, template._template_class) == (name, "SummarizationMetric")
    assert name in package.__all__


@pytest.mark.parametrize("faces", ["deepeval.metrics", "summscore.deepeval"])
def test_the_evaluation_template_defaults_to_the_metric_s_own(faces: str) -> None:
    metric = importlib.import_module(faces).SummarizationMetric
    default = inspect.signature(metric.__init__).parameters["evaluation_template"].default
    assert default.__name__ == templates.template_class_name("SummarizationMetric")
    assert default._template_class == "SummarizationMetric"
