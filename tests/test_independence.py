"""A score depends only on its own case: never on the other rows, their order, the batch or the
caches they filled (issue #44, "Independence").

Examples first (each failed before the fix: source-side work done once per source was masked with
the keys of the first case that did it), then properties: random rows drawn from the development
data, the parity corpus and generated text (shared sources, duplicates, key-like strings) scored
alone and among random siblings in random orders, with the offline judge under the three presets
and with a scripted LLM judge (compat/judge_server.py) that quotes the texts back, so that the
masking of keys matters. The CLI and the service are in test_independence_paths.py, Ray in
test_independence_ray.py.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest
from compat.judge_server import JudgeServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from summscore import SummarizationScorer
from summscore.judges import FunctionJudge, LexicalJudge
from summscore.masking.secrets import WINDOW
from tests.independence_rows import (
    ISSUE_SIBLING,
    ISSUE_SOURCE,
    ISSUE_SUMMARY,
    Row,
    batches,
    differences,
    row_evidence,
)

PRESETS = ("ragas", "deepeval", "mastra")
BODY = "QX7F9K2LM4PB8RT6WZ3HD5NA"
KEY = f"sk-proj-{BODY}"
# A longer source whose code is what most of it is about (the issue's second example).
LONGER_SOURCE = (
    f"The password was {BODY}. The code {BODY} opened the billing system of Omnimart for 36 "
    f"hours. Engineers replaced {BODY} on Friday."
)
LONGER_SUMMARY = f"Engineers replaced {BODY} on Friday."
SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large]


def pieces(key: str) -> list[str]:
    return [key[i : i + WINDOW] for i in range(len(key) - WINDOW + 1)]


def leaked(text: str, key: str = KEY) -> list[str]:
    return [p for p in pieces(key) if p in text]


def lexical(preset: str, **options: Any) -> SummarizationScorer:
    return SummarizationScorer(LexicalJudge(), preset=preset, **options)


# ---------------------------------------------------------------------------------- examples


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    ("source", "summary"),
    [(ISSUE_SOURCE, ISSUE_SUMMARY), (LONGER_SOURCE, LONGER_SUMMARY)],
    ids=["issue", "longer"],
)
def test_a_sibling_quoting_the_sources_code_as_a_key_changes_nothing(
    preset: str, source: str, summary: str
) -> None:
    """Before: deepeval 0.500 alone, 0.438 after the sibling; on the longer source mastra 0.67 ->
    0.33, ragas 0.686 -> 0.519 (the sibling's key blanked the code in the shared truths and
    questions)."""
    alone = lexical(preset).score(source, summary)
    after = lexical(preset).score_many(
        [(source, ISSUE_SIBLING), (source, summary)], max_concurrency=1, progress=False
    )
    assert row_evidence(after[1]) == row_evidence(alone)
    shown = json.dumps(after[1].to_dict(), default=str)
    assert BODY in shown and "***" not in shown  # its own source's text, not blanked
    # The sibling still gets its own key masked in its result, whole and in part.
    sibling = json.dumps(after[0].to_dict(), default=str)
    assert not leaked(sibling), leaked(sibling)


def test_the_issue_example_scores_as_it_did_alone_after_the_sibling() -> None:
    assert lexical("deepeval").score(ISSUE_SOURCE, ISSUE_SUMMARY).score == pytest.approx(0.5)
    scorer = lexical("deepeval")
    scorer.score(ISSUE_SOURCE, ISSUE_SIBLING)  # before: 0.438 after this one
    assert scorer.score(ISSUE_SOURCE, ISSUE_SUMMARY).score == pytest.approx(0.5)


@pytest.mark.parametrize("preset", ["deepeval", "mastra"])  # (the rules that ask for claims)
def test_a_summary_judged_under_a_keyed_source_leaves_no_masked_reply_for_another_source(
    preset: str, tmp_path: Path
) -> None:
    """The reply cache is keyed by the keys a reply was masked with: a summary's claims masked
    with the key its first source held (in a case with that source) are not read back by the
    same summary scored against another source."""
    keyed = f"Token {KEY} leaked. It was rotated."
    plain = f"The token {BODY} leaked. Nobody noticed for a week."
    summary = f"The token {BODY} leaked."
    alone = lexical(preset).score(plain, summary)
    lexical(preset, reply_cache=tmp_path).score(keyed, summary)
    again = lexical(preset, reply_cache=tmp_path).score(plain, summary)
    assert row_evidence(again) == row_evidence(alone)
    stored = "".join(p.read_text("utf-8", "replace") for p in tmp_path.rglob("*") if p.is_file())
    assert stored and KEY not in stored


def _refusing_judge(prompt: str, schema: Any) -> Any:
    """A judge that fails on the source's first request, quoting the text it was asked about."""
    quoted = prompt[prompt.find("The code") :][:60]
    raise ValueError(f"the model refused to read: {quoted}")


@pytest.mark.parametrize("preset", PRESETS)
def test_a_failure_shared_by_the_cases_of_a_source_is_masked_for_each_case_alone(
    preset: str,
) -> None:
    """Both cases wait on one failing source-side request: the error each reports is the one it
    reports alone, with its own keys masked (before, the row that started the work masked its
    keys in the other's error)."""
    source = LONGER_SOURCE
    first = SummarizationScorer(FunctionJudge(_refusing_judge), preset=preset, max_retries=0)
    alone = first.score_many([(source, LONGER_SUMMARY)], progress=False)[0]
    assert alone.error and BODY in alone.error
    together = SummarizationScorer(
        FunctionJudge(_refusing_judge), preset=preset, max_retries=0
    ).score_many([(source, ISSUE_SIBLING), (source, LONGER_SUMMARY)], progress=False)
    assert together[1].error == alone.error
    assert together[0].error and not leaked(together[0].error)
    with pytest.raises(Exception) as raised:
        SummarizationScorer(FunctionJudge(_refusing_judge), preset=preset).score(
            source, ISSUE_SIBLING
        )
    assert not leaked(str(raised.value)) and raised.value.__cause__ is None


def _slow_refusal_of_the_sources_answers(prompt: str, schema: Any) -> Any:
    """A deepeval-rule judge whose answers about the source fail (slowly: every case of the
    source is waiting on them by then), quoting the question it was asked."""
    fields = schema.model_fields
    if "truths" in fields:
        return {"truths": ["The code opened the billing system of Omnimart for 36 hours."]}
    if "claims" in fields:
        return {"claims": ["Engineers replaced the code on Friday."]}
    if "questions" in fields:
        return {"questions": [f"Was the code {BODY} replaced on Friday?"]}
    if "verdicts" in fields:
        return {"verdicts": [{"verdict": "yes", "reason": None}]}
    if "answers" in fields:
        if "Omnimart" in prompt:  # the source's answers (no summary names Omnimart)
            time.sleep(0.3)
            raise ValueError(f"the model refused: {prompt[prompt.find('Was the code') :][:50]}")
        return {"answers": ["yes"]}
    return {"reason": "The score is what it is."}


def test_the_sources_answers_asked_once_for_all_its_summaries_are_masked_for_each_alone() -> None:
    """The deepeval rule asks the source's answers once, for the first summary that needs them,
    and every summary of the source uses them: their failure is reported by each case as it is
    alone (before, the case that asked first masked its keys in the others' error)."""
    judge = _slow_refusal_of_the_sources_answers
    alone = SummarizationScorer(FunctionJudge(judge), preset="deepeval", max_retries=0)
    expected = alone.score_many([(LONGER_SOURCE, LONGER_SUMMARY)], progress=False)[0]
    assert expected.error and BODY in expected.error
    together = SummarizationScorer(
        FunctionJudge(judge), preset="deepeval", max_retries=0
    ).score_many([(LONGER_SOURCE, ISSUE_SIBLING), (LONGER_SOURCE, LONGER_SUMMARY)], progress=False)
    assert together[1].error == expected.error
    assert together[0].error and not leaked(together[0].error)


def test_a_log_record_made_while_a_case_does_the_shared_work_masks_that_cases_keys(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Shared work is masked with its source's keys; its log records keep the keys of the case
    doing it masked too (a log is no result: masking more there changes no score)."""
    logger = logging.getLogger("summscore.test_independence")

    def judge(prompt: str, schema: Any) -> Any:
        logger.warning("asked: %s", prompt[:4000])
        fields = schema.model_fields
        if "keyphrases" in fields:
            return {"keyphrases": ["code"]}
        if "questions" in fields:
            return {"questions": [f"Was the code {BODY} replaced?"]}
        return {"answers": ["1"]}

    with caplog.at_level(logging.WARNING, logger="summscore.test_independence"):
        result = SummarizationScorer(FunctionJudge(judge), preset="ragas").score(
            LONGER_SOURCE, ISSUE_SIBLING
        )
    assert result.error is None and result.questions
    assert caplog.records and not leaked(caplog.text)


# ---------------------------------------------------------------------------------- properties

_alone: dict[tuple[str, Row], str] = {}


def alone(preset: str, row: Row) -> str:
    """The row's evidence scored by a scorer of its own (computed once per preset and row)."""
    key = (preset, row)
    if key not in _alone:
        _alone[key] = row_evidence(lexical(preset).score(row.source, row.summary, row.questions))
    return _alone[key]


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=10, deadline=None, suppress_health_check=SLOW)
@given(batch=batches(), sibling_batch=batches(), data=st.data())
def test_a_row_scores_the_same_alone_and_among_any_siblings_in_any_order(
    preset: str, batch: list[Row], sibling_batch: list[Row], data: st.DataObject
) -> None:
    expected = [alone(preset, row) for row in batch]
    limit = data.draw(st.sampled_from([1, 3, 8]), label="max_concurrency")
    # score_many on a fresh scorer, the rows in the drawn order.
    fresh = lexical(preset).score_many([r.as_case() for r in batch], max_concurrency=limit)
    assert not differences(expected, map(row_evidence, fresh))
    # A scorer whose caches other rows filled first: score_many in another order, then score()
    # row by row in reverse.
    shared = lexical(preset)
    shared.score_many([r.as_case() for r in sibling_batch + batch[::2]], progress=False)
    order = data.draw(st.permutations(range(len(batch))), label="order")
    shuffled = shared.score_many([batch[i].as_case() for i in order], max_concurrency=limit)
    got = dict(zip(order, map(row_evidence, shuffled)))
    assert not differences(expected, [got[i] for i in range(len(batch))])
    one_by_one = [shared.score(r.source, r.summary, r.questions) for r in reversed(batch)]
    assert not differences(expected, [row_evidence(r) for r in reversed(one_by_one)])


@settings(max_examples=6, deadline=None, suppress_health_check=SLOW)
@given(batch=batches(), data=st.data())
def test_presets_sharing_one_judge_and_caches_score_as_each_alone(
    batch: list[Row], data: st.DataObject
) -> None:
    """``with_preset`` variants share the judge, the reply cache and the source cache: rows
    scored under the three rules in turn, interleaved, score as each rule alone."""
    base = lexical("deepeval")
    scorers = {name: base.with_preset(name) for name in PRESETS}
    plan = data.draw(
        st.permutations([(name, i) for name in PRESETS for i in range(len(batch))]), label="plan"
    )
    for name, i in plan:
        row = batch[i]
        got = row_evidence(scorers[name].score(row.source, row.summary, row.questions))
        assert got == alone(name, row), (name, row)


# -------------------------------------------------------------------- a scripted LLM judge


@pytest.fixture(scope="module")
def judge_server() -> Iterator[JudgeServer]:
    with JudgeServer() as server:
        yield server


def llm(server: JudgeServer, preset: str, **options: Any) -> SummarizationScorer:
    client = openai.AsyncOpenAI(base_url=server.url, api_key="sk-no-key-required", max_retries=0)
    return SummarizationScorer(client, model="compat-judge", preset=preset, **options)


_llm_alone: dict[tuple[str, Row], str] = {}


@pytest.mark.parametrize("preset", PRESETS)
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[*SLOW, HealthCheck.function_scoped_fixture],
)
@given(batch=batches(max_size=3), data=st.data())
def test_an_llm_judge_quoting_the_texts_scores_a_row_the_same_alone_and_in_any_batch(
    judge_server: JudgeServer,
    preset: str,
    batch: list[Row],
    data: st.DataObject,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The compat judge server answers from the texts of each prompt (truths, questions and
    claims quote them), so a key-like string a row holds comes back in the replies: the path
    where a case's keys are masked."""
    expected = []
    for row in batch:
        key = (preset, row)
        if key not in _llm_alone:
            result = llm(judge_server, preset).score(row.source, row.summary, row.questions)
            _llm_alone[key] = row_evidence(result)
        expected.append(_llm_alone[key])
    cache = tmp_path_factory.mktemp("replies")
    order = data.draw(st.permutations(range(len(batch))), label="order")
    for _ in range(2):  # the second run reads every reply from the cache the first one wrote
        results = llm(judge_server, preset, reply_cache=cache).score_many(
            [batch[i].as_case() for i in order], progress=False
        )
        got = dict(zip(order, map(row_evidence, results)))
        assert not differences(expected, [got[i] for i in range(len(batch))])


# ---------------------------------------------------------------- the offline judge's memos


def _clear_lexical_memos() -> None:
    """Forget every process-wide memo of the offline judge (its lru_caches, word memos and
    analysed texts), as in a new process."""
    from summscore.judges.lexical import _doc

    for name, module in list(sys.modules.items()):
        if not name.startswith("summscore.judges.lexical"):
            continue
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and not isinstance(value, type):
                clear()  # (the analysed texts too: _doc._cache has cache_clear)
    assert not _doc._cache._items


def _requests(row: Row) -> list[tuple[str, dict[str, Any]]]:
    judge = LexicalJudge()
    claims = judge.run("claims", {"text": row.summary})["claims"] or [row.summary]
    questions = list(
        row.questions or judge.run("questions", {"text": row.source, "n": 5})["questions"]
    )
    return [
        ("keyphrases", {"text": row.source}),
        ("truths", {"text": row.source, "limit": None}),
        ("answers", {"text": row.summary, "questions": questions, "vocabulary": ("yes", "no")}),
        ("answers", {"text": row.source, "questions": questions, "vocabulary": ("yes", "no")}),
        (
            "verdicts",
            {"claims": claims, "evidence": row.source, "vocabulary": ("yes", "no", "unsure")},
        ),
    ]


@settings(max_examples=6, deadline=None, suppress_health_check=SLOW)
@given(batch=batches(min_size=2, max_size=4), seed=st.integers(0, 2**16))
def test_the_offline_judge_answers_a_request_the_same_whatever_it_answered_before(
    batch: list[Row], seed: int
) -> None:
    """Its memos (analysed texts, words, spans) are process-wide: a request answered after any
    others gets the answer it gets in a new process."""
    requests = [r for row in batch for r in _requests(row)]
    random.Random(seed).shuffle(requests)
    judge = LexicalJudge()
    cold = []
    for task, inputs in requests:
        _clear_lexical_memos()
        cold.append(judge.run(task, inputs))
    _clear_lexical_memos()
    warm = [judge.run(task, inputs) for task, inputs in requests]
    assert warm == cold


def test_an_async_batch_in_a_running_loop_scores_as_alone() -> None:
    """``ascore_many`` in the caller's own loop shares nothing with ``score()``'s loop but the
    caches: the rows still score as alone."""
    rows = [Row(ISSUE_SOURCE, ISSUE_SIBLING), Row(ISSUE_SOURCE, ISSUE_SUMMARY)]
    scorer = lexical("deepeval")

    async def both() -> list[Any]:
        return list(await scorer.ascore_many([r.as_case() for r in rows], progress=False))

    results = asyncio.run(both())
    assert [row_evidence(r) for r in results] == [alone("deepeval", r) for r in rows]
