"""One spelling per text: the Unicode folding the lexical judge applies before it reads a text.

The same words reach the judge in many encodings: composed or decomposed accents ("é" as one
character or as "e" and a combining accent: NFC and NFD), no-break and other Unicode spaces (text
pasted from web pages and PDFs), curly quotes, full-width letters and digits, ligatures ("ﬁ"),
and Windows or old Mac line endings. ``fold`` gives each of them one spelling, so that a
text and the same text in another encoding are judged alike:

* NFC, the composed form;
* the compatibility forms that only change how a character is drawn (NFKC for those alone):
  full-width and half-width forms, no-break forms, font variants (mathematical letters), the
  letters of a ligature or a Roman numeral, a CJK radical as its ideograph, every Unicode space
  as a space, "…" as "...";
* curly and low quotes as straight ones, guillemets as double quotes;
* CRLF, CR, the line and paragraph separators, NEL, a vertical tab (Word's manual line break)
  and a form feed (a page break in text taken from a PDF) as a line feed; a soft hyphen, a byte
  order mark, a zero-width space or a word joiner, which nobody sees, dropped;
* the layout of the lines (``layout``): a run of spaces and tabs (or a lone tab) is one space, a line break
  inside a paragraph is one space (text wrapped by a PDF extractor or an editor: "14 \nmillion"
  is "14 million"), a blank line (with or without spaces on it) is one paragraph break, and a
  line break stays one only where a list item opens the next line ("- ", "* ", "• ", "2. ",
  "3) ").

Compatibility forms that carry meaning are kept as written: superscripts and subscripts ("m²",
"x₂"), vulgar fractions ("½"), circled and parenthesised numbers, and the squared abbreviations
of CJK fonts, which NFKC would turn into other numbers or words.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["fold", "layout"]

# Decomposition tags whose compatibility mapping changes only how a character is drawn.
_DRAWN = frozenset(["<wide>", "<narrow>", "<noBreak>", "<font>"])
_QUOTES = {
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u00ab\u00bb\u2033", '"'),
}
_LINES = dict.fromkeys("\u2028\u2029\x85", "\n")
# Characters nobody sees: a soft hyphen, a byte order mark, a zero-width space and a word joiner
# (web pages put the last two after or inside words). Zero-width (non-)joiners, which change
# how Persian, Indic and emoji text is drawn, stay.
_INVISIBLE = dict.fromkeys("\u00ad\ufeff\u200b\u2060", "")
# The blocks that hold every character folded: NEL, Latin-1 and Latin Extended (no-break space,
# ligatures such as "Ĳ"), the Ogham space mark, general punctuation and letterlike symbols
# (spaces, quotes, "…", "ℝ"), Roman numerals ("Ⅻ"), the CJK radicals, the ideographic space, alphabetic presentation forms ("ﬁ"),
# half-width and full-width forms, and the mathematical alphanumeric symbols. (Searched once, at
# import: the whole of Unicode would take a second.)
_BLOCKS = (
    range(0x85, 0x86),  # NEL
    range(0xA0, 0x250),
    range(0x1680, 0x1681),
    range(0x2000, 0x2190),
    range(0x2E80, 0x2FE0),
    range(0x3000, 0x3001),
    range(0xFB00, 0xFB50),
    range(0xFEFF, 0xFFF0),
    range(0x1D400, 0x1D800),
)


def _folded(ch: str) -> str | None:
    """What ``ch`` is folded to, or None where it stays as written."""
    if ch in _QUOTES:
        return _QUOTES[ch]
    if ch in _LINES:
        return _LINES[ch]
    if ch in _INVISIBLE:
        return _INVISIBLE[ch]
    if unicodedata.category(ch) == "Zs":
        return " "
    decomposition = unicodedata.decomposition(ch)
    if not decomposition.startswith("<"):
        return None
    tag = decomposition.split(" ", 1)[0]
    compatible = unicodedata.normalize("NFKC", ch)
    if tag in _DRAWN:
        return " " if compatible.isspace() else compatible
    if tag == "<compat>" and (compatible.isalpha() or compatible == "..."):
        return compatible  # a ligature's letters ("ﬁ", "Ĳ", "ǆ"), "…" as "..."
    return None


def _table() -> dict[int, str]:
    table: dict[int, str] = {}
    for block in _BLOCKS:
        for code in block:
            folded = _folded(chr(code))
            if folded is not None and folded != chr(code):
                table[code] = folded
    return table


_TABLE = _table()
# Any character of the table: a text with none of them is not translated (most texts).
_FOLDED = re.compile("[" + "".join(re.escape(chr(code)) for code in sorted(_TABLE)) + "]")


# Whitespace whose layout says nothing: a blank line (with spaces on it or around it), a line
# break with the spaces and tabs around it, a run of spaces and tabs (a lone tab too). (The
# search opens with the characters every alternative starts with, so it skips ahead in C.)
_LAYOUT = re.compile(r"[ \t]*\n(?P<blank>[ \t]*\n[ \t\n]*)?[ \t]*|[ \t]{2,}|\t")
# What opens a list item on its line: a bullet or a number of up to three digits with a period
# or a closing parenthesis, then a space.
_LIST_ITEM = re.compile(r"(?:[-*\u2022]|\d{1,3}[.)])[ \t]")


def _laid_out(m: re.Match[str]) -> str:
    space = m.group()
    if "\n" not in space:
        return " "
    if m.group("blank") is not None:
        return "\n\n"
    return "\n" if _LIST_ITEM.match(m.string, m.end()) else " "


def layout(text: str) -> str:
    """``text`` with whitespace that only lays it out read as one separator (see the module's
    docstring): runs of spaces and tabs as one space, a line break inside a paragraph as a
    space, blank lines as one paragraph break; a line break before a list item is kept."""
    if "\n" not in text and "  " not in text and "\t" not in text:
        return text
    return _LAYOUT.sub(_laid_out, text)


def fold(text: str) -> str:
    """``text`` in the one spelling the judge reads (see the module's docstring)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x0b" in text or "\x0c" in text:  # Word's manual line break, a page break
        text = text.replace("\x0b", "\n").replace("\x0c", "\n")
    if text.isascii():
        return layout(text)
    if _FOLDED.search(text) is not None:
        text = text.translate(_TABLE)
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return layout(text)
