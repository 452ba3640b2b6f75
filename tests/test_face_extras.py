"""A face whose framework is missing says which extra to install (run with the framework hidden,
so that this holds in every environment)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


@pytest.mark.parametrize(
    ("face", "framework", "extra"),
    [
        ("langsmith", "langsmith", "langsmith"),
        ("braintrust", "autoevals", "braintrust"),
        ("phoenix", "phoenix", "phoenix"),
        ("trulens", "trulens", "trulens"),
        ("opik", "opik", "opik"),
    ],
)
def test_importing_a_face_without_its_framework_names_the_extra(
    face: str, framework: str, extra: str
) -> None:
    code = textwrap.dedent(
        f"""
        import sys
        sys.modules[{framework!r}] = None  # as if it were not installed
        try:
            import summscore.{face}
        except ImportError as exc:
            print(type(exc).__name__, exc)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("MissingExtraError"), out.stdout + out.stderr
    # summscore is on no index: the line installs the extra from a clone or a wheel built there
    assert f'pip install -e ".[{extra}]"' in out.stdout, out.stdout
    assert f'.whl[{extra}]"' in out.stdout and '"summscore[' not in out.stdout


def test_the_promptfoo_assertion_needs_no_framework_and_prints_its_file_reference() -> None:
    code = "import summscore.promptfoo, sys; print(sorted(m for m in sys.modules if m in {'fastapi', 'openai'}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    shown = subprocess.run(
        [sys.executable, "-m", "summscore.promptfoo"], capture_output=True, text=True, check=True
    )
    assert shown.stdout.startswith("file://") and shown.stdout.strip().endswith("promptfoo.py")


def test_the_javascript_assertion_ships_in_the_package_and_its_reference_is_printed() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "summscore.promptfoo", "--webhook"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert shown.startswith("file://") and shown.endswith("promptfoo_webhook.cjs")
    path = Path(shown.removeprefix("file://"))
    assert path.is_file() and "module.exports" in path.read_text()
    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text()
    assert "adapters/promptfoo_webhook.cjs" in pyproject  # package data: wheels carry it
