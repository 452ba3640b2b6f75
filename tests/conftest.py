"""Fixtures that several test files of tests/ share (the root conftest.py sets up every test)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A local Ray instance for tests/test_ray.py and tests/test_ray_cli.py (which skip where
    ray is absent; ray is imported here only when one of them asks for it)."""
    import ray
    import ray.data

    # Workers import the scorer factory (tests/ray_support.py) and compat/ from the repo root.
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
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
