"""A small mutation pass over the modules whose mistakes a test must catch: the formulas and
rounding, the redaction of secrets, the retry policy and sender, resume and its fingerprints.

    python3 -m venv .venv-mutation
    .venv-mutation/bin/pip install -e ".[all,dev]" -c constraints/ci.txt && .venv-mutation/bin/pip install mutmut
    .venv-mutation/bin/python benchmarks/mutation.py [--jobs 2] [--work /tmp/summscore-mutation]

mutmut (3.x; it wants a newer click than deepeval's pin allows, hence a venv of its own) mutates
each function of those modules one change at a time (an operator, a constant, a comparison, a
dropped argument) and runs the tests that call that function; a mutant no test fails on
"survived". The run happens in a copy of the repository's tracked files (``--work``, kept so
``cd <work> && mutmut show <name>`` shows a mutant), never in the checkout. It prints killed and
survived per module and each survivor's diff, and exits 1 when a mutant survives that
``EXPLAINED`` does not list. Not part of CI: about 15-30 minutes on two cores.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MODULES = {
    "formulas": ["src/summscore/formulas.py"],
    "masking": ["src/summscore/masking/*"],
    "calls.policy": ["src/summscore/calls/policy.py"],
    "calls.sender": ["src/summscore/calls/sender.py"],
    "files.resume": ["src/summscore/files/resume.py"],
    "files.fingerprint": ["src/summscore/files/fingerprint.py"],
}
# The tests that exercise them (mutmut runs, for each mutant, those of them that call its function).
TESTS = [
    "tests/test_formulas.py",
    "tests/test_js_round.py",
    "tests/test_scorer.py",
    "tests/test_scorer_with_preset.py",
    "tests/test_scorer_named.py",
    "tests/test_mastra_face.py",
    "tests/test_deepeval_face.py",
    "tests/test_ragas_collections_face.py",
    "tests/test_secrets.py",
    "tests/test_redact_cache.py",
    "tests/test_redact_replies.py",
    "tests/test_redact_source_keys.py",
    # (not tests/test_judge_openai.py: two of its tests pass only in file order, the fallback
    # test teaching the process-wide format memory what the other then reads)
    "tests/test_judge_openai_fastpost.py",
    "tests/test_scorer_fast_paths.py",
    "tests/test_calls.py",
    "tests/test_pool.py",
    "tests/test_lost_answers.py",
    "tests/test_runner.py",
    "tests/test_cli.py",
    "tests/test_cli_streaming.py",
    "tests/test_cli_resume_identity.py",
    "tests/test_cli_out_checks.py",
    "compat/test_leaks.py",
    "compat/test_faults.py",
]
# Survivors that no test can kill because the mutant behaves as the original (equivalent
# mutants), by mutmut's name, with why. A survivor not listed here fails the run.
EXPLAINED: dict[str, str] = {
    "summscore.formulas.x_ragas_qa_score__mutmut_5": 'a.upper() == "1": only "1" is "1" in either case',
    "summscore.formulas.x_deepeval_normalize_verdict__mutmut_2": 'None read as str(None), "none": no verdict, as ""',
    "summscore.formulas.x_deepeval_normalize_verdict__mutmut_4": 'None read as "XXXX": no verdict, as ""',
    "summscore.formulas.x_deepeval_normalize_verdict__mutmut_23": 'no leading word read as "XXXX": no verdict, as ""',
}


def _copy_repository(work: Path) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    if work.exists():
        shutil.rmtree(work)
    for name in filter(None, files):
        source = ROOT / name.decode()
        if source.is_file():
            target = work / name.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _configure(work: Path) -> None:
    config = {
        "source_paths": ["src/"],
        "only_mutate": [pattern for patterns in MODULES.values() for pattern in patterns],
        # Everything beside src/ (tests read examples/, docs/, benchmarks/ ...).
        "also_copy": sorted(
            p.name + ("/" if p.is_dir() else "") for p in work.iterdir() if p.name != "src"
        ),
        "pytest_add_cli_args": ["-p", "no:cacheprovider", "-q"],
        "pytest_add_cli_args_test_selection": TESTS,
    }
    lines = ["", "[tool.mutmut]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in config.items()]
    with (work / "pyproject.toml").open("a", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


def _module_of(mutant: str) -> str:
    # summscore.calls.policy.x_retry_delay__mutmut_3, or xǁClassǁmethod__mutmut_3 for a method
    dotted = mutant.split(".x")[0] if ".x" in mutant else mutant.rsplit(".", 1)[0]
    name = dotted.removeprefix("summscore.")
    return "masking" if name.startswith("masking") else name


def _results(work: Path, python: str) -> dict[str, str]:
    done = subprocess.run(
        [python, "-m", "mutmut", "results", "--all", "true"],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    )
    status = {}
    for line in done.stdout.splitlines():
        if ": " in line:
            name, verdict = line.strip().rsplit(": ", 1)
            status[name] = verdict
    return status


def _show(work: Path, python: str, mutant: str) -> str:
    done = subprocess.run(
        [python, "-m", "mutmut", "show", mutant], cwd=work, capture_output=True, text=True
    )
    return done.stdout.strip()


def table(status: dict[str, str]) -> str:
    counts: dict[str, Counter[str]] = {}
    for mutant, verdict in status.items():
        counts.setdefault(_module_of(mutant), Counter())[verdict] += 1
    verdicts = ["killed", "survived", "timeout", "no tests", "suspicious", "skipped"]
    lines = [
        "| module | mutants | " + " | ".join(verdicts) + " |",
        "| --- | ---: | " + " | ".join("---:" for _ in verdicts) + " |",
    ]
    for module in sorted(counts):
        row = counts[module]
        lines.append(
            f"| {module} | {sum(row.values())} | "
            + " | ".join(str(row[v]) for v in verdicts)
            + " |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/summscore-mutation"))
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at once")
    parser.add_argument(
        "--report-only", action="store_true", help="read the results of the last run in --work"
    )
    args = parser.parse_args(argv)
    python = sys.executable
    if not args.report_only:
        try:
            import mutmut  # noqa: F401
        except ImportError:
            print(
                "needs mutmut in this interpreter's environment; see the docstring", file=sys.stderr
            )
            return 2
        _copy_repository(args.work)
        _configure(args.work)
        log = args.work.parent / f"{args.work.name}.log"
        with log.open("w", encoding="utf-8") as out:
            # Tests that start a python of their own (the CLI in a subprocess) must import the
            # mutated copy too, not the checkout an editable install points at; mutmut passes
            # the mutant's name on in the environment.
            env = {**os.environ, "PYTHONPATH": f"{args.work / 'mutants' / 'src'}"}
            done = subprocess.run(
                [python, "-m", "mutmut", "run", "--max-children", str(args.jobs)],
                cwd=args.work,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        if done.returncode != 0:
            print(f"mutmut run failed (exit {done.returncode}); its output: {log}", file=sys.stderr)
            return 2
    status = _results(args.work, python)
    print(table(status))
    unexplained = [
        m for m, v in status.items() if v in ("survived", "no tests") and m not in EXPLAINED
    ]
    for mutant in sorted(m for m, v in status.items() if v in ("survived", "no tests")):
        why = EXPLAINED.get(mutant, "NOT EXPLAINED")
        print(f"\n{mutant} ({status[mutant]}): {why}\n{_show(args.work, python, mutant)}")
    if unexplained:
        print(f"\n{len(unexplained)} mutant(s) survive unexplained", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
