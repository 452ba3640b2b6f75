"""Every judge backend, through fakes at its client boundary, and how judges are detected."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from compat.corpus import case
from pydantic import BaseModel

from summscore import JudgeError, SummarizationScorer, TransientJudgeError
from summscore.judges import FunctionJudge, LexicalJudge, resolve_judge

from .fakes import FITNESS_SOURCE, FITNESS_SUMMARY, ragas_script

RAGAS_REPLIES = ragas_script(8, 7)
EXPECTED = 0.6423387096775146  # the fitness example of the ragas docs, 7 of 8 questions answered


def _reply_for(prompt: str) -> dict:
    for task in ("keyphrases", "questions", "answers"):
        if f"summscore task: {task}" in prompt:
            return RAGAS_REPLIES[task]
    raise AssertionError(f"unexpected prompt: {prompt[:80]}")


# ------------------------------------------------------------------ plain callables


async def test_an_async_callable_is_a_judge() -> None:
    seen: list[type[BaseModel]] = []

    async def judge(prompt: str, schema: type[BaseModel]) -> BaseModel:
        seen.append(schema)
        return schema.model_validate(_reply_for(prompt))

    scorer = SummarizationScorer(llm=judge, preset="ragas", prompts="own")
    result = await scorer.ascore(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.score == EXPECTED
    assert result.judge == "function:judge"
    assert [s.__name__ for s in seen] == ["KeyphrasesReply", "QuestionsReply", "AnswersReply"]


def test_a_sync_callable_returning_json_text_is_a_judge() -> None:
    def judge(prompt: str, schema: type[BaseModel]) -> str:
        return "Sure! ```json\n" + json.dumps(_reply_for(prompt)) + "\n```"

    result = SummarizationScorer(llm=judge, preset="ragas", prompts="own").score(
        FITNESS_SOURCE, FITNESS_SUMMARY
    )
    assert result.score == EXPECTED


def test_a_callable_that_raises_is_classified() -> None:
    class RateLimited(Exception):
        status_code = 429

    async def judge(prompt: str, schema: type[BaseModel]) -> BaseModel:
        raise RateLimited("slow down")

    scorer = SummarizationScorer(
        llm=FunctionJudge(judge, name="x"), preset="ragas", max_retries=1, backoff=0
    )
    with pytest.raises(TransientJudgeError, match="slow down"):
        scorer.score("text", "summary")
    assert scorer.usage.retries == 1


# ------------------------------------------------------------------ langchain


def test_a_langchain_chat_model_is_a_judge_and_reports_tokens() -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    replies = [
        AIMessage(
            content=json.dumps(RAGAS_REPLIES[task]),
            usage_metadata={"input_tokens": 100, "output_tokens": 10, "total_tokens": 110},
        )
        for task in ("keyphrases", "questions", "answers")
    ]
    model = GenericFakeChatModel(messages=iter(replies))
    scorer = SummarizationScorer(llm=model, preset="ragas", prompts="own")
    result = scorer.score(FITNESS_SOURCE, FITNESS_SUMMARY)
    assert result.score == EXPECTED
    assert result.judge == "langchain:GenericFakeChatModel"
    assert (result.usage.input_tokens, result.usage.output_tokens) == (300, 30)


def test_a_langchain_model_answering_in_content_blocks_is_read() -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
    from langchain_core.messages import AIMessage

    blocks = [
        AIMessage(content=[{"type": "text", "text": json.dumps(RAGAS_REPLIES[t])}])
        for t in ("keyphrases", "questions", "answers")
    ]
    scorer = SummarizationScorer(
        llm=FakeMessagesListChatModel(responses=blocks), preset="ragas", prompts="own"
    )
    assert scorer.score(FITNESS_SOURCE, FITNESS_SUMMARY).score == EXPECTED


# ------------------------------------------------------------------ ragas


@pytest.mark.upstream
def test_ragas_instructor_and_legacy_llms_are_judges_with_upstream_prompts() -> None:
    pytest.importorskip("ragas")
    from .framework_fakes import Oracle, ragas_legacy_llm, ragas_llm

    c = case("vaccine-faithful")
    scores = []
    for make in (ragas_llm, ragas_legacy_llm):
        oracle = Oracle()
        scorer = SummarizationScorer(llm=make(oracle), preset="ragas")
        result = scorer.score(list(c.contexts), c.summary)
        assert result.prompt_set.startswith("ragas-")
        assert oracle.tasks() == ["keyphrases", "questions", "answers"]
        assert result.judge.startswith("ragas:")
        scores.append(result.score)
    assert scores[0] == scores[1]


# ------------------------------------------------------------------ deepeval


@pytest.mark.upstream
def test_deepeval_models_are_judges_structured_or_text() -> None:
    pytest.importorskip("deepeval")
    from .framework_fakes import Oracle, deepeval_llm

    c = case("news-rates")
    results = []
    for structured in (True, False):
        oracle = Oracle()
        scorer = SummarizationScorer(
            llm=deepeval_llm(oracle, structured=structured), preset="deepeval"
        )
        results.append(scorer.score(c.source, c.summary))
        assert len(oracle.prompts) == 7
    assert results[0].score == results[1].score
    assert results[0].prompt_set.startswith("deepeval-")
    assert results[0].judge == "deepeval:oracle"


@pytest.mark.upstream
def test_a_deepeval_model_name_is_resolved_the_way_deepeval_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("deepeval")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key-0000")
    judge = resolve_judge("gpt-4o-mini")
    assert judge.name == "deepeval:gpt-4o-mini"
    assert judge.native is True  # type: ignore[attr-defined] - deepeval's cost tracking applies


# ------------------------------------------------------------------ detection


def test_unsupported_judges_and_misplaced_model_names_are_explained() -> None:
    with pytest.raises(TypeError, match="llm is required"):
        resolve_judge(None)
    with pytest.raises(TypeError, match="unsupported judge of type int"):
        resolve_judge(42)
    with pytest.raises(TypeError, match="model= is only used with an OpenAI client"):
        resolve_judge(LexicalJudge(), model="gpt-4o")


def test_import_summscore_loads_no_framework_and_names_the_extra_when_one_is_missing() -> None:
    code = textwrap.dedent(
        """
        import sys
        import summscore
        heavy = [m for m in ("ragas", "deepeval", "langchain_core", "openai") if m in sys.modules]
        assert not heavy, heavy
        sys.modules["deepeval"] = None  # as if it were not installed
        try:
            import summscore.deepeval
        except ImportError as exc:
            print(exc)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert 'pip install -e ".[deepeval]"' in out.stdout, out.stdout
    assert '"summscore[' not in out.stdout  # summscore is on no index


def test_judge_errors_name_the_backend_exception_not_the_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MY_PROVIDER_API_KEY", "very-secret-value-123")

    async def judge(prompt: str, schema: type[BaseModel]) -> BaseModel:
        raise PermissionError("denied for key very-secret-value-123")

    scorer = SummarizationScorer(llm=judge, max_retries=0)
    with pytest.raises(JudgeError) as raised:
        scorer.score("text", "summary")
    assert "very-secret-value-123" not in str(raised.value)
    assert "PermissionError" in str(raised.value)


def test_a_framework_that_is_installed_but_broken_is_told_apart_from_a_missing_one() -> None:
    from summscore.errors import MissingExtraError

    missing = MissingExtraError(
        "ragas", "ragas", "X", ModuleNotFoundError("no ragas", name="ragas")
    )
    assert "which is not installed" in str(missing)
    broken = MissingExtraError(
        "ragas", "ragas", "X", ModuleNotFoundError("No module named 'PIL'", name="PIL")
    )
    assert "installed but does not import" in str(broken) and "PIL" in str(broken)
    assert 'pip install --force-reinstall -e ".[ragas]"' in str(broken)
    assert '"summscore[' not in str(missing) + str(broken)  # summscore is on no index


@pytest.mark.upstream
def test_auto_prompts_fall_back_to_own_prompts_when_upstream_does_not_import(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("ragas")
    import summscore.prompts.ragas_upstream as upstream
    from summscore.prompts import load_prompt_set

    def broken() -> None:
        raise ImportError("No module named 'PIL'")

    monkeypatch.setattr(upstream, "UpstreamRagasPrompts", broken)
    with pytest.warns(RuntimeWarning, match="could not be loaded"):
        assert load_prompt_set("ragas", "auto").name == "summscore-v1"
    with pytest.raises(ImportError):
        load_prompt_set("ragas", "upstream")
