"""What ``score_many`` returns: a list of results that also summarises itself.

``SummaryResults`` is a ``list`` subclass, so code that indexes, iterates or compares the
results as a list keeps working; on top it has ``summary`` (mean, quantiles,
pass rate, failures by cause, spend), ``to_pandas`` (one row per case) and a
table for notebooks (``_repr_html_``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .html import CSS, cell, number
from .result import SummaryResult
from .stats import BatchSummary, summarize
from .usage import Usage

__all__ = ["SummaryResults"]

_COMPONENTS = ("qa_score", "conciseness_score", "alignment_score", "coverage_score")
_HTML_ROWS = 20  # rows of the notebook table; to_pandas() has them all


class SummaryResults(list[SummaryResult]):
    """The results of ``score_many`` / ``ascore_many``, in input order, each with its case ``id``."""

    def __init__(self, results: Iterable[SummaryResult] = ()) -> None:
        super().__init__(results)

    # ------------------------------------------------------------------ numbers

    def summary(self, *, threshold: float | None = None, top: float = 1.0) -> BatchSummary:
        """Mean, quantiles, pass rate, mean components, failures by cause and spend.

        ``threshold`` is the pass mark (default: the deepeval preset's threshold, else half of
        ``top``; pass ``top=10`` for Mastra's ``scale=10``).
        """
        return summarize(self, threshold=threshold, top=top)

    @property
    def usage(self) -> Usage:
        """Judge calls, tokens and cost of all results together (cost None when unknown)."""
        total = Usage()
        for result in self:
            total.add(result.usage)
        return total

    @property
    def scores(self) -> list[float]:
        """Each result's score, in input order (NaN where a case was not scored)."""
        return [r.score for r in self]

    @property
    def failures(self) -> SummaryResults:
        """The results that could not be scored (an ``error`` says why)."""
        return SummaryResults(r for r in self if not r.ok)

    def to_records(self) -> list[dict[str, Any]]:
        """One flat dict per case: id, score, components, verdict, evidence counts, spend, and
        what scored it (preset, judge, prompt set, threshold: ``summscore.compare`` refuses
        two frames scored differently, as it refuses two results files)."""
        present = [n for n in _COMPONENTS if any(getattr(r, n) is not None for r in self)]
        records = []
        for r in self:
            records.append(
                {
                    "id": r.id,
                    "score": r.score,
                    **{name: getattr(r, name) for name in present},
                    "success": r.success,
                    "error": r.error,
                    "unsupported_claims": len(r.unsupported_claims),
                    "missed_questions": len(r.missed_questions),
                    "reason": r.reason,
                    "judge_calls": r.usage.judge_calls,
                    "input_tokens": r.usage.input_tokens,
                    "output_tokens": r.usage.output_tokens,
                    "cost": r.usage.cost,
                    "preset": r.preset,
                    "judge": r.judge,
                    "prompt_set": r.prompt_set,
                    "threshold": r.threshold,
                }
            )
        return records

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame``, one row per case, components as columns (needs pandas)."""
        try:
            import pandas as pd
        except ImportError as exc:
            raise ImportError("to_pandas() needs pandas: pip install pandas") from exc
        return pd.DataFrame.from_records(self.to_records())

    # ------------------------------------------------------------------ display

    def __repr__(self) -> str:
        if not self:
            return "SummaryResults([])"
        s = self.summary()
        mean = "nan" if s.scores.mean is None else f"{s.scores.mean:.3f}"
        head = f"SummaryResults({len(self)} cases, mean {mean}, {s.scores.failed} failed, {s.cost_text})"
        lines = [f"  {r!r}" for r in self[:5]]
        if len(self) > 5:
            lines.append(f"  ... {len(self) - 5} more")
        return "\n".join([head, *lines])

    __str__ = __repr__

    def _repr_html_(self) -> str:
        s = self.summary()
        rows = s.rows()
        stats = (
            "<tr>"
            + "".join(f"<th>{cell(k)}</th>" for k, _ in rows)
            + "</tr><tr>"
            + "".join(f"<td>{cell(v)}</td>" for _, v in rows)
            + "</tr>"
        )
        causes = "".join(f"<tr><td>{n}</td><td>{cell(cause)}</td></tr>" for cause, n in s.causes)
        present = [n for n in _COMPONENTS if any(getattr(r, n) is not None for r in self)]
        head = "".join(
            f"<th>{cell(n.removesuffix('_score'))}</th>"
            for n in ("id", "score", *present, "pass", "error")
        )
        body = []
        for r in self[:_HTML_ROWS]:
            verdict = "✓" if r.ok and r.score >= s.threshold else "✗"
            cells = [cell(r.id), number(r.score), *(number(getattr(r, n)) for n in present)]
            cells += [verdict, cell(r.error or "")]
            body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        more = (
            f"<p>{len(self) - _HTML_ROWS} more rows: <code>results.to_pandas()</code></p>"
            if len(self) > _HTML_ROWS
            else ""
        )
        failures = (
            f"<table class='summscore-r'><caption>Failures by cause</caption>{causes}</table>"
            if causes
            else ""
        )
        return (
            f"{CSS}<div class='summscore-r'><table class='summscore-r'><caption>summscore: "
            f"{len(self)} cases</caption>{stats}</table>{failures}"
            f"<table class='summscore-r'><tr>{head}</tr>{''.join(body)}</table>{more}</div>"
        )
