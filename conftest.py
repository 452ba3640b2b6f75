"""Test setup for tests/ and compat/: no network, no telemetry, the compat judge server fixtures,
the CI log of what ran where and ``--fail-on-skip`` (compat/ci_log.py), hypothesis's profile:
the same examples every run unless HYPOTHESIS_PROFILE=explore asks for new ones, and the local
Ray instance of tests/test_ray.py and tests/test_ray_cli.py."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# Set before any framework import: deepeval and ragas phone home otherwise.
for name, value in {
    "DEEPEVAL_TELEMETRY_OPT_OUT": "YES",
    "DEEPEVAL_DISABLE_DOTENV": "1",
    "RAGAS_DO_NOT_TRACK": "true",
    "DO_NOT_TRACK": "1",
    "ERROR_REPORTING": "NO",
    "HF_HUB_OFFLINE": "1",
    # litellm (under mlflow and opik) fetches a price map from the network unless told not to.
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "MLFLOW_TRACKING_URI": "",
    "OPIK_URL_OVERRIDE": "http://127.0.0.1:9/api",
    "OPIK_TRACK_DISABLE": "true",
    # LangSmith: no tracing, and its pytest plugin records nothing (it would call the API).
    "LANGSMITH_TRACING": "false",
    "LANGSMITH_TEST_TRACKING": "false",
}.items():
    os.environ.setdefault(name, value)

# compat.ci_log: the CI log of what ran where (SUMMSCORE_TEST_LOG) and --fail-on-skip.
pytest_plugins = ["compat.pytest_plugin", "compat.ci_log", "pytester"]

# Property tests draw the same examples every run ("ci": a submission never fails on an example
# no earlier run met); HYPOTHESIS_PROFILE=explore draws new ones, to search by hand. (A step
# whose install has no hypothesis, the container's, runs no property test.)
try:
    from hypothesis import settings
except ImportError:
    pass
else:
    settings.register_profile("ci", derandomize=True, print_blob=True)
    settings.register_profile("explore", derandomize=False, print_blob=True)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A local Ray instance (for tests/test_ray.py, tests/test_ray_cli.py and
    tests/test_independence_ray.py, which skip where ray is absent: ray is imported only when
    one of them asks for it)."""
    import ray
    import ray.data

    # Workers import the scorer factory (tests/ray_support.py) and compat/ from the repo root.
    root = str(Path(__file__).resolve().parent)
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
    ray.shutdown()  # an instance another test started (the README's Ray block) has other settings
    ray.init(
        num_cpus=2,
        resources={"judge": 4},  # a custom resource, for the per-step options
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": path}},
    )
    ctx = ray.data.DataContext.get_current()
    ctx.execution_options.preserve_order = True
    ctx.enable_progress_bars = False
    yield
    ray.shutdown()
