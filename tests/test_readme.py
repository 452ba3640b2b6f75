"""The README's promises that can rot: its two opening commands and what CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _opening_commands() -> list[str]:
    blocks = re.findall(r"```bash\n(.*?)\n```", README, flags=re.DOTALL)
    return [block.strip() for block in blocks[:2]]


def test_the_readme_opens_with_the_main_job_then_the_tests() -> None:
    main_job, tests = _opening_commands()
    assert README.index(main_job) < README.index("---")
    assert "summscore score examples/" in main_job and "--report" in main_job
    assert "pytest" in tests


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    _, tests = _opening_commands()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert tests in ci.splitlines()


def test_the_main_job_reads_a_dataset_that_exists() -> None:
    main_job, _ = _opening_commands()
    dataset = re.search(r"summscore score (\S+)", main_job)
    assert dataset and (ROOT / dataset.group(1)).is_file()
