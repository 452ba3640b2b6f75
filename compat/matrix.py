"""Run the compat and framework test suites against released ragas and deepeval versions.

    python compat/matrix.py                       # the default versions below
    python compat/matrix.py --ragas 0.3.9 0.4.3   # chosen versions only
    python compat/matrix.py --jobs 2 --keep       # two at once; keep the venvs in .matrix/

Each version gets its own virtual environment under ``.matrix/`` with summscore installed from
this checkout (``[dev,langchain]``) and that one framework at that version; the parity suites
of the other framework skip. The result is a versions x pass/fail table (Markdown, for the
README). CI runs only the pinned versions (constraints/ci.txt); this matrix is run by hand.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".matrix"

# The oldest releases with the APIs summscore plugs into, then a spread up to the newest.
RAGAS = ("0.2.6", "0.2.15", "0.3.0", "0.3.5", "0.3.9", "0.4.0", "0.4.3")
DEEPEVAL = ("3.3.0", "3.6.0", "3.9.9", "4.0.0", "4.2.0", "4.3.1")
# The evaluation platforms' faces: the oldest release supported and the newest tested.
MLFLOW = ("3.4.0", "3.17.2")
INSPECT = ("0.3.130", "0.3.285")
OPIK = ("2.0.0", "2.2.122")
EXTRA_PINS = {
    "ragas": ["langchain-community<0.4"],
    "deepeval": [],
    "mlflow": ["pandas"],  # mlflow.genai.evaluate reads its data with pandas
    "inspect": [],
    "opik": ["filelock<4"],  # opik's litellm
}
# The package each framework is installed as, and the module that imports it.
PACKAGE = {"mlflow": "mlflow-skinny", "inspect": "inspect-ai"}
MODULE = {"inspect": "inspect_ai"}
SUITES = {
    "ragas": [
        "compat/test_parity_ragas.py",
        "tests/test_ragas_collections_face.py",
        "tests/test_ragas_legacy_face.py",
        "tests/test_judges.py",
    ],
    "deepeval": [
        "compat/test_parity_deepeval.py",
        "tests/test_deepeval_face.py",
        "tests/test_judges.py",
    ],
    "mlflow": ["tests/test_mlflow_face.py"],
    "inspect": ["tests/test_inspect_face.py"],
    "opik": ["tests/test_opik_face.py"],
}


@dataclass
class Outcome:
    framework: str
    version: str
    installed: str = ""
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    errors: int = 0
    note: str = ""
    seconds: float = 0.0
    exit_code: int | None = None

    @property
    def ok(self) -> bool:
        return (
            bool(self.installed)
            and self.exit_code == 0
            and self.failed == 0
            and self.errors == 0
            and self.passed > 0
        )


def _run(cmd: list[str], log: Path, timeout: float) -> int:
    with log.open("a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(cmd)}\n")
        out.flush()
        try:
            return subprocess.run(
                cmd, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, timeout=timeout
            ).returncode
        except subprocess.TimeoutExpired:
            out.write(f"timed out after {timeout:.0f}s\n")
            return 124


def check(framework: str, version: str, keep: bool) -> Outcome:
    outcome = Outcome(framework, version)
    start = time.time()
    venv = WORK / f"{framework}-{version}"
    log = WORK / f"{framework}-{version}.log"
    shutil.rmtree(venv, ignore_errors=True)
    log.unlink(missing_ok=True)
    python = venv / "bin" / "python"
    try:
        if _run([sys.executable, "-m", "venv", str(venv)], log, 300) != 0:
            outcome.note = "venv failed"
            return outcome
        install = [
            str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
            "-e", f"{ROOT}[dev,langchain]", f"{PACKAGE.get(framework, framework)}=={version}",
            *EXTRA_PINS[framework],
        ]  # fmt: skip
        if _run(install, log, 1800) != 0:
            outcome.note = "install failed (see log)"
            return outcome
        shown = subprocess.run(
            [
                str(python), "-c",
                f"import importlib.metadata as m; print(m.version('{PACKAGE.get(framework, framework)}'))",
            ],
            capture_output=True, text=True, cwd=ROOT,
        )  # fmt: skip
        outcome.installed = shown.stdout.strip() or "?"
        imported = subprocess.run(
            [str(python), "-c", f"import {MODULE.get(framework, framework)}"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        if imported.returncode != 0:
            last = (imported.stderr.strip().splitlines() or ["?"])[-1]
            outcome.note = f"`import {framework}` fails: {last}"
            outcome.errors = 1
            return outcome
        # --tb=native: pytest's own traceback formatter re-parses source files and has crashed
        # (INTERNALERROR, exit 3) on some of the frameworks' modules.
        test = [
            str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=native",
            *SUITES[framework],
        ]  # fmt: skip
        code = outcome.exit_code = _run(test, log, 1800)
        tail = log.read_text(encoding="utf-8", errors="replace")[-4000:]
        for count, word in re.findall(r"(\d+) (passed|failed|skipped|errors?)", tail):
            setattr(outcome, "errors" if word.startswith("error") else word, int(count))
        if code == 5:
            outcome.note = "no tests ran (framework too old for every suite?)"
        elif code not in (0, 1):
            outcome.note = f"pytest exit {code}"
        elif outcome.failed or outcome.errors:
            failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", tail, flags=re.MULTILINE)
            outcome.note = ", ".join(f.split("::")[-1] for f in failed[:3])
        return outcome
    finally:
        outcome.seconds = time.time() - start
        if not keep:
            shutil.rmtree(venv, ignore_errors=True)


def table(outcomes: list[Outcome]) -> str:
    lines = [
        "| framework | version | result | passed | failed | skipped | note |",
        "| --- | --- | --- | ---: | ---: | ---: | --- |",
    ]
    for o in outcomes:
        result = "pass" if o.ok else ("not installable" if not o.installed else "fail")
        lines.append(
            f"| {o.framework} | {o.version} | {result} | {o.passed} | {o.failed + o.errors} "
            f"| {o.skipped} | {o.note} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ragas", nargs="*", default=list(RAGAS), metavar="VERSION")
    parser.add_argument("--deepeval", nargs="*", default=list(DEEPEVAL), metavar="VERSION")
    parser.add_argument("--mlflow", nargs="*", default=list(MLFLOW), metavar="VERSION")
    parser.add_argument("--inspect", nargs="*", default=list(INSPECT), metavar="VERSION")
    parser.add_argument("--opik", nargs="*", default=list(OPIK), metavar="VERSION")
    parser.add_argument("--jobs", type=int, default=1, help="versions checked at once")
    parser.add_argument("--keep", action="store_true", help="keep the virtual environments")
    args = parser.parse_args()
    WORK.mkdir(exist_ok=True)
    plan = [
        (framework, version)
        for framework in ("ragas", "deepeval", "mlflow", "inspect", "opik")
        for version in getattr(args, framework)
    ]
    outcomes: dict[tuple[str, str], Outcome] = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(check, fw, v, args.keep): (fw, v) for fw, v in plan}
        for future in concurrent.futures.as_completed(futures):
            outcome = future.result()
            outcomes[futures[future]] = outcome
            status = "pass" if outcome.ok else "FAIL"
            print(
                f"{outcome.framework} {outcome.version}: {status} "
                f"({outcome.passed} passed, {outcome.failed + outcome.errors} failed, "
                f"{outcome.seconds:.0f}s) {outcome.note}",
                flush=True,
            )
    print()
    print(table([outcomes[key] for key in plan]))


if __name__ == "__main__":
    main()
