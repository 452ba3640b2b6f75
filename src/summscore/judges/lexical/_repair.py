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
* A quarter written number first, as earnings calls write it ("4Q 2020", "4Q20", "4Q'20"): the
  quarter "Q4 2020", not the number 4 beside a name "Q" (``normalize`` calls
  :func:`quarters_first`).
"""

from __future__ import annotations

import re

__all__ = ["quarters_first", "unglued", "without_placeholders"]

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


# (The hint opens with the "Q", so its search skips ahead; two digits after it are a year of
# this century, "1Q84" is a novel.)
_QUARTER_HINT = re.compile(r"Q(?<=\b[1-4]Q)(?:'?[12]\d)?\b")
_NUMBER_FIRST_QUARTER = re.compile(r"\b([1-4])Q(?:'?([12]\d))?\b")


def quarters_first(text: str) -> str:
    """``text`` with its quarters written number first ("4Q20") written "Q4 2020"."""
    if _QUARTER_HINT.search(text) is None:
        return text
    return _NUMBER_FIRST_QUARTER.sub(_quarter, text)


def _quarter(m: re.Match[str]) -> str:
    return f"Q{m.group(1)} 20{m.group(2)}" if m.group(2) else f"Q{m.group(1)}"
