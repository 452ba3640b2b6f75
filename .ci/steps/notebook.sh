#!/usr/bin/env bash
# The example notebook, examples/summaries.ipynb, run top to bottom in a real Jupyter kernel
# (ipykernel, driven by nbclient), offline: every cell without an error or a warning, each
# showing what its text says (tests/test_notebook.py). Leaves the executed notebook in
# summscore-out/summaries.executed.ipynb. About half a minute with the install.
set -euo pipefail
cd "$(dirname "$0")/../.."

.venv/bin/python -m pip install -q --disable-pip-version-check \
    "nbclient==0.11.0" "nbformat==5.11.1" "ipykernel==7.4.0"

# --fail-on-skip: a skip fails the step, which exists to run them (compat/ci_log.py).
.venv/bin/python -m pytest -q -p no:cacheprovider -m notebook -rs --fail-on-skip \
    tests/test_notebook.py
test -s summscore-out/summaries.executed.ipynb
