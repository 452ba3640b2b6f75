"""What every command shares: the exit statuses, the usage error, the argument parser class."""

from __future__ import annotations

import argparse
import sys

__all__ = [
    "EXIT_FAILED_ROWS",
    "EXIT_GATE_FAILED",
    "EXIT_INTERNAL_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_OUTPUT_ERROR",
    "EXIT_USAGE",
    "CommandParser",
    "UsageError",
]

# The exit statuses; when several apply, the first in the order 130, 2, 4, 3, 1 is the one.
EXIT_OK, EXIT_FAILED_ROWS, EXIT_USAGE, EXIT_INTERRUPTED = 0, 3, 2, 130
EXIT_OUTPUT_ERROR = 4  # results or report not written (disk full, file-size limit): resumable
# A quality gate failed (compare --fail-if-worse, score --fail-under / --min-pass-rate). A run
# whose rows failed exits EXIT_FAILED_ROWS even when a gate failed too: the gates judged an
# incomplete run, and --resume (scoring only the failed rows) comes first.
EXIT_GATE_FAILED = 1
# An unexpected exception: a bug in summscore (the traceback is printed, keys masked). Not 1,
# which CI reads as "a gate failed": a crash must not pass for "the candidate is worse".
EXIT_INTERNAL_ERROR = 5


class UsageError(Exception):
    """A problem with the command line or the environment; exit status 2."""


class CommandParser(argparse.ArgumentParser):
    """argparse, with bad usage exiting with the CLI's usage status (2) after the usage line."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")
