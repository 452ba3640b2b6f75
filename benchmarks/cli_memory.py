"""Peak memory of ``summscore score`` as the input grows: flat, or not?

    python benchmarks/cli_memory.py                      # 10,000 and 200,000 rows (~10 min on 2 cores)
    python benchmarks/cli_memory.py --sizes 1000,20000   # quicker
    python benchmarks/cli_memory.py --report             # with --report (an HTML page per run)
    python benchmarks/cli_memory.py --readers            # hostile inputs: peak RSS and seconds

``--readers`` runs the command on inputs built to exhaust a reader (see
src/summscore/files/limits.py and xlsx_guard.py), each in a fresh process under a time limit
(``--timeout``, default 120 s) and an address-space limit (``--memory-cap``, default 4 GiB, so
that an unbounded reader fails instead of taking the machine): 256 MiB of NULs as .csv and as
.jsonl, a 2 GiB sparse .csv, ``/dev/zero`` named .jsonl, a FIFO nobody writes to, a ~260 KiB
.xlsx that inflates to one 256 MiB cell, an .xlsx whose 6 million styled empty cells take
minutes to walk, and one whose 300,000 rows each end in an empty cell in column XFD; a JSONL
file of one 2 GiB line and a row after it; as .parquet: 256 MiB of NULs, a file whose one cell
inflates to 256 MiB, one whose 1.9 MB dictionary entry 20,000 rows share, 100 million empty
rows, and 100,000 distinct 1-5 kB texts in one row group that pyarrow stored as an Arrow
dictionary but wrote as plain pages. It prints
each one's exit status, seconds and peak RSS; run it with ``PYTHONPATH`` at another checkout to
compare.

Each size is a generated JSONL file of short news-like rows, scored with the offline judge in a
fresh process (``python -m summscore.cli score FILE --out OUT --no-progress``); the child reports
its own peak resident set size (``ru_maxrss``). The last line compares the largest size to the
smallest: the target is a ratio of at most 1.5 (memory that does not grow with the file).
With ``--report`` each run also writes the HTML report (whose size does grow with the file; the
memory that writes it should not); its size is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

_TARGET = 1.5
_PLACES = ["Leeds", "Porto", "Osaka", "Lyon", "Quito", "Perth", "Turin", "Gdansk"]


def _write_input(path: Path, rows: int) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for i in range(rows):
            # 64 sources with many summaries each, as in a real evaluation set: the source-side
            # work is judged once per source (the scorer's source cache), which keeps this quick.
            place = _PLACES[i % len(_PLACES)]
            homes = 10 + i % 64
            record = {
                "id": f"row-{i}",
                "source": f"The council of {place} approved {homes} new homes on Monday. "
                f"Building starts in {2025 + i % 64 // 8}.",
                "summary": f"{place} approved {homes + i % 3} homes in {2025 + i % 5}.",
            }
            handle.write(json.dumps(record) + "\n")


def _child(input_path: str, out_path: str, preset: str, report: str | None) -> None:
    """Run the command in this process and print: seconds, peak RSS in KB."""
    from summscore.cli import main

    start = time.perf_counter()
    sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the summary table is not wanted here
    argv = ["score", input_path, "--out", out_path, "--no-progress", "--preset", preset]
    code = main([*argv, "--report", report] if report else argv)
    seconds = time.perf_counter() - start
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"code": code, "seconds": seconds, "peak_kb": peak_kb}))


def _measure(rows: int, folder: Path, preset: str, report: bool) -> dict[str, float]:
    data, out = folder / f"in-{rows}.jsonl", folder / f"out-{rows}.jsonl"
    page = folder / f"report-{rows}.html"
    _write_input(data, rows)
    command = [sys.executable, __file__, "--child", str(data), str(out), "--preset", preset]
    done = subprocess.run(
        [*command, "--report-path", str(page)] if report else command,
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    if figures["code"] not in (0, 3):  # 3: some rows failed
        raise SystemExit(f"summscore score exited {figures['code']} on {rows} rows")
    with out.open(encoding="utf-8") as handle:
        written = sum(1 for _ in handle)
    if written != rows:
        raise SystemExit(f"{rows} rows in, {written} results out")
    report_mb = 0.0
    if report:
        report_mb = page.stat().st_size / 2**20
        page.unlink()
    data.unlink()
    out.unlink()
    return {
        "rows": rows,
        "seconds": figures["seconds"],
        "peak_mb": figures["peak_kb"] / 1024,
        "report_mb": report_mb,
    }


def main() -> None:
    if sys.argv[1:2] == ["--parquet-input"]:
        _parquet(Path(sys.argv[3]), sys.argv[2])
        return
    if "--readers" in sys.argv[1:]:
        _readers(sys.argv[1:])
        return
    if "--long-rows" in sys.argv[1:]:
        _long_rows(sys.argv[1:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,200000", help="row counts, comma-separated")
    parser.add_argument("--preset", default="ragas", choices=("ragas", "deepeval", "mastra"))
    parser.add_argument(
        "--report", action="store_true", help="also write the HTML report (--report) each run"
    )
    parser.add_argument("--child", nargs=2, metavar=("INPUT", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("--report-path", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        input_path, out_path = args.child
        _child(input_path, out_path, args.preset, args.report_path)
        return
    sizes = sorted(int(s) for s in args.sizes.split(","))
    with_report = ", with --report" if args.report else ""
    print(
        f"summscore score, offline judge, {args.preset} preset{with_report}, one process per size"
    )
    header = f"{'rows':>9}  {'seconds':>8}  {'rows/s':>7}  {'peak RSS MB':>11}"
    print(header + (f"  {'report MB':>9}" if args.report else ""))
    results = []
    with tempfile.TemporaryDirectory(prefix="summscore-mem-") as tmp:
        for rows in sizes:
            figures = _measure(rows, Path(tmp), args.preset, args.report)
            results.append(figures)
            rate = rows / figures["seconds"] if figures["seconds"] else float("inf")
            line = (
                f"{rows:>9}  {figures['seconds']:>8.1f}  {rate:>7.0f}  {figures['peak_mb']:>11.1f}"
            )
            print(line + (f"  {figures['report_mb']:>9.1f}" if args.report else ""), flush=True)
    ratio = results[-1]["peak_mb"] / results[0]["peak_mb"]
    verdict = "flat" if ratio <= _TARGET else "GROWS"
    print(
        f"peak RSS ratio {results[-1]['rows']} / {results[0]['rows']} rows: {ratio:.2f} "
        f"(target <= {_TARGET}): {verdict}"
    )


# ------------------------------------------------------------------ --readers: hostile inputs

_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
_PARTS = {
    "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
    'package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.'
    'openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application'
    '/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml"'
    ' ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    "_rels/.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/'
    'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
    'officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": f'<?xml version="1.0"?><workbook {_NS} xmlns:r="http://schemas.'
    'openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" '
    'sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.'
    'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.'
    'openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.'
    'xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
}
_HEAD = (
    b'<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'
    b'<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="s"><v>3</v></c></row>'
)


def _workbook(path: Path, sheet: Any, strings: Any) -> None:
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, text in _PARTS.items():
            archive.writestr(name, text)
        with archive.open("xl/sharedStrings.xml", "w", force_zip64=True) as part:
            part.write(f'<?xml version="1.0"?><sst {_NS}>'.encode())
            for piece in strings:
                part.write(piece)
            part.write(b"</sst>")
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part:
            part.write(f'<?xml version="1.0"?><worksheet {_NS}><sheetData>'.encode() + _HEAD)
            for piece in sheet:
                part.write(piece)
            part.write(b"</sheetData></worksheet>")


def _si(*texts: bytes) -> Iterator[bytes]:
    for text in texts:
        yield b"<si><t>" + text + b"</t></si>"


def _one_huge_cell() -> Iterator[bytes]:
    yield b"<si><t>source</t></si><si><t>summary</t></si><si><t>"
    for _ in range(256):
        yield b"A" * 2**20
    yield b"</t></si><si><t>short</t></si>"


def _flood() -> Iterator[bytes]:
    columns = [chr(c) for c in range(ord("C"), ord("W"))]
    for n in range(3, 300_003):
        yield f'<row r="{n}">'.encode()
        yield "".join(f'<c r="{c}{n}" s="1"/>' for c in columns).encode() + b"</row>"


def _padded() -> Iterator[bytes]:
    for n in range(3, 300_003):
        yield f'<row r="{n}"><c r="XFD{n}" s="1"/></row>'.encode()


def _parquet(path: Path, kind: str) -> None:
    """A hostile Parquet file: one 256 MiB cell of NULs, one 1.9 MB dictionary entry that
    20,000 rows share, 100 million empty rows, or 100,000 distinct texts stored as an Arrow
    dictionary (a pandas Categorical's kind) in plain pages."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    def shared(text: str, rows: int) -> Any:
        return pa.DictionaryArray.from_arrays(pa.array([0] * rows, pa.int32()), pa.array([text]))

    if kind == "parquet-one-cell":
        table = pa.table(
            {"id": ["r1", "r2"], "source": pa.array(["\x00" * 2**28, "The bridge opened."])}
            | {"summary": ["It opened.", "It opened."]}
        )
    elif kind == "parquet-shared-entry":
        rows = 20_000
        table = pa.table(
            {"id": [f"r{i}" for i in range(rows)], "source": shared("A" * 1_900_000, rows)}
            | {"summary": shared("It opened.", rows)}
        )
    elif kind == "parquet-arrow-dictionary":
        # 100,000 distinct texts of 1-5 kB (300 MB) in one row group, an Arrow dictionary in
        # the schema pyarrow stores (read back as one by default), plain in the pages
        rows = 100_000
        words = " ".join(_WORDS[(i * 7919) % len(_WORDS)] for i in range(300_000))
        starts = [(i * 7919) % (len(words) - 5000) for i in range(rows)]
        texts = pa.array(
            [f"{i} " + words[at : at + 1000 + at % 4000] for i, at in enumerate(starts)]
        )
        sources = pa.DictionaryArray.from_arrays(pa.array(range(rows), pa.int32()), texts)
        table = pa.table(
            {"id": [f"r{i}" for i in range(rows)], "source": sources}
            | {"summary": ["It opened."] * rows}
        )
        pq.write_table(
            table, path, compression="zstd", row_group_size=rows, use_dictionary=["summary"]
        )
        return
    else:
        nulls = pa.nulls(100_000_000, pa.string())
        table = pa.table({"id": nulls, "source": nulls, "summary": nulls})
    # store_schema=False: read back as another program's file is, texts as texts
    pq.write_table(table, path, compression="zstd", store_schema=False)


def _build(kind: str, folder: Path) -> Path:
    """The hostile input ``kind``, built in ``folder``."""
    strings = (b"source", b"summary", b"The bridge opened in 1901.", b"It opened in 1901.")
    if kind.startswith("parquet-") and kind != "parquet-nul":
        path = folder / f"{kind}.parquet"
        # Built in another process: the children are forked from this one, and their peak RSS
        # would count the gigabyte it took to build one.
        subprocess.run([sys.executable, __file__, "--parquet-input", kind, str(path)], check=True)
    elif kind == "parquet-nul":
        path = folder / "nul.parquet"
        with path.open("wb") as handle:
            handle.truncate(256 * 2**20)
    elif kind in ("csv-nul", "jsonl-nul", "csv-sparse-2g"):
        path = folder / f"{kind}.{kind.split('-')[0]}"
        with path.open("wb") as handle:
            handle.truncate(2 * 2**30 if kind == "csv-sparse-2g" else 256 * 2**20)
    elif kind == "jsonl-line-2g":  # one 2 GiB line of NULs, then a row that is scored
        path = folder / "line.jsonl"
        row = {"id": "after", "source": "The bridge opened in 1901.", "summary": "It opened."}
        with path.open("wb") as handle:
            handle.seek(2 * 2**30)
            handle.write(b"\n" + json.dumps(row).encode() + b"\n")
    elif kind == "dev-zero":
        path = folder / "zero.jsonl"
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        path = folder / "fifo.jsonl"
        os.mkfifo(path)
    elif kind == "xlsx-one-cell":
        path = folder / "one_cell.xlsx"
        _workbook(path, [], _one_huge_cell())
    elif kind == "xlsx-flood":
        path = folder / "flood.xlsx"
        _workbook(path, _flood(), _si(*strings))
    else:
        path = folder / "padded.xlsx"
        _workbook(path, _padded(), _si(*strings))
    return path


_KINDS = (
    "csv-nul",
    "jsonl-nul",
    "csv-sparse-2g",
    "dev-zero",
    "fifo",
    "xlsx-one-cell",
    "xlsx-flood",
    "xlsx-padded",
    "jsonl-line-2g",
    "parquet-nul",
    "parquet-one-cell",
    "parquet-shared-entry",
    "parquet-empty-rows",
    "parquet-arrow-dictionary",
)


def _wait(
    child: subprocess.Popen[bytes],
    start: float,
    timeout: float,
    pause: float,
    tick: Callable[[], None] | None = None,
) -> tuple[bool, int, Any]:
    """Wait for ``child`` (killed once ``timeout`` seconds have passed since ``start``),
    calling ``tick`` every ``pause`` seconds meanwhile: whether it was stopped, its wait status
    and its resource usage (os.wait4)."""
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            return False, status, usage
        if time.perf_counter() - start > timeout:
            child.kill()
            _, status, usage = os.wait4(child.pid, 0)
            return True, status, usage
        if tick is not None:
            tick()
        time.sleep(pause)


def _run_limited(path: Path, out: Path, timeout: float, cap: int) -> dict[str, Any]:
    """Run the command on ``path`` in a child limited to ``cap`` bytes of address space; its
    exit status (None when stopped at ``timeout``), seconds and peak RSS (os.wait4)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    command = [sys.executable, "-m", "summscore.cli", "score", str(path), "--out", str(out)]
    start = time.perf_counter()
    child = subprocess.Popen(
        [*command, "--no-progress", "--force"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=limit,
    )
    stopped, status, usage = _wait(child, start, timeout, 0.05)
    seconds = time.perf_counter() - start
    err = child.stderr.read().decode("utf-8", "replace") if child.stderr else ""
    last = [line for line in err.splitlines() if line.strip()][-1:] or [""]
    code = None if stopped else os.waitstatus_to_exitcode(status)
    return {"code": code, "seconds": seconds, "peak_mb": usage.ru_maxrss / 1024, "says": last[0]}


def _readers(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description="peak RSS of the readers on hostile inputs")
    parser.add_argument("--readers", action="store_true")
    parser.add_argument("--only", help="comma-separated kinds, of " + ", ".join(_KINDS))
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per input")
    parser.add_argument("--memory-cap", type=float, default=4.0, help="GiB of address space")
    args = parser.parse_args(argv)
    kinds = args.only.split(",") if args.only else list(_KINDS)
    cap = int(args.memory_cap * 2**30)
    print(
        f"summscore score on hostile inputs; each child: {args.timeout:g} s, "
        f"{args.memory_cap:g} GiB of address space at most"
    )
    print(f"{'input':<15} {'size':>10} {'exit':>5} {'seconds':>8} {'peak RSS MB':>11}  says")
    with tempfile.TemporaryDirectory(prefix="summscore-readers-") as tmp:
        for kind in kinds:
            folder = Path(tmp) / kind
            folder.mkdir()
            path = _build(kind, folder)
            size = path.stat().st_size if path.is_file() and not path.is_symlink() else 0
            got = _run_limited(path, folder / "out.jsonl", args.timeout, cap)
            code = "stop" if got["code"] is None else str(got["code"])
            print(
                f"{kind:<15} {size / 2**20:>8.1f}MB {code:>5} {got['seconds']:>8.1f} "
                f"{got['peak_mb']:>11.0f}  {got['says'][:110]}",
                flush=True,
            )


# ------------------------------------------------------------------ --long-rows: long rows

_WORDS = (
    "council harbour railway budget museum river school hospital bridge market station tower "
    "library stadium factory airport garden theatre village tunnel ferry castle orchard canal"
).split()


def _long_text(chars: int, seed: int) -> str:
    """About ``chars`` characters of sentences, distinct for each ``seed``."""
    parts, size, n = [], 0, 0
    while size < chars:
        a, b = _WORDS[(seed + n) % len(_WORDS)], _WORDS[(seed * 7 + n * 3) % len(_WORDS)]
        sentence = f"The {a} of district {seed}-{n} opened a {b} with {n % 97 + 3} rooms. "
        parts.append(sentence)
        size += len(sentence)
        n += 1
    return "".join(parts)[:chars]


def _write_long(path: Path, rows: int, chars: int) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for i in range(rows):
            summary = (
                f"The {_WORDS[i % len(_WORDS)]} of district {i}-0 opened a "
                f"{_WORDS[(i * 7) % len(_WORDS)]} with 3 rooms. It was well received."
            )
            record = {"id": f"row-{i}", "source": _long_text(chars, i), "summary": summary}
            handle.write(json.dumps(record) + "\n")


def _tree_rss(pid: int) -> tuple[int, int]:
    """Resident bytes of ``pid`` and of all its descendants (``/proc``, Linux)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    page = os.sysconf("SC_PAGE_SIZE")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        rss[int(entry)] = int(fields[21]) * page
    below, stack = 0, list(children.get(pid, []))
    while stack:
        child = stack.pop()
        below += rss.get(child, 0)
        stack.extend(children.get(child, []))
    return rss.get(pid, 0), below


def _run_sampled(argv: list[str], timeout: float) -> dict[str, Any]:
    """Run ``summscore score`` with ``argv``; its exit status, seconds, peak RSS (os.wait4) and
    the peaks of the parent and of its workers together, sampled from /proc every 20 ms."""
    command = [sys.executable, "-m", "summscore.cli", "score", *argv, "--no-progress", "--force"]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    parent_peak = workers_peak = both_peak = 0

    def sample() -> None:
        nonlocal parent_peak, workers_peak, both_peak
        parent, below = _tree_rss(child.pid)
        parent_peak, workers_peak = max(parent_peak, parent), max(workers_peak, below)
        both_peak = max(both_peak, parent + below)

    stopped, status, usage = _wait(child, start, timeout, 0.02, sample)
    err = child.stderr.read().decode("utf-8", "replace") if child.stderr else ""
    return {
        "code": None if stopped else os.waitstatus_to_exitcode(status),
        "seconds": time.perf_counter() - start,
        "peak_mb": usage.ru_maxrss / 1024,
        "parent_mb": parent_peak / 2**20,
        "workers_mb": workers_peak / 2**20,
        "both_mb": both_peak / 2**20,
        "err": err,
    }


def _long_rows(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description="peak RSS of summscore score on long rows")
    parser.add_argument("--long-rows", action="store_true")
    parser.add_argument("--rows", type=int, default=300, help="rows per file")
    parser.add_argument("--chars", default="10000,200000,1900000", help="characters per source")
    parser.add_argument("--presets", default="deepeval,ragas")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per run")
    args = parser.parse_args(argv)
    print(
        f"summscore score, offline judge, {args.rows} rows of distinct sources per file; "
        "peak RSS of the command (parent and workers sampled apart, and together)"
    )
    print(
        f"{'chars/row':>9} {'file MB':>8} {'preset':<8} {'workers':>7} {'exit':>5} "
        f"{'seconds':>8} {'parent MB':>9} {'workers MB':>10} {'total MB':>8}"
    )
    with tempfile.TemporaryDirectory(prefix="summscore-long-") as tmp:
        for chars in (int(c) for c in args.chars.split(",")):
            data, out = Path(tmp) / f"long-{chars}.jsonl", Path(tmp) / "out.jsonl"
            _write_long(data, args.rows, chars)
            size = data.stat().st_size / 1e6
            for preset in args.presets.split(","):
                for workers in args.workers.split(","):
                    got = _run_sampled(
                        [str(data), "--out", str(out), "--preset", preset, "--workers", workers],
                        args.timeout,
                    )
                    code = "stop" if got["code"] is None else str(got["code"])
                    if got["code"] not in (0, 3):
                        print(got["err"][-400:], file=sys.stderr)
                    print(
                        f"{chars:>9} {size:>8.0f} {preset:<8} {workers:>7} {code:>5} "
                        f"{got['seconds']:>8.1f} {got['parent_mb']:>9.0f} "
                        f"{got['workers_mb']:>10.0f} {got['both_mb']:>8.0f}",
                        flush=True,
                    )
            data.unlink()
            out.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
