"""A key written in the source or summary does not come back in a result, even in part.

A judge may quote such a key without the prefix that makes it look like one: the offline judge's
keyphrases cut ``sk-proj-...`` at its hyphens, and an LLM may do the same. Keys found in the
request are masked wherever any 12-character piece of them comes back in the reply.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from summscore import SummarizationScorer
from summscore._redact import WINDOW
from summscore._redact_replies import keys_in, redact_value
from summscore.judges import FunctionJudge, LexicalJudge

SK = "sk-proj-Ab3dEf5hIj7kLm9nOp1qRs3tUv5wXy7z"
BEARER = "Zq8wX2vB7nM4kL9pR3tYc5"
PASSWORD = "hunter2Hunter2wx"
KEYS = {"sk": SK, "bearer": BEARER, "password": PASSWORD}
SOURCES = [
    "The deployment script printed the token {k} to the build log. The operators rotated "
    "the credential within an hour after the incident was reported.",
    "Token {k} leaked. It was rotated.",
    "{k}",
]
FORMS = {"sk": "{}", "bearer": "Bearer {}", "password": "password: {}"}
SUMMARY = "The deployment script leaked a token which was rotated within an hour."


def pieces(key: str) -> list[str]:
    return [key[i : i + WINDOW] for i in range(len(key) - WINDOW + 1)]


def leaked(text: str, key: str) -> list[str]:
    return [p for p in pieces(key) if p in text]


def test_keys_in_finds_keys_of_each_style_and_not_prose() -> None:
    text = f"a {SK} b Bearer {BEARER} c password: {PASSWORD} d"
    assert keys_in(text) == {SK, BEARER, PASSWORD}
    # Looked for in the strings of a request's inputs when the judge reads no prompt.
    assert keys_in({"text": text, "n": 3, "claims": ["x", f"api_key={PASSWORD}"]}) == {
        SK,
        BEARER,
        PASSWORD,
    }
    # Prose: bearer bonds, a password that is a word, a hyphenated word ending in k.
    prose = "The bearer instruments were sold; the password: swordfish was a back-end default."
    assert keys_in(prose) == frozenset()
    assert keys_in("") == frozenset()


def test_a_piece_of_an_asked_key_is_masked_in_the_reply() -> None:
    body = SK[len("sk-proj-") :]
    reply = {"keyphrases": ["Token", body, "rotated"]}
    assert redact_value(reply) == reply  # the body alone does not look like a key
    masked = redact_value(reply, keys_in(f"Token {SK} leaked."))
    assert masked == {"keyphrases": ["Token", "***", "rotated"]}
    same = {"keyphrases": ["Token", "rotated"]}
    assert redact_value(same, keys_in(f"Token {SK} leaked.")) is same


@pytest.mark.parametrize("preset", ["ragas", "deepeval", "mastra"])
@pytest.mark.parametrize("style", sorted(KEYS))
def test_the_offline_judge_returns_no_piece_of_a_key_in_the_source(preset: str, style: str) -> None:
    key = KEYS[style]
    scorer = SummarizationScorer(LexicalJudge(), preset=preset)
    for template in SOURCES:
        source = template.format(k=FORMS[style].format(key))
        result = scorer.score(source, SUMMARY)
        out = json.dumps(result.to_dict(), default=str) + repr(result)
        assert not leaked(out, key), (template, leaked(out, key))


def test_an_llm_judge_quoting_a_key_without_its_prefix_is_masked(tmp_path: Path) -> None:
    """A prompt-reading judge that lists the key body as a keyphrase: the result, and the reply
    cache on disk, hold no piece of it."""
    body = SK[len("sk-proj-") :]

    def judge(prompt: str, schema: Any) -> Any:
        fields = schema.model_fields
        if "keyphrases" in fields:
            return {"keyphrases": ["Token", body]}
        if "questions" in fields:
            return {"questions": [f"Is {body} the leaked token?", "Was it rotated?"]}
        if "answers" in fields:
            return {"answers": ["1", "1"]}
        raise AssertionError(f"unexpected schema {schema.__name__}")

    scorer = SummarizationScorer(FunctionJudge(judge), preset="ragas", reply_cache=tmp_path)
    result = scorer.score(f"Token {SK} leaked. It was rotated.", SUMMARY)
    assert result.error is None
    assert result.keyphrases == ["Token", "***"]
    out = json.dumps(result.to_dict(), default=str)
    assert not leaked(out, SK)
    cached = "".join(p.read_text("utf-8", "replace") for p in tmp_path.rglob("*") if p.is_file())
    assert cached and not leaked(cached, SK)


def test_a_report_shows_the_source_and_summary_with_their_keys_masked_and_prose_kept() -> None:
    from summscore.report import ReportCase, render_report

    source = (
        f"Token {SK} leaked with Bearer {BEARER} and password: {PASSWORD}. The bearer instruments "
        "were sold; the secret: patience."
    )
    summary = f"The token {SK} leaked, with the password {PASSWORD}."
    result = SummarizationScorer(LexicalJudge(), preset="mastra").score(source, summary)
    page = render_report([ReportCase("1", source, summary, result)])
    for key in KEYS.values():
        assert not leaked(page, key), leaked(page, key)
    assert "password: ***." in page  # the sentence's own period is kept
    assert "The bearer instruments were sold; the secret: patience." in page
