"""Text cells of CSV and TSV results that a spreadsheet will not run (OWASP's CSV injection).

A spreadsheet evaluates a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula
(``=HYPERLINK(...)``, ``=cmd|' /C calc'!A0``), and some also one that begins with a tab or a
carriage return; ids, reasons, errors and a judge's quotes of a summary are untrusted text that
can begin so. As OWASP's guidance says:

* such a text cell gets a leading ``'``, which spreadsheets show as text and never evaluate;
* every text cell is written between double quotes (``csv.QUOTE_NONNUMERIC``), so a separator
  inside it (a ``;`` where a European Excel splits on ``;``, a tab) never starts a new cell
  whose first character would be evaluated; numbers stay unquoted numbers.

Beyond OWASP's list, a cell whose first visible character is one of those after blanks (spaces,
no-break and other Unicode spaces, line breaks, a byte-order mark or zero-width characters: an
import that trims them, as LibreOffice's "trim spaces" does, would leave the formula first), and
a cell that begins with a full-width ``＝ ＋ － ＠`` (which an Excel with an East Asian input
method may read as the ASCII sign), gets the mark too.

A text that reads as a plain number (``-5``, ``+0.25``, ``1e-3``, `` -5``) is a number to a
spreadsheet, not a formula, and is left as it is. The mark is reversible: a text that begins with
``'`` and then what would get the mark, or another ``'``, gets one more ``'`` too, so ``restore``
gives back exactly the text ``neutralise`` was given (``--resume`` reads the file back and finds
its ids). JSONL and Parquet keep text as it is.
"""

from __future__ import annotations

import re

__all__ = ["TRIGGERS", "neutralise", "restore"]

TRIGGERS = frozenset("=+-@\t\r")
_WIDE = frozenset("\uff1d\uff0b\uff0d\uff20")  # full-width = + - @
_MARK = "'"
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
# What an import may trim before a cell's first visible character: Unicode spaces and line
# breaks (str.isspace), and the invisible format characters that paste along with text.
_INVISIBLE = "\ufeff\u200b\u200c\u200d\u2060\u180e"


def _blank(char: str) -> bool:
    return char.isspace() or char in _INVISIBLE


def _visible(text: str) -> str:
    """``text`` from its first visible character."""
    start = 0
    while start < len(text) and _blank(text[start]):
        start += 1
    return text[start:]


def _leads_to_sign(text: str) -> bool:
    """Whether ``text`` begins with what can make a spreadsheet read a formula: an OWASP sign,
    a full-width one, or blanks before either (the syntax ``_marked`` recognises)."""
    if not text:
        return False
    first = text[0]
    if first in TRIGGERS or first in _WIDE:
        return True
    if _blank(first):
        rest = _visible(text)
        return bool(rest) and (rest[0] in TRIGGERS or rest[0] in _WIDE)
    return False


def _live(text: str) -> bool:
    """Whether a spreadsheet could evaluate ``text`` as a formula (a plain number, blanks around
    it or not, is a number)."""
    if not _leads_to_sign(text):
        return False
    if text[0] in TRIGGERS:
        return not _NUMBER.fullmatch(text)
    rest = _visible(text)
    return rest[0] in _WIDE or not _NUMBER.fullmatch(rest.rstrip())


def _marked(text: str) -> bool:
    """Whether ``text`` (a cell as written) begins with the mark ``neutralise`` adds."""
    return len(text) > 1 and text[0] == _MARK and (text[1] == _MARK or _leads_to_sign(text[1:]))


def neutralise(text: str) -> str:
    """``text`` as a CSV cell a spreadsheet shows as text (see the module's docstring)."""
    if not text:
        return text
    if text[0] == _MARK:
        return _MARK + text if _marked(text) else text
    return _MARK + text if _live(text) else text


def restore(cell: str) -> str:
    """The text ``neutralise`` was given, from the cell it wrote."""
    return cell[1:] if _marked(cell) else cell
