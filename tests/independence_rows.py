"""Rows for the independence properties (tests/test_independence*.py): batches of cases that
share sources, repeat rows and quote key-like strings, drawn from the development data, the
parity corpus and generated text; and what of a result must not depend on the other rows.

A batch is a few sources and several summaries of each. Key-like strings are planted so that
the masking of keys matters: a body (``QX7F9K2LM4PB8RT6WZ3HD5NA``) in a source, the same body
behind an ``sk-`` prefix in a sibling summary (it looks like a key there, not in the source), or
a whole key in a source.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compat.corpus import CASES as PARITY
from hypothesis import strategies as st

__all__ = [
    "ISSUE_SIBLING",
    "ISSUE_SOURCE",
    "ISSUE_SUMMARY",
    "Row",
    "batches",
    "evidence",
    "row_evidence",
]

_DATA = Path(__file__).resolve().parent.parent / "benchmarks" / "data"
# Sources of the development data are cut to their first sentences: the properties are about
# which rows are scored together, not about long texts (which the lexical benchmarks cover).
_SENTENCES_KEPT = 4

# The example of issue #44.
ISSUE_SOURCE = (
    "An access code, QX7F9K2LM4PB8RT6WZ3HD5NA, was posted on a public forum. The code opened "
    "the billing system of Omnimart for 36 hours."
)
ISSUE_SUMMARY = "An access code, QX7F9K2LM4PB8RT6WZ3HD5NA, was posted on a public forum."
ISSUE_SIBLING = "The key sk-proj-QX7F9K2LM4PB8RT6WZ3HD5NA leaked."


@dataclass(frozen=True)
class Row:
    source: str
    summary: str
    questions: tuple[str, ...] | None = None

    def as_case(self, id: Any = None, *, every_field: bool = False) -> dict[str, Any]:
        """The row as a mapping; ``every_field``: with ``assessment_questions`` even when None
        (a JSONL file's columns are those of its first row)."""
        case: dict[str, Any] = {"source": self.source, "summary": self.summary}
        if self.questions is not None or every_field:
            case["assessment_questions"] = None if self.questions is None else list(self.questions)
        if id is not None:
            case["id"] = id
        return case


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?。])\s+", text.strip()) if s.strip()]


def _cut(text: str) -> str:
    return " ".join(_sentences(text)[:_SENTENCES_KEPT])


def _development_pairs() -> list[tuple[str, str]]:
    pairs = []
    for name in ("factual_consistency_sample.jsonl", "frank_sample.jsonl"):
        with open(_DATA / name, encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                source, summary = _cut(row["source"]), row["summary"].strip()
                if source and summary:
                    pairs.append((source, summary))
    pairs.extend((case.source, case.summary) for case in PARITY)
    return pairs


PAIRS = _development_pairs()

_NAMES = ["Maria Jensen", "Omnimart", "the council", "Keiko Tanaka", "the operators", "Dr. Okafor"]
_THINGS = ["3 lemons", "a budget of 12 million dollars", "the billing system", "40,000 books"]
_PLACES = ["in Bruges", "on a public forum", "in the build log", "at the market", "in March"]
_VERBS = ["bought", "approved", "opened", "posted", "rotated", "found"]
_BODIES = ["QX7F9K2LM4PB8RT6WZ3HD5NA", "Ab3dEf5hIj7kLm9nOp1qRs3t"]
_PREFIXES = ["", "", "sk-proj-", "sk-"]

key_bodies = st.one_of(
    st.sampled_from(_BODIES),
    st.text(alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ0123456789", min_size=14, max_size=28),
)


@st.composite
def generated_sentence(draw: st.DrawFn, bodies: Sequence[str]) -> str:
    """A short made-up sentence, holding a key-like string (bare or prefixed) half the time."""
    sentence = (
        f"{draw(st.sampled_from(_NAMES))} {draw(st.sampled_from(_VERBS))} "
        f"{draw(st.sampled_from(_THINGS))} {draw(st.sampled_from(_PLACES))}"
    )
    if bodies and draw(st.booleans()):
        key = draw(st.sampled_from(_PREFIXES)) + draw(st.sampled_from(list(bodies)))
        sentence += f" with the code {key}"
    return sentence[0].upper() + sentence[1:] + "."


@st.composite
def sources(draw: st.DrawFn, bodies: Sequence[str]) -> str:
    kind = draw(st.sampled_from(["development", "development", "generated", "issue"]))
    if kind == "issue":
        return ISSUE_SOURCE
    if kind == "generated":
        parts = draw(st.lists(generated_sentence(bodies), min_size=1, max_size=4))
        return " ".join(parts)
    source = draw(st.sampled_from(PAIRS))[0]
    if bodies and draw(st.booleans()):  # a development source quoting a code
        key = draw(st.sampled_from(_PREFIXES)) + draw(st.sampled_from(list(bodies)))
        source += f" The access code {key} was posted on a public forum."
    return source


@st.composite
def summaries(draw: st.DrawFn, source: str, bodies: Sequence[str]) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 2))):
        kind = draw(st.sampled_from(["sentence", "keyed", "generated", "other", "issue"]))
        sentences = _sentences(source) or [source]
        if kind == "sentence":
            parts.append(draw(st.sampled_from(sentences)))
        elif kind == "keyed":  # a sentence of the source with its code made to look like a key
            sentence = draw(st.sampled_from(sentences))
            for body in bodies:
                sentence = re.sub(rf"(?<![\w-]){re.escape(body)}", "sk-proj-" + body, sentence)
            parts.append(sentence)
        elif kind == "generated":
            parts.append(draw(generated_sentence(bodies)))
        elif kind == "other":
            parts.append(draw(st.sampled_from(PAIRS))[1])
        else:
            parts.append(draw(st.sampled_from([ISSUE_SUMMARY, ISSUE_SIBLING])))
    return " ".join(parts)


@st.composite
def rows(
    draw: st.DrawFn, source_pool: Sequence[str], bodies: Sequence[str], questions: bool
) -> Row:
    source = draw(st.sampled_from(list(source_pool)))
    summary = draw(summaries(source, bodies))
    asked = None
    if questions and draw(st.integers(0, 4)) == 0:  # given assessment questions, now and then
        picked = draw(st.lists(st.sampled_from(_sentences(source) or [source]), min_size=1))
        asked = tuple(f"Does the text say that {s.rstrip('.')}?" for s in picked[:3])
    return Row(source, summary, asked)


@st.composite
def batches(
    draw: st.DrawFn, *, min_size: int = 2, max_size: int = 6, questions: bool = True
) -> list[Row]:
    """Rows sharing one to three sources, with duplicates, in a drawn order."""
    bodies = draw(st.lists(key_bodies, min_size=1, max_size=2, unique=True))
    pool = draw(st.lists(sources(bodies), min_size=1, max_size=3))
    drawn = draw(st.lists(rows(pool, bodies, questions), min_size=min_size, max_size=max_size))
    if len(drawn) < max_size and draw(st.booleans()):  # a row twice
        drawn.append(draw(st.sampled_from(drawn)))
    return draw(st.permutations(drawn))


# ---------------------------------------------------------------------------------- comparing

# Not evidence: what a row cost (the first row of a source pays for its source-side calls, the
# others reuse them) and where it sits in the batch.
_NOT_EVIDENCE = ("usage", "id", "judge_calls", "input_tokens", "output_tokens", "cost")


def evidence(data: dict[str, Any]) -> str:
    """A result as a dict (``SummaryResult.to_dict()``, a service reply or a results-file row)
    without what may differ between rows scored alone and in a batch, as comparable text (NaN
    written as None: a results file writes it so)."""
    kept = {k: _finite(v) for k, v in data.items() if k not in _NOT_EVIDENCE}
    return json.dumps(kept, sort_keys=True, ensure_ascii=False, default=str)


def row_evidence(result: Any) -> str:
    """:func:`evidence` of a ``SummaryResult``."""
    return evidence(result.to_dict())


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def differences(expected: Iterable[str], got: Iterable[str]) -> list[tuple[int, str, str]]:
    """The rows whose evidence differs, with both versions (for assertion messages)."""
    return [(i, a, b) for i, (a, b) in enumerate(zip(expected, got)) if a != b]
