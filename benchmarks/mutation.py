"""A small mutation pass over the modules whose mistakes a test must catch: the formulas and
rounding, the redaction of secrets, the retry policy and sender, resume and its fingerprints.

    python3 -m venv .venv-mutation
    .venv-mutation/bin/pip install -e ".[all,dev]" -c constraints/ci.txt && .venv-mutation/bin/pip install mutmut
    .venv-mutation/bin/python benchmarks/mutation.py [--jobs 2] [--only files.resume] [--work DIR]

mutmut (3.x; it wants a newer click than deepeval's pin allows, hence a venv of its own) mutates
each function of those modules one change at a time (an operator, a constant, a comparison, a
dropped argument) and runs the tests that call that function; a mutant no test fails on
"survived". The run happens in a copy of the repository's tracked files (``--work``, kept so
``cd <work> && mutmut show <name>`` shows a mutant), never in the checkout. It prints killed and
survived per module and each survivor's diff, and exits 1 when a mutant survives that
``EXPLAINED`` does not list, or is not checked yet. ``--resume`` goes on with a stopped run in
the same work copy (as it was copied: tests added since are not in it). Not part of CI: about
15-30 minutes on two cores.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import resource
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
    "tests/test_scorer_many.py",
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
    "tests/test_judge_openai_fastpost_failures.py",
    "tests/test_scorer_fast_paths.py",
    "tests/test_calls.py",
    "tests/test_pool.py",
    "tests/test_lost_answers.py",
    "tests/test_runner.py",
    "tests/test_cli.py",
    "tests/test_cli_streaming.py",
    "tests/test_cli_resume_identity.py",
    "tests/test_resume.py",
    "tests/test_reply_cache.py",
    "tests/test_throughput.py",
    "tests/test_cli_out_checks.py",
    "compat/test_leaks.py",
    "compat/test_faults.py",
]
# Why the mutants of files/fingerprint.py that only respell what is hashed are equivalent:
# fingerprints are compared only with others of the same summscore version (its version is
# hashed), so any one-to-one change of the hashed text keeps equal rows equal and others apart.
_RENAMED = (
    "a settings key renamed: every fingerprint changes at once, equal settings still hash equal"
)
_UNSORTED = "keys not sorted: the settings are a literal dict and the options a dataclass's fields, in a fixed order"
_NO_DEFAULT = "no converter for values JSON cannot write: every preset option is validated as a number, bool, str or None, so none reaches it"
_SPELLING = "another spelling of the same JSON (escapes, separators): one text still gives one digest, two texts two"
_SENDER = "summscore.calls.sender.xǁJudgeSenderǁ"
_ZERO_CEILING = "a backoff ceiling of 0 drawn from uniform(0, 0): 0.0, as the else branch (backoff is validated >= 0)"
_PY310 = "Python 3.10's path (asyncio.wait_for): never taken on 3.11+, where the pass runs; tests/test_calls.py's hung-judge test takes it on 3.10"
_PY310_GUARD = "the guard against Python 3.10 in _complete_in_scope, which _complete never calls there: not reached on 3.11+"
_SECRETS = "summscore.masking.secrets.x_"
_REPLIES = "summscore.masking.replies.x_"
_NO_CACHE = "the known secrets never taken from their cache: the set is rebuilt from the same registry and environment on every call (only slower)"
_RAW_ENV = "the environment compared as dict(os.environ), not its raw mapping: the same changes are seen (only slower)"
_FOLDED = "the text folded here, not taken from the caller: every caller (_mask_known) passes _fold(text), the same text"
_SCAN_ALL = "the quick 'nothing to do' test passes more often: the full scan then finds the same spans, and returns the text itself where there are none"
_FULL_WALK = "redact_value's first search gives up more often: the full walk then masks the same, and returns a clean reply itself"
_UTF8 = '"UTF-8" for "utf-8": one codec'
# Survivors that no test can kill because the mutant behaves as the original (equivalent
# mutants), by mutmut's name, with why. A survivor not listed here fails the run.
EXPLAINED: dict[str, str] = {
    "summscore.masking.secrets.x__mask_spans__mutmut_22": "last = None: text[None:start] is text[0:start], the same slice",
    "summscore.formulas.x_ragas_qa_score__mutmut_5": 'a.upper() == "1": only "1" is "1" in either case',
    "summscore.formulas.x_deepeval_normalize_verdict__mutmut_2": 'None read as str(None), "none": no verdict, as ""',
    "summscore.formulas.x_deepeval_normalize_verdict__mutmut_4": 'None read as "XXXX": no verdict, as ""',
    "summscore.formulas.x_deepeval_normalize_verdict__mutmut_23": 'no leading word read as "XXXX": no verdict, as ""',
    "summscore.files.fingerprint.x_run_settings__mutmut_2": _RENAMED,
    "summscore.files.fingerprint.x_run_settings__mutmut_3": _RENAMED,
    "summscore.files.fingerprint.x_run_settings__mutmut_4": _RENAMED,
    "summscore.files.fingerprint.x_run_settings__mutmut_5": _RENAMED,
    "summscore.files.fingerprint.x_run_settings__mutmut_6": _RENAMED,
    "summscore.files.fingerprint.x_run_settings__mutmut_7": _RENAMED,
    "summscore.files.fingerprint.x_run_settings__mutmut_9": _RENAMED,
    "summscore.files.fingerprint.x_run_settings__mutmut_10": _RENAMED,
    "summscore.files.fingerprint.x_run_settings__mutmut_11": _RENAMED,
    "summscore.files.fingerprint.x_run_settings__mutmut_12": _RENAMED,
    "summscore.files.fingerprint.x_run_settings__mutmut_15": _UNSORTED,
    "summscore.files.fingerprint.x_run_settings__mutmut_19": _UNSORTED,
    "summscore.files.fingerprint.x_run_settings__mutmut_22": _UNSORTED,
    "summscore.files.fingerprint.x_run_settings__mutmut_16": _NO_DEFAULT,
    "summscore.files.fingerprint.x_run_settings__mutmut_20": _NO_DEFAULT,
    "summscore.files.fingerprint.x__type_name__mutmut_1": _NO_DEFAULT,
    "summscore.files.fingerprint.x_run_settings__mutmut_17": _SPELLING,
    "summscore.files.fingerprint.x_run_settings__mutmut_21": _SPELLING,
    "summscore.files.fingerprint.x_run_settings__mutmut_23": _SPELLING,
    "summscore.files.fingerprint.x_run_settings__mutmut_27": "a 64-byte settings digest, not 16: still the key of every fingerprint, equal for equal settings",
    "summscore.files.fingerprint.x_run_settings__mutmut_33": '"UTF-8" for "utf-8": one codec',
    "summscore.files.fingerprint.x_fingerprint__mutmut_7": _SPELLING,
    "summscore.files.fingerprint.x_fingerprint__mutmut_8": _SPELLING,
    "summscore.files.fingerprint.x_fingerprint__mutmut_10": _SPELLING,
    "summscore.files.fingerprint.x_fingerprint__mutmut_11": _SPELLING,
    "summscore.files.fingerprint.x_fingerprint__mutmut_12": _SPELLING,
    "summscore.files.fingerprint.x_fingerprint__mutmut_13": _SPELLING,
    "summscore.files.fingerprint.x_fingerprint__mutmut_14": _SPELLING,
    "summscore.files.fingerprint.x_fingerprint__mutmut_27": '"UTF-8" for "utf-8": one codec',
    "summscore.files.resume.xǁResumeStateǁload__mutmut_26": "every usable record queued in `more` (none in `by_print`): _first_free reads both in file order, so the same record is handed out",
    "summscore.files.resume.xǁResumeStateǁrelease__mutmut_3": "old.pop without a default: a claimed record is always in `old` when released (claim returns only keys of `old`, and each claim is released once)",
    "summscore.files.resume.xǁResumeStateǁrelease__mutmut_4": "a released key left in `taken`: it has left `old`, so no claim returns it and finish() never sees it",
    "summscore.calls.policy.x_repair_feedback__mutmut_2": 'the repair prompt\'s sentence starts "your" (lower case): the judge is asked the same',
    f"{_SENDER}_retry__mutmut_28": "tenacity waits only after an attempt failed: its outcome is always set",
    f"{_SENDER}_delay__mutmut_7": "getattr without a default: only TransientJudgeError is retried, and it always has retry_after (None when not sent)",
    f"{_SENDER}_delay__mutmut_36": _ZERO_CEILING,
    f"{_SENDER}_delay__mutmut_43": _ZERO_CEILING,
    f"{_SENDER}_answered__mutmut_10": "every early request handed to _shorten, which makes the same deadline < when check on the request's own loop",
    f"{_SENDER}_complete_in_scope__mutmut_1": _PY310_GUARD,
    f"{_SENDER}_complete_in_scope__mutmut_4": _PY310_GUARD,
    f"{_SENDER}_complete_in_scope__mutmut_5": _PY310_GUARD,
    f"{_SENDER}_complete_in_scope__mutmut_6": _PY310_GUARD,
    f"{_SENDER}_complete_in_scope__mutmut_7": _PY310_GUARD,
    f"{_SENDER}_complete_in_scope__mutmut_17": "the request sent as the 20th latency is known also registered as early: it was sent with the shortened timeout already, and a later answer applies the same rule to it again",
    f"{_SENDER}_complete_in_scope__mutmut_25": "a finished request left among the early ones: the 20th answer empties them all, and shortening a finished scope is ignored (RuntimeError suppressed)",
    f"{_SENDER}_answered__mutmut_13": "deadline <= when: moving a deadline to the time it already has changes nothing",
    f"{_SENDER}_complete__mutmut_4": "sys.version_info > (3, 11): true for every 3.11 release, as >= is ((3, 11) is a prefix of each)",
    f"{_SENDER}_complete__mutmut_13": _PY310,
    f"{_SENDER}_complete__mutmut_14": _PY310,
    f"{_SENDER}_complete__mutmut_15": _PY310,
    f"{_SENDER}_complete__mutmut_16": _PY310,
    f"{_SENDER}_complete__mutmut_17": _PY310,
    f"{_SENDER}_complete__mutmut_18": _PY310,
    f"{_SENDER}_complete__mutmut_19": _PY310,
    f"{_SENDER}_complete__mutmut_20": _PY310,
    f"{_SENDER}_complete__mutmut_21": _PY310,
    f"{_SENDER}_complete__mutmut_22": _PY310,
    f"{_SENDER}_complete__mutmut_23": _PY310,
    f"{_SENDER}_complete__mutmut_24": _PY310,
    "summscore.calls.sender.x__shorten__mutmut_4": "deadline <= when: moving a deadline to the time it already has changes nothing",
    f"{_SECRETS}register_secret__mutmut_17": _UTF8,
    f"{_SECRETS}register_secret__mutmut_35": "_version -= 1: each new registration still changes it, and it is only compared for equality",
    f"{_SECRETS}register_secret__mutmut_36": "_version += 2: each new registration still changes it, and it is only compared for equality",
    f"{_SECRETS}_environment_snapshot__mutmut_1": _RAW_ENV,
    f"{_SECRETS}_environment_snapshot__mutmut_2": _RAW_ENV,
    f"{_SECRETS}_environment_snapshot__mutmut_7": _RAW_ENV,
    f"{_SECRETS}_environment_snapshot__mutmut_8": _RAW_ENV,
    f"{_SECRETS}_environment_snapshot__mutmut_9": _RAW_ENV,
    f"{_SECRETS}_environment_snapshot__mutmut_6": "getattr without a default: CPython's os.environ always has _data",
    f"{_SECRETS}_environment_snapshot__mutmut_10": "the raw mapping taken without checking it is a dict: CPython's os.environ._data always is",
    f"{_SECRETS}_environment_snapshot__mutmut_11": "dict(None) where os.environ has no dict _data, which CPython's always has",
    f"{_SECRETS}_known_secrets__mutmut_2": _NO_CACHE,
    f"{_SECRETS}_known_secrets__mutmut_6": _NO_CACHE,
    f"{_SECRETS}_known_secrets__mutmut_8": _NO_CACHE,
    f"{_SECRETS}_known_secrets__mutmut_11": _NO_CACHE,
    f"{_SECRETS}_known_secrets__mutmut_13": _NO_CACHE,
    f"{_SECRETS}_known_secrets__mutmut_18": _NO_CACHE,
    f"{_SECRETS}_may_hold__mutmut_3": _SCAN_ALL,
    f"{_SECRETS}_may_hold__mutmut_10": _SCAN_ALL,
    f"{_SECRETS}_mask_known__mutmut_5": _SCAN_ALL,
    f"{_SECRETS}_mask_known__mutmut_12": _FOLDED,
    f"{_SECRETS}_mask_known__mutmut_18": _FOLDED,
    f"{_SECRETS}_mask_known__mutmut_21": _FOLDED,
    f"{_SECRETS}_secret_spans__mutmut_20": _FOLDED,
    f"{_SECRETS}_secret_spans__mutmut_21": _FOLDED,
    f"{_SECRETS}_secret_spans__mutmut_22": _FOLDED,
    f"{_SECRETS}_secret_spans__mutmut_23": _FOLDED,
    f"{_SECRETS}_secret_spans__mutmut_28": "blocks of WINDOW // 3 characters, not // 2: every match of WINDOW or more still holds a whole block, grown to the same maximal match",
    f"{_SECRETS}_secret_spans__mutmut_35": "a block at every offset, not every sixth: each is grown to the same maximal matches",
    f"{_SECRETS}_secret_spans__mutmut_36": "blocks from offset 1, not 0: any 7 consecutive offsets hold one of 1, 7, 13, ..., so every WINDOW-long piece of a longer secret still holds a whole block",
    f"{_SECRETS}_secret_spans__mutmut_54": "left growth stops one character short of the secret's start: a match reaching its first character holds its first block, found and grown from offset 0 to the same span",
    f"{_REPLIES}redact_value__mutmut_3": "known = registered | asked even when asked is empty: the same set",
    f"{_REPLIES}redact_value__mutmut_11": _UTF8,
    f"{_REPLIES}redact_value__mutmut_16": "bytes always run through _redact_reply_text: where _could_mask finds nothing it changes nothing, and the bytes come back themselves",
    f"{_REPLIES}_gather_texts__mutmut_3": _FULL_WALK,
    f"{_REPLIES}_gather_texts__mutmut_18": "joining None raises the TypeError caught there: the loop below gathers the same strings",
    f"{_REPLIES}_gather_texts__mutmut_20": _FULL_WALK,
    f"{_REPLIES}_gather_texts__mutmut_29": _FULL_WALK,
    f"{_REPLIES}_could_mask__mutmut_1": _FULL_WALK,
    f"{_REPLIES}_could_mask__mutmut_7": _FULL_WALK,
    f"{_REPLIES}_gather_texts__mutmut_8": "a dict key holding a pydantic model (a frozen one, the only hashable kind): no JSON reply or model dump has one, and the full walk fails on it too (a masked model becomes an unhashable dict)",
    "summscore.masking.replies.x__redact_reply_text__mutmut_8": 'the sk- pattern also run on a text without "-": it cannot match there, and re.sub with no match returns the text itself (the same object)',
    "summscore.masking.replies.x__redact_reply__mutmut_18": "changed = None for False: `None or _differs(...)` is the bool _differs gives, and an empty dict (no loop) is returned itself for None as for False",
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


def _configure(work: Path, modules: list[str]) -> None:
    config = {
        "source_paths": ["src/"],
        "only_mutate": [pattern for module in modules for pattern in MODULES[module]],
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


def _cap_memory(gigabytes: float) -> None:
    # A mutant that loops forever appending to a list (``while start != -2`` in
    # masking/secrets.py) grows until the kernel's OOM killer picks a process, maybe another's;
    # capped, it fails with MemoryError (killed). Inherited by every test process mutmut forks.
    limit = int(gigabytes * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


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
    # ("segfault": mutmut's name for a test process killed by a signal, such as the OOM killer's)
    verdicts = [
        "killed",
        "survived",
        "timeout",
        "segfault",
        "no tests",
        "suspicious",
        "skipped",
        "not checked",
    ]
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
    parser.add_argument("--work", type=Path, help="default /tmp/summscore-mutation[-MODULE]")
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at once")
    parser.add_argument(
        "--memory-gb", type=float, default=6.0, help="address space of each process (default 6)"
    )
    parser.add_argument(
        "--only",
        choices=sorted(MODULES),
        action="append",
        help="mutate this module only (repeatable); its own --work by default",
    )
    parser.add_argument(
        "--report-only", action="store_true", help="read the results of the last run in --work"
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on with the stopped run in --work (mutmut keeps each verdict), not a fresh copy",
    )
    args = parser.parse_args(argv)
    modules = args.only or sorted(MODULES)
    if args.work is None:
        suffix = "" if args.only is None else "-" + "-".join(sorted(args.only)).replace(".", "_")
        args.work = Path(f"/tmp/summscore-mutation{suffix}")
    python = sys.executable
    if not args.report_only:
        try:
            import mutmut  # noqa: F401
        except ImportError:
            print(
                "needs mutmut in this interpreter's environment; see the docstring", file=sys.stderr
            )
            return 2
        if not args.resume:
            _copy_repository(args.work)
            _configure(args.work, modules)
        log = args.work.parent / f"{args.work.name}.log"
        with log.open("w", encoding="utf-8") as out:
            # Tests that start a python of their own (the CLI in a subprocess) must import the
            # mutated copy too, not the checkout an editable install points at; mutmut passes
            # the mutant's name on in the environment.
            # The folder must exist before mutmut starts: a sys.path entry missing at start-up
            # is cached as "nothing here" for the whole process, and the tests mutmut runs in
            # it would then import the checkout (and find no mutant called by any test).
            mutated = args.work / "mutants" / "src"
            mutated.mkdir(parents=True, exist_ok=args.resume)
            env = {**os.environ, "PYTHONPATH": str(mutated)}
            done = subprocess.run(
                [python, "-m", "mutmut", "run", "--max-children", str(args.jobs)],
                cwd=args.work,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=functools.partial(_cap_memory, args.memory_gb),
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
    unchecked = [m for m, v in status.items() if v == "not checked"]
    if unexplained:
        print(f"\n{len(unexplained)} mutant(s) survive unexplained", file=sys.stderr)
    if unchecked:
        print(f"\n{len(unchecked)} mutant(s) not checked yet (--resume)", file=sys.stderr)
    return 1 if unexplained or unchecked else 0


if __name__ == "__main__":
    sys.exit(main())
