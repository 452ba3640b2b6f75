"""``summscore serve``: parse the options, build one scorer, run the app under uvicorn.

Every option can also come from the environment, as containers are configured:
``SUMMSCORE_<OPTION>`` (``--max-concurrency 32`` is ``SUMMSCORE_MAX_CONCURRENCY=32``, a flag such
as ``--no-docs`` is ``SUMMSCORE_DOCS=false``); the command line wins over the environment.

Imports no web framework until the server starts, so ``summscore --help`` works without the
``serve`` extra.
"""

from __future__ import annotations

import argparse
import logging
import logging.config
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

from ..calls.pool import ProcessPoolJudge
from ..errors import MissingExtraError
from .runner import DEFAULT_REQUEST_OPTIONS, ServeConfig

__all__ = ["ENV_PREFIX", "add_serve_parser", "apply_environment", "run_serve"]

ENV_PREFIX = "SUMMSCORE_"
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")

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

endpoints: POST /v1/score, POST /v1/score:batch, GET /healthz, GET /metrics (Prometheus),
GET /openapi.json, GET /docs (Swagger UI, served offline; --no-docs leaves it out)
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
        "--request-timeout",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="a request still running after SECONDS is answered 504 and its cases are stopped, "
        "their judge slots freed (default 300; 0: no deadline), e.g. --request-timeout 60",
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


def apply_environment(
    parser: argparse.ArgumentParser, env: Mapping[str, str] = os.environ
) -> list[str]:
    """Take each option's default from ``SUMMSCORE_<OPTION>`` where that is set; returns the
    variables used. Raises ValueError naming a variable whose value the option refuses."""
    used = []
    for action in parser._actions:
        if not action.option_strings or action.dest in ("help", "version"):
            continue
        name = ENV_PREFIX + action.dest.upper()
        value = env.get(name)
        if value is None or value == "":
            continue
        used.append(name)
        if isinstance(action, (argparse.BooleanOptionalAction, argparse._StoreTrueAction)):
            word = value.strip().lower()
            if word not in _TRUE + _FALSE:
                raise ValueError(f"{name}={value!r}: use true or false")
            action.default = word in _TRUE
            continue
        converted: Any = value
        if action.type is not None and callable(action.type):
            try:
                converted = action.type(value)
            except (TypeError, ValueError):
                raise ValueError(f"{name}={value!r}: not a valid {action.dest} value") from None
        if action.choices is not None and converted not in action.choices:
            listed = ", ".join(map(str, action.choices))
            raise ValueError(f"{name}={value!r}: choose from {listed}")
        action.default = converted
    return used


def config_from_args(args: argparse.Namespace, env: Any = os.environ) -> ServeConfig:
    """The service limits from the command line; ValueError names the option at fault."""
    token = None
    if args.token_env:
        token = env.get(args.token_env)
        if not token:
            raise ValueError(f"--token-env {args.token_env}: that environment variable is empty")
    names = args.request_options.strip()
    allowed = frozenset() if names in ("", "none") else frozenset(names.replace(" ", "").split(","))
    timeout = getattr(args, "request_timeout", None)
    if timeout is not None and timeout < 0:
        raise ValueError(f"--request-timeout must be 0 (no deadline) or more, got {timeout:g}")
    try:
        return ServeConfig(
            request_timeout=timeout or None,
            docs=getattr(args, "docs", True),
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
    _configure_logging(args.log_level, args.log_format, getattr(args, "access_log", True))
    auth = f"bearer token from ${args.token_env}" if config.token else "no auth"
    docs = "docs at /docs" if config.docs else "no /docs"
    deadline = f"{config.request_timeout:g} s" if config.request_timeout else "none"
    print(
        f"summscore serve: {scorer.preset} preset, judge {scorer.judge.name}, {auth}, "
        f"request deadline {deadline}, http://{args.host}:{args.port} ({docs}, "
        "metrics at /metrics)",
        file=sys.stderr,
    )
    try:
        # The access log is the app's own (the path as sent); uvicorn's would print %3A.
        uvicorn.run(
            app,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
            log_config=None,
            access_log=False,
        )
    finally:
        if isinstance(scorer.llm, ProcessPoolJudge):  # the offline judge's worker processes
            scorer.llm.close()
    return 0


def _configure_logging(level: str, fmt: str, access: bool) -> None:
    """The server's log lines (uvicorn's and summscore's) on stderr, as text or JSON."""
    formatter: dict[str, Any] = (
        {"()": "summscore.serve.observe.JsonFormatter"}
        if fmt == "json"
        else {"format": "%(levelname)s: %(message)s"}
    )
    logging.config.dictConfig(
        {
            "version": 1,
            "disable_existing_loggers": False,
            "formatters": {"main": formatter},
            "handlers": {
                "stderr": {
                    "class": "logging.StreamHandler",
                    "formatter": "main",
                    "stream": "ext://sys.stderr",
                }
            },
            "loggers": {
                "uvicorn": {"handlers": ["stderr"], "level": level.upper(), "propagate": False},
                "summscore": {"handlers": ["stderr"], "level": level.upper(), "propagate": False},
                "summscore.serve.access": {
                    "level": "INFO" if access else "CRITICAL",
                },
            },
        }
    )
