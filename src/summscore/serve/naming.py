"""What the service says about its judge: the model, never the address it is reached at.

The core names a judge with its server (``openai:gpt-4o-mini@10.0.3.7:8000``, so that a results
file tells runs against two servers apart) and its connection errors name the server's URL. A
caller of the service learns the rule and the model from a result and ``/healthz``; the internal
address of the judge behind it stays with the operator (the server's startup line prints it).
``JudgeNames`` strips the address from the name and replaces it in error and warning text.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlparse

__all__ = ["JudgeNames", "judge_addresses"]

_HIDDEN = "<judge server>"


def judge_addresses(judge: Any, depth: int = 3) -> list[str]:
    """The base URLs of ``judge`` and of the judges it wraps (a cascade's LLM judge)."""
    found: list[str] = []
    url = getattr(judge, "base_url", None)
    if isinstance(url, str) and url:
        found.append(url)
    if depth > 0:
        for name in ("llm_judge", "judge", "inner"):
            inner = getattr(judge, name, None)
            if inner is not None and inner is not judge:
                found += judge_addresses(inner, depth - 1)
    return found


class JudgeNames:
    """The public name of one judge, and a scrubber for the texts of its results."""

    def __init__(self, judge: Any) -> None:
        self.internal: str = str(getattr(judge, "name", "") or "")
        spellings: set[str] = set()
        suffixes: set[str] = set()
        for url in judge_addresses(judge):
            parsed = urlparse(url)
            host, port = parsed.hostname or "", parsed.port
            spellings |= {url, url.rstrip("/")}
            if host:
                where = f"{host}:{port}" if port else host
                suffixes.add(f"@{where}")
                spellings.add(where)
                if port:
                    spellings |= {f"('{host}', {port})", f'("{host}", {port})'}
        public = self.internal
        for suffix in sorted(suffixes, key=len, reverse=True):
            public = public.replace(suffix, "")
        self.public = public
        # Longest first, so that a URL goes whole before its host:port would match inside it.
        ordered = sorted((s for s in spellings if len(s) > 2), key=len, reverse=True)
        self._pattern = re.compile("|".join(map(re.escape, ordered))) if ordered else None

    def scrub(self, text: str) -> str:
        """``text`` with every spelling of the judge's address replaced."""
        if self._pattern is None or not text:
            return text
        return self._pattern.sub(_HIDDEN, text)

    def apply(self, result: dict[str, Any]) -> dict[str, Any]:
        """A result dict (``SummaryResult.to_dict()``) as a caller of the service sees it."""
        if result.get("judge") == self.internal:
            result["judge"] = self.public
        if self._pattern is None:
            return result
        if isinstance(result.get("error"), str):
            result["error"] = self.scrub(result["error"])
        warnings = result.get("warnings")
        if isinstance(warnings, list):
            result["warnings"] = [self.scrub(w) if isinstance(w, str) else w for w in warnings]
        return result
