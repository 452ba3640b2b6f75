"""docs/figures/faces_in_loops.md from ``throughput.py --faces --figures``: a run of every loop on
the default shapes writes the figure; a run of some loops (``--loops``) or some shapes
(``--shapes``) replaces the rows of the shapes and loops it ran and keeps the others, so that
one slow loop or shape can be measured again without the rest. Each note names the loops whose
rows it describes (``deepeval, mlflow: Shapes: 40 x 5 (200 cases). Machine: ...``).
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


def merge(old: str | None, new: str, loops: tuple[str, ...], shapes: tuple[str, ...]) -> str:
    """The figure after a run of ``loops`` (every loop when empty) on ``shapes`` (``"40 x 5"``)
    that printed ``new``. The rows of ``old`` for other loops or shapes are kept, and its notes
    for them; ``old=None`` (a whole run) writes ``new`` alone."""
    head, new_rows, notes = _parts(new)
    rows = list(new_rows)
    ran = loops or LOOPS
    notes = [f"{', '.join(ran)}: {n}" for n in notes]
    if old and "| --- " in old:
        _, old_rows, old_notes = _parts(old)
        rows = [r for r in old_rows if _row_loop(r) not in ran or _row_shape(r) not in shapes]
        rows += new_rows
        for note in reversed(old_notes):
            named, sep, rest = note.partition(": ")
            same_shapes = any(f"{shape} (" in rest for shape in shapes)
            keep = [k for k in named.split(", ") if k in LOOPS and not (k in ran and same_shapes)]
            if sep and keep:
                notes.insert(0, f"{', '.join(keep)}: {rest}")
    order: dict[str, int] = {}
    for row in rows:
        order.setdefault(_row_shape(row), len(order))
    rows.sort(key=lambda r: (order[_row_shape(r)], LOOPS.index(_row_loop(r))))
    return "\n".join([*head, *rows, "", *notes]) + "\n"
