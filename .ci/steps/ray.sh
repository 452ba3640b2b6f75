#!/usr/bin/env bash
# The Ray path (summscore[ray]) on a local Ray instance against the compat judge server.
# Ray is too heavy for the main install ([all,dev]), so it gets its own step; tests/test_ray.py
# skips itself where ray is absent. Runtime on the 2-core development VM: about 35 s for the
# install (wheels cached: ~10 s) and about 60 s for the tests.
set -euo pipefail
.venv/bin/python -m pip install -q "ray[data]>=2.9"
# --fail-on-skip: a skip fails the step (compat/ci_log.py); docs/ray.md's blocks run here.
.venv/bin/python -m pytest -q -p no:cacheprovider -rs --fail-on-skip tests/test_ray.py \
  tests/test_docs_blocks.py -k "not test_the_block_runs_as_written or ray.md"
