"""The summscore command: inputs, outputs, failures, the report and --help."""

from __future__ import annotations

import argparse
import csv
import json
import re
from pathlib import Path

import pytest

from summscore.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
NEWS = ROOT / "examples" / "news.jsonl"


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_the_main_job_scores_every_example_and_writes_results_and_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, report = tmp_path / "out.jsonl", tmp_path / "report.html"
    code = main(["score", str(NEWS), "--out", str(out), "--report", str(report), "--no-progress"])
    assert code == 0
    inputs = _jsonl(NEWS)
    rows = _jsonl(out)
    assert [r["id"] for r in rows] == [i["id"] for i in inputs]
    assert all(isinstance(r["score"], float) and r["error"] is None for r in rows)
    assert {"qa_score", "conciseness_score", "reason", "missed_questions"} <= set(rows[0])
    err = capsys.readouterr().err
    assert f"results: {out}" in err and f"report:  {report}" in err
    assert re.search(r"failed\s+0\n", err) and re.search(r"median\s+0\.\d{3}", err)
    page = report.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and page.count("<script") == 2  # data, app
    assert "Score distribution" in page and "news-tesla-misattributed" in page


def test_a_row_that_fails_is_written_with_its_error_and_the_exit_status_is_3(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data.jsonl"
    data.write_text(
        "\n".join(
            [
                json.dumps(
                    {"id": "a", "source": "The cat sat on the mat.", "summary": "A cat sat."}
                ),
                "{not json",
                json.dumps({"id": "c", "source": "Rain fell all day.", "response": "   "}),
                json.dumps({"id": "d", "text": "no usable columns"}),
                json.dumps(
                    {"id": "e", "source": ["Ships sail.", "Planes fly."], "summary": "Ships sail."}
                ),
            ]
        ),
        encoding="utf-8",
    )
    out = tmp_path / "out.jsonl"
    assert main(["score", str(data), "--out", str(out), "--no-progress"]) == 3
    rows = _jsonl(out)
    assert [r["id"] for r in rows] == ["a", 2, "c", "d", "e"]
    assert rows[0]["error"] is None and rows[4]["error"] is None
    assert "line 2 is not valid JSON" in rows[1]["error"]
    assert "summary cannot be empty" in rows[2]["error"]
    assert "line 4 (id 'd'): no summary" in rows[3]["error"] and rows[3]["score"] is None


def test_csv_in_and_out_with_custom_columns_and_list_contexts(tmp_path: Path) -> None:
    data = tmp_path / "data.csv"
    with data.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["doc", "article", "tldr"])
        writer.writerow(
            ["x1", json.dumps(["Prices rose 5% in May.", "Wages rose 3%."]), "Prices rose 5%."]
        )
        writer.writerow(
            [
                "x2",
                "The bridge, opened in 1932, carries 50,000 cars a day.",
                "The bridge opened in 1932.",
            ]
        )
    out = tmp_path / "scores.csv"
    code = main(
        [
            "score",
            str(data),
            "--source-column",
            "article",
            "--summary-column",
            "tldr",
            "--id-column",
            "doc",
            "--preset",
            "deepeval",
            "--threshold",
            "0.4",
            "--out",
            str(out),
            "--no-progress",
        ]
    )
    assert code == 0
    with out.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["id"] for r in rows] == ["x1", "x2"]
    assert rows[0]["alignment_score"] != "" and rows[0]["qa_score"] == ""
    assert rows[0]["success"] in ("True", "False")
    assert isinstance(json.loads(rows[0]["missed_questions"]), list)


def test_a_column_named_twice_is_read_from_its_first_and_the_run_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "two.csv"
    data.write_text(
        "id,source,summary,summary,note,note\n"
        "a,The bridge opened in 1911.,The bridge opened in 1911.,It opened in 1955.,x,y\n",
        encoding="utf-8",
    )
    assert main(["score", str(data), "--out", str(tmp_path / "o.jsonl"), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "two.csv: 2 columns are named 'summary'; the first is read" in err
    assert "'note'" not in err  # a column not read is no concern
    from summscore.files.datasets import read_rows

    assert next(read_rows(data)).summary == "The bridge opened in 1911."


def test_parquet_input(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    table = pa.table(
        {
            "id": [1, 2],
            "reference_contexts": [
                ["Oslo is the capital of Norway."],
                ["Water boils at 100 C.", "At sea level."],
            ],
            "response": ["Oslo is Norway's capital.", "Water boils at 100 C at sea level."],
        }
    )
    data = tmp_path / "data.parquet"
    pq.write_table(table, data)
    out = tmp_path / "out.jsonl"
    assert (
        main(
            [
                "score",
                str(data),
                "--preset",
                "mastra",
                "--scale",
                "10",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    rows = _jsonl(out)
    assert [r["id"] for r in rows] == [1, 2]
    assert all(0 <= r["score"] <= 10 for r in rows)


def test_options_of_another_preset_are_refused_with_the_cli_spelling(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            [
                "score",
                str(NEWS),
                "--preset",
                "deepeval",
                "--coeff",
                "0.3",
                "--out",
                str(tmp_path / "o.jsonl"),
            ]
        )
        == 2
    )
    assert "--coeff" in capsys.readouterr().err
    out = str(tmp_path / "o.jsonl")
    assert main(["score", str(NEWS), "--preset", "ragas", "--coeff", "1.5", "--out", out]) == 2
    assert "between 0.0 and 1.0" in capsys.readouterr().err


def test_the_default_rule_is_the_one_that_agrees_best_with_people() -> None:
    # docs/figures/presets.md (benchmarks/lexical_presets.py): the deepeval rule's score has the
    # best mean margin over word overlap on the development sets, and on examples/news.jsonl it
    # passes every faithful summary and fails every flawed one; the ragas rule checks no fact.
    from summscore.cli import make_scorer

    for command in (["score", "x.jsonl"], ["serve"]):
        assert make_scorer(build_parser().parse_args(command)).preset == "deepeval"


def test_the_openai_judge_needs_a_key_and_never_echoes_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MY_KEY", raising=False)
    args = ["score", str(NEWS), "--judge", "openai", "--model", "m", "--api-key-env", "MY_KEY"]
    assert main([*args, "--out", str(tmp_path / "o.jsonl")]) == 2
    assert "environment variable MY_KEY" in capsys.readouterr().err
    assert main(["score", str(NEWS), "--judge", "openai"]) == 2
    assert "needs --model" in capsys.readouterr().err


def test_missing_and_unknown_inputs_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", str(tmp_path / "nope.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "data.txt").write_text("x")
    assert main(["score", str(tmp_path / "data.txt")]) == 2
    assert (
        "use .jsonl, .json, .csv, .tsv (optionally .gz), .parquet, .xlsx or .xlsm"
        in capsys.readouterr().err
    )
    (tmp_path / "empty.jsonl").write_text("\n")
    assert main(["score", str(tmp_path / "empty.jsonl")]) == 2
    assert "no rows" in capsys.readouterr().err


def test_limit_scores_only_the_first_rows(tmp_path: Path) -> None:
    out = tmp_path / "o.jsonl"
    assert main(["score", str(NEWS), "--limit", "3", "--out", str(out), "--no-progress"]) == 0
    assert len(_jsonl(out)) == 3


def test_every_option_is_documented_with_an_example() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    score = sub.choices["score"]
    options = [a for a in score._actions if not isinstance(a, argparse._HelpAction)]
    assert len(options) >= 20
    for action in options:
        assert action.help and "e.g." in action.help, action.dest
    assert "examples:" in (score.epilog or "")


def test_untrusted_text_is_escaped_in_the_report(tmp_path: Path) -> None:
    data = tmp_path / "x.jsonl"
    evil = '<script>alert("x")</script> The plant closed in 1999.'
    data.write_text(
        json.dumps({"id": "<b>1</b>", "source": "The plant closed in 1987.", "summary": evil})
        + "\n"
    )
    report = tmp_path / "r.html"
    main(
        [
            "score",
            str(data),
            "--preset",
            "mastra",
            "--out",
            str(tmp_path / "o.jsonl"),
            "--report",
            str(report),
            "--no-progress",
        ]
    )
    page = report.read_text(encoding="utf-8")
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "<b>1</b>" not in page
    assert '<mark class="bad"' in page  # the wrong year is highlighted as unsupported


def test_an_openai_compatible_judge_through_base_url(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    judge_server: object,
) -> None:
    key = "sk-compat-cli-secret-0000"
    monkeypatch.setenv("COMPAT_JUDGE_KEY", key)
    out, report = tmp_path / "out.csv", tmp_path / "report.html"
    code = main(
        [
            "score",
            str(NEWS),
            "--judge",
            "openai",
            "--model",
            "gpt-4o-mini",
            "--base-url",
            judge_server.url,
            "--api-key-env",
            "COMPAT_JUDGE_KEY",  # type: ignore[attr-defined]
            "--preset",
            "deepeval",
            "--max-concurrency",
            "4",
            "--out",
            str(out),
            "--report",
            str(report),
            "--no-progress",
        ]
    )
    err = capsys.readouterr().err
    assert code == 0, err
    with out.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(_jsonl(NEWS)) and all(r["error"] == "" for r in rows)
    assert "input /" in err and "judge calls" in err  # tokens reported by the server are counted
    for text in (out.read_text(encoding="utf-8"), report.read_text(encoding="utf-8"), err):
        assert key not in text


def test_mastra_questions_and_rule_version_from_the_command_line(tmp_path: Path) -> None:
    from summscore.cli import UsageError, make_scorer

    args = build_parser().parse_args(
        ["score", "x.jsonl", "--preset", "mastra", "--n", "7", "--mastra-version", "0.x"]
    )
    options = make_scorer(args).options
    assert options["max_questions"] == 7 and options["version"] == "0.x"
    bad = build_parser().parse_args(["score", "x.jsonl", "--mastra-version", "0.x"])
    with pytest.raises(UsageError, match="version"):
        make_scorer(bad)
