"""Results records and sinks the comparison and windowing tests share."""

from __future__ import annotations

from typing import Any


def result_record(i: Any, score: float | str | None, **extra: Any) -> dict[str, Any]:
    """One results-file record of a deepeval run with the offline judge (a failed row when
    ``score`` is None)."""
    return {
        "id": i,
        "score": score,
        "error": None if score is not None else "JudgeError: HTTP 500",
        "preset": "deepeval",
        "judge": "lexical",
        "prompt_set": "none",
        "threshold": 0.5,
        **extra,
    }


class ListWriter:
    """A results writer that keeps the records it is given."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def write(self, record: dict[str, Any]) -> None:
        self.records.append(record)

    def close(self) -> None:
        pass


class NoProgress:
    def update(self, n: int) -> None:
        pass
