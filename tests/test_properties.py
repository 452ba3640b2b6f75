"""Property-based tests (hypothesis) over the reader, the scorer with the offline judge, the report
writer and the command: whatever the input holds, no exception but a clear ValueError/TypeError
naming the field, and no example slower than a bound proportional to its size.

CI runs a bounded number of examples, derandomized (the same ones every run); set
SUMMSCORE_FUZZ_EXAMPLES=2000 to search longer by hand. Time is measured as CPU time of this
process (less sensitive to a busy machine than wall time) against a generous bound per KB, so a
quadratic path is caught without a flaky timing test.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import math
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from summscore import SummarizationScorer
from summscore.cli import main
from summscore.files.datasets import InputError, open_rows
from summscore.judges import LexicalJudge
from summscore.report import ReportCase, render_report, write_report

_EXAMPLES = int(os.environ.get("SUMMSCORE_FUZZ_EXAMPLES", "60"))
_FUZZ = settings(
    max_examples=_EXAMPLES,
    deadline=None,
    derandomize=_EXAMPLES <= 100,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# Generous: the offline judge scores ~3 KB pairs in ~10 ms of CPU; 0.1 s per KB is 30x that.
_FIXED_SECONDS, _SECONDS_PER_KB = 1.0, 0.1
_FIELDS = re.compile(r"\b(source|summary|assessment_questions|contexts?|reference_contexts)\b")


@contextlib.contextmanager
def _bounded(size_in_chars: int) -> Iterator[None]:
    start = time.process_time()
    yield
    spent = time.process_time() - start
    bound = _FIXED_SECONDS + _SECONDS_PER_KB * size_in_chars / 1024
    assert spent <= bound, f"{spent:.2f} s of CPU for {size_in_chars} chars (bound {bound:.2f} s)"


# ---------------------------------------------------------------------------- strategies

# Text from every corner: any code point (lone surrogates included), words, numbers of every
# length up to past the float range (310 digits once overflowed), repeated units, whitespace.
_words = st.lists(
    st.sampled_from(
        [
            "Paris",
            "London",
            "the",
            "mill",
            "closed",
            "in",
            "1990",
            "not",
            "$3",
            "12%",
            "Zoë",
            "東京",
            "\u200b",
            "-",
            ".",
            "\n",
            "no",
            "never",
            "Apple's",
            "U.S.",
            "½",
            "1,000,000",
        ]
    ),
    max_size=60,
).map(" ".join)
_digits = st.integers(1, 400).map(lambda n: "7" * n)
_repeated = st.tuples(_words, st.integers(1, 40)).map(lambda t: t[0] * t[1])
_text = st.one_of(st.text(max_size=400), _words, _digits, _repeated, st.just(" \t\n"))
_value = st.one_of(
    _text,
    st.lists(_text, max_size=4),
    st.none(),
    st.integers(),
    st.floats(),
    st.booleans(),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
# Raw JSON fragments the json module trips on, spliced into otherwise valid lines.
_raw_json = st.one_of(
    _value.map(json.dumps),
    st.just("9" * 5000),
    st.just("[" * 3000 + "]" * 3000),
    st.just('"\\ud800 lone"'),
    st.just("NaN"),
    st.just('"' + "long " * 30_000 + '"'),
)


@st.composite
def _jsonl_bytes(draw: st.DrawFn) -> bytes:
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        names = draw(
            st.lists(
                st.sampled_from(["id", "source", "summary", "contexts", "x"]),
                max_size=4,
                unique=True,
            )
        )
        names = names or ["source", "summary"]
        fields = ", ".join(f"{json.dumps(name)}: {draw(_raw_json)}" for name in names)
        lines.append("{" + fields + "}")
    if draw(st.booleans()):
        lines.append(draw(st.text(max_size=50)))  # a line that is not JSON at all
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    return _damage(draw, data)


@st.composite
def _csv_bytes(draw: st.DrawFn) -> bytes:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=draw(st.sampled_from([",", "\t"])))
    header = draw(
        st.sampled_from(
            [["id", "source", "summary"], ["source", "summary"], ["contexts", "response"]]
        )
    )
    writer.writerow(header)
    for _ in range(draw(st.integers(0, 5))):
        cells = [
            draw(st.one_of(_text, _value.map(json.dumps), st.just('["a", "b",'))) for _ in header
        ]
        writer.writerow(cells[: draw(st.integers(0, len(cells)))] if draw(st.booleans()) else cells)
    data = buffer.getvalue().encode("utf-8", "surrogatepass")
    return _damage(draw, data)


def _damage(draw: st.DrawFn, data: bytes) -> bytes:
    """Maybe splice in bytes that are not UTF-8, or a byte-order mark, or a NUL."""
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(data)))
        data = (
            data[:at]
            + draw(st.sampled_from([b"\xff", b"\xe9", b"\x00", b"\xc3", b"\r"]))
            + data[at:]
        )
    if draw(st.booleans()):
        data = draw(st.sampled_from([b"\xef\xbb\xbf", b"\xff\xfe", b""])) + data
    return data


def _check_rows(path: Path) -> int:
    """Read every row of ``path``; return how many. Whole-file problems are InputError."""
    try:
        reader = open_rows(path)
    except InputError as exc:
        assert str(exc).startswith(str(path)) and "\n" not in str(exc)
        return 0
    count = 0
    for row in reader:
        count += 1
        if row.error is not None:
            assert re.match(r"(line|item|row) \d+", row.error), row.error
        else:
            assert isinstance(row.summary, str) and row.summary.strip()
            assert isinstance(row.source, (str, list))
    return count


# ---------------------------------------------------------------------------- the reader


@_FUZZ
@given(data=st.one_of(_jsonl_bytes(), st.binary(max_size=300)), gzipped=st.booleans())
@example(data=b"\x1f\x8b", gzipped=False)  # found by this test: a gzip header and nothing else
@example(data=b'\xff\xfe{"source": "", "summary": ""}', gzipped=False)  # UTF-16, odd length
def test_the_reader_reads_any_jsonl_bytes_without_a_traceback(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, gzipped: bool
) -> None:
    path = tmp_path_factory.mktemp("fuzz") / ("data.jsonl.gz" if gzipped else "data.jsonl")
    path.write_bytes(gzip.compress(data) if gzipped else data)
    with _bounded(len(data)):
        _check_rows(path)


@_FUZZ
@given(
    data=st.one_of(_csv_bytes(), st.binary(max_size=300)),
    suffix=st.sampled_from([".csv", ".tsv", ".json"]),
)
def test_the_reader_reads_any_csv_tsv_or_json_bytes_without_a_traceback(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, suffix: str
) -> None:
    path = tmp_path_factory.mktemp("fuzz") / f"data{suffix}"
    if suffix == ".json":  # the JSONL lines as one list
        lines = [line for line in data.split(b"\n") if line.strip()]
        data = b"[" + b",".join(lines) + b"]"
    path.write_bytes(data)
    with _bounded(len(data)):
        _check_rows(path)


# ---------------------------------------------------------------------------- the scorer

_scorers = {
    preset: SummarizationScorer(LexicalJudge(), preset=preset)
    for preset in ("ragas", "deepeval", "mastra")
}


def _size(*values: Any) -> int:
    return sum(len(json.dumps(v, default=str)) for v in values)


@_FUZZ
@given(
    preset=st.sampled_from(sorted(_scorers)),
    source=_value,
    summary=_value,
    questions=st.one_of(st.none(), st.lists(_text, max_size=3)),
)
@example(
    preset="deepeval", source="Paris ... London ... Berlin " * 40, summary="Paris.", questions=None
)
@example(preset="ragas", source=["\ud800", "ok"], summary="\udfff ok", questions=None)
def test_the_offline_scorer_gives_a_result_or_an_error_naming_the_field(
    preset: str, source: Any, summary: Any, questions: Any
) -> None:
    scorer = _scorers[preset]
    with _bounded(_size(source, summary, questions)):
        try:
            result = scorer.score(source, summary, questions)
        except (ValueError, TypeError) as exc:
            assert _FIELDS.search(str(exc)), str(exc)
            return
    assert result.judge == "lexical" and (result.ok or result.error)
    if result.ok:
        top = 1.0
        assert 0.0 <= result.score <= top


def test_a_310_digit_number_does_not_overflow_the_offline_judge() -> None:
    """Past the float range (310 digits), a number is read as no number, not as inf, and the
    words around it are judged as ever."""
    big = "1" * 310
    in_words = f"The mill closed in {big}."
    ragas, small = (
        _scorers["ragas"].score(text, text) for text in (in_words, "The mill closed in 1990.")
    )
    assert ragas.ok and ragas.qa_score == small.qa_score == 1.0
    assert ragas.score == pytest.approx(0.5)  # QA 1, conciseness 0: the summary is the source
    deepeval = _scorers["deepeval"].score(in_words, in_words)
    assert deepeval.ok and deepeval.alignment_score == deepeval.coverage_score == 1.0
    other = _scorers["deepeval"].score(in_words, f"The mill closed in {big[:-1]}2.")
    assert other.ok and other.alignment_score is not None and other.alignment_score < 1.0
    bare = _scorers["ragas"].score(big, big)
    assert not bare.ok and math.isnan(bare.score)
    assert bare.error and "no questions" in bare.error  # said in the row, not raised


# ---------------------------------------------------------------------------- the report

_report_text = st.one_of(
    st.none(), st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=200), _words
)


@_FUZZ
@given(
    cases=st.lists(
        st.tuples(st.sampled_from(sorted(_scorers)), _report_text, _report_text, _value),
        max_size=6,
    )
)
def test_the_report_writer_renders_any_results(cases: list[tuple[str, Any, Any, Any]]) -> None:
    report_cases = []
    for preset, source, summary, case_id in cases:
        scorer = _scorers[preset]
        try:
            result = scorer.score(source, summary) if source and summary else None
        except (ValueError, TypeError) as exc:
            result = scorer.failed_result(exc)
        result = result or scorer.failed_result(ValueError("summary cannot be empty"))
        report_cases.append(ReportCase(case_id, source, summary, result))
    with _bounded(_size([c[1:] for c in cases])):
        page = render_report(report_cases)
    assert page.startswith("<!doctype html>") and "<script" not in page.split("<style>")[0]
    page.encode("utf-8")


def test_the_report_writer_survives_a_lone_surrogate(tmp_path: Path) -> None:
    """A lone surrogate (from a JSON "\\ud800" escape) is scored as any character, and the report
    shows it as U+FFFD in the case's id, text and data, in a file that is valid UTF-8."""
    source, summary = "The mill \ud800 closed in 1990.", "The mill closed."
    result = _scorers["ragas"].score(source, summary)
    assert result.ok and result.qa_score == 0.0  # the summary does not say 1990
    assert result.conciseness_score == pytest.approx(1 - len(summary) / len(source))
    write_report(tmp_path / "r.html", [ReportCase("\ud800", "The mill \ud800", "x", result)])
    page = (tmp_path / "r.html").read_bytes().decode("utf-8")  # strict: no surrogate left
    assert '<div class="text">The mill \ufffd</div>' in page
    assert f'<span class="score low">{result.score:.3f}</span><span>\ufffd</span>' in page
    data = re.search(r'<script type="application/json" id="summscore-data">(.*?)</script>', page)
    assert data, "the report's embedded data"
    (case,) = json.loads(data.group(1))["cases"]
    assert case["id"] == "\ufffd" and case["s"] == result.score


# ---------------------------------------------------------------------------- the command


def _not_strict_json(name: str) -> Any:
    raise AssertionError(f"{name} in a results file: not strict JSON")


@settings(_FUZZ, max_examples=max(10, _EXAMPLES // 4))
@example(data=b'{"id": 1e999, "source": NaN, "summary": "x"}\n{"id": -Infinity}')
@example(
    data=b'{"source": "a b", "summary": "a"}\n{"id": "\xc2\x85\xe2\x80\xa8"}'
)  # (one line each)
@given(data=_jsonl_bytes())
def test_the_command_never_raises_and_writes_one_row_per_record(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    folder = tmp_path_factory.mktemp("cli")
    path, out = folder / "data.jsonl", folder / "out.jsonl"
    path.write_bytes(data)
    with _bounded(len(data)):
        code = main(["score", str(path), "--out", str(out), "--no-progress"])
    assert code in (0, 2, 3)  # 3: rows failed (1 is a gate's, and none is asked for)
    if code == 2:
        assert not out.exists()
        return
    rows = [
        json.loads(line, parse_constant=_not_strict_json)
        for line in out.read_text(encoding="utf-8").splitlines()
    ]
    assert len(rows) == _check_rows(path)
    assert all((r["error"] is None) == (r["score"] is not None) for r in rows)
