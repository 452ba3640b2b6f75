"""The scoring rules of the three presets, as pure functions.

Each function reproduces its upstream rule exactly, quirks included (see ../shared/UPSTREAM.md in the
project history and docs/presets.md); the places where summscore differs on purpose (no
ZeroDivisionError on empty judge output) are marked.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Iterable, Sequence

__all__ = [
    "deepeval_alignment_score",
    "deepeval_coverage_score",
    "deepeval_graded_alignment",
    "deepeval_normalize_verdict",
    "js_round2",
    "mastra_component_score",
    "mastra_graded_alignment",
    "ragas_conciseness_score",
    "ragas_final_score",
    "ragas_qa_score",
]

# ---------------------------------------------------------------------------------------------
# ragas
# ---------------------------------------------------------------------------------------------


def ragas_qa_score(answers: Sequence[str]) -> float:
    """The share of answers equal to "1" (case-insensitive, unstripped, as ragas):
    `#answers equal to "1" / #answers`.

    Upstream raises ZeroDivisionError on an empty list; summscore returns NaN and the preset
    reports why in ``SummaryResult.error``.
    """
    if not answers:
        return math.nan
    correct = sum(1 for a in answers if a.lower() == "1")
    return correct / len(answers)


def ragas_conciseness_score(text: str, summary: str) -> float:
    """1 - min(len(summary), len(text)) / (len(text) + 1e-10), lengths in characters."""
    return 1 - min(len(summary), len(text)) / (len(text) + 1e-10)


def ragas_final_score(
    qa: float, conciseness: float | None, *, coeff: float, length_penalty: bool
) -> float:
    """`qa * (1 - coeff) + conciseness * coeff` with the length penalty, else `qa` (collections
    rule)."""
    if length_penalty:
        if conciseness is None:
            raise ValueError("conciseness is required when length_penalty is on")
        return qa * (1 - coeff) + conciseness * coeff
    return qa


# ---------------------------------------------------------------------------------------------
# deepeval
# ---------------------------------------------------------------------------------------------

_DEEPEVAL_VERDICTS = ("yes", "no", "borderline")
_DEEPEVAL_ALIASES = {"idk": "borderline"}
_LEADING_WORD = re.compile(r"[a-z]+")


def deepeval_normalize_verdict(raw: object) -> str | None:
    """deepeval's reading of a verdict: the leading word, lower-cased; "idk" is "borderline".

    Anything outside yes/no/borderline is None (deepeval drops such verdicts from scoring).
    """
    text = "" if raw is None else str(getattr(raw, "value", raw))
    match = _LEADING_WORD.match(text.strip().lower())
    word = match.group(0) if match else ""
    word = _DEEPEVAL_ALIASES.get(word, word)
    return word if word in _DEEPEVAL_VERDICTS else None


def _strict(score: float, *, strict_mode: bool, threshold: float) -> float:
    return 0 if strict_mode and score < threshold else score


def deepeval_alignment_score(
    verdicts: Iterable[str | None], *, strict_mode: bool = False, threshold: float = 0.5
) -> float:
    """The share of "yes" among the normalised verdicts, `#"yes" / #verdicts` (dropped ones
    ignored); no verdicts gives 0."""
    kept = [v for v in verdicts if v is not None]
    if not kept:
        return 0
    score = sum(1 for v in kept if v == "yes") / len(kept)
    return _strict(score, strict_mode=strict_mode, threshold=threshold)


def deepeval_graded_alignment(
    supports: Sequence[float], *, strict_mode: bool = False, threshold: float = 0.5
) -> float:
    """summscore's graded alignment for a judge that grades each claim (the offline judge's
    ``support``, 0 to 1): the mean support; no claims gives 0, as upstream's rule."""
    if not supports:
        return 0
    return _strict(sum(supports) / len(supports), strict_mode=strict_mode, threshold=threshold)


def mastra_graded_alignment(supports: Sequence[float], *, scale: float = 1) -> float:
    """summscore's graded Mastra alignment for a judge that grades each claim: the mean support
    read to hundredths, then scaled (round2(round2(mean) * scale)), so that a scale multiplies
    the scale-1 figure exactly; no claims gives 0."""
    if not supports:
        return 0
    return js_round2(js_round2(sum(supports) / len(supports)) * scale)


def deepeval_coverage_score(
    pairs: Iterable[tuple[str, str]], *, strict_mode: bool = False, threshold: float = 0.5
) -> float:
    """The share of the source's "yes" the summary also answers "yes",
    `#(source "yes" and summary "yes") / #(source "yes")`; 0 when the source says yes to none.

    ``pairs`` are (source answer, summary answer); answers compare stripped and lower-cased.
    """
    total = 0
    covered = 0
    for source_answer, summary_answer in pairs:
        if source_answer.strip().lower() == "yes":
            total += 1
            if summary_answer.strip().lower() == "yes":
                covered += 1
    if total == 0:
        return 0
    return _strict(covered / total, strict_mode=strict_mode, threshold=threshold)


# ---------------------------------------------------------------------------------------------
# mastra
# ---------------------------------------------------------------------------------------------


def js_round2(value: float) -> float:
    """Mastra's roundToTwoDecimals: ``Math.round((x + Number.EPSILON) * 100) / 100``.

    JavaScript's Math.round sends halves up (towards +inf), unlike Python's round().
    """
    scaled = (value + sys.float_info.epsilon) * 100
    floor = math.floor(scaled)
    return (floor + (1 if scaled - floor >= 0.5 else 0)) / 100


def mastra_component_score(verdicts: Sequence[str], *, scale: float = 1) -> float:
    """round2(#"yes" / #verdicts * scale), verdicts trimmed and lower-cased; none gives 0."""
    if not verdicts:
        return 0
    positive = sum(1 for v in verdicts if v.strip().lower() == "yes")
    return js_round2(positive / len(verdicts) * scale)
