"""Test setup: no network, no telemetry, no files in the working tree."""

from __future__ import annotations

import os

# Set before any framework import: deepeval and ragas phone home otherwise.
os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "YES")
os.environ.setdefault("DEEPEVAL_DISABLE_DOTENV", "1")
os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("ERROR_REPORTING", "NO")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
