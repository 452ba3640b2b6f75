"""The ``summscore`` command: score a file of summaries, write results and an HTML report;
compare two runs.

    summscore score examples/news.jsonl --report summscore-out/news.html
    summscore compare baseline.results.jsonl candidate.results.jsonl --fail-if-worse

The command line is built in ``parser``, the scoring options shared with ``serve`` turned
into a scorer in ``scorer_options``, and the ``score`` command runs in ``score``; the
service behind ``serve`` lives in ``summscore.serve``; ``compare`` in ``compare`` (the
comparison itself in ``summscore.comparison``).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import select
import sys
import textwrap
import traceback
from collections.abc import Sequence
from typing import Any

from ..errors import MissingExtraError
from ..masking.secrets import redact
from .parser import build_parser as build_parser
from .parser import subcommand
from .ray_engine import run_score_on_ray as run_score_on_ray
from .score import run_score as run_score
from .scorer_options import add_scorer_options as add_scorer_options
from .scorer_options import make_judge as make_judge
from .scorer_options import make_scorer as make_scorer
from .signals import stopped_by_signal
from .usage import EXIT_FAILED_ROWS as EXIT_FAILED_ROWS
from .usage import EXIT_GATE_FAILED as EXIT_GATE_FAILED
from .usage import EXIT_INTERNAL_ERROR as EXIT_INTERNAL_ERROR
from .usage import EXIT_INTERRUPTED as EXIT_INTERRUPTED
from .usage import EXIT_OK as EXIT_OK
from .usage import EXIT_OUTPUT_ERROR as EXIT_OUTPUT_ERROR
from .usage import EXIT_USAGE as EXIT_USAGE
from .usage import UsageError as UsageError

__all__ = ["main"]


def run_serve(args: argparse.Namespace) -> int:
    """``summscore serve``: the options are parsed here, the service lives in summscore.serve."""
    from ..serve.command import run_serve as serve

    try:
        return serve(args, make_scorer)
    except (ValueError, MissingExtraError) as exc:
        raise UsageError(str(exc)) from None


def _with_environment(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> Any:
    from ..serve.command import apply_environment

    try:
        apply_environment(subcommand(parser, "serve"))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """The ``summscore`` command; returns its exit status. An unexpected exception (a bug) exits
    with its own status, 5, its traceback on stderr with keys masked: never 1, which CI reads as
    "a gate failed"."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # (while the parser is built or after a command's own handling)
        print("summscore: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:
        if _closed_streams(exc):  # (`2>&1 | head`, a closed terminal: not a bug)
            return EXIT_INTERRUPTED if stopped_by_signal() else EXIT_OUTPUT_ERROR
        _report_internal_error(exc)
        return EXIT_INTERNAL_ERROR


def _closed_streams(exc: BaseException) -> bool:
    """Whether ``exc`` is (or was raised while handling) a write to a standard stream whose
    reader is gone, or to a terminal that hung up; if so the closed streams are pointed at the
    null device (so neither a traceback nor the flush at exit writes to them again) and, where
    stderr is still open, one line says what was lost."""
    seen: BaseException | None = exc
    # EPIPE: a pipe's reader stopped; EIO: the terminal hung up (SIGHUP's usual cause).
    while seen is not None and not (
        isinstance(seen, OSError) and seen.errno in (errno.EPIPE, errno.EIO)
    ):
        seen = seen.__cause__ or seen.__context__
    closed = [fd for fd in (1, 2) if _reader_gone(fd)]
    if seen is None or not closed:
        return False
    for fd in closed:
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, fd)
            os.close(devnull)
    if 2 not in closed:
        with contextlib.suppress(OSError, ValueError):
            print(
                "summscore: error: standard output was closed before the output was written "
                "whole (its reader stopped, as `| head` does); write it to a file instead",
                file=sys.stderr,
            )
    return True


def _reader_gone(fd: int) -> bool:
    """Whether ``fd`` is a pipe whose reader closed it (poll's POLLERR); where poll is missing
    (Windows), whether writing to it fails."""
    try:
        poller = select.poll()
    except AttributeError:
        try:
            os.write(fd, b"")
        except OSError:
            return True
        return False
    poller.register(fd, select.POLLOUT)
    return any(event & select.POLLERR for _, event in poller.poll(0))


def _report_internal_error(exc: BaseException) -> None:
    try:
        text = redact("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
        sys.stderr.write(text)
        sys.stderr.write(
            f"summscore: internal error: {redact(type(exc).__name__ + ': ' + str(exc))}\n"
            "This is a bug in summscore: please report it with the traceback above "
            f"(exit status {EXIT_INTERNAL_ERROR}).\n"
        )
        sys.stderr.flush()
    except Exception:  # (stderr itself gone: the status still says what happened)
        pass


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # for the --resume hint
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        if args.command == "serve":  # SUMMSCORE_<OPTION> variables give defaults (containers)
            args = _with_environment(parser, argv)
        if args.command == "serve":
            return run_serve(args)
        if args.command == "compare":
            from .compare import run_compare

            return run_compare(args)
        if args.engine == "ray":
            return run_score_on_ray(args)
        return run_score(args)
    except UsageError as exc:
        message = textwrap.shorten(str(exc), width=600, placeholder=" ...")
        print(f"summscore: error: {message}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:  # Ctrl-C before the rows are scored (reading, counting, setup)
        print("summscore: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
