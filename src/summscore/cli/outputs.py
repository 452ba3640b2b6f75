"""Where ``summscore score`` writes, checked before anything is opened: the default results
file, and the checks that keep the user's files (the input, a file summscore did not write)
and refuse a place that cannot be written (``summscore.files.places.unusable``), each a
``usage.UsageError`` (exit status 2); and ``write_whole``, which writes a small
output (a comparison) so that it is never half written."""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

from ..errors import MissingExtraError
from ..files.datasets import is_results_file
from ..files.places import ForeignFileError, create_new, foreign, in_use, unusable
from ..files.records import FORMATS
from ..files.writer import OutputError, partial_path, writing_path
from .usage import UsageError

__all__ = [
    "check_out",
    "check_report_suffix",
    "check_staged",
    "default_out",
    "named_sheet",
    "staged_path",
    "stopped_run_note",
    "through_links",
    "write_whole",
]


def default_out(path: Path, sheet: str | None = None) -> Path:
    """``summscore-out/<input name>.results.jsonl``; a workbook's sheet gets a file of its own
    (``book.Round 2.results.jsonl``), so scoring another sheet never replaces, nor --resume
    reuses, the first one's results."""
    name = path.name
    for suffix in (".gz", *FORMATS):
        name = name.removesuffix(suffix) if name.lower().endswith(suffix) else name
    if sheet is not None:
        name += "." + (re.sub(r"[\\/:*?\"<>|\x00-\x1f]", "_", sheet).strip(". ") or "_")
    return Path("summscore-out") / f"{name}.results.jsonl"


def through_links(out: Path) -> Path:
    """The file a symlinked ``--out`` points to: results are finished by a rename, which would
    replace the user's link with a file; renaming onto the linked file keeps the link. A loop
    of links is a usage error (Python 3.11's ``resolve`` raises RuntimeError for one)."""
    try:
        return out.resolve(strict=False) if out.is_symlink() else out
    except (OSError, RuntimeError):
        raise UsageError(f"--out {out}: cannot be reached (a loop of symbolic links)") from None


def named_sheet(args: argparse.Namespace) -> str | None:
    """The sheet --sheet names, as the workbook spells it (None without --sheet or a workbook)."""
    path = Path(args.input)
    if args.sheet is None or FORMATS.get(path.suffix.lower()) != "xlsx":
        return None
    from ..files.xlsx import sheet_title

    try:
        return sheet_title(path, args.sheet)
    except (OSError, ValueError, MissingExtraError) as exc:
        raise UsageError(str(exc)) from None


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except (OSError, RuntimeError):  # (RuntimeError: a loop of links, in Python 3.11)
        return False


def check_out(args: argparse.Namespace, path: Path, out: Path | None) -> None:
    """Nothing the user has is overwritten: not the input, not a file summscore did not write."""
    if out is None:
        if args.resume:
            raise UsageError("--resume needs a results file, not --out -")
        _check_others(args, path, None)
        return
    if _same_file(out, path):
        raise UsageError(f"--out {out} is the input file; name another results file")
    if out.is_dir():
        raise UsageError(f"--out {out} is a directory; name a file, e.g. {out / 'results.jsonl'}")
    if (problem := unusable(out)) is not None:
        raise UsageError(f"--out {out}: {problem}")
    if in_use(partial_path(out)):
        raise UsageError(
            f"--out {out}: another summscore run is writing it now (it holds "
            f"{partial_path(out).name}); wait for that run to end, or name another --out"
        )
    if args.resume and out.exists() and not is_results_file(out):
        raise UsageError(f"--resume: {out} is not a summscore results file")
    if out.exists() and not args.force and not is_results_file(out):
        raise UsageError(
            f"--out {out} exists and is not a summscore results file; "
            "pass --force to replace it, or name another file"
        )
    # The hidden files beside it: summscore's own, or the run would write through a link.
    for hidden, what in ((partial_path(out), "partial file"), (writing_path(out), "working file")):
        if (problem := foreign(hidden)) is not None:
            raise UsageError(f"--out {out}: its {what} {problem}")
    _check_others(args, path, out)


def _check_others(args: argparse.Namespace, path: Path, out: Path | None) -> None:
    """The report and the cache: usable, and the report not the input, the results or a file
    summscore did not write."""
    cache = getattr(args, "cache", None)
    if cache and (problem := unusable(Path(cache).expanduser(), folder=True)) is not None:
        raise UsageError(f"--cache {cache}: {problem}")
    # The cache is a folder made before scoring: at the results' or the report's path it would
    # stand where the file is to go, and the run end after scoring with nothing written.
    for option, place in (("--out", out), ("--report", args.report)):
        if cache and place is not None and _same_file(Path(cache).expanduser(), Path(place)):
            raise UsageError(f"--cache {cache} is the {option} path; name another folder")
    if args.report:
        report = Path(args.report)
        if (problem := unusable(report)) is not None:
            raise UsageError(f"--report {report}: {problem}")
        if _same_file(report, path) or (out is not None and _same_file(report, out)):
            raise UsageError(f"--report {report} is the input or the results file")
        check_staged(report, "--report")
        if report.exists() and not args.force and not _is_report(report):
            raise UsageError(
                f"--report {report} exists and is not a summscore report; "
                "pass --force to replace it"
            )


def check_report_suffix(args: argparse.Namespace) -> None:
    if args.report and Path(args.report).suffix.lower() not in (".html", ".htm"):
        raise UsageError(f"--report {args.report}: the report is an .html file")


def _is_report(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return not head.strip() or b"summscore" in head


def staged_path(path: Path) -> Path:
    """Where ``path`` (a report, a comparison) is written before it is renamed into place."""
    return path.with_name(f".{path.name}.writing")


def check_staged(path: Path, what: str) -> None:
    """The hidden files written beside ``path`` must be summscore's own (never a link): exit 2."""
    if (problem := foreign(staged_path(path))) is not None:
        raise UsageError(f"{what} {path}: its working file {problem}")


def write_whole(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` beside it first, then rename it into place: the file is the
    earlier one or the new one, never half written. OutputError (naming ``path``) when it
    cannot be written (a full disk, the file-size limit); ForeignFileError when a link is where
    it is written first (``check_staged`` refuses it before the run)."""
    staged = staged_path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with create_new(staged, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(staged, path)
    except ForeignFileError:
        raise
    except OSError as exc:
        staged.unlink(missing_ok=True)
        raise OutputError(path, exc) from None
    return path


def stopped_run_note(out: Path | None) -> str | None:
    """The note for a run without ``--resume`` that finds rows a stopped run left in the
    partial file beside ``out``: it starts that file anew and scores them again (None: none)."""
    if out is None:
        return None
    partial = partial_path(out)
    if partial.is_symlink() or not partial.is_file():
        return None  # (none; or not summscore's, which check_out refuses)
    try:
        with partial.open("rb") as handle:
            rows = sum(part.count(b"\n") for part in iter(lambda: handle.read(1 << 20), b""))
    except OSError:
        return None
    if rows == 0:
        return None
    return (
        f"summscore: a stopped run left {rows} row{'s' if rows != 1 else ''} in {partial}; "
        "this run scores them again (stop it and add --resume to keep them)"
    )
