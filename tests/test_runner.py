"""summscore's background event loop (``run_sync``, ``run_on_background``): a connection pool
that is garbage-collected without being closed must not take a live connection's wake-ups with it
(issue #14's stall); a coroutine handed over from another loop runs there and is cancelled with
its caller."""

from __future__ import annotations

import asyncio
import gc
import threading
from typing import Any, ClassVar

import pytest

from summscore.calls.sync import run_on_background, run_sync

# Longest the echo may take before the test calls the connection stalled (it answers in
# microseconds; without the guard it never answers).
_WATCHDOG = 5.0


class _Echo(asyncio.Protocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport: Any = transport

    def data_received(self, data: bytes) -> None:
        self.transport.write(data)


class _Client(asyncio.Protocol):
    def __init__(self) -> None:
        self.answered = asyncio.Event()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # a cycle: transport -> protocol -> transport

    def data_received(self, data: bytes) -> None:
        self.answered.set()


class _AbandonedPool:
    """What openai's ``AsyncHttpxClientWrapper`` does: a client dropped without ``close()`` closes
    its connections from its finalizer. The garbage collector runs every finalizer of the cycle
    first (the transport's closes its socket, freeing the fd number), then the pool's close
    reaches a transport whose fd may already belong to a new connection."""

    resurrected: ClassVar[list[Any]] = []

    def __init__(self, transport: Any) -> None:
        self.transport = transport
        self.me = self  # only the garbage collector frees it

    def __del__(self) -> None:
        _AbandonedPool.resurrected.append(self.transport)


async def _new_connection_is_answered_after_an_abandoned_pool_closes() -> bool:
    loop = asyncio.get_running_loop()
    server = await loop.create_server(_Echo, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        gc.collect()  # other tests' garbage: only the old connection's fd is to be freed below
        old = (await loop.create_connection(_Client, "127.0.0.1", port))[0]
        old.pause_reading()  # an idle keep-alive connection (anyio pauses reading between reads)
        old_fd = old.get_extra_info("socket").fileno()
        _AbandonedPool(old)
        del old
        _AbandonedPool.resurrected.clear()
        gc.collect()
        assert _AbandonedPool.resurrected, "the abandoned pool was not collected"

        new, client = await loop.create_connection(_Client, "127.0.0.1", port)
        reused = new.get_extra_info("socket").fileno() == old_fd
        for transport in _AbandonedPool.resurrected:  # the pool's late close
            transport.abort()
        _AbandonedPool.resurrected.clear()
        new.write(b"ping")
        try:
            await asyncio.wait_for(client.answered.wait(), _WATCHDOG)
        except asyncio.TimeoutError:
            pytest.fail(
                f"the new connection got no answer for {_WATCHDOG:g}s (its reader was lost)"
            )
        finally:
            new.close()
        return reused
    finally:
        server.close()


@pytest.mark.filterwarnings("ignore::ResourceWarning")  # the old transport's finalizer says so
def test_a_collected_unclosed_pool_does_not_stall_a_new_connection_on_the_same_fd() -> None:
    # The lowest free fd number goes to the next socket; another of the loop's connections
    # closing in between (an idle keep-alive one timing out) can take that turn: try again.
    for _ in range(10):
        reused = run_sync(_new_connection_is_answered_after_an_abandoned_pool_closes())
        if reused:
            break
    assert reused  # the situation under test did arise: the fd number was handed out again


def test_run_on_background_runs_there_and_a_cancelled_caller_cancels_it() -> None:
    started, cancelled = threading.Event(), threading.Event()

    async def where() -> str:
        return threading.current_thread().name

    async def forever() -> None:
        started.set()
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    async def main() -> str:
        name = await run_on_background(where())
        task = asyncio.ensure_future(run_on_background(forever()))
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return name

    assert asyncio.run(main()) == "summscore-loop"
    assert cancelled.wait(5)
