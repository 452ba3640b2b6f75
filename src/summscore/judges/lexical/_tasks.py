"""The judge tasks, done with classical text processing. Pure functions of their inputs.

Extraction (keyphrases, truths, claims, questions) works on sentences and clauses; the judging
tasks (answers, verdicts) ask ``_support`` whether a text supports a statement.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import chain, islice
from operator import attrgetter
from typing import Any

from ._doc import Doc, analyze
from ._graded import ABSENT, UNCONFIRMED, claim_support, source_grams
from ._lexicon import COMMON_STARTS, STOPWORDS
from ._repair import unglued, without_placeholders
from ._support import CONTRADICTED, SUPPORTED, UNKNOWN, Verdict, judge_claim, judge_question
from ._text import Span, make_span
from ._words import content_tokens, has_cjk, normalize

__all__ = [
    "answer_questions",
    "assess_claims",
    "assess_questions",
    "extract_claims",
    "extract_keyphrases",
    "extract_truths",
    "keyphrase_questions",
    "question_statement",
    "salient_questions",
    "verdicts",
]

_QUESTION_PREFIX = re.compile(
    r"^\s*(?:does|do|did|is|are|was|were|has|have|had|can|will)\s+(?:the\s+)?"
    r"(?:text|document|passage|source|original(?:\s+text)?|summary|article)\s+"
    r"(?:say|state|mention|report|indicate|claim|note|show)s?\s+(?:that\s+)?",
    re.IGNORECASE,
)
_JA_QUESTION = re.compile(r"^本文は「(.*)」と述べているか？$")
_ZH_QUESTION = re.compile(r"^原文是否提到“(.*)”？$")
# Who said it is not what was said: a summary may drop "according to X" or ", officials said"
# and still answer the question.
_ATTRIBUTIONS = (
    re.compile(r"^(?:according to|as reported by)\s+[^,]{1,60},\s*", re.IGNORECASE),
    re.compile(
        r",\s*[^,]{1,60}?\s+(?:said|says|reported|announced|added|confirmed|wrote|told [\w ]{1,30})"
        r"(?:\s+on\s+\w+)?\s*$",
        re.IGNORECASE,
    ),
    re.compile(r"^[^、。,]{1,20}(?:によると|によれば)[、,]\s*"),
    re.compile(r"^(?:据)?[^，。,]{1,20}(?:表示|称|指出|报道|公布|宣布)[，,]\s*"),
)
_DEDUPLICATED = 64
_TOKEN_SET = attrgetter("token_set")
_CJK_QUESTION_EDGES = re.compile(
    r"^(?:本文|文章|テキスト|原文)(?:は|では|によると|中)?[、,]?|(?:か|吗|嗎)?[？?]$"
)


# ---------------------------------------------------------------------------------- clauses


def _read(text: str) -> Doc:
    """The analysis of ``text`` as written, glued sentences apart (see ``_repair``)."""
    return analyze(unglued(text))


def _checkable(clause: Span) -> bool:
    return len(clause.token_set) >= 2 or bool(clause.anchors)


def _informative_clauses(text: str) -> list[Span]:
    """The clauses of ``text`` that state something checkable (analysed once per text)."""
    return [c for c in _read(text).clauses() if _checkable(c)]


def extract_truths(text: str, limit: int | None = None) -> list[str]:
    """The text's factual statements: its clauses, in order; ``limit`` keeps the most salient."""
    clauses = _informative_clauses(text)
    if limit is None or limit >= len(clauses):
        return [c.text for c in clauses]
    if limit <= 0:
        return []
    chosen = {id(c) for c in _most_salient(clauses, limit)}
    return [c.text for c in clauses if id(c) in chosen]


def extract_claims(text: str) -> list[str]:
    """The summary's claims: its clauses, in order. Whether a clause states something checkable
    is read from the clause alone (not from the words its sibling sentences write in lower
    case), so that adding a sentence to a summary never takes a claim away."""
    claims = [c.text for c in _read(text).clauses() if _checkable(make_span(c.text))]
    return claims or ([text.strip()] if text.strip() else [])


def extract_keyphrases(text: str, limit: int = 30) -> list[str]:
    """People, organisations, places, dates, money and percentages, as written in the text; for a
    text with none of those, the topic phrases of its most salient statements."""
    seen: set[str] = set()
    found: list[str] = []
    for sentence in _read(text).sentences:
        for _, surface in sentence.surfaces:
            phrase = surface.strip(" ,.;:'\"“”()")
            if not phrase or phrase.lower() in seen:
                continue
            seen.add(phrase.lower())
            found.append(phrase)
            if len(found) >= limit:
                return found
    return found or _topic_phrases(text, min(limit, 3))


_WORD = re.compile(r"[^\W\d_][\w'-]*")


def _topic_phrases(text: str, n: int) -> list[str]:
    """The first run of content words (up to three) in each of the ``n`` most salient clauses."""
    phrases: list[str] = []
    for clause in _rank_salient(_informative_clauses(text)):
        if has_cjk(clause.text):
            phrase = re.split(r"[、，,。：:「」“”]", clause.text.strip())[0][:8]
        else:
            run: list[str] = []
            for word in _WORD.findall(clause.text):
                if word.lower() in STOPWORDS or len(word) < 3:
                    if len(run) >= 2:
                        break
                    run = []
                    continue
                run.append(word.strip("'-"))
                if len(run) == 3:
                    break
            phrase = " ".join(run)
        if phrase and phrase.lower() not in (p.lower() for p in phrases):
            phrases.append(phrase)
        if len(phrases) >= n:
            break
    return phrases


# -------------------------------------------------------------------------------- questions


def _as_question(clause: str, common: frozenset[str] = frozenset()) -> str:
    """A closed question about ``clause``; its first word keeps its capital only if it is a
    name (``common``: the words the text writes in lower case)."""
    clause = clause.strip().rstrip(".。!！?？;；:,，")
    if has_cjk(clause):
        if re.search(r"[\u3040-\u30ff]", clause):
            return f"本文は「{clause}」と述べているか？"
        return f"原文是否提到“{clause}”？"
    first = clause.split(" ", 1)[0]
    lower = first.lower()
    if lower in STOPWORDS or lower in COMMON_STARTS or lower in common:
        clause = lower + clause[len(first) :]
    return f"Does the text say that {clause}?"


def question_statement(question: str, common: frozenset[str] = frozenset()) -> Span:
    """The statement a closed question asks about, as a span: question words and attributions
    ("according to X", ", officials said") dropped."""
    text = question.strip()
    for pattern in (_JA_QUESTION, _ZH_QUESTION):
        match = pattern.match(text)
        if match:
            text = match.group(1)
            break
    else:
        text = _QUESTION_PREFIX.sub("", text)
        text = _CJK_QUESTION_EDGES.sub("", text).rstrip("?？")
    for attribution in _ATTRIBUTIONS:
        shorter = attribution.sub("", text)
        if shorter != text and len(content_tokens(shorter)) >= 3:
            text = shorter
    return make_span(text, question=True, common=common, own_words=not common)


def keyphrase_questions(text: str, keyphrases: Sequence[str], minimum: int = 3) -> list[str]:
    """One closed question per keyphrase, about the clause of the text that mentions it; topped
    up with the text's most salient statements when the keyphrases give fewer than ``minimum``."""
    clauses = _informative_clauses(text)
    common = _read(text).common
    questions: list[str] = []
    used: set[int] = set()
    for phrase in keyphrases:
        needle = normalize(phrase).lower()
        clause = next((c for c in clauses if needle in c.text.lower()), None)
        if clause is None or id(clause) in used:
            continue
        used.add(id(clause))
        questions.append(_as_question(clause.text, common))
    if len(questions) < minimum:
        for clause in _rank_salient(clauses):
            if id(clause) not in used:
                used.add(id(clause))
                questions.append(_as_question(clause.text, common))
            if len(questions) >= minimum:
                break
    return questions


def salient_questions(text: str, n: int) -> list[str]:
    """``n`` closed questions about the text's most important statements, in text order."""
    clauses = _informative_clauses(text)
    chosen = {id(c) for c in _most_salient(clauses, n)}
    common = _read(text).common
    return [_as_question(c.text, common) for c in clauses if id(c) in chosen]


def _most_salient(clauses: Sequence[Span], n: int) -> list[Span]:
    """The first ``n`` clauses by importance (a negative ``n`` counts from the end, as a slice
    does). Only as many near-duplicate checks are made as the first ``n`` need."""
    ranked = _rank_salient(clauses)
    return list(islice(ranked, n)) if n >= 0 else list(ranked)[:n]


def _rank_salient(clauses: Sequence[Span]) -> Iterator[Span]:
    """Clauses by importance: central vocabulary, anchors, early position; near-duplicates last.
    (Yielded one by one: callers take the first few, and the near-duplicate check of a clause
    reads only the clauses before it.)"""
    frequency = Counter(chain.from_iterable(map(_TOKEN_SET, clauses)))  # counted in C
    scored: list[tuple[float, int, Span]] = []
    for index, span in enumerate(clauses):
        if not span.token_set:
            continue
        # (The sum of frequency - 1 over the tokens, summed in C: every token is counted.)
        count = len(span.token_set)
        centrality = (sum(map(frequency.__getitem__, span.token_set)) - count) / (count**0.5)
        anchors = 1.0 * bool(span.numbers) + 0.5 * min(len(span.entities), 3)
        position = 1.5 / (1 + index)
        length = min(len(span.token_set), 12) / 12
        # (Negated, so that a plain sort puts the best first; indexes differ, spans are not compared.)
        scored.append((-(centrality * 0.4 + anchors + position + length), index, span))
    scored.sort()
    picked: set[int] = set()  # (by id: one span may stand for two equal clauses)
    skipped: list[Span] = []
    head: list[frozenset[str]] = []  # the token sets of the first picks
    for _, _, span in scored:
        # Near-duplicates are looked for among the first picks only: linear in long texts. (A
        # share above 0.7 of any of them is the largest overlap's share above it: the overlaps
        # are counted in C.)
        tokens = span.token_set
        if head and max(map(len, map(tokens.intersection, head))) / len(tokens) > 0.7:
            skipped.append(span)
            continue
        picked.add(id(span))
        yield span
        if len(head) < _DEDUPLICATED:
            head.append(tokens)
    yield from (span for span in skipped if id(span) not in picked)


# ---------------------------------------------------------------------------------- judging


def answer_questions(text: str, questions: Sequence[str]) -> list[bool]:
    """For each closed question: does ``text`` hold what is needed to answer it with yes?"""
    return [found for found, _ in assess_questions(text, questions)]


def assess_questions(text: str, questions: Sequence[str]) -> list[tuple[bool, float]]:
    """For each closed question: (answered with yes, confidence in that answer)."""
    doc = _read(text)
    # A question is read with its own lower-case words, not the text's: what the rest of the
    # text writes never decides what a question asks about.
    judged = [judge_question(question_statement(q), doc) for q in questions]
    return [(v.level == SUPPORTED, v.confidence) for v in judged]


def verdicts(
    claims: Sequence[str], evidence: str, vocabulary: Sequence[str]
) -> list[dict[str, Any]]:
    """One verdict per claim, worded in ``vocabulary`` (supported, contradicted, unknown)."""
    return [item for item, _ in assess_claims(claims, evidence, vocabulary)]


def assess_claims(
    claims: Sequence[str], evidence: str, vocabulary: Sequence[str]
) -> list[tuple[dict[str, Any], float]]:
    """One (verdict item, confidence) per claim. Each item carries the claim's graded
    ``support`` (0 to 1, see ``_graded``): 0 for a contradicted claim."""
    yes, no, unknown = vocabulary
    evidence = unglued(evidence)
    doc = analyze(evidence)
    grams = source_grams(evidence, doc.lowered)
    out: list[tuple[dict[str, Any], float]] = []
    for claim in claims:
        verdict = _judge_claim(claim, doc)
        word = (
            yes if verdict.level == SUPPORTED else no if verdict.level == CONTRADICTED else unknown
        )
        item: dict[str, Any] = {"verdict": word}
        if verdict.reason:
            item["reason"] = verdict.reason
        share = 0.0 if verdict.level == CONTRADICTED else claim_support(claim, grams)
        item["support"] = round(share * _kept(verdict), 4)
        out.append((item, verdict.confidence))
    return out


def _kept(verdict: Verdict) -> float:
    """The share of its graded support a claim keeps under ``verdict`` (see ``_graded``)."""
    if verdict.level == SUPPORTED:
        return 1.0
    return ABSENT if verdict.absent else UNCONFIRMED


def _judge_claim(claim: str, doc: Doc) -> Verdict:
    """A placeholder ("UNK") names nothing the source could contradict, but a claim with a word
    left out cannot be confirmed either: at best it is unknown. A claim is read with the
    source's lower-case words and its own, never its siblings': its verdict depends on the claim
    and the source alone."""
    written = without_placeholders(claim)
    verdict = judge_claim(make_span(written, common=doc.common, own_words=True), doc)
    if written != claim and verdict.level == SUPPORTED:
        return Verdict(UNKNOWN, "the claim leaves out a word (UNK) the source may have", 0.5)
    return verdict
