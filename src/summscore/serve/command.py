"""``summscore serve``: parse the options, build one scorer, run the app under uvicorn.

Every option can also come from the environment, as containers are configured:
``SUMMSCORE_<OPTION>`` (``--max-concurrency 32`` is ``SUMMSCORE_MAX_CONCURRENCY=32``, a flag such
as ``--no-docs`` is ``SUMMSCORE_DOCS=false``); the command line wins over the environment.

Imports no web framework until the server starts, so ``summscore --help`` works without the
``serve`` extra.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import logging.config
import math
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import MissingExtraError
from .config import ServeConfig
from .lanes import LARGE_CHARS, LanedJudge
from .options import WORKER_MEMORY_MB, add_serve_parser

__all__ = ["ENV_PREFIX", "add_serve_parser", "apply_environment", "offline_judge", "run_serve"]

ENV_PREFIX = "SUMMSCORE_"
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


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
    for name in ("header_timeout", "body_timeout"):
        value = getattr(args, name, 1.0)
        if not (value > 0 and math.isfinite(value)):
            raise ValueError(f"--{name.replace('_', '-')} must be a positive number, got {value:g}")
    grace = getattr(args, "shutdown_timeout", 0.0)
    if not (grace >= 0 and math.isfinite(grace)):
        raise ValueError(f"--shutdown-timeout must be 0 or more, got {grace:g}")
    cache_mb = getattr(args, "result_cache_mb", 32.0)
    for name in ("result_cache_mb", "source_cache_mb", "max_body_memory_mb"):
        value = getattr(args, name, 0.0)
        if not (value >= 0 and math.isfinite(value)):
            raise ValueError(f"--{name.replace('_', '-')} must be 0 or more, got {value:g}")
    try:
        return ServeConfig(
            request_timeout=timeout or None,
            docs=getattr(args, "docs", True),
            body_timeout=getattr(args, "body_timeout", 60.0),
            result_cache_bytes=int(cache_mb * 2**20),
            max_body_memory=max(1, int(getattr(args, "max_body_memory_mb", 32.0) * 2**20)),
            public_metrics=getattr(args, "public_metrics", False),
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


def offline_judge(args: argparse.Namespace, workers: int) -> LanedJudge:
    """The offline judge as ``summscore serve`` runs it: ``workers`` processes, large requests
    in lanes of their own, each worker's memory bounded (see ``lanes``)."""
    from ..judges import LexicalJudge

    memory = getattr(args, "worker_memory", WORKER_MEMORY_MB)
    large_chars = getattr(args, "large_case_chars", LARGE_CHARS)
    large_workers = getattr(args, "large_workers", 1)
    if not (memory >= 0 and math.isfinite(memory)):
        raise ValueError(f"--worker-memory must be 0 (no bound) or more, got {memory:g}")
    if large_chars < 0 or large_workers < 0:
        raise ValueError("--large-case-chars and --large-workers must be 0 or more")
    return LanedJudge(
        LexicalJudge,
        workers,
        large_workers=large_workers if large_chars else 0,
        large_chars=large_chars or 1,
        max_worker_rss=int(memory * 2**20) or None,
    )


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
    from .protocol import timed_protocol

    grace = getattr(args, "shutdown_timeout", 8.0)
    metrics = app.state.metrics
    server_config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        log_config=None,
        access_log=False,  # the access log is the app's own (the path as sent: no %3A)
        http=timed_protocol(
            getattr(args, "header_timeout", 10.0),
            config.body_timeout,
            lambda phase: metrics.slow_clients.labels(phase).inc(),
        ),
        # A backstop: the app answers what is left at the grace period's end (see _Server).
        timeout_graceful_shutdown=math.ceil(grace) + 5,
    )
    server = _server_class(uvicorn)(server_config, grace, app.state.runner.stop)
    try:
        server.run()
    finally:
        stop = getattr(scorer.llm, "terminate", None)  # the offline judge's worker processes
        if callable(stop):
            stop()
    if not server.started:
        raise SystemExit(3)  # uvicorn has said why (the port is taken, say); its exit code
    return 0


def _server_class(uvicorn: Any) -> Any:
    class _Server(uvicorn.Server):
        """uvicorn's server, whose shutdown gives requests in flight ``grace`` seconds and then
        has the app answer them 503 (``on_grace_over``) instead of cutting them off."""

        def __init__(self, config: Any, grace: float, on_grace_over: Callable[[], None]) -> None:
            super().__init__(config)
            self.grace, self.on_grace_over = grace, on_grace_over

        async def shutdown(self, sockets: Any = None) -> None:
            handle = asyncio.get_running_loop().call_later(self.grace, self.on_grace_over)
            try:
                await super().shutdown(sockets)
            finally:
                handle.cancel()

    return _Server


def _configure_logging(level: str, fmt: str, access: bool) -> None:
    """The server's log lines (uvicorn's and summscore's) on stderr, as text or JSON."""
    formatter: dict[str, Any] = (
        {"()": "summscore.serve.observe.JsonFormatter"}
        if fmt == "json"
        else {"()": "summscore.serve.observe.BoundedFormatter", "fmt": "%(levelname)s: %(message)s"}
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
