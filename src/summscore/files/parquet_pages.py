"""What a Parquet row group holds, from the headers of its pages, before any page is read.

Arrow decompresses a page whole, to the size its header claims, before any of its values can be
read, and the sizes a file's footer claims are not trusted; so ``read_plan`` walks the header of
every page of a row group (a few bytes each, with just enough of Thrift's compact protocol; a
page is skipped with a seek, never read) and says how the group can be read: not at all (a page
that would inflate past a cell or past ``MAX_PAGE_BYTES``), and otherwise how many bytes a row
may decode to and which texts columns are read as dictionaries (an entry held once, whatever the
number of rows sharing it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from .limits import MAX_CELL_CHARS

__all__ = ["MAX_PAGE_BYTES", "Compact", "Page", "Plan", "pages", "read_plan"]

MAX_PAGE_BYTES = 256 * 2**20  # one page's uncompressed bytes, whatever it holds
_SURE_BYTES = 4 * MAX_CELL_CHARS  # a value longer is a text past the cell cap, in any UTF-8
_DELTA_BYTE_ARRAY = 7  # Parquet's Encoding numbers
_DICTIONARY_CODED = (2, 8)  # PLAIN_DICTIONARY, RLE_DICTIONARY


@dataclass
class Plan:
    """How a row group is read: why not at all (``refused``); else the most bytes of text a
    row can decode to beyond its share of the pages when read as plain values (``bound``: its
    largest DELTA_BYTE_ARRAY page, whose values may repeat each other's prefixes, plus, for a
    column read as plain texts, its ``dictionaries`` entry: the bytes of its dictionary, one entry
    of which every row may repeat), the text columns whose data pages are all coded against
    their dictionary (``coded``: read as a dictionary, such a column holds each entry once), and
    the columns whose pages are large enough to hold a text past the cell cap (``long``: a value
    is never larger than the page that holds it). Columns are named by their path in the
    schema (``contexts.list.element``), ``long`` by their top-level name."""

    refused: str | None = None
    bound: int = 0
    dictionaries: dict[str, int] = field(default_factory=dict)
    coded: set[str] = field(default_factory=set)
    long: set[str] = field(default_factory=set)


def read_plan(raw: IO[bytes], row_group: Any) -> Plan:
    """The row group's ``Plan``, from the headers of all its pages (the sizes the footer
    claims are not trusted: Arrow decompresses a page to the size its header says)."""
    plan = Plan()
    for column in range(row_group.num_columns):
        chunk = row_group.column(column)
        start = chunk.data_page_offset
        dictionary = chunk.dictionary_page_offset
        if chunk.has_dictionary_page and dictionary and 0 < dictionary < start:
            start = dictionary
        name = chunk.path_in_schema
        largest = shared = 0
        coded = chunk.physical_type == "BYTE_ARRAY"
        try:
            for page in pages(raw, start, start + chunk.total_compressed_size):
                refused = _refusal(name, page)
                if refused is not None:
                    return Plan(refused)
                largest = max(largest, page.size)
                if page.dictionary:
                    plan.dictionaries[name] = plan.dictionaries.get(name, 0) + page.size
                    continue
                coded = coded and page.encoding in _DICTIONARY_CODED
                if page.encoding == _DELTA_BYTE_ARRAY:
                    shared = max(shared, page.size)
        except (ValueError, EOFError, OSError) as exc:
            return Plan(f"whose column {name!r} has a page header that cannot be read ({exc})")
        plan.bound += shared
        if coded and name in plan.dictionaries:  # (a page the dictionary fell back from: plain)
            plan.coded.add(name)
        if largest > MAX_CELL_CHARS:
            plan.long.add(name.split(".")[0])
    return plan


def _refusal(name: str, page: Page) -> str | None:
    if page.values and page.size > page.values * (_SURE_BYTES + 8) + 4096:  # (lengths, levels)
        return (
            f"whose column {name!r} holds a page of {page.values:,} values that inflates to "
            f"{page.size:,} bytes, so a cell longer than {MAX_CELL_CHARS:,} characters, the most "
            "summscore reads in one cell (a zip bomb, or text no judge reads)"
        )
    if page.size > MAX_PAGE_BYTES:
        return (
            f"whose column {name!r} holds a page that inflates to {page.size:,} bytes, more than "
            f"the {MAX_PAGE_BYTES:,} summscore decompresses at once; write the file with "
            "smaller pages (pyarrow: write_table(..., write_batch_size=64))"
        )
    return None


@dataclass(frozen=True)
class Page:
    size: int  # uncompressed bytes
    values: int  # as its header says (0 when it does not)
    dictionary: bool
    encoding: int | None  # a data page's (Parquet's Encoding number), None when it does not say


def pages(raw: IO[bytes], start: int, end: int) -> Iterator[Page]:
    """The uncompressed size, number of values and encoding of each page stored in bytes
    ``start..end`` of the file, from their headers (Thrift compact ``PageHeader``: field 2 the
    uncompressed size, 3 the compressed size that follows the header, and the values in field
    1 of the data page's (5, 8) or dictionary page's (7) own header, a data page's encoding in
    its field 2 (5) or 4 (8))."""
    at = start
    while at < end:
        reader = Compact(raw, at, end)
        header = reader.struct(want=(2, 3, 5, 7, 8))
        size, compressed = header.get(2), header.get(3)
        own = next((header[f] for f in (5, 7, 8) if f in header), None)
        if (
            not isinstance(size, int)
            or not isinstance(compressed, int)
            or min(size, compressed) < 0
        ):
            raise ValueError(f"a page at byte {at:,} with no size")
        if not isinstance(own, dict) or not isinstance(own.get(1), int):
            own = {}  # an index page, or one that does not say: its size alone counts
        encoding = own.get(4 if 8 in header else 2) if 7 not in header else None
        yield Page(
            size,
            max(0, own.get(1, 0)),
            7 in header,
            encoding if isinstance(encoding, int) else None,
        )
        at = reader.at + compressed


class Compact:
    """Just enough of Thrift's compact protocol to read a struct's integer fields and skip the
    rest (a binary field is skipped with a seek, never read, unless asked for: ``binary``)."""

    def __init__(self, raw: IO[bytes], at: int, end: int) -> None:
        self.raw, self.at, self.end = raw, at, end  # a header never runs past its column chunk
        raw.seek(at)

    def seek(self, size: int) -> None:
        self.at += size
        if self.at > self.end:
            raise ValueError("a page header runs past its column chunk")
        self.raw.seek(self.at)

    def byte(self) -> int:
        if self.at >= self.end:
            raise ValueError("a page header runs past its column chunk")
        got = self.raw.read(1)
        if not got:
            raise EOFError("the file ends inside a page header")
        self.at += 1
        return got[0]

    def binary(self) -> bytes:
        size = self.varint()
        if size > self.end - self.at:
            raise ValueError("a binary field runs past its end")
        got = self.raw.read(size)
        if len(got) != size:
            raise EOFError("the file ends inside a binary field")
        self.at += size
        return got

    def varint(self) -> int:
        value = shift = 0
        while True:
            byte = self.byte()
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7
            if shift > 63:
                raise ValueError("a varint longer than 10 bytes")

    def zigzag(self) -> int:
        value = self.varint()
        return (value >> 1) ^ -(value & 1)

    def struct(self, want: tuple[int, ...] = (), depth: int = 0) -> dict[int, Any]:
        """The struct's fields numbered in ``want``: an integer, or a struct's integer fields
        1, 2 and 4 (as a dict); the other fields are skipped."""
        if depth > 32:
            raise ValueError("structs nested too deeply")
        found: dict[int, Any] = {}
        number = 0
        while (head := self.byte()) != 0:
            delta, kind = head >> 4, head & 0x0F
            number = number + delta if delta else self.zigzag()
            if number in want and kind in (4, 5, 6):
                found[number] = self.zigzag()
            elif number in want and kind == 12:
                found[number] = self.struct(want=(1, 2, 4), depth=depth + 1)
            else:
                self.skip(kind, depth)
        return found

    def skip(self, kind: int, depth: int) -> None:
        if kind in (1, 2):  # a boolean held in the field header
            return
        if kind == 3:
            self.byte()
        elif kind in (4, 5, 6):
            self.varint()
        elif kind == 7:
            self.seek(8)
        elif kind == 8:
            self.seek(self.varint())
        elif kind in (9, 10):
            head = self.byte()
            size, element = head >> 4, head & 0x0F
            if size == 15:
                size = self.varint()
            for _ in range(size):
                self.element(element, depth)
        elif kind == 11:
            size = self.varint()
            if size:
                types = self.byte()
                for _ in range(size):
                    self.element(types >> 4, depth)
                    self.element(types & 0x0F, depth)
        elif kind == 12:
            self.struct(depth=depth + 1)
        else:
            raise ValueError(f"an unknown Thrift type {kind}")

    def element(self, kind: int, depth: int) -> None:
        if kind in (1, 2):  # a boolean in a list or map takes a byte
            self.byte()
        else:
            self.skip(kind, depth + 1)
