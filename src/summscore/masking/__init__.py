"""Keeping keys out of everything summscore emits: messages, logs, reports, caches and results.

``secrets`` holds the registry of known secrets and masks text; ``replies`` masks what a
judge sends back before it is parsed, cached or shown. The bottom of the house: it imports no other
part of summscore, and every part may import it.
"""

from __future__ import annotations

from .secrets import register_secret

__all__ = ["register_secret"]
