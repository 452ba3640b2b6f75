#!/usr/bin/env bash
# The Ray path (summscore[ray]) on a local Ray instance against the compat judge server.
# Ray is too heavy for the main install ([all,dev]), so it gets its own step; tests/test_ray.py
# skips itself where ray is absent. Runtime on the 2-core development VM: about 35 s for the
# install (wheels cached: ~10 s) and about 60 s for the tests.
set -euo pipefail
.venv/bin/python -m pip install -q "ray[data]>=2.9"
.venv/bin/python -m pytest -q tests/test_ray.py -p no:cacheprovider
