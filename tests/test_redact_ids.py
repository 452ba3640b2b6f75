"""A row id that holds a key is masked wherever the id is shown (``--out`` in every format, the
report, messages), as a summary holding it is; ``--resume`` still finds its rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from summscore.cli import main
from summscore.masking import register_secret
from summscore.masking.secrets import WINDOW

ENV_KEY = "gw-Zq81LmX04TrkPa97vNcE"  # a gateway token that looks like no known key shape
REGISTERED = "tok_4f9Kd2LmQx7Rw8ZpYb3N"


def _windows(secret: str) -> list[str]:
    return [secret[i : i + WINDOW] for i in range(len(secret) - WINDOW + 1)]


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_a_key_in_an_id_is_masked_in_the_results_and_the_report(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    suffix: str,
) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    monkeypatch.setenv("SUMMSCORE_GATEWAY_API_KEY", ENV_KEY)
    register_secret(REGISTERED)
    rows = [
        {"id": ENV_KEY, "source": "The bridge opened in 1901.", "summary": f"{ENV_KEY} opened."},
        {"id": f"doc-{REGISTERED}", "source": "The bridge opened.", "summary": "It opened."},
        {"id": "plain", "source": "The bridge opened.", "summary": "It opened."},
        {"id": ENV_KEY, "source": "The dam opened in 1902.", "summary": "It opened."},  # again
    ]
    data = tmp_path / "in.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out, report = tmp_path / f"out{suffix}", tmp_path / "report.html"
    assert main(["score", str(data), "--out", str(out), "--report", str(report)]) == 0
    err = capsys.readouterr().err
    written = {
        "results": out.read_bytes().decode("utf-8", "replace"),
        "report": report.read_text(encoding="utf-8"),
        "messages": err,  # the duplicate-id line names the id
    }
    for where, text in written.items():
        for secret in (ENV_KEY, REGISTERED):
            leaked = [w for w in _windows(secret) if w.lower() in text.lower()]
            assert leaked == [], f"{where} shows {leaked[0]!r}"
    assert "plain" in written["results"] and "***" in written["report"]

    assert main(["score", str(data), "--out", str(out), "--resume", "--no-progress"]) == 0
    assert "4 rows kept from the earlier run" in capsys.readouterr().err
