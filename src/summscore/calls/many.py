"""Many cases through one scorer: the stream behind ``ascore_stream``/``ascore_many`` (a bounded
pool of workers over a lazily read input) and the batch's progress bar."""

from __future__ import annotations

import asyncio
import sys
import warnings
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable
from typing import Any

from ..cases import Case, as_case
from ..results import SummaryResult
from .caller import JudgeCaller
from .limiter import RequestLimiter

__all__ = ["case_id", "progress_bar", "stream_cases"]

# Cases in flight per allowed request: cases wait on shared sources and on their own earlier
# calls, so more cases than request slots keep every slot busy.
_CASES_PER_REQUEST = 8


async def stream_cases(
    cases: Iterable[Any],
    *,
    score: Callable[[Case], Awaitable[SummaryResult]],
    failed: Callable[[BaseException], SummaryResult],
    caller: JudgeCaller,
    max_concurrency: int,
    call_limit: int | None,
) -> AsyncGenerator[tuple[int, SummaryResult], None]:
    """Yield ``(index, result)`` for each case as soon as ``score`` gives it; a case that raises
    is ``failed(exc)``. ``max_concurrency`` sizes the pool; ``call_limit`` (checked by the
    caller) also bounds this stream's judge requests in flight."""
    limiter = RequestLimiter(call_limit) if call_limit is not None else None
    source = enumerate(cases)
    # Bounded: workers wait while the consumer is behind, so the input is read no faster
    # than results are taken.
    done: asyncio.Queue[tuple[int, SummaryResult] | None] = asyncio.Queue(maxsize=max_concurrency)
    failures: list[BaseException] = []

    async def worker() -> None:
        if limiter is not None:  # each worker is a task of its own: this stays in it
            caller.use_call_limit(limiter)
        finished = False
        try:
            while not failures:
                try:  # one shared iterator: each item is taken once
                    index, item = next(source)
                except StopIteration:
                    break
                except Exception as exc:  # the input itself failed: stop, and say so
                    failures.append(exc)
                    break
                try:
                    result = await score(as_case(item, index))
                except Exception as exc:
                    result = failed(exc)
                await done.put((index, result))
            finished = True
        except Exception as exc:  # a bug, not a case: report it rather than hang
            failures.append(exc)
            finished = True
        finally:
            if finished:  # not when cancelled: nobody is reading any more
                await done.put(None)

    workers = [asyncio.create_task(worker()) for _ in range(max_concurrency * _CASES_PER_REQUEST)]
    running = len(workers)
    try:
        while running:
            item = await done.get()
            if item is None:
                running -= 1
                continue
            yield item
    finally:
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
    if failures:
        raise failures[0]


def case_id(item: Any, index: int) -> Any:
    """The id a result reports: the case's own, else its position in the batch."""
    try:
        found = as_case(item, index).id
    except Exception:  # the case was unreadable; its result says why
        return index
    return index if found is None else found


def _in_notebook() -> bool:
    """True inside a Jupyter kernel (JupyterLab, Notebook, VS Code, Colab), where stderr is no tty."""
    ipython = sys.modules.get("IPython")
    get_ipython = getattr(ipython, "get_ipython", None)
    shell = get_ipython() if callable(get_ipython) else None
    return any(cls.__name__ == "ZMQInteractiveShell" for cls in type(shell).__mro__)


def progress_bar(total: int, progress: bool | None) -> Any:
    """A bar with ETA for ``total`` cases; by default only in a terminal or a notebook."""
    if progress is None:
        progress = _in_notebook() or sys.stderr.isatty()
    if not progress or total == 0:
        return None
    with warnings.catch_warnings():
        # A notebook without ipywidgets gets the text bar, as documented, without tqdm's
        # warning that the widget is missing ("IProgress not found", shown in red in the cell).
        warnings.filterwarnings("ignore", "IProgress not found")
        from tqdm.auto import tqdm  # a widget in a notebook with ipywidgets, else text on stderr

    return tqdm(total=total, desc="summscore", unit="case", file=sys.stderr, dynamic_ncols=True)
