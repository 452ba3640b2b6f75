"""Text cells of CSV and TSV results that a spreadsheet will not run (OWASP's CSV injection).

A spreadsheet evaluates a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula
(``=HYPERLINK(...)``, ``=cmd|' /C calc'!A0``), and some also one that begins with a tab or a
carriage return; ids, reasons, errors and a judge's quotes of a summary are untrusted text that
can begin so. As OWASP's guidance says:

* such a text cell gets a leading ``'``, which spreadsheets show as text and never evaluate;
* every text cell is written between double quotes (``csv.QUOTE_NONNUMERIC``), so a separator
  inside it (a ``;`` where a European Excel splits on ``;``, a tab) never starts a new cell
  whose first character would be evaluated; numbers stay unquoted numbers.

A text that reads as a plain number (``-5``, ``+0.25``, ``1e-3``) is a number to a spreadsheet,
not a formula, and is left as it is. The mark is reversible: a text that begins with ``'`` and
then one of those characters or another ``'`` gets one more ``'`` too, so ``restore`` gives
back exactly the text ``neutralise`` was given (``--resume`` reads the file back and finds its
ids). JSONL and Parquet keep text as it is.
"""

from __future__ import annotations

import re

__all__ = ["TRIGGERS", "neutralise", "restore"]

TRIGGERS = frozenset("=+-@\t\r")
_MARK = "'"
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def _marked(text: str) -> bool:
    """Whether ``text`` (a cell as written) begins with the mark ``neutralise`` adds."""
    return len(text) > 1 and text[0] == _MARK and (text[1] in TRIGGERS or text[1] == _MARK)


def neutralise(text: str) -> str:
    """``text`` as a CSV cell a spreadsheet shows as text (see the module's docstring)."""
    if not text:
        return text
    first = text[0]
    if first in TRIGGERS:
        return text if _NUMBER.fullmatch(text) else _MARK + text
    if first == _MARK and _marked(text):
        return _MARK + text
    return text


def restore(cell: str) -> str:
    """The text ``neutralise`` was given, from the cell it wrote."""
    return cell[1:] if _marked(cell) else cell
