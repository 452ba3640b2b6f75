"""Does a text support a statement? The lexical judge's one central question, asked two ways.

``judge_claim`` is strict (alignment verdicts: every number and name of the claim must be in
the source, and enough of its content in one place); ``judge_question`` is lenient (coverage:
does the text hold the gist of what the question asks, its main anchors included). Both first look
for a contradiction (see ``_conflicts``), the signal a lexical judge can trust most.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._conflicts import Doubt, contradicted
from ._doc import Doc
from ._lexicon import NEGATIONS
from ._match import (
    anchor_in_doc,
    anchor_in_span,
    anchors_near,
    clip,
    far_numbers,
    pieces,
    ranked,
    recall,
)
from ._negation import is_negated, negated_heads
from ._text import Span

__all__ = ["CONTRADICTED", "SUPPORTED", "UNKNOWN", "Verdict", "judge_claim", "judge_question"]

SUPPORTED, CONTRADICTED, UNKNOWN = "yes", "no", "unknown"
_VERBATIM_TRIES = 16


@dataclass(frozen=True)
class Verdict:
    """``confidence`` (0 to 1): how far the verdict can be trusted without an LLM's second
    look. Contradictions and verbatim passages are trusted, word overlap less so."""

    level: str
    reason: str | None = None
    confidence: float = 0.5
    # Unknown because the statement names something (a name, a number) the text never gives:
    # the commonest sign of an invented detail, so such a claim keeps less of its support.
    absent: bool = False


# ---------------------------------------------------------------------------------- verdicts


def _verbatim(statement: Span, doc: Doc) -> bool:
    """The statement is a passage of the text, word for word, and no negation just before it
    turns it around ("... did not | approve the request")."""
    needle = statement.text.lower().strip(" .;:,")
    if len(needle) < 20:
        return False
    at = doc.lowered.find(needle)
    for _ in range(_VERBATIM_TRIES):  # a text repeating a negated passage is not rescanned
        if at == -1:
            break
        before = doc.lowered[max(0, at - 30) : at]
        if not is_negated(before.rsplit(".", 1)[-1]):
            return True
        at = doc.lowered.find(needle, at + 1)
    return False


def _denial_unbacked(statement: Span, best: Span, doc: Doc) -> bool:
    """A claim that says "not" ("the images do not reveal the structures") where the passage
    that supports it negates nothing and says what the claim denies ("the images show how these
    networks ..."), and no clause of the source denies it. (Not for "failed to", "refused to":
    the source says those as often in other words.)"""
    if not statement.negated or best.negated or NEGATIONS.isdisjoint(statement.words):
        return False
    heads = negated_heads(statement.text)
    if not heads:
        return False
    # (The piece of the passage that says what the claim says: "Sales were unaffected by the
    # strike, which hit production" does not say that the strike hit sales.)
    part = max(pieces(best), key=lambda piece: recall(statement, piece))
    if not heads <= part.token_set or part.negated:
        return False
    return not any(c.negated and heads <= c.token_set for c in doc.clauses_sharing(heads))


def judge_claim(statement: Span, doc: Doc) -> Verdict:
    """Strict: is every detail of the claim backed by the text?"""
    if not statement.token_set and not statement.anchors:
        return Verdict(SUPPORTED, confidence=1.0)
    if _verbatim(statement, doc):
        return Verdict(SUPPORTED, confidence=1.0)
    contradiction = contradicted(statement, doc)
    if isinstance(contradiction, Doubt):
        return Verdict(UNKNOWN, contradiction, 0.4)
    if contradiction:
        return Verdict(CONTRADICTED, contradiction, 0.9)
    absent = sorted(a for a in statement.anchors if not anchor_in_doc(a, statement, doc))
    if absent:
        return Verdict(UNKNOWN, f"the source does not mention {', '.join(absent)}", 0.8, True)
    best = ranked(statement, doc, top=1)[0]
    best_recall = recall(statement, best)
    anchored = bool(statement.anchors) and all(
        anchor_in_span(a, statement, best) for a in statement.anchors
    )
    overall = len(statement.token_set & doc.token_set) / max(len(statement.token_set), 1)
    novel = sorted(statement.token_set - doc.token_set)
    if len(novel) >= 4 and overall <= 0.5:
        # A passage with its names matches, but most of what the claim says of them is nowhere
        # in the source ("owner jailed after customers fell ill from eating lobster").
        return Verdict(UNKNOWN, f"the source says nothing of {', '.join(novel[:4])}", 0.7)
    if best_recall >= (0.34 if anchored else 0.5) or (overall >= 0.85 and best_recall >= 0.4):
        if _denial_unbacked(statement, best, doc):
            return Verdict(
                UNKNOWN, f'the source says this without the "not": "{clip(best.text)}"', 0.4
            )
        return Verdict(SUPPORTED, confidence=0.5 + best_recall / 2)
    if overall < 0.5:
        return Verdict(UNKNOWN, f"the source says nothing of {', '.join(novel[:4])}", 0.6)
    return Verdict(UNKNOWN, "the source does not support this", 0.3)


def judge_question(statement: Span, doc: Doc) -> Verdict:
    """Lenient: does the text hold the gist of what the question asks about?"""
    if not statement.token_set and not statement.anchors:
        return Verdict(UNKNOWN, "the question asks about nothing checkable", 0.3)
    if _verbatim(statement, doc):
        return Verdict(SUPPORTED, confidence=1.0)
    contradiction = contradicted(statement, doc, strict=False)
    if isinstance(contradiction, Doubt):
        return Verdict(UNKNOWN, contradiction, 0.4)
    if contradiction:
        return Verdict(CONTRADICTED, contradiction, 0.85)
    best = ranked(statement, doc, top=1)[0]
    best_recall = recall(statement, best)
    if statement.anchors:
        near = anchors_near(statement, doc)
        found = [a for a in statement.anchors if a in near]
        far = far_numbers(statement, near) & best.token_set
        if far:  # a window is read without the numbers it gives only far from the question
            rest = statement.token_set - far
            best = doc.best_windows(rest, 1)[0]
            best_recall = len(rest & best.token_set) / len(statement.token_set)
        share = len(found) / len(statement.anchors)
        if (share == 1 and best_recall >= 0.3) or (share >= 0.5 and best_recall >= 0.45):
            return Verdict(SUPPORTED, confidence=0.5 + best_recall / 2)
        if share < 0.5:
            missing = sorted(set(statement.anchors) - set(found))
            return Verdict(UNKNOWN, f"the text does not mention {', '.join(missing)}", 0.8)
    elif best_recall >= 0.5:
        return Verdict(SUPPORTED, confidence=0.5 + best_recall / 2)
    return Verdict(UNKNOWN, "the text does not say this", 0.3)
