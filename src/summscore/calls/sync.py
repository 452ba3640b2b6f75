"""Run a coroutine to completion from synchronous code, even inside a running event loop.

``asyncio.run`` refuses to start while a loop is running (every notebook cell, every async test),
which is why ragas's ``score()`` raises there. summscore runs synchronous calls on one background
event loop in a daemon thread instead: the caller's loop is never re-entered or blocked by nested
loops, and clients that pool connections per loop (httpx inside AsyncOpenAI) see one long-lived loop
for all synchronous calls.

That loop guards against a stall seen with clients dropped without ``close()`` (issue #14): when
the garbage collector frees an unclosed connection pool (openai's ``AsyncHttpxClientWrapper``), it
runs every finalizer of the garbage first, so the pool's transports close their sockets and free
their fd numbers; then the pool's own finalizer, which resurrected them, closes those transports
again. By then a new connection may hold the same fd number, and asyncio's transport removes the
new connection's reader from the selector: that request never wakes up and waits for its full
timeout with nothing in flight. Here a transport whose socket is already closed leaves the
selector alone.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import weakref
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["run_on_background", "run_sync"]

T = TypeVar("T")


class _FdGuard:
    """A transport's view of its loop that ignores selector changes once the transport's own
    socket is closed: its fd number may belong to another connection by then."""

    def __init__(self, loop: asyncio.AbstractEventLoop, transport: Any) -> None:
        self._real = loop
        self._transport = weakref.ref(transport)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def _owns_fd(self) -> bool:
        transport = self._transport()
        sock = getattr(transport, "_sock", None)
        return sock is not None and sock.fileno() != -1

    def _add_reader(self, fd: int, callback: Callable[..., Any], *args: Any) -> Any:
        if self._owns_fd():
            return self._real._add_reader(fd, callback, *args)  # type: ignore[attr-defined]
        return None

    def _add_writer(self, fd: int, callback: Callable[..., Any], *args: Any) -> Any:
        if self._owns_fd():
            return self._real._add_writer(fd, callback, *args)  # type: ignore[attr-defined]
        return None

    def _remove_reader(self, fd: int) -> bool:
        if self._owns_fd():
            return bool(self._real._remove_reader(fd))  # type: ignore[attr-defined]
        return False

    def _remove_writer(self, fd: int) -> bool:
        if self._owns_fd():
            return bool(self._real._remove_writer(fd))  # type: ignore[attr-defined]
        return False


class _GuardedLoop(asyncio.SelectorEventLoop):
    """A selector loop whose socket transports cannot touch a reused fd (see the module doc)."""

    def _make_socket_transport(self, sock: socket.socket, *args: Any, **kwargs: Any) -> Any:
        made = super()._make_socket_transport(sock, *args, **kwargs)  # type: ignore[misc]
        self._guard(sock)
        return made

    def _make_ssl_transport(self, rawsock: socket.socket, *args: Any, **kwargs: Any) -> Any:
        made = super()._make_ssl_transport(rawsock, *args, **kwargs)  # type: ignore[misc]
        self._guard(rawsock)
        return made

    def _guard(self, sock: socket.socket) -> None:
        # The transport just built registered itself under its fd.
        transport = self._transports.get(sock.fileno())  # type: ignore[attr-defined]
        if transport is not None and getattr(transport, "_loop", None) is self:
            transport._loop = _FdGuard(self, transport)


def _new_loop() -> asyncio.AbstractEventLoop:
    """The guarded loop where asyncio's selector transports are what they were built on."""
    try:
        return _GuardedLoop()
    except Exception:  # pragma: no cover - an interpreter whose asyncio internals moved
        return asyncio.new_event_loop()


class _BackgroundLoop:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._thread is None or not self._thread.is_alive():
                loop = _new_loop()
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


async def run_on_background(coro: Coroutine[Any, Any, T]) -> T:
    """Await ``coro`` run on summscore's background loop, from a caller's asyncio loop.

    For a face inside a loop that keeps its own event loop busy with work between the scorer's
    awaits (Inspect's per-sample logging): the judge's requests go out and their answers are read
    on the background loop's thread while the caller's loop does that work, instead of waiting
    their turn in its queue. Cancelling the caller cancels ``coro``. On summscore's own loop (or
    in a loop that is not asyncio's, where there is nothing to hand the result back to), ``coro``
    is awaited where it is."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # another async library's loop (trio): run here, as before
        return await coro
    if _background.in_loop_thread():
        return await coro
    future = asyncio.run_coroutine_threadsafe(coro, _background.loop())
    return await asyncio.wrap_future(future)
