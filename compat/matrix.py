"""Run the compat and framework test suites against released ragas and deepeval versions.

    python compat/matrix.py                       # the default versions below
    python compat/matrix.py --ragas 0.3.9 0.4.3   # chosen versions only
    python compat/matrix.py --jobs 2 --keep       # two at once; keep the venvs in .matrix/

Each version gets its own virtual environment under ``.matrix/`` with summscore installed from
this checkout (``[dev,langchain]``) and that one framework at that version; the parity and drop-in
suites of the other framework skip. Then, for ragas and deepeval, the seven-faces test runs in the
same environment with the other faces' frameworks added (the other of ragas/deepeval, MLflow,
Inspect AI, Opik: their newest releases the extras allow, the version under test kept) and is
reported in its own column, so a row's result is never hidden by a dependency clash of the
others. ``--no-faces`` skips that step. The result is a versions x pass/fail table (Markdown;
``--figures`` writes it to docs/figures/versions.md, which the Supported versions page shows). CI runs only the pinned versions (constraints/ci.txt); this matrix is run by hand.
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
        "compat/test_dropin_ragas.py",
        "tests/test_ragas_collections_face.py",
        "tests/test_ragas_legacy_face.py",
        "tests/test_judges.py",
    ],
    "deepeval": [
        "compat/test_parity_deepeval.py",
        "compat/test_dropin_deepeval.py",
        "tests/test_deepeval_face.py",
        "tests/test_judges.py",
    ],
    "mlflow": ["tests/test_mlflow_face.py"],
    "inspect": ["tests/test_inspect_face.py"],
    "opik": ["tests/test_opik_face.py"],
}
# The seven-faces test (one scorer behind every face) needs every framework in one environment:
# what is added to a ragas or deepeval row for it (opik's litellm wants filelock<4).
SEVEN_FACES = "compat/test_seven_faces.py"
FACES_EXTRAS = {"ragas": "deepeval,mlflow,inspect,opik", "deepeval": "ragas,mlflow,inspect,opik"}
FACES_PINS = ["filelock<4"]


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
    faces: str = ""  # the seven-faces test: "pass", "fail", "install failed", "" (not run)

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


def _counts(log: Path) -> dict[str, int]:
    """passed / failed / skipped / errors of the last pytest run written to ``log``."""
    tail = log.read_text(encoding="utf-8", errors="replace")[-4000:]
    counts: dict[str, int] = {}
    for count, word in re.findall(r"(\d+) (passed|failed|skipped|errors?)", tail):
        counts["errors" if word.startswith("error") else word] = int(count)
    return counts


def _failures(log: Path) -> str:
    tail = log.read_text(encoding="utf-8", errors="replace")[-4000:]
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", tail, flags=re.MULTILINE)
    return ", ".join(f.split("::")[-1] for f in failed[:3])


def _seven_faces(framework: str, version: str, python: Path, log: Path) -> str:
    """Add the other faces' frameworks (keeping ``framework`` at ``version``), run the test."""
    install = [
        str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
        "-e", f"{ROOT}[dev,langchain,{FACES_EXTRAS[framework]}]",
        f"{PACKAGE.get(framework, framework)}=={version}", *EXTRA_PINS[framework], *FACES_PINS,
    ]  # fmt: skip
    if _run(install, log, 1800) != 0:
        return "install failed"
    test = [
        str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=native", SEVEN_FACES,
    ]  # fmt: skip
    code = _run(test, log, 900)
    counts = _counts(log)
    if code == 0 and counts.get("passed"):
        return "pass"
    if code == 0:
        return "skipped"
    return f"fail ({_failures(log) or f'pytest exit {code}'})"


def check(framework: str, version: str, keep: bool, faces: bool = True) -> Outcome:
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
        counts = _counts(log)
        for word, count in counts.items():
            setattr(outcome, word, count)
        if code == 5:
            outcome.note = "no tests ran (framework too old for every suite?)"
        elif code not in (0, 1):
            outcome.note = f"pytest exit {code}"
        elif outcome.failed or outcome.errors:
            outcome.note = _failures(log)
        if faces and framework in FACES_EXTRAS:
            outcome.faces = _seven_faces(framework, version, python, log)
        return outcome
    finally:
        outcome.seconds = time.time() - start
        if not keep:
            shutil.rmtree(venv, ignore_errors=True)


def table(outcomes: list[Outcome]) -> str:
    lines = [
        "| framework | version | result | passed | failed | skipped | seven faces | note |",
        "| --- | --- | --- | ---: | ---: | ---: | --- | --- |",
    ]
    for o in outcomes:
        result = "pass" if o.ok else ("not installable" if not o.installed else "fail")
        lines.append(
            f"| {o.framework} | {o.version} | {result} | {o.passed} | {o.failed + o.errors} "
            f"| {o.skipped} | {o.faces or '–'} | {o.note} |"
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
    parser.add_argument(
        "--faces",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also run the seven-faces test in the ragas and deepeval rows (default: on)",
    )
    parser.add_argument(
        "--figures", action="store_true", help="write the table to docs/figures/versions.md"
    )
    args = parser.parse_args()
    WORK.mkdir(exist_ok=True)
    plan = [
        (framework, version)
        for framework in ("ragas", "deepeval", "mlflow", "inspect", "opik")
        for version in getattr(args, framework)
    ]
    outcomes: dict[tuple[str, str], Outcome] = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(check, fw, v, args.keep, args.faces): (fw, v) for fw, v in plan}
        for future in concurrent.futures.as_completed(futures):
            outcome = future.result()
            outcomes[futures[future]] = outcome
            status = "pass" if outcome.ok else "FAIL"
            print(
                f"{outcome.framework} {outcome.version}: {status} "
                f"({outcome.passed} passed, {outcome.failed + outcome.errors} failed, "
                f"{outcome.seconds:.0f}s) {outcome.note}"
                + (f" seven faces: {outcome.faces}" if outcome.faces else ""),
                flush=True,
            )
    print()
    print(table([outcomes[key] for key in plan]))
    if args.figures:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        import figures

        body = table([outcomes[key] for key in plan])
        figures.write("versions", body, command="python compat/matrix.py --figures")


if __name__ == "__main__":
    main()
