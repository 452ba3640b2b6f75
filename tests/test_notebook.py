"""examples/summaries.ipynb runs top to bottom in a real Jupyter kernel (ipykernel, driven by
nbclient), offline: it scores the example file, shows the results as tables, writes the HTML
report, compares two runs and gates on the difference. Every cell runs without an error and
without a warning, and each shows what its text says it shows.

Runs where nbclient, nbformat and ipykernel are installed (.ci/steps/notebook.sh); skipped
elsewhere. Leaves the executed notebook in summscore-out/summaries.executed.ipynb.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.notebook

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "summaries.ipynb"


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> Any:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    work = tmp_path_factory.mktemp("notebook")
    for name in ("news.jsonl", "ab.jsonl"):
        shutil.copy(ROOT / "examples" / name, work / name)
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(work)}}
    )
    client.execute()
    out = ROOT / "summscore-out"
    out.mkdir(exist_ok=True)
    nbformat.write(notebook, out / "summaries.executed.ipynb")
    notebook.work = work
    return notebook


def _code_cells(notebook: Any) -> list[Any]:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def _text(cell: Any, stream: str = "stdout") -> str:
    return "".join(o.text for o in cell.outputs if o.output_type == "stream" and o.name == stream)


def _shown(cell: Any) -> dict[str, str]:
    """What the cell's last expression showed, by MIME type."""
    results = [o for o in cell.outputs if o.output_type == "execute_result"]
    return dict(results[-1].data) if results else {}


def test_the_committed_notebook_holds_no_outputs() -> None:
    """Outputs are made by running it (here, and by the reader): none are committed to go stale."""
    nbformat = pytest.importorskip("nbformat")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    for cell in _code_cells(notebook):
        assert cell.outputs == [] and cell.execution_count is None, cell.source[:60]


def test_every_cell_runs_with_no_error_and_no_warning(executed: Any) -> None:
    for cell in _code_cells(executed):
        assert not [o for o in cell.outputs if o.output_type == "error"], cell.source[:60]
        # stderr holds the progress bar only: no warning (tqdm's "IProgress not found" without
        # ipywidgets, a deprecation) and no traceback.
        err = _text(cell, "stderr")
        assert "Warning" not in err and "Traceback" not in err, err


def test_the_results_show_as_tables(executed: Any) -> None:
    batch, worst_first, one = (_shown(c) for c in _code_cells(executed)[0:3])
    assert "<table" in batch["text/html"] and "14 cases" in batch["text/plain"]
    assert "<table" in worst_first["text/html"]
    rows = worst_first["text/plain"].splitlines()[1:]
    assert len(rows) >= 5
    assert one["text/plain"].startswith("SummaryResult(") and "score=0.000" in one["text/plain"]


def test_the_report_is_written_beside_the_notebook(executed: Any) -> None:
    cell = _code_cells(executed)[3]
    assert _text(cell).strip() == "news-report.html"
    page = (executed.work / "news-report.html").read_text(encoding="utf-8")
    assert page.lower().startswith("<!doctype html>") and "news-tesla-faithful" in page


def test_the_comparison_and_its_gate_say_the_proposed_summaries_are_worse(executed: Any) -> None:
    verdict, table, gate = _code_cells(executed)[4:7]
    assert _text(verdict).startswith("The candidate is worse by ")
    assert "likely a real regression" in _text(verdict)
    assert "regressed" in _shown(table)["text/plain"]
    assert _text(gate).strip() == "False the candidate is worse by more than 0.02"
