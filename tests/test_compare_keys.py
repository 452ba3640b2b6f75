"""Keys never appear in what ``summscore compare`` prints (the summary and ``--json``) or in the
JSON object an A/B run writes, as they never appear in the HTML comparison: a results file made
elsewhere (or edited by hand) may quote one in a reason, a claim, an error or an id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from summscore.cli import main
from summscore.comparison import compare
from tests.result_rows import result_record

SK = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd"
ENV = "own-gateway-secret-7f3a9c2e81d4b6"  # no known shape: known as the environment's key


def _files(tmp_path: Path) -> tuple[Path, Path]:
    base = [result_record(f"c{i}", 0.9, source_fingerprint=f"s{i}") for i in range(12)]
    candidate = [
        result_record(
            f"c{i}",
            0.2,
            source_fingerprint=f"s{i}",
            reason=f"The summary quotes the key {SK} and {ENV}.",
            unsupported_claims=[f"The deploy used {SK}.", f"The gateway took {ENV}."],
            missed_questions=[f"Does the text say that {ENV} was rotated?"],
        )
        for i in range(12)
    ]
    candidate[0] = {**candidate[0], "id": f"id-{SK}"}
    base[0] = {**base[0], "id": f"id-{SK}"}
    candidate[1] = result_record("c1", None, error=f"AuthenticationError: bad key {SK} {ENV}")
    paths = tmp_path / "base.jsonl", tmp_path / "candidate.jsonl"
    for path, rows in zip(paths, (base, candidate)):
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return paths


def _leaks(text: str) -> list[str]:
    return [k for k in (SK, ENV, SK[8:20], ENV[:16]) if k in text]


def test_compare_prints_no_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", ENV)
    base, candidate = _files(tmp_path)
    assert main(["compare", str(base), str(candidate)]) == 0
    printed = capsys.readouterr()
    assert "regressed" in printed.out and not _leaks(printed.out + printed.err)
    assert main(["compare", str(base), str(candidate), "--json"]) == 0
    printed = capsys.readouterr()
    found = json.loads(printed.out)
    assert found["worst_regressions"] and not _leaks(printed.out + printed.err)
    data = json.dumps(compare(base, candidate).to_dict())
    assert "new_unsupported_claims" in data and not _leaks(data)
