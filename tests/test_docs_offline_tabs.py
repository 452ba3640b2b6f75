"""Each framework page's Offline tab keeps its word: pasted into a file and run with nothing set
(no key, none of the variables the test suite sets against telemetry), it reaches no host but
the machine itself. deepeval, ragas, MLflow and Opik report usage on their own unless the tab
turns it off before importing them, and print errors where there is no network.

Each tab runs in a fresh Python process with an audit hook that records every address it
resolves or connects to. A tab whose framework is not installed here skips: the CI step that
installs it runs it (.ci/steps/faces.sh, more_faces.sh).
"""

from __future__ import annotations

import ipaddress
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_docs_blocks import _missing_modules
from tests.test_docs_site import _TABS, DOCS, ROOT, TABBED_PAGES


def offline_tabs() -> list[tuple[str, str]]:
    """(id, code) of every Python block in an Offline tab of the framework pages."""
    found = []
    for page in TABBED_PAGES:
        for number, tab in enumerate(_TABS.finditer((DOCS / page).read_text("utf-8"))):
            offline = tab.group("offline")
            if "```python\n" not in offline:
                continue
            code = offline.split("```python\n", 1)[1].split("    ```", 1)[0]
            dedented = "".join(
                line[4:] if line.startswith("    ") else line.lstrip(" ")
                for line in code.splitlines(keepends=True)
            )
            found.append((f"{page}#offline{number}", dedented))
    return found


TABS = offline_tabs()

# Runs the tab as `python tab.py` would, recording each host it resolves or connects to.
_WATCH = """\
import runpy, sys

log = open(sys.argv[2], "a", encoding="utf-8", buffering=1)


def hook(event, args):
    if event == "socket.getaddrinfo":
        log.write(f"{args[0]}\\n")
    elif event == "socket.connect" and isinstance(args[1], tuple):
        log.write(f"{args[1][0]}\\n")


sys.addaudithook(hook)
sys.argv = sys.argv[1:2]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def _local(host: str) -> bool:
    if host in ("localhost", "None", ""):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def test_every_framework_page_has_an_offline_tab_here() -> None:
    assert len(TABS) >= len(TABBED_PAGES) - 1  # (the service's tab is a command)


@pytest.mark.parametrize(("where", "code"), TABS, ids=[t[0] for t in TABS])
def test_the_offline_tab_reaches_no_host_but_this_machine(
    where: str, code: str, tmp_path: Path
) -> None:
    missing = _missing_modules(code)
    if missing:
        pytest.skip(f"{where}: needs {', '.join(missing)} (installed in its own CI step)")
    (tmp_path / "tab.py").write_text(code, encoding="utf-8")
    (tmp_path / "watch.py").write_text(_WATCH, encoding="utf-8")
    log = tmp_path / "hosts.log"
    log.touch()
    # What a user's shell has: a PATH and a home; no key, no telemetry switch, no CI marker
    # (MLflow and Opik turn their telemetry off under CI or pytest on their own).
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "PYTHONPATH": str(ROOT / "src"),
        "LANG": "C.UTF-8",
    }
    done = subprocess.run(
        [sys.executable, "watch.py", "tab.py", str(log)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"{where} failed:\n{done.stdout}\n{done.stderr}"
    hosts = sorted({h for h in log.read_text("utf-8").split() if not _local(h)})
    assert hosts == [], f"{where} reached {hosts}:\n{done.stderr[-2000:]}"
