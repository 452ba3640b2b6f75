"""The server of ``serve_memory.py`` (and ``serve_slow_clients.py``): ``summscore serve`` in a
child process on a free port of 127.0.0.1, the resident memory of it and of its workers read from
``/proc``, and a JSON POST with its status and seconds."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import Any

# ---------------------------------------------------------------------------- the server


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``summscore serve`` on 127.0.0.1 in a child process, with an RSS sampler."""

    def __init__(self, preset: str, extra: list[str]) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "summscore.cli", "serve", "--preset", preset]
        command += ["--port", str(self.port), "--no-access-log", "--log-level", "warning", *extra]
        self.log = open(os.devnull, "w")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.PIPE, text=True)
        self.peak_total = self.peak_server = self.peak_worker = 0
        self.current = (0, 0, 0)
        self._stop = threading.Event()
        self._wait_up()
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()

    def _wait_up(self) -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"summscore serve exited: {self.process.stderr.read()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise SystemExit("summscore serve did not come up in 120 s")

    def rss(self) -> tuple[int, int, int]:
        """(sum, server, largest worker) resident bytes of the server and its descendants."""
        server = _rss(self.process.pid)
        workers = [_rss(pid) for pid in _descendants(self.process.pid)]
        return server + sum(workers), server, max(workers, default=0)

    def _sample(self) -> None:
        while not self._stop.wait(0.2):
            total, server, worker = self.current = self.rss()
            self.peak_total = max(self.peak_total, total)
            self.peak_server = max(self.peak_server, server)
            self.peak_worker = max(self.peak_worker, worker)

    def terminate(self) -> float:
        """SIGTERM; seconds until the server process has exited (its workers with it)."""
        start = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return float("inf")
        finally:
            self._stop.set()
        return time.monotonic() - start

    def stop(self) -> None:
        self._stop.set()
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.log.close()


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                parent = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def post(
    url: str, body: dict[str, Any], timeout: float = 900, path: str = "/v1/score"
) -> tuple[int, dict[str, Any]]:
    data = json.dumps(body).encode()
    request = urllib.request.Request(
        f"{url}{path}", data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def _mb(value: float) -> str:
    return f"{value / 2**20:,.0f} MB"
