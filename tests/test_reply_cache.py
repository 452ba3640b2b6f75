"""The persistent reply cache: a re-run asks the judge nothing it asked before."""

from __future__ import annotations

import sqlite3
import warnings
from pathlib import Path

import openai
import pytest
from compat.corpus import case
from compat.judge_server import JudgeServer

from summscore import SummarizationScorer
from summscore.cli import main

from .fakes import FITNESS_SOURCE, FITNESS_SUMMARY, ScriptedJudge, ragas_script


def test_a_rerun_with_the_same_cache_asks_the_judge_nothing(tmp_path: Path) -> None:
    first_judge = ScriptedJudge(ragas_script(8, 7))
    first = SummarizationScorer(
        llm=first_judge, prompts="own", reply_cache=tmp_path, preset="ragas"
    )
    before = first.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert len(first_judge.requests) == 3 and before.usage.cached_calls == 0

    second_judge = ScriptedJudge(ragas_script(8, 7))
    second = SummarizationScorer(
        llm=second_judge, prompts="own", reply_cache=tmp_path, preset="ragas"
    )
    after = second.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert second_judge.requests == []
    assert after.score == before.score == 0.6423387096775146
    assert (after.usage.judge_calls, after.usage.cached_calls) == (0, 3)
    assert second.usage.cached_calls == 3


def test_another_judge_or_another_prompt_is_another_entry(tmp_path: Path) -> None:
    a = ScriptedJudge(ragas_script(), name="judge-a")
    SummarizationScorer(llm=a, prompts="own", reply_cache=tmp_path, preset="ragas").score(
        FITNESS_SOURCE, "one"
    )
    b = ScriptedJudge(ragas_script(), name="judge-b")
    SummarizationScorer(llm=b, prompts="own", reply_cache=tmp_path, preset="ragas").score(
        FITNESS_SOURCE, "one"
    )
    assert len(b.requests) == 3  # another model: nothing reused
    SummarizationScorer(llm=b, prompts="own", reply_cache=tmp_path, preset="ragas").score(
        FITNESS_SOURCE, "two"
    )
    assert len(b.requests) == 4  # same source, new summary: only its answers are asked


def test_the_cache_holds_no_credentials(tmp_path: Path, judge_server: JudgeServer) -> None:
    key = "sk-cache-test-secret-1234567890"
    client = openai.AsyncOpenAI(base_url=judge_server.url, api_key=key)
    c = case("news-rates")
    SummarizationScorer(
        llm=client, model="gpt-4o-mini", preset="deepeval", reply_cache=tmp_path
    ).score(c.source, c.summary)
    raw = (tmp_path / "replies.sqlite").read_bytes()
    assert key.encode() not in raw
    with sqlite3.connect(tmp_path / "replies.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM replies").fetchone()[0] == 7


def test_a_cache_damaged_while_in_use_is_reported_and_bypassed(tmp_path: Path) -> None:
    judge = ScriptedJudge(ragas_script())
    scorer = SummarizationScorer(llm=judge, prompts="own", reply_cache=tmp_path, preset="ragas")
    # Another process damages the file this scorer holds open: its table is gone.
    with sqlite3.connect(tmp_path / "replies.sqlite") as db:
        db.execute("DROP TABLE replies")
    with pytest.warns(RuntimeWarning, match="scoring goes on without it"):
        result = scorer.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.ok and len(judge.requests) == 3 and result.usage.cached_calls == 0
    with warnings.catch_warnings():  # reported once, then bypassed quietly
        warnings.simplefilter("error")
        again = scorer.score(FITNESS_SOURCE, "Another summary.")
    assert again.ok and again.usage.cached_calls == 0


def test_bad_cache_options_are_named(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="reply_cache"):
        SummarizationScorer(llm=ScriptedJudge({}), reply_cache=42, preset="ragas")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ValueError, match="reply_cache: cannot use"):
        SummarizationScorer(llm=ScriptedJudge({}), reply_cache=blocker, preset="ragas")


def test_the_cli_cache_option(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    judge_server: JudgeServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    news = Path(__file__).resolve().parent.parent / "examples" / "news.jsonl"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-compat")
    args = [
        "score",
        str(news),
        "--judge",
        "openai",
        "--model",
        "gpt-4o-mini",
        "--base-url",
        judge_server.url,
        "--cache",
        str(tmp_path / "cache"),
        "--out",
        str(tmp_path / "o.jsonl"),
        "--no-progress",
        "--limit",
        "3",
    ]
    assert main(args) == 0
    first = judge_server.stats.requests
    assert main(args) == 0
    assert judge_server.stats.requests == first
    assert "replies from the reply cache" in capsys.readouterr().err


@pytest.mark.parametrize(
    "stored",
    [
        "{not json",  # cut off or overwritten on disk
        '{"input_tokens": 3}',  # no reply in it
        '{"output": "no json here"}',  # a reply, but not one this task can read
        '{"output": {"keyphrases": []}, "cost": "free"}',  # a cost that is not a number
    ],
)
def test_a_damaged_entry_is_asked_again_and_replaced(tmp_path: Path, stored: str) -> None:
    first = SummarizationScorer(
        llm=ScriptedJudge(ragas_script(8, 7)), prompts="own", reply_cache=tmp_path, preset="ragas"
    )
    expected = first.score(FITNESS_SOURCE, FITNESS_SUMMARY).score
    with sqlite3.connect(tmp_path / "replies.sqlite") as db:
        db.execute("UPDATE replies SET reply = ?", (stored,))

    judge = ScriptedJudge(ragas_script(8, 7))
    scorer = SummarizationScorer(llm=judge, prompts="own", reply_cache=tmp_path, preset="ragas")
    with pytest.warns(RuntimeWarning, match="damaged entry") as caught:
        result = scorer.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.ok and result.score == expected
    # Asked of the judge once per damaged entry (no repair attempt spent on the cache's copy),
    # reported once, and counted as no cached call.
    assert len(judge.requests) == 3 and result.usage.cached_calls == 0
    assert len([w for w in caught if "damaged entry" in str(w.message)]) == 1

    third = SummarizationScorer(
        llm=ScriptedJudge({}), prompts="own", reply_cache=tmp_path, preset="ragas"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = third.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert again.score == expected and again.usage.cached_calls == 3  # the entries were replaced


def test_a_file_that_is_not_a_cache_is_named_and_left_as_it_is(tmp_path: Path) -> None:
    not_a_cache = tmp_path / "replies.sqlite"
    content = b"these are someone's notes, not a database" * 50
    not_a_cache.write_bytes(content)
    with pytest.raises(
        ValueError, match=r"reply_cache: cannot use .*replies\.sqlite.*move it away"
    ):
        SummarizationScorer(llm=ScriptedJudge({}), reply_cache=tmp_path, preset="ragas")
    assert not_a_cache.read_bytes() == content


class _StructuredCutOff(ScriptedJudge):
    """A judge keyed by its inputs (no prompt), whose answers reply is cut off mid-JSON."""

    reads_prompts = False


def test_a_cut_off_reply_kept_on_the_last_attempt_is_reused_as_it_was_kept(
    tmp_path: Path,
) -> None:
    script = ragas_script(8, 7)
    script["answers"] = '{"answers": ["1", "1", "1", "1", "1", "1", "1", "0"'
    first = SummarizationScorer(
        llm=_StructuredCutOff(script), prompts="own", reply_cache=tmp_path, preset="ragas"
    )
    kept = first.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert any("cut off" in w for w in kept.warnings)

    judge = _StructuredCutOff({})
    again = SummarizationScorer(llm=judge, prompts="own", reply_cache=tmp_path, preset="ragas")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # not reported as a damaged entry
        result = again.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert judge.requests == [] and result.score == kept.score
    assert any("cut off" in w for w in result.warnings)


def test_the_offline_judge_of_another_version_never_gets_the_older_judges_answers(
    tmp_path: Path,
) -> None:
    from summscore.judges import LexicalJudge

    class Upgraded(LexicalJudge):
        version = "a later release"

    first = SummarizationScorer(llm=LexicalJudge(), reply_cache=tmp_path)
    first.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    again = SummarizationScorer(llm=LexicalJudge(), reply_cache=tmp_path)
    assert again.score(FITNESS_SOURCE, FITNESS_SUMMARY).usage.cached_calls > 0  # same judge: hit
    upgraded = SummarizationScorer(llm=Upgraded(), reply_cache=tmp_path)
    result = upgraded.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.usage.cached_calls == 0 and result.usage.judge_calls > 0  # every call a miss


def test_the_offline_judges_version_follows_its_code_and_summscores_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nobody bumps a number: the version is a digest of the judge package's source files (and
    summscore's version), so an upgrade that edits the judge is another cache identity."""
    import importlib
    import sys

    from summscore.calls import reply_cache
    from summscore.calls.reply_cache import cache_identity, judge_version
    from summscore.judges import LexicalJudge

    lexical = cache_identity(LexicalJudge())
    assert lexical.startswith("lexical [summscore ") and "code " in lexical
    assert judge_version(ScriptedJudge(ragas_script())) is None  # an LLM: model and prompt decide

    package = tmp_path / "offline_judge_pkg"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from ._rules import ANSWER\n\nclass Judge:\n    name = 'mine'\n    reads_prompts = False\n",
        encoding="utf-8",
    )
    (package / "_rules.py").write_text("ANSWER = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    judge = importlib.import_module("offline_judge_pkg").Judge()
    before = cache_identity(judge)
    (package / "_rules.py").write_text("ANSWER = 2\n", encoding="utf-8")  # an upgrade's edit
    reply_cache._code_digest.cache_clear()  # (computed once per process: a new process)
    assert cache_identity(judge) != before
    monkeypatch.setattr(reply_cache, "__version__", "99.0")
    reply_cache._code_digest.cache_clear()
    assert "summscore 99.0" in cache_identity(judge)
    sys.modules.pop("offline_judge_pkg", None)
    sys.modules.pop("offline_judge_pkg._rules", None)


def test_a_cascade_judge_s_cache_identity_carries_the_offline_judge_s_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cascade's sure answers come from the offline judge's code, not from its LLM: an upgrade
    that changes that code must not be served the older judge's answers (the identity was the
    cascade's name alone, its version None as for an LLM)."""
    from summscore.calls import reply_cache
    from summscore.calls.reply_cache import cache_identity, judge_version
    from summscore.judges import LexicalJudge
    from summscore.judges.cascade import CascadeJudge

    cascade = CascadeJudge(ScriptedJudge(ragas_script()), threshold=0.8)
    identity = cache_identity(cascade)
    assert identity.startswith(cascade.name + " [")
    assert judge_version(LexicalJudge()) in identity  # summscore's version and the code digest
    assert cache_identity(cascade.llm_judge) in identity

    monkeypatch.setattr(reply_cache, "__version__", "99.0")
    reply_cache._code_digest.cache_clear()
    assert cache_identity(cascade) != identity and "summscore 99.0" in cache_identity(cascade)
    reply_cache._code_digest.cache_clear()


def test_a_cascade_judge_s_cache_identity_keeps_its_threshold_without_the_address() -> None:
    """The address was cut from the first "@" to the end of the name, and the threshold with it:
    a cascade at 0.5 and one at 0.95 shared their cached answers."""
    from summscore.calls.reply_cache import cache_identity
    from summscore.judges.cascade import CascadeJudge

    llm = ScriptedJudge(ragas_script())
    llm.name = "openai:gpt-4o-mini@127.0.0.1:8099"
    low, high = CascadeJudge(llm, threshold=0.5), CascadeJudge(llm, threshold=0.95)
    assert cache_identity(low) != cache_identity(high)
    assert "threshold=0.5" in cache_identity(low) and "127.0.0.1" not in cache_identity(low)
