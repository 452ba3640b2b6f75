"""The compat judge server itself: the OpenAI wire format, deterministic answers, the faults."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from compat.corpus import case
from compat.judge_server import JudgeServer
from compat.oracle import recognise
from summscore.prompts.own import OwnDeepEvalPrompts, OwnRagasPrompts


def _post(server: JudgeServer, body: dict[str, Any], timeout: float = 10) -> httpx.Response:
    return httpx.post(f"{server.url}/chat/completions", json=body, timeout=timeout)


def _ask(server: JudgeServer, prompt: str, **extra: Any) -> dict[str, Any]:
    body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": prompt}], **extra}
    response = _post(server, body)
    assert response.status_code == 200, response.text
    return response.json()


def test_models_are_listed(judge_server: JudgeServer) -> None:
    data = httpx.get(f"{judge_server.url}/models").json()
    assert "gpt-4o-mini" in {m["id"] for m in data["data"]}


def test_answers_are_read_off_the_prompt_and_usage_is_reported(judge_server: JudgeServer) -> None:
    c = case("news-rates-wrong-number")
    prompt = OwnDeepEvalPrompts().verdicts([c.summary], [c.source]).text
    reply = _ask(judge_server, prompt, response_format={"type": "json_object"})
    verdicts = json.loads(reply["choices"][0]["message"]["content"])["verdicts"]
    assert verdicts[0]["verdict"] == "no" and "5.5%" in verdicts[0]["reason"]
    assert reply["usage"]["prompt_tokens"] > 0 and reply["usage"]["completion_tokens"] > 0
    assert judge_server.stats.tasks["verdicts"] >= 1


def test_the_same_prompt_gets_the_same_answer(judge_server: JudgeServer) -> None:
    prompt = OwnRagasPrompts().keyphrases(case("science-crispr").source).text
    first = _ask(judge_server, prompt)["choices"][0]["message"]["content"]
    second = _ask(judge_server, prompt)["choices"][0]["message"]["content"]
    assert first == second and "University of Oslo" in first


def test_an_unrecognised_prompt_gets_an_answer_shaped_by_the_schema(
    judge_server: JudgeServer,
) -> None:
    schema = {
        "type": "object",
        "properties": {
            "label": {"type": "string"},
            "score": {"type": "number"},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["label", "score", "tags"],
    }
    reply = _ask(
        judge_server,
        "Rate this poem.",
        response_format={
            "type": "json_schema",
            "json_schema": {"name": "Rating", "schema": schema},
        },
    )
    data = json.loads(reply["choices"][0]["message"]["content"])
    assert set(data) == {"label", "score", "tags"} and isinstance(data["tags"], list)
    assert judge_server.stats.tasks["?"] == 1


def test_prompts_whose_lines_keep_their_source_indentation_are_recognised() -> None:
    # deepeval 3.9 and 4.0 send templates whose textwrap.dedent has no effect.
    source = case("news-rates").source
    prompt = OwnDeepEvalPrompts().truths(source, None).text
    first, *rest = prompt.split("\n")
    indented = "\n".join([first, *("            " + line for line in rest)])
    found = recognise(indented)
    assert found is not None and found.task == "truths" and found.inputs["text"] == source
    assert recognise("            nothing a judge was ever asked") is None


def test_a_forced_tool_call_carries_the_answer(judge_server: JudgeServer) -> None:
    tool = {"type": "function", "function": {"name": "Answers", "parameters": {"type": "object"}}}
    prompt = (
        OwnRagasPrompts().answers("The cat sat on the mat.", ["Did the cat sit on the mat?"]).text
    )
    reply = _ask(
        judge_server,
        prompt,
        tools=[tool],
        tool_choice={"type": "function", "function": {"name": "Answers"}},
    )
    call = reply["choices"][0]["message"]["tool_calls"][0]
    assert call["function"]["name"] == "Answers"
    assert json.loads(call["function"]["arguments"]) == {"answers": ["1"]}


def test_beyond_its_concurrency_limit_it_answers_429_with_retry_after(
    make_judge_server: Callable[..., JudgeServer],
) -> None:
    import concurrent.futures

    server = make_judge_server(max_concurrency=1, latency=0.2, retry_after=0.5)
    body = {"model": "m", "messages": [{"role": "user", "content": "hello"}]}
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        responses = list(pool.map(lambda _: _post(server, body), range(4)))
    limited = [r for r in responses if r.status_code == 429]
    assert limited and all(r.headers["retry-after"] == "0.5" for r in limited)
    assert server.stats.peak_concurrency == 1


@pytest.mark.parametrize(
    ("fault", "check"),
    [
        ("error_rate", lambda r: r.status_code == 500),
        ("malformed_rate", lambda r: _not_json(r.json()["choices"][0]["message"]["content"])),
        ("wrap_rate", lambda r: "```json" in r.json()["choices"][0]["message"]["content"]),
    ],
)
def test_faults_are_injected_at_their_rate(
    make_judge_server: Callable[..., JudgeServer],
    fault: str,
    check: Callable[[httpx.Response], bool],
) -> None:
    server = make_judge_server(**{fault: 1.0})
    prompt = OwnRagasPrompts().answers("The cat sat.", ["Did the cat sit?", "Was it a dog?"]).text
    response = _post(server, {"model": "m", "messages": [{"role": "user", "content": prompt}]})
    assert check(response)


def test_a_short_list_drops_an_item_and_a_hung_request_hangs(
    make_judge_server: Callable[..., JudgeServer],
) -> None:
    server = make_judge_server(short_list_rate=1.0)
    prompt = OwnRagasPrompts().answers("The cat sat.", ["Did the cat sit?", "Was it a dog?"]).text
    reply = _ask(server, prompt)
    assert len(json.loads(reply["choices"][0]["message"]["content"])["answers"]) == 1
    hung = make_judge_server(hang_rate=1.0, hang_seconds=2)
    start = time.perf_counter()
    with pytest.raises(httpx.ReadTimeout):
        _post(hung, {"model": "m", "messages": [{"role": "user", "content": "hi"}]}, timeout=0.3)
    assert time.perf_counter() - start < 1.5


def _not_json(text: str) -> bool:
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return True
    return False


# ------------------------------------------------------------------------------ streaming (SSE)


def _stream(server: JudgeServer, prompt: str, **extra: Any) -> list[dict[str, Any]]:
    body = {
        "model": "gpt-4o-mini",
        "messages": [{"role": "user", "content": prompt}],
        "stream": True,
        **extra,
    }
    with httpx.stream("POST", f"{server.url}/chat/completions", json=body, timeout=10) as response:
        assert response.status_code == 200
        assert response.headers["content-type"] == "text/event-stream"
        lines = [line for line in response.iter_lines() if line]
    assert lines[-1] == "data: [DONE]"
    return [json.loads(line.removeprefix("data: ")) for line in lines[:-1]]


def test_a_streamed_answer_reassembles_to_the_plain_answer(judge_server: JudgeServer) -> None:
    prompt = OwnRagasPrompts().keyphrases(case("science-crispr").source).text
    plain = _ask(judge_server, prompt)["choices"][0]["message"]["content"]
    events = _stream(judge_server, prompt, stream_options={"include_usage": True})
    assert {e["object"] for e in events} == {"chat.completion.chunk"}
    text = "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e["choices"])
    assert text == plain and len(events) > 3
    assert judge_server.stats.streamed == 1
    assert events[-2]["choices"][0]["finish_reason"] == "stop"
    assert events[-1]["choices"] == [] and events[-1]["usage"]["total_tokens"] > 0


def test_a_streamed_tool_call_carries_the_answer_as_arguments(judge_server: JudgeServer) -> None:
    prompt = OwnRagasPrompts().keyphrases(case("science-crispr").source).text
    tool = {"type": "function", "function": {"name": "answer", "parameters": {"type": "object"}}}
    events = _stream(judge_server, prompt, tools=[tool], tool_choice="required")
    calls = [c for e in events for c in e["choices"][0]["delta"].get("tool_calls", [])]
    assert calls[0]["function"]["name"] == "answer" and calls[0]["id"]
    arguments = "".join(c["function"]["arguments"] for c in calls)
    assert "University of Oslo" in json.loads(arguments)["keyphrases"]
    assert "usage" not in events[-1]


def test_the_openai_client_reads_the_stream(judge_server: JudgeServer) -> None:
    openai = pytest.importorskip("openai")
    client = openai.OpenAI(base_url=judge_server.url, api_key="not-needed")
    prompt = OwnRagasPrompts().keyphrases(case("science-crispr").source).text
    stream = client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": prompt}], stream=True
    )
    text = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)
    assert "University of Oslo" in json.loads(text)["keyphrases"]


# ----------------------------------------------------------------- Mastra 1.x's prompts, read


def _mastra_judgement(source: str, summary: str, n: int) -> str:
    """The frame of @mastra/evals 1.x createSourceJudgementPrompt (rules abridged)."""
    return (
        "Complete two independent parts.\n\nPart 1 (alignment): extract the atomic claims ...\n\n"
        f"Part 2 (questions): write at most {n} closed-ended questions drawn from the source "
        'text.\n\nExample:\nSource Text: "Company Y was established in Boston in 2015."\n'
        'Summary: "Company Y, founded in Boston in 2015."\n\n{}\n\n'
        f"Source Text:\n{source}\n\nSummary:\n{summary}\n\nJSON:\n"
    )


def _mastra_coverage(summary: str, questions: list[str]) -> str:
    listed = "\n".join(f"[{i}] {q}" for i, q in enumerate(questions))
    return (
        "Decide whether each question can be answered from the summary below. The summary is "
        f"the only evidence you have.\n\nSummary:\n{summary}\n\nNumber of questions: "
        f'{len(questions)}\n\nQuestions:\n{listed}\n\nSet "answered" to true only when ...'
    )


def _mastra_reason(score: float, unsupported: list[str], missed: list[str]) -> str:
    def bullets(items: list[str]) -> str:
        return "\n".join(f"- {i}" for i in items) if items else "- none"

    return (
        "Explain the summarization score for the given summary.\n\nSource Text:\nS\n\n"
        f"Summary:\nT\n\nScore: {score} out of 1\nAlignment score: 1\nCoverage score: 0.5\n"
        f"Claims the source does not support:\n{bullets(unsupported)}\n"
        f"Questions the summary cannot answer:\n{bullets(missed)}\n\nSummarization takes ..."
    )


def test_mastras_source_judgement_gets_claims_verdicts_and_at_most_n_questions(
    judge_server: JudgeServer,
) -> None:
    c = case("news-rates-wrong-number")
    prompt = _mastra_judgement(c.source, c.summary, 2)
    found = recognise(prompt)
    assert found is not None and found.family == "mastra"
    assert found.inputs == {"text": c.source, "summary": c.summary, "n": 2}
    schema = {"type": "object", "properties": {"alignment": {}, "questions": {}}}
    reply = _ask(
        judge_server,
        prompt,
        response_format={"type": "json_schema", "json_schema": {"name": "x", "schema": schema}},
    )
    data = json.loads(reply["choices"][0]["message"]["content"])
    assert 1 <= len(data["questions"]) <= 2
    assert any(not a["supported"] and "5.5%" in a["reason"] for a in data["alignment"])
    assert set(data["alignment"][0]) == {"claim", "supported", "reason"}


def test_mastras_coverage_is_answered_from_the_summary_alone() -> None:
    c = case("news-tesla-faithful")
    questions = ["Was Tesla founded in 2003?", "Did Tesla open a factory on the Moon?"]
    found = recognise(_mastra_coverage(c.summary, questions))
    assert found is not None and found.inputs == {"text": c.summary, "questions": questions}


def test_mastras_reason_prompt_is_answered_in_plain_text(judge_server: JudgeServer) -> None:
    prompt = _mastra_reason(0.5, ["Tesla was founded by Musk"], ["Q?"])
    found = recognise(prompt)
    assert found is not None
    assert found.inputs == {
        "score": 0.5,
        "unsupported": ["Tesla was founded by Musk"],
        "questions": ["Q?"],
    }
    nothing = recognise(_mastra_reason(1, [], []))
    assert (
        nothing is not None and nothing.inputs["unsupported"] == nothing.inputs["questions"] == []
    )
    content = _ask(judge_server, prompt)["choices"][0]["message"]["content"]
    assert content.startswith("The score is 0.50 because")


@pytest.mark.parametrize("paced", [False, True])
def test_paced_latency_counts_the_servers_own_work_inside_it(
    make_judge_server: Callable[..., JudgeServer], paced: bool
) -> None:
    # The answer's own work stands in for a slow oracle (0.3 s); latency 0.35 s.
    server = make_judge_server(latency=0.35, paced=paced)
    real_answer = server._answer

    def slow_answer(body: dict[str, Any], fault: str | None) -> dict[str, Any]:
        time.sleep(0.3)
        return real_answer(body, fault)

    server._answer = slow_answer  # type: ignore[method-assign]
    _ask(server, "hello")
    took = server.stats.answer_seconds
    assert server.stats.answered == 1 and took == server.stats.slowest_answer
    if paced:  # work inside the latency: about 0.35 s, far from the 0.65 s of work + latency
        assert 0.35 <= took < 0.6
    else:
        assert took >= 0.65
