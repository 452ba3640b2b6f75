"""Slow clients against ``summscore serve`` on 127.0.0.1: are they closed, and when?

    python benchmarks/serve_slow_clients.py                  # 300 clients, body then headers
    python benchmarks/serve_slow_clients.py --clients 50 --wait 30
    python benchmarks/serve_slow_clients.py --server-arg=--body-timeout --server-arg=10

Starts ``summscore serve`` (offline judge) in a child process, then, for each of two shapes:

- **body**: ``--clients`` connections send a scoring request's headers and then its body one byte
  a second;
- **headers**: ``--clients`` connections send a request line and headers one byte a second;

and reports how many connections the server closed within ``--wait`` seconds, the median and
largest time from connecting to being closed, what the server answered (408 or nothing), and the
latency of an ordinary request sent while the slow ones hold their connections. A server with no
read deadline closes none of them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serve_memory import Server  # the same child-process server


async def _slow_client(port: int, head: bytes, trickle: bytes, wait: float) -> tuple[float, bytes]:
    """(seconds until the server closed the connection, or inf; what it answered)."""
    start = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    answer = b""

    async def trickling() -> None:
        try:
            writer.write(head)
            await writer.drain()
            for byte in trickle:
                await asyncio.sleep(1.0)
                writer.write(bytes([byte]))
                await writer.drain()
        except (ConnectionError, OSError):
            return

    sender = asyncio.create_task(trickling())
    try:
        while True:
            chunk = await asyncio.wait_for(reader.read(65536), wait - (time.monotonic() - start))
            if not chunk:
                break
            answer += chunk
        return time.monotonic() - start, answer
    except (asyncio.TimeoutError, ValueError):
        return float("inf"), answer
    except (ConnectionError, OSError):
        return time.monotonic() - start, answer
    finally:
        sender.cancel()
        writer.close()


def _ordinary(url: str) -> float:
    body = json.dumps({"source": "Rain fell all day in Oslo.", "summary": "It rained."}).encode()
    request = urllib.request.Request(
        f"{url}/v1/score", data=body, headers={"Content-Type": "application/json"}
    )
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=300) as answer:
        answer.read()
    return time.perf_counter() - start


async def _shape(server: Server, shape: str, clients: int, wait: float) -> list[str]:
    # More bytes than a byte a second sends within the wait: only the server can end it.
    pad = "x" * int(wait * 2)
    body = json.dumps(
        {"source": f"The council met on Monday. {pad}", "summary": "It met."}
    ).encode()
    request_head = (
        "POST /v1/score HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        f"X-Pad: {pad}\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    head, trickle = (request_head, body) if shape == "body" else (b"", request_head)
    tasks = [
        asyncio.create_task(_slow_client(server.port, head, trickle, wait)) for _ in range(clients)
    ]
    await asyncio.sleep(2.0)
    ordinary = await asyncio.to_thread(_ordinary, server.url)
    results = await asyncio.gather(*tasks)
    closed = [seconds for seconds, _ in results if seconds != float("inf")]
    answered = sum(answer.startswith(b"HTTP/1.1 408") for _, answer in results)
    line = f"{shape:>7}: {len(closed)} of {clients} closed within {wait:g} s"
    if closed:
        line += (
            f" (median {statistics.median(closed):.1f} s, largest {max(closed):.1f} s "
            f"after connecting; {answered} answered 408)"
        )
    print(line + f"; an ordinary request meanwhile took {ordinary * 1000:,.0f} ms", flush=True)
    when = (
        f"median {statistics.median(closed):.1f} s, largest {max(closed):.1f} s" if closed else "-"
    )
    return [
        f"{clients} clients sending the {shape} a byte a second",
        f"{len(closed)} of {clients} (answered 408: {answered})",
        when,
        f"{ordinary * 1000:,.0f} ms",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=300)
    parser.add_argument("--wait", type=float, default=120.0)
    parser.add_argument("--server-arg", action="append", default=[])
    parser.add_argument(
        "--figures", action="store_true", help="write docs/figures/service-slow-clients.md"
    )
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"summscore serve, slow clients, {args.clients} at a time; load average {load:.1f}")
    server = Server("mastra", args.server_arg)
    _ordinary(server.url)  # the judge's worker starts on the first case: not timed
    try:
        rows = [
            asyncio.run(_shape(server, shape, args.clients, args.wait))
            for shape in ("body", "headers")
        ]
    finally:
        server.stop()
    if args.figures:
        from figures import table, write

        header = (
            "slow clients",
            f"closed within {args.wait:g} s",
            "closed after",
            "an ordinary request meanwhile",
        )
        command = f"python benchmarks/serve_slow_clients.py --clients {args.clients} --wait {args.wait:g} --figures"
        path = write(
            "service-slow-clients",
            table(header, rows),
            command=command,
            setting="default --header-timeout 10 and --body-timeout 60",
        )
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
