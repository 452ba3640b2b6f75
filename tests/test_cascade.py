"""CascadeJudge: the offline judge answers what it is sure of, the LLM judge the rest."""

from __future__ import annotations

import json
from pathlib import Path

import openai
import pytest
from compat.corpus import case
from compat.judge_server import JudgeServer

from summscore import SummarizationScorer
from summscore.cli import main
from summscore.judges import CascadeJudge, JudgeReply, JudgeRequest, resolve_judge


class CountingJudge:
    """The compat server's judge, counting the requests per task."""

    reads_prompts = True

    def __init__(self, server: JudgeServer) -> None:
        client = openai.AsyncOpenAI(base_url=server.url, api_key="not-needed")
        self.inner = resolve_judge(client, "gpt-4o-mini")
        self.name = self.inner.name
        self.tasks: list[str] = []

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        self.tasks.append(request.task)
        return await self.inner.complete(request)


CASES = ("news-rates", "news-tesla-misattributed", "vaccine-faithful")


def _score(judge: object, name: str) -> object:
    c = case(name)
    return SummarizationScorer(llm=judge, preset="deepeval").score(c.source, c.summary)


def test_above_full_confidence_every_request_goes_to_the_llm(judge_server: JudgeServer) -> None:
    for name in CASES:
        alone = _score(CountingJudge(judge_server), name)
        llm = CountingJudge(judge_server)
        cascade = CascadeJudge(llm, threshold=1.01)
        through = _score(cascade, name)
        assert through.score == alone.score  # type: ignore[attr-defined]
        assert cascade.offline_answers == 0 and cascade.llm_answers > 0
        assert {d.judge for d in cascade.decisions} == {"llm"}


def test_sure_offline_verdicts_save_llm_calls_and_say_who_answered(
    judge_server: JudgeServer,
) -> None:
    llm = CountingJudge(judge_server)
    cascade = CascadeJudge(llm, threshold=0.0)
    result = _score(cascade, "news-rates")
    assert result.ok  # type: ignore[attr-defined]
    # Extraction still goes to the LLM; no judging request does.
    assert "claims" in llm.tasks and "truths" in llm.tasks
    assert "verdicts" not in llm.tasks and "answers" not in llm.tasks
    assert cascade.llm_answers == 0 and cascade.offline_answers >= 2
    assert cascade.saved_share == 1.0
    assert all(
        (c.reason or "").startswith("offline judge")
        for c in result.claims  # type: ignore[attr-defined]
    )
    assert all(d.judge == "offline" and d.unsure == 0 for d in cascade.decisions)


def test_an_unsure_item_sends_its_whole_request_to_the_llm(judge_server: JudgeServer) -> None:
    llm = CountingJudge(judge_server)
    cascade = CascadeJudge(llm, threshold=0.8)
    _score(cascade, "news-tesla-misattributed")
    for decision in cascade.decisions:
        assert (decision.judge == "llm") == (decision.unsure > 0)
        assert decision.unsure == sum(1 for c in decision.confidences if c < 0.8)
    assert llm.tasks.count("verdicts") + llm.tasks.count("answers") == cascade.llm_answers


def test_the_name_says_cascade_and_threshold_and_a_negative_threshold_is_refused(
    judge_server: JudgeServer,
) -> None:
    llm = CountingJudge(judge_server)
    assert CascadeJudge(llm, threshold=0.5).name == f"cascade({llm.name}, threshold=0.5)"
    with pytest.raises(ValueError, match="threshold"):
        CascadeJudge(llm, threshold=-1)


def test_the_cli_scores_with_the_cascade_judge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], judge_server: JudgeServer
) -> None:
    news = Path(__file__).resolve().parent.parent / "examples" / "news.jsonl"
    out = tmp_path / "out.jsonl"
    args = ["score", str(news), "--judge", "cascade", "--model", "gpt-4o-mini"]
    args += ["--base-url", judge_server.url, "--cascade-threshold", "0.5", "--preset", "deepeval"]
    code = main([*args, "--out", str(out), "--no-progress"])
    assert code == 0, capsys.readouterr().err
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == len(news.read_text(encoding="utf-8").splitlines())
    assert all(not row.get("error") for row in rows)


# ------------------------------------------------------- judge="cascade" on SummarizationScorer


def _client(server: JudgeServer) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=server.url, api_key="not-needed")


def test_judge_cascade_on_the_scorer_asks_the_llm_less_and_marks_offline_verdicts(
    judge_server: JudgeServer,
) -> None:
    c = case("news-rates")
    alone = SummarizationScorer(_client(judge_server), model="gpt-4o-mini", preset="deepeval")
    before = judge_server.stats.requests
    alone_result = alone.score(c.source, c.summary)
    alone_calls = judge_server.stats.requests - before

    scorer = SummarizationScorer(
        _client(judge_server),
        model="gpt-4o-mini",
        preset="deepeval",
        judge="cascade",
        cascade_threshold=0.0,
    )
    before = judge_server.stats.requests
    result = scorer.score(c.source, c.summary)
    cascade_calls = judge_server.stats.requests - before

    assert isinstance(scorer.judge, CascadeJudge)
    assert scorer.judge.name == f"cascade({alone.judge.name}, threshold=0)"
    assert result.ok and alone_result.ok
    assert cascade_calls < alone_calls
    assert cascade_calls == alone_calls - scorer.judge.offline_answers
    assert result.claims and all(
        (cl.reason or "").startswith("offline judge") for cl in result.claims
    )
    assert result.judge == scorer.judge.name


def test_judge_cascade_above_full_confidence_scores_as_the_llm_alone(
    judge_server: JudgeServer,
) -> None:
    for name in CASES:
        c = case(name)
        alone = SummarizationScorer(_client(judge_server), model="gpt-4o-mini", preset="ragas")
        cascade = SummarizationScorer(
            _client(judge_server),
            model="gpt-4o-mini",
            preset="ragas",
            judge="cascade",
            cascade_threshold=1.01,
        )
        assert cascade.score(c.source, c.summary).score == alone.score(c.source, c.summary).score
        assert cascade.judge.offline_answers == 0  # type: ignore[attr-defined]
        assert cascade.judge.llm_answers > 0  # type: ignore[attr-defined]


def test_judge_cascade_defaults_to_threshold_0_8_and_llm_is_the_default_judge(
    judge_server: JudgeServer,
) -> None:
    cascade = SummarizationScorer(_client(judge_server), model="gpt-4o-mini", judge="cascade")
    assert isinstance(cascade.judge, CascadeJudge) and cascade.judge.threshold == 0.8
    plain = SummarizationScorer(_client(judge_server), model="gpt-4o-mini", judge="llm")
    assert not isinstance(plain.judge, CascadeJudge)
    assert cascade.judge.llm_judge.name == plain.judge.name


@pytest.mark.parametrize(
    ("options", "error", "field"),
    [
        ({"judge": "offline"}, ValueError, "judge"),
        ({"judge": "cascade", "cascade_threshold": -0.1}, ValueError, "cascade_threshold"),
        ({"judge": "cascade", "cascade_threshold": "high"}, ValueError, "cascade_threshold"),
        ({"judge": "cascade", "cascade_threshold": True}, ValueError, "cascade_threshold"),
        ({"judge": "cascade", "cascade_threshold": float("nan")}, ValueError, "cascade_threshold"),
        ({"cascade_threshold": 0.5}, TypeError, "cascade_threshold"),
    ],
)
def test_bad_judge_options_raise_naming_the_option(
    judge_server: JudgeServer, options: dict[str, object], error: type[Exception], field: str
) -> None:
    with pytest.raises(error, match=field):
        SummarizationScorer(_client(judge_server), model="gpt-4o-mini", **options)


def test_judge_cascade_needs_an_llm_behind_the_offline_judge() -> None:
    from summscore.judges import LexicalJudge

    with pytest.raises(TypeError, match="LexicalJudge"):
        SummarizationScorer(LexicalJudge(), judge="cascade")
