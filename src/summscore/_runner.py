"""Run a coroutine to completion from synchronous code, even inside a running event loop.

``asyncio.run`` refuses to start while a loop is running (every notebook cell, every async test),
which is why ragas's ``score()`` raises there. summscore runs synchronous calls on one background
event loop in a daemon thread instead: the caller's loop is never re-entered or blocked by nested
loops, and clients that pool connections per loop (httpx inside AsyncOpenAI) see one long-lived loop
for all synchronous calls.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["run_sync"]

T = TypeVar("T")


class _BackgroundLoop:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._thread is None or not self._thread.is_alive():
                loop = asyncio.new_event_loop()
                ready = threading.Event()

                def serve() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(ready.set)
                    loop.run_forever()

                thread = threading.Thread(target=serve, name="summscore-loop", daemon=True)
                thread.start()
                ready.wait()
                self._loop, self._thread = loop, thread
            return self._loop

    def in_loop_thread(self) -> bool:
        return self._thread is not None and threading.current_thread() is self._thread


_background = _BackgroundLoop()


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Block until ``coro`` finishes on summscore's background loop and return its result."""
    if _background.in_loop_thread():
        coro.close()
        raise RuntimeError(
            "a synchronous summscore call was made from inside a summscore judge; use the async API"
        )
    future = asyncio.run_coroutine_threadsafe(coro, _background.loop())
    try:
        return future.result()
    except BaseException:
        future.cancel()
        raise
