"""Checking where a run will write before it opens anything: a results file, a report, a cache.

``unusable`` says why a file (or a folder) cannot be written where it is named, in words a
user acts on ("notadir is a file, not a folder"), or None when it can: the nearest folder that
exists is a folder and takes a new file (tried with a probe file that is removed at once, which
also finds a read-only mount and, as root, what permission bits do not say), and the target is
not a folder, a device or a pipe. The command checks every output so before it opens any of them,
so a run that cannot write its report never truncates its results first.

The hidden working files a run writes beside an output (the partial file, a file written
beside its target before it is renamed into place) are summscore's own only when they are plain
files: ``foreign`` says why one is not (a symbolic link, which summscore never makes, or a
device, a pipe, a folder), and ``create_new`` opens one afresh, never through a link (a
leftover plain file is removed first; ``O_EXCL`` and ``O_NOFOLLOW`` refuse whatever appears
there meanwhile), so no run writes into a file a link points to, nor renames a link into place.

A run holds a lock on the partial file it writes (``hold``, where the platform has ``fcntl``):
``in_use`` tells a second run started on the same output that it must not touch it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import IO, Any

try:
    import fcntl
except ImportError:  # (Windows: no lock, as before)
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "LOCKS",
    "ForeignFileError",
    "create_new",
    "foreign",
    "hold",
    "in_use",
    "refuse_in_use",
    "unusable",
]

LOCKS = fcntl is not None
"""Whether a run locks its partial file (``hold``): not on Windows."""


class ForeignFileError(OSError):
    """A hidden working file's place holds something summscore did not make (see ``foreign``)."""

    def __str__(self) -> str:
        return str(self.strerror)


def foreign(path: Path) -> str | None:
    """Why the hidden working file ``path`` is not summscore's own to replace: a symbolic link
    (summscore never makes one), or not a plain file; None when there is none or a plain file."""
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        return f"{path}: cannot be reached ({exc.strerror or exc})"
    if stat.S_ISLNK(info.st_mode):
        return (
            f"{path} is a symbolic link, which summscore never makes: it would write into the "
            "file it points to; remove the link"
        )
    if not stat.S_ISREG(info.st_mode):
        return f"{path} is not a regular file (a folder, a device or a pipe); remove it"
    return None


def create_new(path: Path, mode: str = "w", **options: Any) -> IO[Any]:
    """Open the hidden working file ``path`` for writing as a new file (see the module's
    docstring); ``mode`` "w" or "wb", ``options`` as ``open`` takes them. ForeignFileError when
    something summscore did not make is there."""
    if (problem := foreign(path)) is not None:
        raise ForeignFileError(errno.EEXIST, problem)
    refuse_in_use(path)  # (another run let in before this one opened the file: see in_use)
    path.unlink(missing_ok=True)  # a killed run's leftover (a plain file)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    for name in ("O_NOFOLLOW", "O_CLOEXEC", "O_BINARY"):
        flags |= getattr(os, name, 0)
    try:
        descriptor = os.open(path, flags, 0o666)
    except FileExistsError:  # (something appeared there since: not ours either)
        raise ForeignFileError(errno.EEXIST, f"{path} appeared while summscore wrote it") from None
    try:
        return open(descriptor, mode, **options)  # (the caller closes it)
    except BaseException:
        os.close(descriptor)
        raise


def hold(handle: IO[Any]) -> None:
    """Lock the working file ``handle`` was opened on for as long as it is open (see ``in_use``)."""
    if fcntl is not None:
        # (a file system without locks: the run goes on unlocked)
        with contextlib.suppress(OSError):
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def refuse_in_use(path: Path) -> None:
    """ForeignFileError (EBUSY) when another run holds the working file ``path`` (``in_use``)."""
    if in_use(path):
        raise ForeignFileError(
            errno.EBUSY,
            f"{path}: another summscore run is writing it now; wait for that run to end, or "
            "name another --out",
        )


def in_use(path: Path) -> bool:
    """Whether another process holds the working file ``path`` (``hold``): a run writing it."""
    if fcntl is None:
        return False
    try:  # (O_NONBLOCK: a named pipe there is not waited on; only a file is held)
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return False
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(descriptor)  # (closing it releases a lock taken here)
    return False


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
