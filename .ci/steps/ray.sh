#!/usr/bin/env bash
# The Ray path (summscore[ray]) on a local Ray instance against the compat judge server:
# tests/test_ray.py, tests/test_ray_cli.py (the CLI's --engine ray),
# tests/test_independence_ray.py (a row scores the same alone and in any dataset), the
# --engine ray checks of tests/test_cli_out_checks.py, and docs/ray.md's code blocks. Ray is too heavy for the main install ([all,dev]), so it gets its own step; the
# tests skip themselves where ray is absent, so --fail-on-skip (compat/ci_log.py) fails the step
# when any of them is skipped (a step that passes with everything skipped tested nothing).
# Runtime on the 2-core development VM: about 35 s for the install (wheels cached: ~10 s) and
# 6 to 13 min for the tests (by load; test_independence_ray.py: 2 to 3 min).
set -euo pipefail
.venv/bin/python -m pip install -q "ray[data]>=2.9"
.venv/bin/python -m pytest -q -p no:cacheprovider -rs --fail-on-skip tests/test_ray.py \
  tests/test_ray_cli.py tests/test_independence_ray.py tests/test_docs_blocks.py \
  -k "not test_the_block_runs_as_written or ray.md"
.venv/bin/python -m pytest -q -p no:cacheprovider -rs --fail-on-skip \
  tests/test_cli_out_checks.py -k "ray"
