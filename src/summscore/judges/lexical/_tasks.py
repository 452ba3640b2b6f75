"""The judge tasks, done with classical text processing. Pure functions of their inputs.

The central step is :func:`assess`: does a text support a statement (a claim, or the fact a question
asks about)? It finds the sentence window of the text that best covers the statement's content
tokens, then checks the statement's anchors (numbers, dates, money, percentages, names) against
the text:

* an anchor the text lacks, where the best-matching window offers a different one of the same
  kind, is a contradiction ("no"): a wrong number or a swapped name;
* a flipped negation or an antonym in an otherwise matching window is a contradiction;
* an anchor the text lacks, with nothing to contradict it, is unsupported ("unknown");
* otherwise the statement is supported when enough of its content is covered, less being needed
  when all its anchors sit in the same window.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ._text import (
    _ENTITY,
    _KATAKANA_WORD,
    _NUMBER,
    _STOPWORDS,
    Doc,
    Span,
    analyze,
    make_span,
    split_clauses,
    split_sentences,
)

__all__ = [
    "answer_questions",
    "assess",
    "explain",
    "extract_claims",
    "extract_keyphrases",
    "extract_truths",
    "keyphrase_questions",
    "salient_questions",
    "verdicts",
]

SUPPORTED, CONTRADICTED, UNKNOWN = "yes", "no", "unknown"
_COMMON_STARTS = _STOPWORDS | {
    "however",
    "meanwhile",
    "today",
    "yesterday",
    "officials",
    "researchers",
}

_ANTONYMS = [
    ("increas", "decreas"),
    ("win", "lose"),
    ("more", "less"),
    ("more", "fewer"),
    ("high", "low"),
    ("higher", "lower"),
    ("before", "after"),
    ("approv", "reject"),
    ("accept", "reject"),
    ("open", "clos"),
    ("buy", "sell"),
    ("profit", "loss"),
    ("success", "fail"),
    ("includ", "exclud"),
    ("allow", "ban"),
    ("allow", "prohibit"),
    ("male", "female"),
    ("largest", "smallest"),
    ("first", "last"),
    ("earli", "later"),
    ("positiv", "negativ"),
    ("hire", "fire"),
    ("north", "south"),
    ("east", "west"),
    ("strong", "weak"),
    ("major", "minor"),
    ("agre", "disagre"),
    ("support", "oppos"),
    ("surplus", "deficit"),
    ("import", "export"),
    ("above", "below"),
    ("maximum", "minimum"),
    ("inside", "outside"),
    ("wors", "better"),
    ("lowest", "highest"),
    ("big", "small"),
    ("begin", "end"),
    ("上昇", "下落"),
    ("増加", "減少"),
    ("增加", "减少"),
    ("上涨", "下跌"),
    ("上升", "下降"),
]
_OPPOSITE: dict[str, set[str]] = {}
for _a, _b in _ANTONYMS:
    _OPPOSITE.setdefault(_a, set()).add(_b)
    _OPPOSITE.setdefault(_b, set()).add(_a)

_QUESTION_PREFIX = re.compile(
    r"^\s*(?:does|do|did|is|are|was|were|has|have|had|can|will)\s+(?:the\s+)?"
    r"(?:text|document|passage|source|original(?:\s+text)?|summary|article)\s+"
    r"(?:say|state|mention|report|indicate|claim|note|show)s?\s+(?:that\s+)?",
    re.IGNORECASE,
)
_CJK_QUESTION = re.compile(
    r"^(?:本文|文章|テキスト|原文)(?:は|では|によると|中)?[、,]?|(?:か|吗|嗎)?[？?]$"
)


# ------------------------------------------------------------------------------------ support


def _recall(span: Span, window: Span) -> float:
    if not span.token_set:
        return 0.0
    return len(span.token_set & window.token_set) / len(span.token_set)


def _entity_found(entity: str, doc: Doc) -> bool:
    if entity in doc.entities or entity in doc.lowered:
        return True
    parts = entity.split()
    # "Smith" for "John Smith", "Jobs" in "Steve Jobs": a name part the text has as a word.
    return len(parts) > 1 and all(re.search(rf"\b{re.escape(p)}\b", doc.lowered) for p in parts)


def _entity_in(entity: str, window: Span) -> bool:
    lowered = window.text.lower()
    return entity in lowered or any(entity in e or e in entity for e in window.entities)


_FRAGMENT_SPLIT = re.compile(r",\s*|;\s*|\s+(?:and|with|while|after|before|as)\s+|、|，")


def assess(statement: Span, doc: Doc) -> tuple[str, str | None]:
    """(SUPPORTED | CONTRADICTED | UNKNOWN, reason) for ``statement`` against ``doc``.

    A statement that packs several facts ("founded in 2003 by X and launched Y in 2008") is also
    checked fragment by fragment, so one wrong fact is not diluted by a right one.
    """
    level, why = _assess_one(statement, doc)
    if level == CONTRADICTED:
        return level, why
    fragments = [f for f in _FRAGMENT_SPLIT.split(statement.text) if f.strip()]
    if len(fragments) > 1:
        for fragment in fragments:
            span = make_span(fragment)
            if len(span.token_set) < 3:
                continue
            sub_level, sub_why = _assess_one(span, doc)
            if sub_level == CONTRADICTED:
                return sub_level, sub_why
    return level, why


def _assess_one(statement: Span, doc: Doc) -> tuple[str, str | None]:
    if not statement.token_set and not statement.numbers and not statement.entities:
        return SUPPORTED, None
    ranked = sorted(doc.windows, key=lambda w: _recall(statement, w), reverse=True)[:3]
    best = ranked[0]
    best_recall = _recall(statement, best)
    missing_numbers = sorted(statement.numbers - doc.numbers)
    missing_entities = sorted(e for e in statement.entities if not _entity_found(e, doc))

    for window in ranked:
        recall = _recall(statement, window)
        if missing_numbers and recall >= 0.4:
            rivals = sorted(window.numbers - statement.numbers)
            if rivals:
                return CONTRADICTED, (
                    f"the source gives {', '.join(rivals)} where the statement says "
                    f'{", ".join(missing_numbers)}: "{_clip(window.text)}"'
                )
        if missing_entities and recall >= 0.45:
            rivals = _rivals(window, statement)
            if rivals:
                return CONTRADICTED, (
                    f"the source names {', '.join(rivals)} where the statement names "
                    f'{", ".join(missing_entities)}: "{_clip(window.text)}"'
                )
    misattributed = _misattributed(statement, doc, best, best_recall)
    if misattributed:
        entity, rivals = misattributed
        return CONTRADICTED, (
            f'the source connects this with {", ".join(rivals)}, not {entity}: "{_clip(best.text)}"'
        )
    if best_recall >= 0.65 and statement.negated != best.negated and not missing_numbers:
        return CONTRADICTED, f'the source states the opposite: "{_clip(best.text)}"'
    if best_recall >= 0.5:
        flipped = _antonym_clash(statement, best)
        if flipped:
            return CONTRADICTED, f'the source says "{flipped}" instead: "{_clip(best.text)}"'
    if missing_numbers or missing_entities:
        absent = missing_numbers + missing_entities
        return UNKNOWN, f"the source does not mention {', '.join(absent)}"
    anchors = statement.numbers | statement.entities
    anchored = bool(anchors) and all((a in best.numbers) or _entity_in(a, best) for a in anchors)
    global_recall = len(statement.token_set & doc.token_set) / max(len(statement.token_set), 1)
    needed = 0.34 if anchored else 0.5
    if best_recall >= needed or (global_recall >= 0.85 and best_recall >= 0.45):
        return SUPPORTED, None
    return UNKNOWN, "the source does not support this"


def _rivals(window: Span, statement: Span) -> list[str]:
    return sorted(e for e in window.entities - statement.entities if not _entity_in(e, statement))


def _misattributed(
    statement: Span, doc: Doc, best: Span, best_recall: float
) -> tuple[str, list[str]] | None:
    """A name the source has, but elsewhere: "founded by Musk" where the founding sentence names
    Eberhard and Musk appears only as a later investor."""
    best = max(doc.sentences, key=lambda w: _recall(statement, w))
    if _recall(statement, best) < 0.6:
        return None
    for entity in statement.entities:
        if _entity_in(entity, best):
            continue
        rivals = _rivals(best, statement)
        if not rivals:
            continue
        entity_tokens = set(make_span(entity).token_set)
        rest = statement.token_set - entity_tokens
        if not rest:
            continue
        together = max(
            (len(rest & w.token_set) / len(rest) for w in doc.sentences if _entity_in(entity, w)),
            default=0.0,
        )
        if together < 0.5:
            return entity, rivals
    return None


def _antonym_clash(statement: Span, window: Span) -> str | None:
    for token in statement.token_set:
        for opposite in _OPPOSITE.get(token, ()):
            if opposite in window.token_set and token not in window.token_set:
                return opposite
    return None


def _clip(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------------------------- extraction


def extract_truths(text: str, limit: int | None = None) -> list[str]:
    """The text's factual statements: its clauses, in order; ``limit`` keeps the most salient."""
    clauses = [c for s in split_sentences(text) for c in split_clauses(s)]
    clauses = [c for c in clauses if _informative(c)]
    if limit is None or limit >= len(clauses):
        return clauses
    if limit <= 0:
        return []
    chosen = set(_rank_salient(clauses, text)[:limit])
    return [c for c in clauses if c in chosen]


def extract_claims(text: str) -> list[str]:
    """The summary's claims: its clauses, in order."""
    claims = [c for s in split_sentences(text) for c in split_clauses(s)]
    return [c for c in claims if _informative(c)] or ([text.strip()] if text.strip() else [])


def _informative(clause: str) -> bool:
    span = make_span(clause)
    return len(span.token_set) >= 2 or bool(span.numbers or span.entities)


def extract_keyphrases(text: str, limit: int = 30) -> list[str]:
    """People, organisations, places, dates, money and percentages, as they appear in the text."""
    seen: set[str] = set()
    found: list[str] = []

    def add(phrase: str) -> None:
        phrase = phrase.strip(" ,.;:'\"“”()")
        key = phrase.lower()
        if phrase and key not in seen and len(found) < limit:
            seen.add(key)
            found.append(phrase)

    for sentence in split_sentences(text):
        hits: list[tuple[int, str]] = []
        for m in _NUMBER.finditer(sentence):
            hits.append((m.start(), _number_phrase(sentence, m)))
        first = True
        for m in _ENTITY.finditer(sentence):
            phrase = m.group(0)
            if first and sentence[: m.start()].strip(" \"'“‘(") == "" and len(phrase.split()) == 1:
                first = False
                if not _looks_like_name(phrase, text):
                    continue
            first = False
            hits.append((m.start(), phrase))
        for m in _KATAKANA_WORD.finditer(sentence):
            hits.append((m.start(), m.group(0)))
        for _, phrase in sorted(hits):
            add(phrase)
    return found


def _number_phrase(sentence: str, m: re.Match[str]) -> str:
    phrase = m.group(0).strip()
    tail = sentence[m.end() : m.end() + 3]
    unit = re.match(r"[年月日人円元件名%％億万]+", tail)
    if unit:
        phrase += unit.group(0)
    head = sentence[max(0, m.start() - 10) : m.start()]
    month = re.search(
        r"(January|February|March|April|May|June|July|August|September|October|November|December)\s*$",
        head,
    )
    if month:
        phrase = f"{month.group(1)} {phrase}"
    return phrase


def _looks_like_name(word: str, text: str) -> bool:
    """A sentence-initial capitalised word is a name if the text also capitalises it mid-sentence."""
    if len(word) < 2 or word.lower() in _COMMON_STARTS:
        return False
    return re.search(rf"[a-z,;]\s+{re.escape(word)}\b", text) is not None or word.isupper()


# ----------------------------------------------------------------------------------- questions


def keyphrase_questions(text: str, keyphrases: Sequence[str], minimum: int = 3) -> list[str]:
    """One closed question per keyphrase, about the clause of the text that mentions it."""
    sentences = split_sentences(text)
    questions: list[str] = []
    seen: set[str] = set()
    for phrase in keyphrases:
        clause = _clause_with(phrase, sentences)
        if clause is None or clause.lower() in seen:
            continue
        seen.add(clause.lower())
        questions.append(_as_question(clause))
    if len(questions) < minimum:
        for q in salient_questions(text, minimum):
            if q not in questions:
                questions.append(q)
            if len(questions) >= minimum:
                break
    return questions


def _clause_with(phrase: str, sentences: Sequence[str]) -> str | None:
    needle = phrase.lower()
    for sentence in sentences:
        if needle not in sentence.lower():
            continue
        segments = [s.strip() for s in re.split(r"(?<=[,;:、，；])\s*", sentence) if s.strip()]
        for i, segment in enumerate(segments):
            if needle in segment.lower():
                clause = segment
                j = i
                while len(make_span(clause).token_set) < 4 and (j > 0 or j + 1 < len(segments)):
                    if j > 0:
                        j -= 1
                        clause = f"{segments[j]} {clause}"
                    if len(make_span(clause).token_set) < 4 and i + 1 < len(segments):
                        clause = f"{clause} {segments[i + 1]}"
                        i += 1
                    if j == 0 and i + 1 >= len(segments):
                        break
                return clause.strip(" ,;:、，；")
        return sentence
    return None


def salient_questions(text: str, n: int) -> list[str]:
    """``n`` closed questions about the text's most important statements, in text order."""
    clauses = [c for s in split_sentences(text) for c in split_clauses(s)]
    clauses = [c for c in clauses if _informative(c)]
    chosen = set(_rank_salient(clauses, text)[:n])
    return [_as_question(c) for c in clauses if c in chosen]


def _rank_salient(clauses: Sequence[str], text: str) -> list[str]:
    spans = [make_span(c) for c in clauses]
    frequency: Counter[str] = Counter()
    for span in spans:
        frequency.update(span.token_set)
    scored: list[tuple[float, int, str, Span]] = []
    for index, (clause, span) in enumerate(zip(clauses, spans)):
        if not span.token_set:
            continue
        centrality = sum(frequency[t] - 1 for t in span.token_set) / (len(span.token_set) ** 0.5)
        anchors = 1.0 * bool(span.numbers) + 0.5 * min(len(span.entities), 3)
        position = 1.5 / (1 + index)
        length = min(len(span.token_set), 12) / 12
        scored.append((centrality * 0.4 + anchors + position + length, index, clause, span))
    scored.sort(key=lambda item: (-item[0], item[1]))
    picked: list[str] = []
    picked_spans: list[Span] = []
    for _, _, clause, span in scored:
        if any(len(span.token_set & p.token_set) / len(span.token_set) > 0.7 for p in picked_spans):
            continue
        picked.append(clause)
        picked_spans.append(span)
    for _, _, clause, _ in scored:  # fill up with near-duplicates if short
        if clause not in picked:
            picked.append(clause)
    return picked


def _as_question(clause: str) -> str:
    clause = clause.strip().rstrip(".。!！?？;；:,，")
    first = clause.split(" ", 1)[0]
    if first.lower() in _COMMON_STARTS:
        clause = first.lower() + clause[len(first) :]
        return f"Does the text say that {clause}?"
    if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", clause):
        return (
            f"本文は「{clause}」と述べているか？"
            if re.search(r"[\u3040-\u30ff]", clause)
            else f"原文是否提到“{clause}”？"
        )
    return f"Does the text say that {clause}?"


def question_statement(question: str) -> Span:
    """The statement a closed question asks about, as a span (question words dropped)."""
    text = _QUESTION_PREFIX.sub("", question.strip())
    cjk = re.match(r"^(?:本文は「|原文是否提到“)(.*)(?:」と述べているか？|”？)$", text)
    if cjk:
        text = cjk.group(1)
    text = _CJK_QUESTION.sub("", text).rstrip("?？")
    return make_span(text, question=True)


def answer_questions(text: str, questions: Sequence[str]) -> list[bool]:
    """For each closed question: does ``text`` contain what is needed to answer it with yes?"""
    doc = analyze(text)
    return [assess(question_statement(q), doc)[0] == SUPPORTED for q in questions]


def verdicts(
    claims: Sequence[str], evidence: str, vocabulary: Sequence[str]
) -> list[dict[str, Any]]:
    """One verdict per claim in ``vocabulary`` order (supported, contradicted, unknown)."""
    yes, no, unknown = vocabulary
    doc = analyze(evidence)
    out: list[dict[str, Any]] = []
    for claim in claims:
        level, why = assess(make_span(claim), doc)
        word = {SUPPORTED: yes, CONTRADICTED: no, UNKNOWN: unknown}[level]
        item: dict[str, Any] = {"verdict": word}
        if level != SUPPORTED:
            item["reason"] = why
        out.append(item)
    return out


# --------------------------------------------------------------------------------------- reason


def explain(inputs: Mapping[str, Any]) -> str:
    """A deterministic reason from the evidence the preset passes to the reason task."""
    score = inputs.get("score")
    head = (
        f"The score is {score:.2f} because "
        if isinstance(score, (int, float))
        else "The score reflects that "
    )
    problems: list[str] = []
    contradictions = [c for c in inputs.get("contradictions", []) or [] if c]
    extra = [r for r in inputs.get("redundancies", []) or [] if r]
    unsupported = inputs.get("unsupported", []) or []
    missed = inputs.get("questions", []) or []
    if contradictions:
        problems.append(
            f"{len(contradictions)} claim(s) contradict the source ({contradictions[0]})"
        )
    if extra:
        problems.append(f"{len(extra)} claim(s) are not supported by the source")
    if unsupported:
        problems.append(f"{len(unsupported)} claim(s) are not supported by the source")
    if missed:
        problems.append(f"the summary misses {len(missed)} key point(s), e.g. {missed[0]!r}")
    if not problems:
        return head + "the summary agrees with the source and covers its key points."
    return head + "; ".join(problems) + "."
