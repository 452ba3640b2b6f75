"""The service never tells a client whether a text it sent is a piece of the server's own keys.

The server masks its secrets (the values of ``*_API_KEY`` variables, registered keys) in any
12-character piece, so that a judge's error quoting the key never reaches a client. Applied to
the text a client sent itself (an id, a summary the offline judge quotes back, a field name an
error names), that masking answered "yes" with ``***`` and "no" with the text: a client holding
the usual prefix (`sk-proj-`) could find a first 12-character piece and then the key one
character at a time, many guesses to a request. A piece of a server secret that the request
itself sent now comes back as sent, so the answer is the same whatever the key is; an ``sk-``
key in the request is masked as before (by its look, which says nothing of the server's key).
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")
import httpx

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.serve import create_app

KEY = "acme-Zq8xK2pLm9Vt4RwY7sNb"  # the server's, in ACME_API_KEY
SOURCE = "The council approved 40 homes on Monday."


def _client(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://serve")


async def _answers(guess: str) -> list[Any]:
    scorer = SummarizationScorer(LexicalJudge(), preset="deepeval")
    async with _client(create_app(scorer)) as client:
        one = await client.post(
            "/v1/score", json={"id": f"job {guess}", "source": SOURCE, "summary": f"Homes {guess}."}
        )
        batch = await client.post(
            "/v1/score:batch",
            json={"cases": [{"id": guess, "source": SOURCE, "summary": f"Homes {guess}."}]},
        )
        refused = await client.post("/v1/score", json={"source": SOURCE, "summary": "x", guess: 1})
    return [one.json(), batch.json(), refused.json()]


def _other(char: str) -> str:
    """A character of the same kind as ``char`` (the offline judge reads both alike)."""
    for kind in ("0123456789", "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"):
        if char in kind:
            return kind[(kind.index(char) + 7) % len(kind)]
    raise AssertionError(char)


@pytest.mark.parametrize("piece", [KEY[:12], KEY[5:17], KEY.lower()[8:21]])
async def test_a_piece_of_the_servers_key_sent_by_the_client_comes_back_as_any_text_does(
    monkeypatch: pytest.MonkeyPatch, piece: str
) -> None:
    monkeypatch.setenv("ACME_API_KEY", KEY)
    wrong = piece[:-1] + _other(piece[-1])  # the same shape, not a piece of the key
    assert wrong.lower() not in KEY.lower()
    right, other = await _answers(piece), await _answers(wrong)
    same = str(right)
    # (as sent, and as the judge quotes it: lower-cased, its last word alone)
    for mine, theirs in ((piece, wrong), (piece.split("-")[-1], wrong.split("-")[-1])):
        same = same.replace(mine, theirs).replace(mine.lower(), theirs.lower())
    assert same == str(other)  # the score and every text alike
    assert "***" not in str(right)
    assert right[0]["id"] == f"job {piece}"
    assert right[2]["error"]["field"] == piece and piece in right[2]["error"]["message"]


async def test_an_sk_key_the_client_sent_is_still_masked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ACME_API_KEY", KEY)
    key = "sk-proj-" + "Qm5Wabcdefghijklmnopqrstuvwxyz0123"
    one, batch, _ = await _answers(key)
    assert key not in str(one) and key not in str(batch)
    assert one["id"] == "job ***"


async def test_a_server_key_quoted_by_the_judge_stays_masked_in_a_case_that_sent_none_of_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only what a case sent comes back as sent: the judge's error quoting the whole key is
    masked in the case that sent 12 characters of it, and in a batch's other case (whose result
    another client sending the same texts may be given)."""
    from summscore.judges import FunctionJudge

    monkeypatch.setenv("ACME_API_KEY", KEY)

    def judge(prompt: str, schema: Any) -> Any:
        raise RuntimeError(f"the gateway refused the key {KEY}")

    scorer = SummarizationScorer(FunctionJudge(judge), preset="deepeval")
    cases = [
        {"id": "plain", "source": SOURCE, "summary": "Homes were approved."},
        {"id": "guess", "source": SOURCE, "summary": f"Homes {KEY[:12]}."},
    ]
    async with _client(create_app(scorer)) as client:
        answer = await client.post("/v1/score:batch", json={"cases": cases})
    plain, guess = answer.json()["results"]
    assert plain["error"] and KEY[:12] not in plain["error"] and "***" in plain["error"]
    # The case that sent 12 characters of the key gets them back, never the rest of it.
    assert guess["error"] and KEY[-13:] not in guess["error"] and "***" in guess["error"]


@pytest.mark.parametrize(
    "spell",
    [
        lambda text: text[:7] + "\u00ad" + text[7:],  # a soft hyphen inside (the judge drops it)
        lambda text: text[:7] + "\u200b" + text[7:],  # a zero-width space inside
        lambda text: "".join(chr(ord(c) + 0xFEE0) for c in text),  # full-width letters and digits
    ],
    ids=["soft-hyphen", "zero-width-space", "full-width"],
)
async def test_a_piece_sent_in_another_spelling_that_the_judge_folds_tells_nothing_either(
    monkeypatch: pytest.MonkeyPatch, spell: Any
) -> None:
    """The offline judge reads a soft hyphen, a zero-width space and full-width letters as the
    plain text: a client spelling its guess so came back with ``***`` where the guess, as the
    judge quotes it, is a piece of the server's key, and with the guess where it is not."""
    monkeypatch.setenv("ACME_API_KEY", KEY)
    piece = KEY[5:18]
    wrong = piece[:-1] + _other(piece[-1])
    right, other = await _answers(spell(piece)), await _answers(spell(wrong))
    same = str(right)
    shown = repr(spell(piece))[1:-1], repr(spell(wrong))[1:-1]  # (as str() shows it)
    for mine, theirs in ((spell(piece), spell(wrong)), shown, (piece, wrong)):
        same = same.replace(mine, theirs).replace(mine.lower(), theirs.lower())
    assert "***" not in str(right)
    assert same == str(other)


@pytest.mark.xfail(
    strict=True,
    reason="open: a judge that follows an instruction in the client's text (an LLM told to "
    "join the words) writes a text the client never sent, so masking its reply still answers",
)
async def test_a_guess_the_judge_is_steered_to_join_tells_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An LLM judge can be asked, in the source itself, to write a guess sent in pieces as one
    word (here: a judge that does so). No run of the key was sent, so the reply's is masked:
    ``***`` where the joined guess is a piece of the key, the guess where it is not."""
    import re

    from summscore.judges import FunctionJudge

    monkeypatch.setenv("ACME_API_KEY", KEY)

    def judge(prompt: str, schema: Any) -> Any:
        joined = re.search(r"JOIN\[([^\]]*)\]", prompt)
        if "keyphrases" in schema.model_fields:
            return {"keyphrases": [joined.group(1).replace(" ", "") if joined else "homes"]}
        if "questions" in schema.model_fields:
            return {"questions": ["Did the council approve homes?"]}
        return {"answers": ["1"]}

    async def keyphrases(guess: str) -> Any:
        scorer = SummarizationScorer(FunctionJudge(judge), preset="ragas")
        source = f"{SOURCE} JOIN[{guess[:6]} {guess[6:]}]"
        async with _client(create_app(scorer)) as client:
            answer = await client.post("/v1/score", json={"source": source, "summary": "Homes."})
        return answer.json()["keyphrases"]

    piece = KEY[5:18]
    wrong = piece[:-1] + _other(piece[-1])
    assert await keyphrases(piece) == [piece]
    assert await keyphrases(wrong) == [wrong]
