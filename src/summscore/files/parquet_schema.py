"""A Parquet file's stored Arrow schema, with its dictionary texts read as plain texts.

pyarrow stores the Arrow schema of what it wrote in the footer (key ``ARROW:schema``), and
reads back a column that schema calls a dictionary of texts (a pandas Categorical, a
``DictionaryArray``) as a dictionary whatever its pages hold. A column whose pages are not all
coded against one dictionary (written with ``use_dictionary=False``, or whose dictionary fell
back to plain pages) is then made a dictionary by Arrow from every value read so far in its row
group, which grows with every batch: each batch holds, and copies, the texts of all the rows
before it. And a column coded throughout against a dictionary too large to be read as one
(``parquet._shared``) is read a row or so a batch, each batch a copy of the whole dictionary.

``plain_texts`` gives the file's metadata with those schema fields made plain texts (the
footer's Thrift rewritten, its key-value pair alone changed), so that such a column is read as
another program's file is: as plain texts, or as a dictionary only where ``parquet`` asks for
one (``read_dictionary``: a column coded against its dictionary throughout).
"""

from __future__ import annotations

import base64
import io
from typing import Any

from .parquet_pages import Compact

__all__ = ["plain_texts"]

_KEY = b"ARROW:schema"
_KEY_VALUES = 5  # FileMetaData's field of key-value pairs (a list of KeyValue structs)
_LIST, _BINARY, _STRUCT = 9, 8, 12  # Thrift compact types


def plain_texts(meta: Any) -> Any | None:
    """``meta`` (a ``pyarrow.parquet.FileMetaData``) with the dictionaries of texts of its
    stored Arrow schema made plain texts; None when it has none (or cannot be rewritten: it is
    then read as it is)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    stored = (meta.metadata or {}).get(_KEY)
    if stored is None:
        return None
    try:
        schema = pa.ipc.read_schema(pa.py_buffer(base64.b64decode(stored)))
    except Exception:  # (Arrow ignores a schema it cannot read; so does this)
        return None
    plain = pa.schema(
        [field.with_type(_plain(field.type)) for field in schema], metadata=schema.metadata
    )
    if plain.equals(schema):
        return None
    value = base64.b64encode(plain.serialize().to_pybytes())
    try:
        sink = pa.BufferOutputStream()
        meta.write_metadata_file(sink)  # b"PAR1", the footer's Thrift, its length, b"PAR1"
        rewritten = _replace(sink.getvalue().to_pybytes()[4:-8], value)
        if rewritten is None:
            return None
        size = len(rewritten).to_bytes(4, "little")
        return pq.read_metadata(pa.BufferReader(b"PAR1" + rewritten + size + b"PAR1"))
    except Exception:  # (pyarrow's own errors, ValueError from the Thrift walk: read as it is)
        return None


def _plain(kind: Any) -> Any:
    """The Arrow type ``kind`` with each dictionary of texts in it (a list's items, a struct's
    fields too) made the texts' own type."""
    import pyarrow as pa

    types = pa.types
    if types.is_dictionary(kind):
        value = kind.value_type
        texts = (types.is_string, types.is_large_string, types.is_binary, types.is_large_binary)
        return value if any(test(value) for test in texts) else kind
    if types.is_list(kind):
        return pa.list_(kind.value_field.with_type(_plain(kind.value_type)))
    if types.is_large_list(kind):
        return pa.large_list(kind.value_field.with_type(_plain(kind.value_type)))
    if types.is_fixed_size_list(kind):
        return pa.list_(kind.value_field.with_type(_plain(kind.value_type)), kind.list_size)
    if types.is_map(kind):
        key, item = kind.key_field, kind.item_field
        return pa.map_(
            key.with_type(_plain(key.type)), item.with_type(_plain(item.type)), kind.keys_sorted
        )
    if types.is_struct(kind):
        fields = [kind.field(i) for i in range(kind.num_fields)]
        return pa.struct([field.with_type(_plain(field.type)) for field in fields])
    return kind


def _replace(footer: bytes, value: bytes) -> bytes | None:
    """The Thrift ``FileMetaData`` ``footer`` with the value of its key ``ARROW:schema`` made
    ``value``, every other byte as it was (the fields around it are copied, not re-encoded)."""
    reader = Compact(io.BytesIO(footer), 0, len(footer))
    number = 0
    while (head := reader.byte()) != 0:
        delta, kind = head >> 4, head & 0x0F
        number = number + delta if delta else reader.zigzag()
        if number != _KEY_VALUES or kind != _LIST:
            reader.skip(kind, 0)
            continue
        start = reader.at
        pairs = _pairs(reader)
        if not any(key == _KEY for key, _ in pairs):
            return None
        pairs = [(key, value if key == _KEY else old) for key, old in pairs]
        return footer[:start] + _encode(pairs) + footer[reader.at :]
    return None


def _pairs(reader: Compact) -> list[tuple[bytes | None, bytes | None]]:
    """A list of ``KeyValue`` structs (field 1 the key, 2 the value, both binary)."""
    head = reader.byte()
    size, element = head >> 4, head & 0x0F
    if size == 15:
        size = reader.varint()
    if element != _STRUCT:
        raise ValueError("key-value pairs that are not structs")
    pairs = []
    for _ in range(size):
        found: dict[int, bytes] = {}
        number = 0
        while (field := reader.byte()) != 0:
            delta, kind = field >> 4, field & 0x0F
            number = number + delta if delta else reader.zigzag()
            if number in (1, 2) and kind == _BINARY:
                found[number] = reader.binary()
            else:
                reader.skip(kind, 1)
        pairs.append((found.get(1), found.get(2)))
    return pairs


def _encode(pairs: list[tuple[bytes | None, bytes | None]]) -> bytes:
    out = bytearray()
    if len(pairs) < 15:
        out.append(len(pairs) << 4 | _STRUCT)
    else:
        out.append(0xF0 | _STRUCT)
        out += _varint(len(pairs))
    for key, value in pairs:
        last = 0
        for number, text in ((1, key), (2, value)):
            if text is not None:
                out.append((number - last) << 4 | _BINARY)
                out += _varint(len(text)) + text
                last = number
        out.append(0)
    return bytes(out)


def _varint(number: int) -> bytes:
    out = bytearray()
    while number > 0x7F:
        out.append(number & 0x7F | 0x80)
        number >>= 7
    out.append(number)
    return bytes(out)
