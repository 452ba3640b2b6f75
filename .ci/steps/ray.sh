#!/usr/bin/env bash
# The Ray path (summscore[ray]) on a local Ray instance against the compat judge server:
# tests/test_ray.py, and the --engine ray checks of tests/test_cli_out_checks.py.
# Ray is too heavy for the main install ([all,dev]), so it gets its own step; the tests skip
# themselves where ray is absent, so this step fails when any of them is skipped (a step that
# passes with everything skipped tested nothing). Runtime on the 2-core development VM: about
# 35 s for the install (wheels cached: ~10 s) and 4 to 10 min for the tests (by load).
set -euo pipefail
.venv/bin/python -m pip install -q "ray[data]>=2.9"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
.venv/bin/python -m pytest -q -rs -p no:cacheprovider tests/test_ray.py \
    tests/test_cli_out_checks.py -k "ray" 2>&1 | tee "$log"
if tail -n 1 "$log" | grep -Eq "[0-9]+ skipped"; then  # pytest's closing line
    echo "ray step: tests were skipped (above); Ray must run here" >&2
    exit 1
fi
