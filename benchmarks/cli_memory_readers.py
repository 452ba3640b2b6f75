"""``cli_memory.py --readers``: inputs built to exhaust a reader (see the docstring of
cli_memory.py), each run through ``summscore score`` in a fresh process under a time limit and
an address-space limit, its exit status, seconds and peak RSS printed."""

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

# The script that builds a Parquet input in a process of its own (its --parquet-input).
_SCRIPT = str(Path(__file__).with_name("cli_memory.py"))

# Words for generated texts (the Arrow-dictionary input here, the long rows of cli_memory_long).
_WORDS = (
    "council harbour railway budget museum river school hospital bridge market station tower "
    "library stadium factory airport garden theatre village tunnel ferry castle orchard canal"
).split()


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
        subprocess.run([sys.executable, _SCRIPT, "--parquet-input", kind, str(path)], check=True)
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
