"""A judge answer lost on the way costs a re-ask after a few times the usual latency, never the
full timeout, even for the first requests of a run (sent before any latency was known)."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest

from summscore import SummarizationScorer, TransientJudgeError
from summscore.judges.base import JudgeReply, JudgeRequest

from .fakes import ScriptedJudge, ragas_script

# Longest the run may take before the test calls it stalled; the lost answer alone would hold
# it for the policy's timeout (an hour here).
_WATCHDOG = 60.0


def _caller_whose_first_request_hangs(timeout: float | None) -> Any:
    """A coroutine function asking one question of a judge caller whose judge never answers the
    first request (and answers the others in 1 ms)."""
    from summscore.calls.caller import CallLog, CallPolicy, JudgeCaller
    from summscore.prompts.base import Rendered
    from summscore.prompts.replies import AnswersReply

    sent = 0

    class HangsOnTheFirst:
        name = "hangs-on-the-first"
        reads_prompts = True

        async def complete(self, request: JudgeRequest) -> JudgeReply:
            nonlocal sent
            sent += 1
            await asyncio.sleep(3600 if sent == 1 else 0.001)
            return JudgeReply(output={"answers": ["1"]})

    caller = JudgeCaller(HangsOnTheFirst(), CallPolicy(timeout=timeout, max_retries=0))

    async def ask() -> Any:
        rendered = Rendered("Answer.", AnswersReply)
        return await caller.ask(
            CallLog(), "answers", rendered, AnswersReply, inputs={}, field_name="answers"
        )

    return ask


async def test_a_lost_first_answer_is_asked_again_once_later_answers_show_the_latency(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import summscore.calls.sender as sender

    monkeypatch.setattr(sender, "_STALL_FLOOR", 0.2)
    sent = 0

    class LosesTheFirst(ScriptedJudge):
        async def complete(self, request: JudgeRequest) -> JudgeReply:
            nonlocal sent
            sent += 1
            if sent == 1:  # the run's very first request never comes back
                await asyncio.sleep(3600)
            await asyncio.sleep(0.001)
            return await super().complete(request)

    s = SummarizationScorer(
        llm=LosesTheFirst(ragas_script()), preset="ragas", prompts="own", timeout=3600
    )
    results = await asyncio.wait_for(
        s.ascore_many([(f"source {i}", "summary") for i in range(20)], progress=False), _WATCHDOG
    )
    assert all(r.ok for r in results)
    assert s.usage.retries == 1


@pytest.mark.skipif(sys.version_info < (3, 11), reason="asyncio.timeout is Python 3.11's")
async def test_a_deadline_is_only_ever_brought_forward_and_a_finished_request_is_left_alone() -> (
    None
):
    from summscore.calls.sender import _shorten

    loop = asyncio.get_running_loop()
    async with asyncio.timeout(None) as unlimited:  # no timeout (timeout=None): given one
        _shorten(unlimited, loop.time() + 30)
        assert unlimited.when() == pytest.approx(loop.time() + 30, abs=1)
    async with asyncio.timeout(5) as near:  # an earlier deadline is kept
        before = near.when()
        _shorten(near, loop.time() + 30)
        assert near.when() == before
    _shorten(near, loop.time() + 1)  # answered meanwhile: nothing to shorten, and no error


@pytest.mark.parametrize("timeout", [3600.0, None])
async def test_the_first_requests_deadline_is_shortened_as_soon_as_twenty_answers_are_known(
    monkeypatch: pytest.MonkeyPatch, timeout: float | None
) -> None:
    import summscore.calls.sender as sender

    monkeypatch.setattr(sender, "_STALL_FLOOR", 0.05)
    assert sender._STALL_SAMPLES == 20
    ask = _caller_whose_first_request_hangs(timeout)

    lost = asyncio.ensure_future(ask())
    await asyncio.sleep(0.06)  # past the shortened deadline, once there is one
    for _ in range(20):
        assert await ask() == ["1"]
    # The 20th answer gave the latency: the lost request times out now, not in an hour.
    with pytest.raises(TransientJudgeError, match="did not answer within"):
        await asyncio.wait_for(lost, 5)


@pytest.mark.parametrize(("timeout", "expected"), [(2.0, 2.0), (60.0, 10.0), (None, 10.0)])
async def test_once_answers_are_known_a_request_waits_the_shorter_of_the_timeout_and_the_stall_limit(
    timeout: float | None, expected: float
) -> None:
    import summscore.calls.sender as sender
    from summscore.calls.caller import CallLog, CallPolicy, JudgeCaller
    from summscore.prompts.base import Rendered
    from summscore.prompts.replies import AnswersReply

    judge = ScriptedJudge({"answers": {"answers": ["1"]}})
    caller = JudgeCaller(judge, CallPolicy(timeout=timeout))
    assert caller.attempt_timeout() == timeout  # no answer known yet: the policy's own
    for _ in range(sender._STALL_SAMPLES):
        await caller.ask(
            CallLog(),
            "answers",
            Rendered("Answer.", AnswersReply),
            AnswersReply,
            inputs={},
            field_name="answers",
        )
    # Fast answers: the stall limit is its floor (10 s); a shorter timeout of the user's wins.
    assert caller.attempt_timeout() == expected


def test_a_first_request_stranded_on_a_closed_loop_does_not_break_the_answers_of_another_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One scorer used from two event loops: the first loop is closed while its first request is
    # still waiting (a notebook's loop torn down, a thread's loop abandoned). When the other
    # loop's answers make the latency known, the stranded request's deadline cannot be brought
    # forward on its closed loop; that must not fail the request that just got its answer.
    import summscore.calls.sender as sender

    monkeypatch.setattr(sender, "_STALL_FLOOR", 0.05)
    ask = _caller_whose_first_request_hangs(3600)

    first = asyncio.new_event_loop()
    stranded = first.create_task(ask())
    first.run_until_complete(asyncio.sleep(0.02))  # the request is sent and waiting
    assert not stranded.done()  # sent, and waiting
    first.close()  # closed with the request still pending, as an abandoned loop is

    async def twenty() -> list[list]:
        return [await ask() for _ in range(sender._STALL_SAMPLES)]

    assert asyncio.run(twenty()) == [["1"]] * sender._STALL_SAMPLES
