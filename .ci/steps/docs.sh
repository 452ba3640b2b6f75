#!/usr/bin/env bash
# The documentation site: MkDocs + Material + mkdocstrings, built with --strict (a broken link, a
# missing page, snippet or API reference fails the build), then the built HTML checked by
# .ci/check_docs_site.py (no unparsed docstring section, no Sphinx role, every field of every
# result model in its table, a page for every public module). The reference is read from the
# source statically: the faces' frameworks (MLflow, Inspect AI, Opik, ...) are not installed
# here. Then the docs' install story from a wheel: `python -m build --wheel`, installed into a
# fresh virtual environment, scores the example file offline. Its code blocks run in the main
# test run (tests/test_docs_blocks.py). About 2 minutes. Run alone: bash .ci/steps/docs.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
site="${SITE_DIR:-site}"
root=$PWD
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[docs]" -c constraints/ci.txt
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --site-dir "$site"
test -s "$site/index.html"
.venv/bin/python .ci/check_docs_site.py "$site"

# The wheel, as docs/snippets/install.md tells users to build and install it.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
.venv/bin/python -m build --wheel --outdir "$work/dist" . > "$work/build.log" 2>&1 || {
  cat "$work/build.log"
  exit 1
}
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check -c constraints/ci.txt \
  "$(ls "$work"/dist/summscore-*.whl)"
(cd "$work" && "$work/venv/bin/summscore" score "$root/examples/news.jsonl" \
  --out "$work/news.results.jsonl" --no-progress > /dev/null 2>&1)
test -s "$work/news.results.jsonl"
echo "docs: the site is built and checked; the wheel installs and scores the example file"
