"""The client-CPU benchmark keeps running (tiny sizes; the figures are not checked here)."""

from __future__ import annotations

from .test_benchmarks import _run


def test_client_cpu_prints_cpu_per_call_and_its_parts_for_each_summscore_rule() -> None:
    out = _run(
        "benchmarks/client_cpu.py", "--shape", "2x1", "--latency", "0.01", "--only", "summscore"
    )
    assert "| system | CPU ms/call | calls |" in out
    assert "| summscore ragas |" in out and "| summscore deepeval |" in out
