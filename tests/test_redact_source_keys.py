"""A key written in a case's source, summary or questions does not come back in a result, even
in part.

A judge may quote such a key without the prefix that makes it look like one: the offline judge's
keyphrases cut ``sk-proj-...`` at its hyphens, and an LLM may do the same. The ``sk-`` style keys
of a case's texts are masked wherever any 12-character piece of them comes back in a reply about
the case (a cached reply included), and in the report. Bearer tokens and ``password:`` values in
the texts stay prose, as they do in replies.
"""

from __future__ import annotations

import json
import traceback
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from summscore import SummarizationScorer
from summscore.errors import JudgeError
from summscore.judges import FunctionJudge, LexicalJudge
from summscore.masking.replies import case_keys, keys_in, redact_value, request_keys
from summscore.masking.secrets import WINDOW, redact

SK = "sk-proj-Ab3dEf5hIj7kLm9nOp1qRs3tUv5wXy7z"
BODY = SK[len("sk-proj-") :]
SOURCES = [
    "The deployment script printed the token {k} to the build log. The operators rotated "
    "the credential within an hour after the incident was reported.",
    "Token {k} leaked. It was rotated.",
    "{k}",
]
SUMMARY = "The deployment script leaked a token which was rotated within an hour."


def pieces(key: str) -> list[str]:
    return [key[i : i + WINDOW] for i in range(len(key) - WINDOW + 1)]


def leaked(text: str, key: str = SK) -> list[str]:
    return [p for p in pieces(key) if p in text]


def test_keys_in_finds_sk_keys_and_leaves_prose_alone() -> None:
    assert keys_in(f"a {SK} b", "c sk-ant-api03-Zq8wX2vB7nM4kL9p d") == {
        SK,
        "sk-ant-api03-Zq8wX2vB7nM4kL9p",
    }
    prose = (
        "She smiled: the secret: COVID-19 wards were opened. The bearer instruments were sold; "
        "password=hashlib.sha256(salt) in the back-end."
    )
    assert keys_in(prose) == frozenset()
    assert keys_in("", "no keys here") == frozenset()
    # Outside a case: the prompt, or the strings of the inputs of a judge that reads no prompt.
    assert request_keys(f"Summarise: {SK}", {}) == {SK}
    assert request_keys("", {"text": f"x {SK}", "n": 3, "claims": ["y", "z"]}) == {SK}


def test_a_piece_of_a_case_key_is_masked_in_the_reply() -> None:
    reply = {"keyphrases": ["Token", BODY, "rotated"]}
    assert redact_value(reply) == reply  # the body alone does not look like a key
    assert redact_value(reply, keys_in(SK)) == {"keyphrases": ["Token", "***", "rotated"]}
    same = {"keyphrases": ["Token", "rotated"]}
    assert redact_value(same, keys_in(SK)) is same
    # A reply that arrives as bytes is read as the reply parser reads it.
    assert redact_value(json.dumps(reply).encode(), keys_in(SK)) == json.dumps(
        {"keyphrases": ["Token", "***", "rotated"]}
    )
    raw = json.dumps(same).encode()
    assert redact_value(raw, keys_in(SK)) is raw


@pytest.mark.parametrize("preset", ["ragas", "deepeval", "mastra"])
def test_the_offline_judge_returns_no_piece_of_a_key_in_the_source(preset: str) -> None:
    scorer = SummarizationScorer(LexicalJudge(), preset=preset)
    for template in SOURCES:
        result = scorer.score(template.format(k=SK), SUMMARY)
        out = json.dumps(result.to_dict(), default=str) + repr(result)
        assert not leaked(out), (template, leaked(out))


@pytest.mark.parametrize("preset", ["ragas", "deepeval", "mastra"])
def test_a_key_named_only_in_the_summary_is_masked_in_replies_about_the_source(
    preset: str,
) -> None:
    """The source holds the key's body with no prefix (nothing marks it as a key there); the
    summary writes it whole. Source-side replies (keyphrases, questions, truths) are masked."""
    source = f"The credential {BODY} was found in the build log. The operators rotated it."
    summary = f"Alice found the key {SK} in the build log, and it was rotated."
    result = SummarizationScorer(LexicalJudge(), preset=preset).score(source, summary)
    out = json.dumps(result.to_dict(), default=str)
    assert not leaked(out), leaked(out)


def test_an_llm_judge_quoting_a_key_without_its_prefix_is_masked(tmp_path: Path) -> None:
    """A prompt-reading judge that lists the key body as a keyphrase: the result, and the reply
    cache on disk, hold no piece of it."""

    def judge(prompt: str, schema: Any) -> Any:
        fields = schema.model_fields
        if "keyphrases" in fields:
            return {"keyphrases": ["Token", BODY]}
        if "questions" in fields:
            return {"questions": [f"Is {BODY} the leaked token?", "Was it rotated?"]}
        if "answers" in fields:
            return {"answers": ["1", "1"]}
        raise AssertionError(f"unexpected schema {schema.__name__}")

    scorer = SummarizationScorer(FunctionJudge(judge), preset="ragas", reply_cache=tmp_path)
    result = scorer.score(f"Token {SK} leaked. It was rotated.", SUMMARY)
    assert result.error is None
    assert result.keyphrases == ["Token", "***"]
    assert not leaked(json.dumps(result.to_dict(), default=str))
    cached = "".join(p.read_text("utf-8", "replace") for p in tmp_path.rglob("*") if p.is_file())
    assert cached and not leaked(cached)


def test_a_reply_cached_unmasked_is_masked_when_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache written before a key of the case was recognised as one (an older version, or a
    reply stored outside a case) is masked again as it is read."""
    import summscore.calls.sender as sender_module

    calls: list[str] = []
    prompts: list[str] = []

    def judge(prompt: str, schema: Any) -> Any:
        calls.append(schema.__name__)
        prompts.append(prompt)
        fields = schema.model_fields
        if "keyphrases" in fields:
            return {"keyphrases": ["Token", BODY]}
        if "questions" in fields:
            return {"questions": ["Was it rotated?"]}
        return {"answers": ["1"]}

    source = f"Token {SK} leaked. It was rotated."
    # First run: replies masked as if no key were known, so the body is stored as the judge
    # sent it (under the entry the case's requests look up).
    with monkeypatch.context() as patched:
        patched.setattr(sender_module, "current_case_keys", frozenset)
        first = SummarizationScorer(FunctionJudge(judge), preset="ragas", reply_cache=tmp_path)
        assert first.score(source, SUMMARY).error is None
    stored = "".join(p.read_text("utf-8", "replace") for p in tmp_path.rglob("*") if p.is_file())
    assert BODY in stored
    asked = len(calls)
    again = SummarizationScorer(FunctionJudge(judge), preset="ragas", reply_cache=tmp_path)
    result = again.score(source, SUMMARY)
    # The keyphrases came from the cache, masked: the questions were asked about "***" (the
    # body is nowhere in what was asked but inside the source's key).
    assert "ExtractedKeyphrases" not in calls[asked:]
    assert calls[asked:] and not any(BODY in p.replace(SK, "") for p in prompts[asked:])
    assert result.keyphrases == ["Token", "***"]
    assert not leaked(json.dumps(result.to_dict(), default=str))


def test_a_report_shows_the_source_and_summary_with_their_keys_masked_and_prose_kept() -> None:
    from summscore.report import ReportCase, render_report

    source = f"Token {SK} leaked. The bearer instruments were sold; the secret: patience."
    summary = f"The token {BODY} leaked."  # the summary quotes the body only
    result = SummarizationScorer(LexicalJudge(), preset="mastra").score(source, summary)
    page = render_report([ReportCase("1", source, summary, result)])
    assert not leaked(page), leaked(page)
    assert "The bearer instruments were sold; the secret: patience." in page


def test_error_text_masks_env_style_and_quoted_key_values() -> None:
    for text, masked in [
        ("OPENAI_API_KEY=Zq8wX2vB7nM4kL9pR3tYc5", "OPENAI_API_KEY=***"),
        ("DB_PASSWORD=hunter2Hunter2", "DB_PASSWORD=***"),
        ("client_secret: 'abcd1234efgh'", "client_secret: '***'"),
        ("API key: Zq8wX2vB7nM4", "API key: ***"),
    ]:
        assert redact(text) == masked
    assert redact("the secret to success is patience") == "the secret to success is patience"


@pytest.mark.parametrize("preset", ["ragas", "deepeval", "mastra"])
def test_a_case_reusing_another_cases_source_work_gets_its_own_keys_masked(preset: str) -> None:
    """The source side of a case is worked out once per source and reused by the next case with
    that source; a key only the second case's summary names is masked in its result too."""
    source = f"The credential {BODY} was found in the build log. The operators rotated it."
    first = "The operators rotated a credential found in the build log."
    second = f"Alice found the key {SK} in the build log, and it was rotated."
    scorer = SummarizationScorer(LexicalJudge(), preset=preset)
    results = scorer.score_many([(source, first), (source, second)], progress=False)
    assert all(r.error is None for r in results)
    out = json.dumps(results[1].to_dict(), default=str)
    assert not leaked(out), leaked(out)


@settings(max_examples=200, deadline=None)
@given(
    body=st.text(alphabet="ABCdef0123456789xyzQ", min_size=12, max_size=40),
    cuts=st.lists(st.tuples(st.integers(0, 40), st.integers(12, 40)), min_size=1, max_size=4),
    noise=st.sampled_from(["", " ", "-", "_", "Token ", ", said "]),
)
def test_any_long_enough_piece_of_a_case_key_is_masked_wherever_it_lands(
    body: str, cuts: list[tuple[int, int]], noise: str
) -> None:
    key = f"sk-proj-{body}"
    keys = keys_in(f"The log held {key}.")
    assert keys == {key}
    quoted = [key[start : start + length] for start, length in cuts]
    quoted = [q for q in quoted if len(q) >= WINDOW]
    reply = {"keyphrases": [noise + q + noise for q in quoted], "n": [noise.join(quoted)]}
    out = json.dumps(redact_value(reply, keys))
    assert not leaked(out, key)


def test_error_text_about_a_case_masks_a_piece_of_the_cases_key() -> None:
    """A judge's error may quote the request: inside a case, error text is masked with the
    case's keys too; outside it, the body alone is left (it does not look like a key)."""
    message = f"400: could not read the claim about {BODY}"
    assert redact(message) == message
    with case_keys(f"Token {SK} leaked."):
        assert redact(message) == "400: could not read the claim about ***"

    def judge(prompt: str, schema: Any) -> Any:
        raise ValueError(f"the model refused: {BODY}")

    scorer = SummarizationScorer(FunctionJudge(judge), preset="deepeval")
    with pytest.raises(JudgeError) as raised:  # a refusal is no transient failure: raised
        scorer.score(f"Token {SK} leaked. It was rotated.", SUMMARY)
    shown = (
        str(raised.value) + repr(raised.value) + "".join(traceback.format_exception(raised.value))
    )
    assert "the model refused: ***" in shown
    assert not leaked(shown)
