"""One JSON record per line, whatever splits the lines.

JSON lets U+0085 (NEL), U+2028 and U+2029 stand raw inside a string, and ``json.dumps`` with
``ensure_ascii=False`` writes them raw; but Python's ``str.splitlines``, many editors and log
shippers, and JavaScript before ES2019 end a line at each of them, so one record would read as
two broken ones. ``json_line`` writes those three as ``\\u`` escapes (the same JSON string: any
JSON reader gives back the same text) and every other character as it is.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["json_line"]

_ESCAPES = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def json_line(value: Any, **options: Any) -> str:
    """``value`` as one line of JSON Lines, ending in ``\\n`` (``options`` go to ``json.dumps``).

    The three characters only ever appear inside strings of ``json.dumps``'s output, so escaping
    them there changes no value."""
    return json.dumps(value, ensure_ascii=False, **options).translate(_ESCAPES) + "\n"
