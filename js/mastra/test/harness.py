"""Test harness of @summscore/mastra: the compat judge and ``summscore serve`` on loopback.

    python js/mastra/test/harness.py --version 1.x     (from the repository root)

Starts the compat judge server, then ``summscore serve --judge openai --base-url <judge>
--preset mastra`` on a free port of 127.0.0.1 with a bearer token, waits for ``/healthz``, scores
the test cases with the Python faces (``summscore.mastra``) on one shared scorer judged by the
same compat server, and prints one JSON line: the judge's and the service's URLs, the token and
the cases with the Python numbers. Beside it runs an offline service (``--judge lexical --preset
deepeval``, whose claims carry a graded ``support``) with the Python core's result of one case. It then runs until its stdin closes (the TypeScript test ends
it that way), and stops both servers.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import openai

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))

from compat.corpus import case  # noqa: E402
from compat.judge_server import JudgeServer  # noqa: E402

from summscore import SummarizationScorer  # noqa: E402
from summscore.mastra import SummarizationMetric, create_summarization_scorer  # noqa: E402

CASE_IDS = (
    "news-fitness",
    "news-tesla-misattributed",
    "news-tesla-faithful",
    "news-rates-wrong-number",
    "science-crispr-omits",
    "report-q3-hallucinates",
    "merger-swapped-names",
    "copy-of-source",
)
MODEL = "compat-judge"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_service(judge: list[str], token: str) -> tuple[subprocess.Popen[bytes], str]:
    """``summscore serve`` with the ``judge`` options (and ``--preset``), once it answers."""
    port = free_port()
    env = {**os.environ, "SUMMSCORE_TEST_TOKEN": token, "PYTHONPATH": str(REPO / "src")}
    command = [
        sys.executable,
        "-m",
        "summscore.cli",
        "serve",
        *judge,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--token-env",
        "SUMMSCORE_TEST_TOKEN",
        "--log-level",
        "warning",
    ]
    process = subprocess.Popen(command, env=env, cwd=REPO, stdout=sys.stderr)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"summscore serve exited with {process.returncode}")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    process.terminate()
    raise SystemExit("summscore serve did not answer /healthz within 60 s")


def python_numbers(judge_url: str, version: str) -> list[dict[str, object]]:
    """Each case scored by both Python faces on one shared scorer."""
    client = openai.AsyncOpenAI(base_url=judge_url, api_key="not-needed")
    scorer = SummarizationScorer(llm=client, model=MODEL, preset="mastra", version=version)
    legacy = SummarizationMetric(scorer=scorer)
    current = create_summarization_scorer(scorer=scorer)
    cases = []
    for case_id in CASE_IDS:
        c = case(case_id)
        measured = legacy.measure(c.source, c.summary)
        run = current.run({"input": c.source, "output": c.summary})
        cases.append(
            {
                "id": c.id,
                "source": c.source,
                "summary": c.summary,
                "python": {
                    "SummarizationMetric": measured.to_dict(),
                    "createSummarizationScorer": run.to_dict(),
                },
            }
        )
    return cases


OFFLINE = ["--preset", "deepeval", "--judge", "lexical"]
OFFLINE_CASE = "news-rates-wrong-number"


def offline_result() -> dict[str, object]:
    """One case scored by the Python core with the offline judge, as the offline service runs."""
    from summscore.judges import LexicalJudge

    c = case(OFFLINE_CASE)
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="deepeval")
    result = scorer.score(c.source, c.summary)
    return {"source": c.source, "summary": c.summary, "python": result.to_dict()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", choices=("1.x", "0.x"), default="1.x")
    args = parser.parse_args()
    token = secrets.token_urlsafe(16)
    with JudgeServer() as judge:
        online = ["--preset", "mastra", "--judge", "openai", "--base-url", judge.url]
        services: list[subprocess.Popen[bytes]] = []
        try:
            service, url = start_service([*online, "--model", MODEL], token)
            services.append(service)
            offline, offline_url = start_service(OFFLINE, token)
            services.append(offline)
            ready = {
                "judgeUrl": judge.url,
                "serviceUrl": url,
                "token": token,
                "model": MODEL,
                "version": args.version,
                "cases": python_numbers(judge.url, args.version),
                "offline": {"serviceUrl": offline_url, **offline_result()},
            }
            print(json.dumps(ready), flush=True)
            sys.stdin.read()  # until the test closes our stdin
        finally:
            for process in services:
                process.terminate()
            for process in services:
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()


if __name__ == "__main__":
    main()
