"""The reason task: a sentence that says why the score is what it is, from the evidence the preset
passes (the score, the alignment and coverage where given, the contradicted and unconfirmed
claims, the key points the summary misses). It never says more than that evidence shows: "agrees
with the source" only where no claim is contradicted or unconfirmed and the alignment is full,
"covers its key points" only where no key point is missed and the coverage is full."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["explain"]

_FULL = 1 - 1e-9  # (a share read back from hundredths is full at 1.00)


def explain(inputs: Mapping[str, Any]) -> str:
    """A deterministic reason from the reason task's ``inputs``: ``score``; ``alignment``,
    ``coverage`` and ``scale`` (the score at full marks, 1 unless the mastra rule scales it) where
    the preset gives them; ``contradictions`` and ``redundancies`` (the reasons of deepeval's
    "no" and "borderline" verdicts) or ``unsupported`` (mastra's (claim, verdict, reason) for
    every claim not supported); ``questions`` (the key points missed)."""
    score = _number(inputs.get("score"))
    head = f"The score is {score:.2f} because " if score is not None else "The score reflects that "
    full = _number(inputs.get("scale")) or 1.0
    alignment, coverage = _number(inputs.get("alignment")), _number(inputs.get("coverage"))
    contradicted, unconfirmed = _claims(inputs)
    missed = [q for q in inputs.get("questions", []) or [] if q]
    problems: list[str] = []
    if contradicted:
        problems.append(f"{len(contradicted)} claim(s) contradict the source{_first(contradicted)}")
    if unconfirmed:
        problems.append(
            f"{len(unconfirmed)} claim(s) are not supported by the source{_first(unconfirmed)}"
        )
    if not contradicted and not unconfirmed and alignment is not None and alignment < full * _FULL:
        problems.append(
            f"the source carries only part of the summary's wording (alignment {alignment:.2f}: "
            "each claim counts for the share of its words, word pairs and triples the source "
            "holds)"
        )
    if missed:
        problems.append(f"the summary misses {len(missed)} key point(s), e.g. {missed[0]!r}")
    elif coverage is not None and coverage < full * _FULL:
        problems.append(
            f"the summary's coverage of the source's key points is {coverage:.2f} (the source "
            "itself answers none of the questions about them)"
        )
    if problems:
        return head + "; ".join(problems) + "."
    if score is not None and score < full * _FULL:
        # Below full marks with nothing the evidence names (a rule whose parts were not given).
        return (
            head
            + "of how the rule combines its parts; no claim is contradicted or "
            + ("unconfirmed and no key point is missed.")
        )
    return head + "the summary agrees with the source and covers its key points."


def _first(reasons: list[str]) -> str:
    """The first reason given, in brackets (a verdict may come without one)."""
    return next((f" ({r})" for r in reasons if r), "")


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _claims(inputs: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """The reasons of the contradicted and of the unconfirmed claims, one per claim ("" where a
    verdict gave none), from deepeval's lists or mastra's (claim, verdict, reason) triples."""
    contradicted = [str(r or "") for r in inputs.get("contradictions", []) or []]
    unconfirmed = [str(r or "") for r in inputs.get("redundancies", []) or []]
    for item in inputs.get("unsupported", []) or []:
        verdict, reason = _verdict_and_reason(item)
        (contradicted if verdict == "no" else unconfirmed).append(reason)
    return contradicted, unconfirmed


def _verdict_and_reason(item: Any) -> tuple[str, str]:
    if isinstance(item, Sequence) and not isinstance(item, str) and len(item) >= 3:
        return str(item[1]).strip().lower(), str(item[2] or "")
    return "", ""
