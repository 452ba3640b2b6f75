"""Retries, timeouts and repair of unusable replies."""

from __future__ import annotations

import asyncio

import pytest

from summscore import JudgeError, JudgeOutputError, SummarizationScorer, TransientJudgeError
from summscore.calls.caller import CallLog, CallPolicy, JudgeCaller
from summscore.judges.base import JudgeReply, JudgeRequest
from summscore.prompts.base import Rendered
from summscore.prompts.replies import AnswersReply

from .fakes import ScriptedJudge, Seq, ragas_script

RENDERED = Rendered("Answer the questions. Reply with JSON.", AnswersReply)


def caller(script: dict, **policy) -> tuple[JudgeCaller, ScriptedJudge, list[float]]:
    judge = ScriptedJudge(script)
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    return JudgeCaller(judge, CallPolicy(**policy), sleep=sleep), judge, slept


async def ask(c: JudgeCaller, log: CallLog | None = None, expect_len: int | None = None) -> list:
    return await c.ask(
        log or CallLog(),
        "answers",
        RENDERED,
        AnswersReply,
        inputs={},
        field_name="answers",
        expect_len=expect_len,
    )


async def test_transient_failures_are_retried_honouring_retry_after() -> None:
    script = {
        "answers": Seq(
            [
                TransientJudgeError("429", retry_after=7.0),
                TransientJudgeError("503"),
                {"answers": ["1"]},
            ]
        )
    }
    c, judge, slept = caller(script, backoff=0.5, max_backoff=4)
    log = CallLog()
    assert await ask(c, log) == ["1"]
    assert len(judge.requests) == 3
    assert 7.0 <= slept[0] < 7.2  # the server's Retry-After wins
    assert 0 < slept[1] <= 1.0  # exponential: second attempt waits at most backoff * 2
    assert log.usage.retries == 2 and log.usage.judge_calls == 1


async def test_retry_after_is_capped() -> None:
    c, _, slept = caller(
        {"answers": Seq([TransientJudgeError("429", retry_after=3600), {"answers": ["1"]}])},
        max_retry_after=5,
    )
    await ask(c)
    assert slept[0] < 5.2


async def test_transient_failures_give_up_after_max_retries() -> None:
    c, judge, _ = caller({"answers": TransientJudgeError("500 always")}, max_retries=2)
    with pytest.raises(TransientJudgeError, match="500 always"):
        await ask(c)
    assert len(judge.requests) == 3


async def test_backoff_doubles_with_each_failed_attempt_and_every_retry_is_counted() -> None:
    failures = [TransientJudgeError(f"503 #{i}") for i in range(3)]
    c, judge, slept = caller(
        {"answers": Seq([*failures, {"answers": ["1"]}])}, backoff=1, max_backoff=60
    )
    log = CallLog()
    assert await ask(c, log) == ["1"]
    assert len(judge.requests) == 4 and log.usage.retries == 3 and log.usage.judge_calls == 1
    for attempt, seconds in enumerate(slept, start=1):  # attempt n waits within [2^(n-2), 2^(n-1)]
        assert 2 ** (attempt - 2) <= seconds <= 2 ** (attempt - 1)


async def test_no_retries_means_one_request_and_no_wait() -> None:
    c, judge, slept = caller({"answers": TransientJudgeError("503")}, max_retries=0)
    log = CallLog()
    with pytest.raises(TransientJudgeError):
        await ask(c, log)
    assert len(judge.requests) == 1 and slept == [] and log.usage.retries == 0


async def test_permanent_errors_are_not_retried() -> None:
    c, judge, _ = caller({"answers": JudgeError("401 bad key")})
    with pytest.raises(JudgeError):
        await ask(c)
    assert len(judge.requests) == 1


async def test_a_hung_judge_times_out_and_is_retried() -> None:
    class Hung:
        name = "hung"
        reads_prompts = True
        calls = 0

        async def complete(self, request):
            Hung.calls += 1
            await asyncio.sleep(10)

    async def no_sleep(_: float) -> None:
        return None

    c = JudgeCaller(Hung(), CallPolicy(timeout=0.05, max_retries=1), sleep=no_sleep)
    with pytest.raises(TransientJudgeError, match=r"did not answer within 0\.05s"):
        await ask(c)
    assert Hung.calls == 2


async def test_unparseable_reply_is_asked_again_with_the_error_fed_back() -> None:
    c, judge, _ = caller(
        {"answers": Seq(["Sorry, I can't do JSON today.", '```json\n{"answers": ["0"]}\n```'])}
    )
    assert await ask(c) == ["0"]
    second = judge.requests[1].prompt
    assert second.startswith(RENDERED.text)
    assert "could not be used: no JSON object found" in second


async def test_repair_gives_up_with_an_output_error() -> None:
    c, judge, _ = caller({"answers": "never json"}, repair_retries=2)
    with pytest.raises(JudgeOutputError, match="unusable after 3 attempts"):
        await ask(c)
    assert len(judge.requests) == 3


async def test_wrong_length_retried_then_kept_with_a_warning() -> None:
    c, judge, _ = caller({"answers": {"answers": ["1"]}})
    log = CallLog()
    assert await ask(c, log, expect_len=3) == ["1"]
    assert len(judge.requests) == 2
    assert log.warnings and "1 answers for 3 items" in log.warnings[0]


def test_policy_limits_are_validated() -> None:
    with pytest.raises(ValueError, match="max_retries"):
        CallPolicy(max_retries=-1)
    with pytest.raises(ValueError, match="timeout"):
        CallPolicy(timeout=0)
    with pytest.raises(ValueError, match="backoff"):
        CallPolicy(backoff=-1)


def test_scorer_options_set_the_limits() -> None:
    judge = ScriptedJudge(ragas_script() | {"keyphrases": TransientJudgeError("busy")})
    s = SummarizationScorer(
        llm=judge, preset="ragas", prompts="own", max_retries=1, backoff=0, max_backoff=0
    )
    with pytest.raises(TransientJudgeError):
        s.score("source", "summary")
    assert len(judge.calls("keyphrases")) == 2


def test_a_judge_error_in_score_many_becomes_that_rows_error() -> None:
    judge = ScriptedJudge(ragas_script() | {"answers": "not json"})
    s = SummarizationScorer(llm=judge, preset="ragas", prompts="own")
    [result] = s.score_many([("source", "summary")], progress=False)
    assert result.error and "JudgeOutputError" in result.error


async def test_a_cut_off_reply_is_asked_again_and_kept_with_a_warning_only_at_the_end() -> None:
    class CutOff:
        name = "cut-off"
        reads_prompts = True
        calls = 0

        async def complete(self, request: JudgeRequest) -> JudgeReply:
            CutOff.calls += 1
            return JudgeReply(output='{"answers": ["1", "0"')

    async def no_sleep(_: float) -> None:
        return None

    c = JudgeCaller(CutOff(), CallPolicy(repair_retries=1), sleep=no_sleep)
    log = CallLog()
    answers = await c.ask(
        log,
        "answers",
        Rendered("prompt", AnswersReply),
        AnswersReply,
        inputs={},
        field_name="answers",
    )
    assert answers == ["1", "0"] and CutOff.calls == 2
    assert any("cut off" in w for w in log.warnings)


@pytest.mark.parametrize(
    "limits",
    [
        {"max_retries": 2.5},
        {"max_retries": "3"},
        {"repair_retries": True},
        {"backoff": True},
        {"max_backoff": "30"},
        {"timeout": True},
        {"timeout": "120"},
    ],
)
def test_a_limit_of_the_wrong_type_is_refused_with_its_name(limits: dict) -> None:
    [name] = limits
    with pytest.raises(ValueError, match=name):
        CallPolicy(**limits)


@pytest.mark.parametrize(
    ("message", "rate_limit", "auth"),
    [
        ("HTTP 429 Too Many Requests", True, False),
        ("Rate limit reached for gpt-4o-mini", True, False),
        ("HTTP 401 Unauthorized", False, True),
        ("HTTP 403 Forbidden", False, True),
        ("HTTP 404 Not Found", False, False),
        ("HTTP 500 Internal Server Error", False, False),
    ],
)
def test_rate_limits_and_refused_keys_are_told_from_other_failures(
    message: str, rate_limit: bool, auth: bool
) -> None:
    from summscore.calls.policy import is_auth_failure, is_rate_limit

    assert is_rate_limit(TransientJudgeError(message)) is rate_limit
    assert is_auth_failure(JudgeError(message)) is auth


@pytest.mark.parametrize(
    "counts",
    [
        {"input_tokens": 120},
        {"output_tokens": 30},
        {"cost": 0.002},
        {"input_tokens": 120, "output_tokens": 30, "cost": 0.002},
    ],
)
def test_a_reply_adds_every_count_its_judge_reported(counts: dict) -> None:
    from summscore.calls.policy import reply_usage

    usage = reply_usage(JudgeReply(output="{}", **counts))
    assert usage.judge_calls == 1
    assert {name: getattr(usage, name) for name in counts} == counts


async def test_a_later_retry_after_is_honoured_too() -> None:
    script = {
        "answers": Seq(
            [
                TransientJudgeError("503"),
                TransientJudgeError("429", retry_after=7.0),
                {"answers": ["1"]},
            ]
        )
    }
    c, judge, slept = caller(script, backoff=0.5, max_backoff=4)
    assert await ask(c) == ["1"] and len(judge.requests) == 3
    assert 0 < slept[0] <= 0.5 and 7.0 <= slept[1] < 7.2


@pytest.mark.parametrize("hint", [0, 0.5])
async def test_a_retry_after_under_a_second_is_waited_as_given_not_backed_off(hint: float) -> None:
    c, _, slept = caller(
        {"answers": Seq([TransientJudgeError("429", retry_after=hint), {"answers": ["1"]}])},
        backoff=8,
        max_backoff=8,
    )
    assert await ask(c) == ["1"]
    assert hint <= slept[0] < hint + 0.2


async def test_a_permanent_error_on_a_retry_ends_the_retries() -> None:
    c, judge, _ = caller(
        {"answers": Seq([TransientJudgeError("503"), JudgeError("HTTP 400 bad request")])},
        max_retries=4,
    )
    with pytest.raises(JudgeError, match="HTTP 400"):
        await ask(c)
    assert len(judge.requests) == 2


async def test_a_refused_key_stops_the_judge_being_asked_after_three_refusals_in_a_row() -> None:
    c, judge, _ = caller({"answers": JudgeError("HTTP 401 Unauthorized: bad key")})
    for _ in range(5):
        with pytest.raises(JudgeError, match="HTTP 401") as caught:
            await ask(c)
    assert len(judge.requests) == 3  # the 4th and 5th fail at once, unasked
    assert "refused 3 requests in a row; summscore stopped asking it" in str(caught.value)


async def test_an_answer_between_refusals_starts_the_count_again() -> None:
    refused = JudgeError("HTTP 401 Unauthorized")
    answer = {"answers": ["1"]}
    c, judge, _ = caller({"answers": Seq([refused, refused, answer, refused, refused, refused])})
    outcomes = []
    for _ in range(7):
        try:
            outcomes.append(await ask(c))
        except JudgeError as exc:
            outcomes.append(str(exc))
    assert outcomes[2] == ["1"] and all("HTTP 401" in str(o) for o in outcomes[3:])
    assert len(judge.requests) == 6 and "refused 3 requests in a row" in outcomes[6]


async def test_other_errors_do_not_count_as_refusals() -> None:
    c, judge, _ = caller({"answers": JudgeError("HTTP 400 bad request")})
    for _ in range(4):
        with pytest.raises(JudgeError, match="HTTP 400"):
            await ask(c)
    assert len(judge.requests) == 4


async def test_no_backoff_means_no_wait_and_the_scorers_total_counts_every_retry() -> None:
    failures = [TransientJudgeError(f"503 #{i}") for i in range(3)]
    c, _, slept = caller({"answers": Seq([*failures, {"answers": ["1"]}])}, backoff=0)
    log = CallLog()
    assert await ask(c, log) == ["1"]
    assert slept == [0.0, 0.0, 0.0]
    assert log.usage.retries == 3 and c.total.retries == 3


@pytest.mark.parametrize("where", ["prompt", "inputs"])
def test_a_reply_outside_a_case_is_masked_with_the_keys_its_request_holds(where: str) -> None:
    """A request made outside a case (no case keys known): a piece of an ``sk-`` key its prompt
    (or, for a judge that reads no prompt, its inputs) holds is masked in the reply, even
    quoted without the prefix that makes it look like a key."""
    from summscore.calls.sender import JudgeSender

    key = "sk-proj-" + "Q7vLm2XcR9tB4nWk8ZpD3sHy"
    text = f"The config sets api={key} for the run."
    request = JudgeRequest(
        task="keyphrases",
        prompt=text if where == "prompt" else "",
        schema=AnswersReply,
        inputs={"text": text} if where == "inputs" else {},
    )
    piece = key[len("sk-proj-") :]  # the judge quoted the key without its prefix
    masked = JudgeSender.masked(JudgeReply(output={"keyphrases": [piece, "run"]}), request)
    assert piece not in str(masked.output) and "run" in str(masked.output)
    clean = JudgeReply(output={"keyphrases": ["run"]})
    assert JudgeSender.masked(clean, request) is clean
