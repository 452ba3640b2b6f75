"""The throughput benchmarks keep running (tiny sizes; the figures are not checked here)."""

from __future__ import annotations

from .test_benchmarks import _run


def test_throughput_prints_one_table_per_shape_with_the_bound() -> None:
    out = _run(
        "benchmarks/throughput.py", "--shapes", "2x2", "--latency", "0.01", "--only", "summscore"
    )
    assert "| summscore ragas |" in out and "| summscore deepeval |" in out
    assert "bound (deepeval rule)" in out


def test_lexical_workers_gives_the_same_numbers_on_two_workers() -> None:
    out = _run("benchmarks/lexical_workers.py", "--rows", "8", "--workers", "2")
    assert "| 2 |" in out and "NO" not in out
