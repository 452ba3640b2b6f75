"""``summscore serve``: parse the options, build one scorer, run the app under uvicorn.

Imports no web framework until the server starts, so ``summscore --help`` works without the
``serve`` extra.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable
from typing import Any

from ..errors import MissingExtraError
from .runner import DEFAULT_REQUEST_OPTIONS, ServeConfig

__all__ = ["add_serve_parser", "run_serve"]

_EXAMPLES = """\
examples:
  # offline judge, the mastra rule, on http://127.0.0.1:8000
  summscore serve --preset mastra

  # GPT-4o-mini behind a bearer token, reachable from other machines (e.g. in a container)
  SUMMSCORE_TOKEN=... summscore serve --judge openai --model gpt-4o-mini --preset mastra \\
      --host 0.0.0.0 --port 8000 --token-env SUMMSCORE_TOKEN --max-concurrency 32

  curl -s localhost:8000/v1/score -H 'content-type: application/json' \\
      -d '{"source": "The council approved the budget.", "summary": "Budget approved."}'

endpoints: POST /v1/score, POST /v1/score:batch, GET /healthz, GET /openapi.json, GET /docs
"""


def add_serve_parser(
    commands: Any, add_scorer_options: Callable[[argparse.ArgumentParser], None]
) -> argparse.ArgumentParser:
    """Register ``serve`` on the CLI's subcommands, with the judge and rule options of ``score``."""
    serve = commands.add_parser(
        "serve",
        help="run the scorer as an HTTP service (POST /v1/score); needs summscore[serve]",
        description="Serve POST /v1/score and /v1/score:batch over one shared scorer.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_EXAMPLES,
    )
    add_scorer_options(serve)
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
        "--log-level",
        choices=("critical", "error", "warning", "info", "debug"),
        default="info",
        help="server log level (default info)",
    )
    return serve


def config_from_args(args: argparse.Namespace, env: Any = os.environ) -> ServeConfig:
    """The service limits from the command line; ValueError names the option at fault."""
    token = None
    if args.token_env:
        token = env.get(args.token_env)
        if not token:
            raise ValueError(f"--token-env {args.token_env}: that environment variable is empty")
    names = args.request_options.strip()
    allowed = frozenset() if names in ("", "none") else frozenset(names.replace(" ", "").split(","))
    try:
        return ServeConfig(
            max_concurrency=args.max_concurrency,
            max_queue=args.max_queue,
            max_batch=args.max_batch,
            max_body_bytes=args.max_body_bytes,
            max_questions=args.max_questions,
            request_options=allowed,
            token=token,
        )
    except ValueError as exc:
        raise ValueError("--" + str(exc).replace("_", "-")) from None


def run_serve(args: argparse.Namespace, make_scorer: Callable[[argparse.Namespace], Any]) -> int:
    """Start the service; returns when it is stopped (Ctrl-C, SIGTERM). Raises ValueError on
    bad options and MissingExtraError without the ``serve`` extra."""
    try:
        import uvicorn
    except ImportError as exc:
        raise MissingExtraError("uvicorn", "serve", "summscore serve", exc) from None
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be 0..65535, got {args.port}")
    config = config_from_args(args)
    scorer = make_scorer(args)
    from . import create_app

    try:
        app = create_app(scorer, config)
    except ValueError as exc:
        raise ValueError(str(exc).replace("max_", "--max-").replace("_", "-")) from None
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s: %(message)s")
    auth = f"bearer token from ${args.token_env}" if config.token else "no auth"
    print(
        f"summscore serve: {scorer.preset} preset, judge {scorer.judge.name}, {auth}, "
        f"http://{args.host}:{args.port} (docs at /docs)",
        file=sys.stderr,
    )
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0
