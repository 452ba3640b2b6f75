"""The offline judge as the service runs it: worker processes in two lanes, each worker's memory
bounded.

The offline judge is CPU work, and one worker judges one request at a time: a 2 MB case held the
only worker for minutes while another client's two-sentence case waited behind it. Here requests
whose texts reach ``large_chars`` characters go to ``large_workers`` processes of their own, and
the rest to ``workers`` processes, so a large case never stalls small ones (on one core the two
lanes share it, as the operating system shares a core between two processes). The service also
keeps large cases to as many at once as the large lane has workers (``runner.Runner``).

The size that counts is the client's request, not one case of it: a batch of twenty cases just
under the mark is as much work as one case twenty times the mark, and held the small lane for
as long. The service marks the work of a request whose texts together reach ``large_chars``
(``large_request``), and every judge request made for it goes to the large lane.

Every worker reports its resident memory after each request; one past ``max_worker_rss`` is
recycled between requests, nothing lost (``summscore.calls.pool.ProcessPoolJudge``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from ..calls.pool import ProcessPoolJudge
from ..judges.base import JudgeReply, JudgeRequest

__all__ = ["LARGE_CHARS", "LanedJudge", "large_request", "request_chars", "within_large_request"]

# About a second of the offline judge's work on one core; a 600 kB source takes ten or more.
LARGE_CHARS = 50_000

# Set while the work of a large client request runs (tasks started then inherit it).
_LARGE_REQUEST: ContextVar[bool] = ContextVar("summscore_serve_large_request", default=False)


@contextmanager
def large_request(large: bool = True) -> Iterator[None]:
    """Within the block (and in the tasks started in it), judge requests go to the large lane
    when ``large``, whatever their own size."""
    token = _LARGE_REQUEST.set(large)
    try:
        yield
    finally:
        _LARGE_REQUEST.reset(token)


def within_large_request() -> bool:
    """Whether the running code works for a large client request (see ``large_request``)."""
    return _LARGE_REQUEST.get()


def request_chars(inputs: Mapping[str, Any]) -> int:
    """The characters of text a request carries (its strings and lists of strings)."""
    total = 0
    for value in inputs.values():
        if isinstance(value, str):
            total += len(value)
        elif isinstance(value, (list, tuple)):
            total += sum(len(item) for item in value if isinstance(item, str))
    return total


class LanedJudge:
    """``factory()`` judges in two pools of worker processes, by the size of each request."""

    def __init__(
        self,
        factory: Callable[[], Any],
        workers: int,
        *,
        large_workers: int = 1,
        large_chars: int = LARGE_CHARS,
        max_worker_rss: int | None = None,
    ) -> None:
        if (
            isinstance(large_workers, bool)
            or not isinstance(large_workers, int)
            or large_workers < 0
        ):
            raise ValueError(f"large_workers must be 0 or more, got {large_workers!r}")
        if isinstance(large_chars, bool) or not isinstance(large_chars, int) or large_chars < 1:
            raise ValueError(f"large_chars must be a positive integer, got {large_chars!r}")
        self.small = ProcessPoolJudge(factory, workers, max_worker_rss=max_worker_rss)
        self.large = (
            ProcessPoolJudge(factory, large_workers, max_worker_rss=max_worker_rss)
            if large_workers
            else None
        )
        self.large_chars = large_chars
        self.large_workers = large_workers
        self.max_worker_rss = max_worker_rss
        # What the scorer reads of a judge, as the pooled judge has it.
        self.name: str = self.small.name
        self.reads_prompts: bool = self.small.reads_prompts
        self.grades_claims: bool = self.small.grades_claims
        self.cache_identity: str | None = self.small.cache_identity
        fits = getattr(self.small, "check_fits", None)
        if callable(fits):
            self.check_fits = fits

    @property
    def pools(self) -> list[ProcessPoolJudge]:
        return [self.small] if self.large is None else [self.small, self.large]

    def is_large(self, inputs: Mapping[str, Any]) -> bool:
        """Whether a judge request with ``inputs`` goes to the large lane: it is made for a
        large client request, or it is large itself."""
        if self.large is None:
            return False
        return within_large_request() or request_chars(inputs) >= self.large_chars

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        pool = (
            self.large if self.large is not None and self.is_large(request.inputs) else self.small
        )
        return await pool.complete(request)

    @property
    def recycled(self) -> int:
        """Workers replaced between requests for passing ``max_worker_rss``."""
        return sum(pool.recycled for pool in self.pools)

    @property
    def restarted(self) -> int:
        """Workers stopped mid-request (the request was cancelled) and replaced."""
        return sum(pool.restarted for pool in self.pools)

    def close(self) -> None:
        for pool in self.pools:
            pool.close()

    def terminate(self) -> None:
        for pool in self.pools:
            pool.terminate()

    def __repr__(self) -> str:
        return (
            f"LanedJudge({self.name!r}, workers={self.small.workers}, "
            f"large_workers={self.large_workers}, large_chars={self.large_chars})"
        )
