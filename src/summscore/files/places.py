"""Checking where a run will write before it opens anything: a results file, a report, a cache.

``unusable`` says why a file (or a folder) cannot be written where it is named, in words a
user acts on ("notadir is a file, not a folder"), or None when it can: the nearest folder that
exists is a folder and takes a new file (tried with a probe file that is removed at once, which
also finds a read-only mount and, as root, what permission bits do not say), and the target is
not a folder, a device or a pipe. The command checks every output so before it opens any of them,
so a run that cannot write its report never truncates its results first.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

__all__ = ["unusable"]


def unusable(path: Path, *, folder: bool = False) -> str | None:
    """Why ``path`` cannot be written (created or replaced) as a file, or, with ``folder``,
    used as a folder to write files in; None when it can."""
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except NotADirectoryError:
        return _blocked(path)
    except OSError as exc:
        return f"{path}: cannot be reached ({exc.strerror or exc})"
    if info is not None:
        if folder and not stat.S_ISDIR(info.st_mode):
            return f"{path} is a file, not a folder"
        if not folder and stat.S_ISDIR(info.st_mode):
            return f"{path} is a folder; name a file in it"
        if not folder and not stat.S_ISREG(info.st_mode):
            return f"{path} is not a regular file (a device, a pipe or a socket)"
    where = path if folder and info is not None else path.parent
    existing = where
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        return f"{existing} is a file, not a folder"
    return _probe(existing)


def _blocked(path: Path) -> str:
    """The part of ``path`` that is a file where a folder should be."""
    for parent in reversed(path.parents):
        if parent.exists() and not parent.is_dir():
            return f"{parent} is a file, not a folder"
    return f"{path}: a part of the path is not a folder"


def _probe(folder: Path) -> str | None:
    try:
        handle, name = tempfile.mkstemp(dir=folder, prefix=".summscore-probe-")
    except OSError as exc:
        return f"cannot write in {folder} ({exc.strerror or exc})"
    os.close(handle)
    os.unlink(name)
    return None
