"""Answer a judge prompt deterministically, from the texts inside it.

Recognises every judge task that ragas's SummaryScore prompts (collections and legacy renderings),
deepeval's SummarizationMetric prompts, Mastra 1.x's summarization scorer prompts (@mastra/evals
``createSummarizationScorer``: source judgement, coverage, reason) and summscore's own prompts ask
for, recovers the task's
inputs from the prompt text, and answers with summscore's LexicalJudge. So a summary that omits
facts loses coverage and a summary with a wrong number or name gets a "no" verdict, whichever
framework rendered the prompt. Anything else gets a deterministic answer shaped by the requested
JSON schema.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from summscore.judges.lexical import LexicalJudge

__all__ = ["Recognised", "answer", "python_list", "recognise", "schema_default"]

_judge = LexicalJudge()


@dataclass(frozen=True)
class Recognised:
    task: str
    inputs: dict[str, Any]
    family: str  # "ragas", "deepeval", "mastra", "summscore"


def answer(prompt: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON object a careful judge would return for ``prompt``."""
    found = recognise(prompt)
    if found is None:
        return schema_default(schema, seed=prompt)
    if found.family == "mastra":
        return _mastra_answer(found)
    return _judge.run(found.task, found.inputs)


def recognise(prompt: str) -> Recognised | None:
    """(task, inputs) for a prompt of a known family, or None."""
    found = _recognise(prompt)
    if found is None:
        # Some deepeval releases (3.9 and 4.0 among them) send templates whose textwrap.dedent
        # does nothing, so every line after the first keeps the source's indentation.
        flush = _INDENT.sub("", prompt)
        if flush != prompt:
            found = _recognise(flush)
    return found


_INDENT = re.compile(r"^[ \t]+", re.MULTILINE)


def _recognise(prompt: str) -> Recognised | None:
    for reader in (_own, _ragas, _deepeval, _mastra):
        try:
            found = reader(prompt)
        except (ValueError, SyntaxError, KeyError, IndexError, json.JSONDecodeError):
            found = None
        if found is not None:
            return found
    return None


# ------------------------------------------------------------------------------ summscore-v1

_OWN_TASK = re.compile(r"^summscore task: (\w+)", re.MULTILINE)
_DATA = re.compile(r"<data>\n(.*)\n</data>", re.DOTALL)


def _own(prompt: str) -> Recognised | None:
    task_match = _OWN_TASK.search(prompt)
    data_match = _DATA.search(prompt)
    if not task_match or not data_match:
        return None
    task = task_match.group(1)
    data = json.loads(data_match.group(1))
    inputs: dict[str, Any]
    if task == "answers":
        text_key = "summary" if "summary" in data else "text"
        vocabulary = ("1", "0") if text_key == "summary" else ("yes", "no")
        inputs = {"text": data[text_key], "questions": data["questions"], "vocabulary": vocabulary}
    elif task == "verdicts":
        head = prompt[: data_match.start()]
        vocabulary = ("yes", "no", "unsure") if '"unsure"' in head else ("yes", "no", "borderline")
        inputs = {"claims": data["claims"], "evidence": data["source"], "vocabulary": vocabulary}
    elif task == "reason":
        inputs = {
            "score": data.get("score"),
            "contradictions": data.get("contradictions", []),
            "redundancies": data.get("extra_information", []),
            "unsupported": data.get("unsupported_claims", []),
            "questions": data.get("missed_questions", []),
        }
    else:
        inputs = dict(data)
    return Recognised(task, inputs, "summscore")


# ------------------------------------------------------------------------------------ ragas

_RAGAS_INPUT = "Now perform the same with the following input\ninput: "


def _ragas(prompt: str) -> Recognised | None:
    if _RAGAS_INPUT not in prompt:
        return None
    raw = prompt.rsplit(_RAGAS_INPUT, 1)[1]
    raw = raw.rsplit("\nOutput:", 1)[0]
    data = json.loads(raw)
    if prompt.startswith("Extract keyphrases"):
        return Recognised("keyphrases", {"text": data["text"]}, "ragas")
    if prompt.startswith("Based on the given text and keyphrases"):
        return Recognised(
            "questions", {"text": data["text"], "keyphrases": data["keyphrases"]}, "ragas"
        )
    if prompt.startswith("Based on the list of close-ended '1' or '0' questions"):
        inputs = {"text": data["summary"], "questions": data["questions"], "vocabulary": ("1", "0")}
        return Recognised("answers", inputs, "ragas")
    return None


# --------------------------------------------------------------------------------- deepeval

_END_OF_EXAMPLE = "===== END OF EXAMPLE ======"


def _after_example(prompt: str) -> str:
    return prompt.split(_END_OF_EXAMPLE, 1)[1] if _END_OF_EXAMPLE in prompt else prompt


def _between(text: str, start: str, end: str) -> str:
    begin = text.index(start) + len(start)
    stop = text.rindex(end)
    return text[begin:stop]


# One item of a Python list's repr: a str literal (repr quotes with ' or ", escapes with \) or None.
_ITEM = re.compile(r"""\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|(None))\s*""", re.S)


def python_list(text: str) -> list[str | None]:
    """The value of ``repr(a list of str or None)``, as deepeval's templates print such lists.

    Read without ``ast`` (whose C state in CPython 3.11 is not safe across the judge server's
    threads: "AST constructor recursion depth mismatch"): the items are matched one by one and
    their escapes decoded. Anything else raises ValueError, as ``ast.literal_eval`` would.
    """
    body = text.strip()
    if not (body.startswith("[") and body.endswith("]")):
        raise ValueError(f"not a list: {text[:80]!r}")
    items: list[str | None] = []
    at, end = 1, len(body) - 1
    if not body[at:end].strip():
        return items
    while at < end:
        match = _ITEM.match(body, at, end)
        if match is None:
            raise ValueError(f"not a list of strings at {at}: {body[at : at + 40]!r}")
        single, double, none = match.groups()
        items.append(None if none else _unescape(single if single is not None else double))
        at = match.end()
        if at < end:
            if body[at] != ",":
                raise ValueError(f"expected ',' at {at}: {body[at : at + 40]!r}")
            at += 1
            if not body[at:end].strip():  # a trailing comma ends the list
                break
    return items


def _unescape(literal: str) -> str:
    r"""Decode a str literal's body: the escapes repr writes (\\ \' \n \xNN \uNNNN ...), with
    every other character as it is (non-Latin-1 ones become \u escapes first, so that
    unicode_escape, which reads bytes as Latin-1, gives them back unchanged)."""
    if "\\" not in literal:
        return literal
    return literal.encode("latin-1", "backslashreplace").decode("unicode_escape")


def _deepeval(prompt: str) -> Recognised | None:
    if "please generate a comprehensive list of" in prompt and '"truths" key' in prompt:
        body = _after_example(prompt)
        text = _between(body, "\nText:\n", "\n\nJSON:")
        return Recognised("truths", {"text": text, "limit": _truths_limit(prompt)}, "deepeval")
    if "please extract a comprehensive list of FACTUAL" in prompt and '"claims" key' in prompt:
        body = _after_example(prompt)
        # deepeval before 3.4 labels the summary "Text:", later releases "AI Output:".
        label = "\nAI Output:\n" if "\nAI Output:\n" in body else "\nText:\n"
        return Recognised("claims", {"text": _between(body, label, "\n\nJSON:")}, "deepeval")
    questions_match = re.match(
        r"Based on the given text, generate (\d+) closed-ended questions that can be answered with either a 'yes' or 'no'",
        prompt,
    )
    if questions_match:
        text = _between(prompt, "**\nText:\n", "\n\nJSON:")
        return Recognised(
            "questions", {"text": text, "n": int(questions_match.group(1))}, "deepeval"
        )
    if prompt.startswith("Based on the list of close-ended 'yes' or 'no' questions"):
        head, asked = _after_example(prompt).rsplit("\n\nQuestions:\n", 1)
        text = head.split("\nText:\n", 1)[1]
        questions = python_list(asked.rsplit("\n\nJSON:", 1)[0])
        inputs = {"text": text, "questions": list(questions), "vocabulary": ("yes", "no")}
        return Recognised("answers", inputs, "deepeval")
    if prompt.startswith("Based on the given summary claims"):
        head, listed = _after_example(prompt).rsplit("\n\nSummary Claims:\n", 1)
        original = head.split("\nOriginal Text:\n", 1)[1]
        claims = python_list(listed.rsplit("\n\nJSON:", 1)[0])
        # Older deepeval asked for 'idk' where it now asks for 'borderline'.
        unsure = "borderline" if "borderline" in prompt else "idk"
        inputs = {"claims": list(claims), "evidence": original, "vocabulary": ("yes", "no", unsure)}
        return Recognised("verdicts", inputs, "deepeval")
    if "Your task is to explain the quality of this summarization task" in prompt:
        score = float(re.search(r"Summarization Score:\n([\d.]+)", prompt).group(1))  # type: ignore[union-attr]
        contradictions = python_list(
            _between(
                prompt, "Contradicting Information in the original text:\n", "\n\nExtra Information"
            )
        )
        # deepeval's template has no newline after the redundancies list: "[...]JSON:".
        tail = prompt.split("Extra Information not mentioned in the original text:\n", 1)[1]
        marker = "Questions the original text can answer but not the summary:\n"
        questions: list[str] = []
        if marker in tail:
            tail, asked = tail.split(marker, 1)
            questions = python_list(asked.rsplit("\n\nJSON:", 1)[0])
        else:
            tail = tail.rsplit("JSON:", 1)[0]
        redundancies = python_list(tail.strip())
        inputs = {
            "score": score,
            "contradictions": contradictions,
            "redundancies": redundancies,
            "questions": questions,
        }
        return Recognised("reason", inputs, "deepeval")
    return None


def _truths_limit(prompt: str) -> int | None:
    if "the single most important FACTUAL" in prompt:
        return 1
    match = re.search(r"the (\d+) most important FACTUAL", prompt)
    return int(match.group(1)) if match else None


# ----------------------------------------------------------------------------------- mastra

# Mastra 1.x (@mastra/evals scorers/llm/summarization/prompts.ts): one call judges the summary's
# claims against the source and draws at most maxQuestions questions from it; a second answers
# the questions from the summary alone; a third explains the score (plain text).
_MASTRA_JUDGEMENT = "Complete two independent parts.\n\nPart 1 (alignment)"
_MASTRA_COVERAGE = "Decide whether each question can be answered from the summary below."
_MASTRA_REASON = "Explain the summarization score for the given summary."
_MASTRA_QUESTION = re.compile(r"^\[\d+\] (.*)$", re.MULTILINE)


def _mastra(prompt: str) -> Recognised | None:
    if prompt.startswith(_MASTRA_JUDGEMENT):
        limit = re.search(r"write at most (\d+) closed-ended questions", prompt)
        body = prompt.rsplit("\n\nSource Text:\n", 1)[1]
        source, summary = body.rsplit("\n\nSummary:\n", 1)
        summary = summary.rsplit("\n\nJSON:", 1)[0]
        n = int(limit.group(1)) if limit else 10
        inputs = {"text": source, "summary": summary, "n": n}
        return Recognised("mastra-judgement", inputs, "mastra")
    if prompt.startswith(_MASTRA_COVERAGE):
        summary = _between(prompt, "\n\nSummary:\n", "\n\nNumber of questions: ")
        listed = _between(prompt, "\n\nQuestions:\n", '\n\nSet "answered"')
        questions = _MASTRA_QUESTION.findall(listed)
        return Recognised("mastra-coverage", {"text": summary, "questions": questions}, "mastra")
    if prompt.startswith(_MASTRA_REASON):
        score = float(re.search(r"\nScore: ([-\d.e]+) out of", prompt).group(1))  # type: ignore[union-attr]
        unsupported = _mastra_list(prompt, "Claims the source does not support:\n")
        missed = _mastra_list(prompt, "Questions the summary cannot answer:\n")
        inputs = {"score": score, "unsupported": unsupported, "questions": missed}
        return Recognised("mastra-reason", inputs, "mastra")
    return None


def _mastra_list(prompt: str, heading: str) -> list[str]:
    lines = prompt.split(heading, 1)[1].split("\n")
    items: list[str] = []
    for line in lines:
        if not line.startswith("- "):
            break
        items.append(line[2:])
    return [] if items == ["none"] else items


def _mastra_answer(found: Recognised) -> dict[str, Any]:
    """Mastra's reply shapes, from the same LexicalJudge tasks the other families use."""
    inputs = found.inputs
    if found.task == "mastra-judgement":
        claims = _judge.run("claims", {"text": inputs["summary"]})["claims"]
        verdicts = _judge.run(
            "verdicts",
            {"claims": claims, "evidence": inputs["text"], "vocabulary": ("yes", "no", "unsure")},
        )["verdicts"]
        questions = _judge.run("questions", {"text": inputs["text"], "n": inputs["n"]})
        alignment = [
            {"claim": c, "supported": v["verdict"] == "yes", "reason": v.get("reason") or ""}
            for c, v in zip(claims, verdicts)
        ]
        return {"alignment": alignment, "questions": questions["questions"]}
    if found.task == "mastra-coverage":
        answers = _judge.run("answers", {**inputs, "vocabulary": ("yes", "no")})["answers"]
        coverage = [
            {"question": q, "answered": a == "yes", "reason": f"the summary answers {a!r}"}
            for q, a in zip(inputs["questions"], answers)
        ]
        return {"coverage": coverage}
    return {"reason": _judge.run("reason", inputs)["reason"]}


# ---------------------------------------------------------------------------- schema default


def schema_default(schema: dict[str, Any] | None, *, seed: str = "") -> dict[str, Any]:
    """A deterministic value matching a JSON schema (one list item, strings from ``seed``)."""
    word = "unknown-" + hashlib.sha256(seed.encode("utf-8")).hexdigest()[:8]
    if not schema:
        return {"result": word}
    defs = schema.get("$defs", {}) or schema.get("definitions", {})

    def build(node: dict[str, Any]) -> Any:
        if "$ref" in node:
            return build(defs.get(node["$ref"].rsplit("/", 1)[-1], {}))
        for key in ("anyOf", "oneOf", "allOf"):
            if key in node:
                options = [o for o in node[key] if o.get("type") != "null"] or node[key]
                return build(options[0])
        if "enum" in node:
            return node["enum"][0]
        if "const" in node:
            return node["const"]
        kind = node.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "string")
        if kind == "object" or "properties" in node:
            properties = node.get("properties", {})
            return {name: build(sub) for name, sub in properties.items()}
        if kind == "array":
            return [build(node.get("items", {"type": "string"}))]
        if kind in ("integer", "number"):
            return 0
        if kind == "boolean":
            return False
        return word

    value = build(schema)
    return value if isinstance(value, dict) else {"result": value}
