#!/usr/bin/env bash
# The documentation site: MkDocs + Material + mkdocstrings, built with --strict (a broken link, a
# missing page, snippet or API reference fails the build). Its code blocks run in the main test
# run (tests/test_docs_blocks.py). About 1 minute. Run alone: bash .ci/steps/docs.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[docs]" -c constraints/ci.txt
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --site-dir "${SITE_DIR:-site}"
test -s "${SITE_DIR:-site}/index.html"
