"""``python -m summscore.serve.healthcheck``: exit 0 when the server on this machine answers
``GET /healthz`` with ``"status": "ok"``, 1 otherwise (a container's HEALTHCHECK; no curl needed).

It asks ``127.0.0.1`` on ``SUMMSCORE_PORT`` (default 8000), the port ``summscore serve`` reads from
the same variable, within ``SUMMSCORE_HEALTHCHECK_TIMEOUT`` seconds (default 4).
"""

from __future__ import annotations

import json
import os
import sys
import urllib.request

__all__ = ["main"]


def main() -> int:
    port = os.environ.get("SUMMSCORE_PORT") or "8000"
    url = f"http://127.0.0.1:{port}/healthz"
    try:
        timeout = float(os.environ.get("SUMMSCORE_HEALTHCHECK_TIMEOUT") or 4)
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            healthy = answer.status == 200 and json.load(answer).get("status") == "ok"
    except (OSError, ValueError) as exc:
        print(f"summscore healthcheck: {url}: {exc}", file=sys.stderr)
        return 1
    if not healthy:
        print(f"summscore healthcheck: {url} does not say ok", file=sys.stderr)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
