"""The options of ``summscore serve``: its part of the command line, with ``--help``'s examples.

Imports no web framework, so ``summscore --help`` works without the ``serve`` extra.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from .config import DEFAULT_REQUEST_OPTIONS
from .lanes import LARGE_CHARS

__all__ = ["WORKER_MEMORY_MB", "add_serve_parser"]

# The default bound of one offline-judge worker's memory (MB, resident): the deployment examples
# (docs/service.md) are sized from it.
WORKER_MEMORY_MB = 320

_EXAMPLES = """\
examples:
  # offline judge, the mastra rule, on http://127.0.0.1:8000
  summscore serve --preset mastra

  # GPT-4o-mini behind a bearer token, reachable from other machines (e.g. in a container)
  SUMMSCORE_TOKEN=... summscore serve --judge openai --model gpt-4o-mini --preset mastra \\
      --host 0.0.0.0 --port 8000 --token-env SUMMSCORE_TOKEN --max-concurrency 32

  curl -s localhost:8000/v1/score -H 'content-type: application/json' \\
      -d '{"source": "The council approved the budget.", "summary": "Budget approved."}'

  # the same from the environment (as in a container): SUMMSCORE_<OPTION>
  SUMMSCORE_JUDGE=openai SUMMSCORE_MODEL=gpt-4o-mini SUMMSCORE_HOST=0.0.0.0 summscore serve

endpoints: POST /v1/score, POST /v1/score:batch, POST /v1/promptfoo, GET /healthz, GET /metrics (Prometheus),
GET /openapi.json, GET /docs (Swagger UI, served offline; --no-docs leaves it out)
"""


def add_serve_parser(
    commands: Any, add_scorer_options: Callable[[argparse.ArgumentParser, str], None]
) -> argparse.ArgumentParser:
    """Register ``serve`` on the CLI's subcommands, with the judge and rule options of ``score``."""
    serve = commands.add_parser(
        "serve",
        help="run the scorer as an HTTP service (POST /v1/score); needs summscore[serve]",
        description="Serve POST /v1/score and /v1/score:batch over one shared scorer.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_EXAMPLES,
    )
    add_scorer_options(serve, "serve")
    net = serve.add_argument_group("service")
    net.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    net.add_argument("--port", type=int, default=8000, help="port (default 8000), e.g. --port 9000")
    net.add_argument(
        "--token-env",
        metavar="VAR",
        help="require 'Authorization: Bearer <token>', the token read from environment variable "
        "VAR, e.g. --token-env SUMMSCORE_TOKEN",
    )
    net.add_argument(
        "--max-queue",
        type=int,
        default=256,
        help="cases waiting for the judge beyond --max-concurrency before requests get 503 "
        "(default 256)",
    )
    net.add_argument(
        "--max-batch", type=int, default=100, help="cases per batch request (default 100)"
    )
    net.add_argument(
        "--max-body-bytes",
        type=int,
        default=10 * 1024 * 1024,
        help="largest request body; larger ones get 413 (default 10 MiB)",
    )
    net.add_argument(
        "--max-body-memory-mb",
        type=float,
        default=32.0,
        metavar="MB",
        help="request bodies held at once, being read or scored; a request past it gets 503 and "
        "Retry-After (default 32; one request alone is always taken)",
    )
    net.add_argument(
        "--max-questions",
        type=int,
        default=20,
        help="largest n / maxQuestions a request may ask for (default 20)",
    )
    net.add_argument(
        "--request-options",
        default=",".join(sorted(DEFAULT_REQUEST_OPTIONS)),
        metavar="NAMES",
        help="preset options a request may set, comma-separated, or 'none' "
        "(default: all of them), e.g. --request-options scale,n",
    )
    net.add_argument(
        "--cache",
        metavar="DIR",
        help="keep judge replies in DIR, shared by every request (and by replicas that mount "
        "the same directory), e.g. --cache /var/cache/summscore",
    )
    net.add_argument(
        "--request-timeout",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="a request still running after SECONDS is answered 504 and its cases are stopped, "
        "their judge slots freed (default 300; 0: no deadline), e.g. --request-timeout 60",
    )
    net.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="a request's line and headers must arrive within SECONDS of its first byte (or of "
        "the connection), else 408 and the connection is closed (default 10)",
    )
    net.add_argument(
        "--body-timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="a request's body must arrive within SECONDS of its headers, else 408 and the "
        "connection is closed (default 60), e.g. --body-timeout 120 for slow links",
    )
    net.add_argument(
        "--shutdown-timeout",
        type=float,
        default=8.0,
        metavar="SECONDS",
        help="on SIGTERM, requests in flight get SECONDS to finish; those still running are "
        "answered 503 (retry) and the server exits, within `docker stop`'s 10 s (default 8)",
    )
    net.add_argument(
        "--result-cache-mb",
        type=float,
        default=32.0,
        metavar="MB",
        help="recent results kept to answer identical requests without judging them again "
        "(default 32; 0 keeps none; identical requests in flight are always shared)",
    )
    net.add_argument(
        "--source-cache-mb",
        type=float,
        default=64.0,
        metavar="MB",
        help="memory for the work done on recent sources, shared by their summaries (default 64)",
    )
    net.add_argument(
        "--public-metrics",
        action="store_true",
        help="serve /metrics without the token of --token-env (default: /metrics needs it)",
    )
    net.add_argument(
        "--worker-memory",
        type=float,
        default=WORKER_MEMORY_MB,
        metavar="MB",
        help="offline judge: a worker process whose resident memory passes MB after a request "
        f"is replaced by a fresh one, nothing lost (default {WORKER_MEMORY_MB}; 0: no bound)",
    )
    net.add_argument(
        "--large-case-chars",
        type=int,
        default=LARGE_CHARS,
        metavar="N",
        help="offline judge: requests with N characters of text or more go to worker processes "
        f"of their own, so that they never stall small ones (default {LARGE_CHARS:,}; 0: one "
        "lane for all)",
    )
    net.add_argument(
        "--large-workers",
        type=int,
        default=1,
        metavar="N",
        help="offline judge: worker processes for large requests (default 1)",
    )
    net.add_argument(
        "--docs",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="serve the Swagger UI at /docs from the package, no network needed (default: on); "
        "/openapi.json is always served, e.g. --no-docs",
    )
    net.add_argument(
        "--log-level",
        choices=("critical", "error", "warning", "info", "debug"),
        default="info",
        help="server log level (default info)",
    )
    net.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help="text lines, or one JSON object per line for log collectors (default text), "
        "e.g. --log-format json",
    )
    net.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="log one line per request, its path as sent (default: on), e.g. --no-access-log",
    )
    return serve
