"""docs/figures/faces_in_loops.md from ``throughput.py --faces --figures``: a whole run writes the
figure; a run of some loops (``--loops``) replaces those loops' rows and notes and keeps the
others', so that one slow loop can be measured again without the others. Each note names the
loops whose rows it describes (``deepeval, mlflow: Shapes: ... load average ...``).
"""

from __future__ import annotations

LOOPS = ("ragas", "deepeval", "mlflow", "opik", "inspect", "langsmith", "braintrust", "phoenix")


def loop_key(loop: str) -> str:
    """The ``--loops`` name of a table row's loop column (``"MLflow genai.evaluate()"`` ->
    ``"mlflow"``)."""
    for key in LOOPS:
        if loop.lower().startswith(key):
            return key
    raise ValueError(f"no --loops name for the loop {loop!r}")


def _parts(text: str) -> tuple[list[str], list[str], list[str]]:
    """(the lines before the rows: description and header; the rows; the notes after)."""
    lines = text.rstrip("\n").split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("| --- "))
    end = first + 1
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return lines[: first + 1], lines[first + 1 : end], [n for n in lines[end:] if n.strip()]


def _row_loop(row: str) -> str:
    return loop_key(row.split("|")[2].strip())


def _row_shape(row: str) -> str:
    return row.split("|")[1].strip()


def merge(old: str | None, new: str, loops: tuple[str, ...]) -> str:
    """The figure after a run of ``loops`` (all when empty) that printed ``new``: the rows and
    notes of ``old`` for the other loops are kept (an old figure without a table is dropped)."""
    head, rows, notes = _parts(new)
    ran = loops or LOOPS
    notes = [f"{', '.join(ran)}: {n}" for n in notes]
    if loops and old and "| --- " in old:
        _, old_rows, old_notes = _parts(old)
        rows = [r for r in old_rows if _row_loop(r) not in ran] + rows
        for note in old_notes:
            named, sep, rest = note.partition(": ")
            keep = [k for k in named.split(", ") if k in LOOPS and k not in ran]
            if sep and keep:
                notes.insert(0, f"{', '.join(keep)}: {rest}")
    shapes: dict[str, int] = {}
    for row in rows:
        shapes.setdefault(_row_shape(row), len(shapes))
    rows.sort(key=lambda r: (shapes[_row_shape(r)], LOOPS.index(_row_loop(r))))
    return "\n".join([*head, *rows, "", *notes]) + "\n"
