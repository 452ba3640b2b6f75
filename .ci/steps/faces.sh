#!/usr/bin/env bash
# The MLflow, Inspect AI and Opik faces, each inside its framework's own evaluation loop (the
# every-face shared-scorer test runs in .ci/steps/more_faces.sh, which adds the other faces).
# Their installs are big (and opik's litellm wants filelock<4), so they are added to the CI venv
# after the main suite has run. About 3-4 minutes.
# Run alone: bash .ci/steps/faces.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[mlflow,inspect,opik]" "filelock<4"
.venv/bin/python -m pytest -q -p no:cacheprovider \
  tests/test_mlflow_face.py tests/test_inspect_face.py tests/test_opik_face.py
