"""Artefacts of research corpora and files from the wild the judge reads past before it analyses
a text.

* Sentences glued together ("... the pension debt.But a public appeal ..."): XSum articles, as
  FRANK ships them, join their paragraphs without a space, so a sentence never ends and its last
  word fuses with the next one into a false name ("Staffordshire.The"). A space goes back in
  after a sentence end written directly before a capitalised word; initials ("U.S.A"), decimals
  ("3.5") and web addresses ("bbc.co.uk") are not sentence ends of that shape.
* A summariser's placeholder for a word it could not write (``UNK``, ``[UNK]``; ``<unk>`` is
  read past by ``normalize``): no name the source could contradict. The claim is judged without
  it, and a claim with a word left out is at best unknown (see ``_tasks``).
"""

from __future__ import annotations

import re

__all__ = ["unglued", "without_placeholders"]

# Each pattern opens with the sentence end itself, so the engine skips ahead to it.
_GLUED = re.compile(r"[.!?](?<=[a-z0-9)%][.!?])(?=[\"“]?[A-Z][a-z])")
_GLUED_PERIOD = re.compile(r"\.(?<=[a-z0-9)%]\.)(?=[\"“]?[A-Z][a-z])")
_PLACEHOLDER = re.compile(r"\[UNK\]|\bUNK\b")


def without_placeholders(text: str) -> str:
    """``text`` without the placeholders of words a summariser could not write."""
    return _PLACEHOLDER.sub(" ", text) if "UNK" in text else text


def unglued(text: str) -> str:
    """``text`` with its glued sentences apart."""
    if _GLUED_PERIOD.search(text) is None and "!" not in text and "?" not in text:
        return text  # the common case, found by the cheaper search
    return _GLUED.sub(r"\g<0> ", text)
