#!/usr/bin/env bash
# The MLflow, Inspect AI and Opik faces, each inside its framework's own evaluation loop (the
# every-face shared-scorer test runs in .ci/steps/more_faces.sh, which adds the other faces).
# Their installs are big (and opik's litellm wants filelock<4), so they are added to the CI venv
# after the main suite has run. Besides the loops: each face's judge named the framework's way
# (MLflow model URIs and default judge beside MLflow's built-in Correctness, Opik model names and
# OpikBaseModels beside Opik's Hallucination, on the compat judge), MLflow registration on a local
# sqlite store reloaded in a fresh Python process, and named Inspect scorers in one Task.
# About 5 minutes.
# Run alone: bash .ci/steps/faces.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[mlflow,inspect,opik]" "filelock<4"
# --fail-on-skip: a skip fails the step (compat/ci_log.py); the docs pages of these frameworks
# run here, where their blocks' imports resolve.
.venv/bin/python -m pytest -q -p no:cacheprovider -rs --fail-on-skip \
  tests/test_mlflow_face.py tests/test_inspect_face.py tests/test_opik_face.py \
  tests/test_docs_blocks.py -k "not test_the_block_runs_as_written or mlflow.md or inspect.md or opik.md"
# These pages' Offline tabs run as a user runs them, with no telemetry switch set: no host reached.
.venv/bin/python -m pytest -q -p no:cacheprovider -rs --fail-on-skip \
  tests/test_docs_offline_tabs.py -k "mlflow.md or inspect.md or opik.md"
