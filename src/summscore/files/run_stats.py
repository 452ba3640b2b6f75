"""Statistics of a run kept in constant memory, whatever the number of rows.

Count, mean and standard deviation (Welford), minimum and maximum are exact. Quantiles come from
a fixed histogram of 100,000 bins over [0, top], so they are within top / 100,000 of the exact
value, well below the three decimals the summary prints. Failures keep a count per cause and the
first few messages.
"""

from __future__ import annotations

import math
import re
from array import array
from collections import Counter

from ..results import SummaryResult
from ..results.stats import Summary

__all__ = ["RunningSummary"]

_DIGITS = re.compile(r"(?<![\w-])\d+(?![\w-])")  # numbers, not the 8 of utf-8
# "line 3 (id 'x'): ": the id as repr() writes it, which may hold parentheses of its own.
_LOCATION = re.compile(
    r"^(?:line|item|row) \d+(?: \(id (?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[^)]*)\))?:? "
)
# "(byte 0xe9 at character 31)": a detail that varies by row (a number standing alone in it; not
# the 2 of a column named "summary (v2)")
_DETAIL = re.compile(r" \([^()]*(?<![\w-])\d+(?![\w-])[^()]*\)")
# A quoted name ("column 'summary (v2)'") is the user's, kept as written.
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_HELD = re.compile("[\ue000-\uf8ff]")  # a quoted name, held out of the blanking
_BINS = 100_000
_KEEP_FAILURES = 5
_MAX_CAUSES = 20


class RunningSummary:
    """Add results one at a time; ``summary`` describes them as ``stats.describe`` does."""

    def __init__(self, top: float = 1.0) -> None:
        self.top = top if top > 0 else 1.0
        self.count = 0
        self.scored = 0
        self._mean = 0.0
        self._m2 = 0.0
        self._min = math.inf
        self._max = -math.inf
        self._bins = array("q", bytes(8 * _BINS))
        self._components: dict[str, list[float]] = {}  # name -> [sum, count]
        self.first_failures: list[str] = []
        self.causes: Counter[str] = Counter()
        self.passed = 0  # rows whose score reached the pass mark
        self.threshold: float | None = None  # the rule's threshold, when it has one

    def add(self, result: SummaryResult) -> None:
        score = None if not result.ok else result.score
        if result.threshold is not None:
            self.threshold = result.threshold
        self.add_values(score, result.error, result.components(), success=result.success)

    def add_values(
        self,
        score: float | None,
        error: str | None,
        components: dict[str, float],
        *,
        success: bool | None = None,
    ) -> None:
        """Add one row given by its values (a row of an earlier run's results file)."""
        self.count += 1
        if success is None and score is not None and error is None and not math.isnan(score):
            success = score >= self.pass_mark
        self.passed += bool(success)
        if score is None or error is not None or math.isnan(score):
            message = error or "no score"
            if len(self.first_failures) < _KEEP_FAILURES:
                self.first_failures.append(message)
            cause = _cause(message)
            if cause in self.causes or len(self.causes) < _MAX_CAUSES:
                self.causes[cause] += 1
            else:
                self.causes["other"] += 1
            return
        self.scored += 1
        delta = score - self._mean
        self._mean += delta / self.scored
        self._m2 += delta * (score - self._mean)
        self._min = min(self._min, score)
        self._max = max(self._max, score)
        index = int(min(max(score / self.top, 0.0), 1.0) * _BINS)
        self._bins[min(index, _BINS - 1)] += 1
        for name, value in components.items():
            total = self._components.setdefault(name, [0.0, 0.0])
            total[0] += value
            total[1] += 1

    @property
    def failed(self) -> int:
        return self.count - self.scored

    @property
    def pass_mark(self) -> float:
        """The rule's threshold, else half the top score (as the HTML report counts passes)."""
        return self.threshold if self.threshold is not None else self.top / 2

    @property
    def pass_rate(self) -> float | None:
        """Share of all rows (failed ones included) whose score reached the pass mark."""
        return self.passed / self.count if self.count else None

    def component_means(self) -> dict[str, float]:
        return {name: total / n for name, (total, n) in self._components.items() if n}

    def summary(self) -> Summary:
        if not self.scored:
            return Summary(self.count, 0, self.failed, *([None] * 7))
        return Summary(
            count=self.count,
            scored=self.scored,
            failed=self.failed,
            mean=self._mean,
            std=math.sqrt(self._m2 / self.scored),
            minimum=self._min,
            p25=self._quantile(0.25),
            median=self._quantile(0.5),
            p75=self._quantile(0.75),
            maximum=self._max,
        )

    def _value_at(self, rank: int) -> float:
        """The ``rank``-th smallest score (0-based), to within one bin."""
        if rank == 0:
            return self._min
        if rank == self.scored - 1:
            return self._max
        seen = 0
        for index, n in enumerate(self._bins):
            seen += n
            if seen > rank:
                middle = (index + 0.5) * self.top / _BINS
                return min(max(middle, self._min), self._max)
        return self._max

    def _quantile(self, q: float) -> float:
        """Linear interpolation between closest ranks (numpy's default), as stats.describe."""
        position = (self.scored - 1) * q
        low, high = math.floor(position), math.ceil(position)
        a, b = self._value_at(low), self._value_at(high)
        return a + (b - a) * (position - low)


def _cause(message: str) -> str:
    """The kind of a failure: the exception name a failed result starts with, or the problem
    itself (a row's problem, a judge's message) as a whole phrase with what varies by row blanked:
    its location, numbers and detail in brackets; quoted names are kept as written."""
    head, _, rest = message.partition(": ")
    if head.isidentifier() and rest:
        if head not in ("ValueError", "TypeError"):
            return head
        # A row problem: "ValueError: line 3 (id 'x'): summary cannot be empty" -> the problem.
        message = _LOCATION.sub("", rest, count=1)
    quoted: list[str] = []

    def hold(m: re.Match[str]) -> str:
        if len(quoted) >= 6400:  # (one private-use character per quoted name)
            return m.group(0)
        quoted.append(m.group(0))
        return chr(0xE000 + len(quoted) - 1)

    # (A message holding private-use characters of its own is blanked as it stands.)
    detail = message if _HELD.search(message) else _QUOTED.sub(hold, message)
    detail = _DIGITS.sub("N", _DETAIL.sub("", detail)).rstrip(" .;,:")
    words = " ".join(detail.split())
    if len(words) > 80:
        words = words[:79].rsplit(" ", 1)[0] + " …"
    return _HELD.sub(lambda m: quoted[ord(m.group(0)) - 0xE000], words) if quoted else words
