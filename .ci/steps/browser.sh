#!/usr/bin/env bash
# The HTML report in a real headless browser: Debian's chromium + chromium-driver, driven by
# selenium (a dev dependency). Runs tests marked `browser`; leaves summscore-out/report-420.png
# and summscore-out/report-420-cases.png (a phone-width screen) and summscore-out/first-run.png (the
# report of the README's first command: flawed examples fail, faithful ones pass) as artifacts, and
# the comparison report (summscore compare --report) as compare-1280.png and compare-420.png, and
# redraws the documentation's pictures of the run report, docs/images/report.png and
# report-cases.png (commit them when they change). About 1-2 minutes with the apt install
# (chromium is ~100 MB), about 1 minute of tests.
set -euo pipefail

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
fi
.venv/bin/python -c "import selenium" 2>/dev/null || .venv/bin/python -m pip install -q "selenium>=4.11"

# --fail-on-skip: a skip fails the step, which exists to run them (compat/ci_log.py).
.venv/bin/python -m pytest -q -p no:cacheprovider -m browser -rs --fail-on-skip \
    tests/test_report_browser.py tests/test_compare_browser.py
test -s summscore-out/report-420.png
test -s summscore-out/compare-420.png
test -s summscore-out/first-run.png
test -s docs/images/report.png
test -s docs/images/report-cases.png
