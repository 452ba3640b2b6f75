"""What the Parquet reading tests share (tests/test_reading_parquet.py,
tests/test_reading_parquet_dictionaries.py): a table of rows, and Arrow's peak allocation while a
fresh process reads a file (Python's tracemalloc does not see Arrow's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa


def _table(sources: list[Any], **extra: Any) -> Any:
    n = len(sources)
    return pa.table(
        {"id": [f"r{i}" for i in range(n)], "source": sources, "summary": ["It opened."] * n}
        | extra
    )


def _arrow_peak(path: Path, setup: str = "") -> dict[str, Any]:
    """Read every record of ``path`` in a fresh process: Arrow's peak bytes and the records."""
    code = (
        "import json, sys, pyarrow as pa\n"
        f"{setup}\n"
        "from summscore.files.records import open_records\n"
        "got = [(r.where, r.problem) for r in open_records(sys.argv[1]).records]\n"
        "print(json.dumps({'peak': pa.default_memory_pool().max_memory(), 'records': got}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout.splitlines()[-1]))
