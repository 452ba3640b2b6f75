"""The house keeps its shape: what users import is pinned, the top level holds only the public
modules and the faces, no import goes round in a circle, and every module says what it is.

The layers themselves are import-linter contracts in pyproject.toml (``lint-imports`` in CI); this
file checks what those contracts do not: cycles between single modules, the public names, the
size and first line of each module.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "summscore"

# Every public module's __all__, as users import it (as httpx pins its own). Read from the source,
# so a face is checked without its framework installed.
PUBLIC_API = {
    "__init__.py": [
        "AssessmentAnswer",
        "Case",
        "ClaimVerdict",
        "JudgeError",
        "JudgeOutputError",
        "MissingExtraError",
        "QuestionAnswer",
        "SummarizationScorer",
        "SummaryResult",
        "SummaryResults",
        "SummscoreError",
        "TransientJudgeError",
        "Usage",
        "__version__",
        "compare",
    ],
    "scorer.py": ["SummarizationScorer"],
    "results/__init__.py": [
        "AssessmentAnswer",
        "BatchSummary",
        "ClaimVerdict",
        "QuestionAnswer",
        "SummaryResult",
        "SummaryResults",
        "Usage",
    ],
    "errors.py": [
        "JudgeError",
        "JudgeOutputError",
        "MissingExtraError",
        "SummscoreError",
        "TransientJudgeError",
    ],
    "formulas.py": [
        "deepeval_alignment_score",
        "deepeval_coverage_score",
        "deepeval_graded_alignment",
        "deepeval_normalize_verdict",
        "js_round2",
        "mastra_component_score",
        "mastra_graded_alignment",
        "ragas_conciseness_score",
        "ragas_final_score",
        "ragas_qa_score",
    ],
    "cases.py": [
        "Case",
        "FieldNames",
        "as_case",
        "check_questions",
        "check_source",
        "check_summary",
    ],
    "judges/__init__.py": [
        "CascadeJudge",
        "DeepEvalJudge",
        "FunctionJudge",
        "InspectJudge",
        "Judge",
        "JudgeReply",
        "JudgeRequest",
        "LangChainJudge",
        "LexicalJudge",
        "MLflowJudge",
        "ModelRequestsForbidden",
        "OpenAIJudge",
        "OpikJudge",
        "RagasJudge",
        "allow_model_requests",
        "check_model_request",
        "resolve_judge",
    ],
    "masking/__init__.py": ["register_secret"],
    "comparison/__init__.py": [
        "MIN_CASES",
        "CaseChange",
        "Comparison",
        "ComparisonRefused",
        "Gate",
        "Interval",
        "MetricChange",
        "PassRateChange",
        "Run",
        "RunCase",
        "Verdict",
        "compare",
        "load_run",
    ],
    "report/__init__.py": [
        "PAGE_SIZE",
        "ReportCase",
        "ReportWriter",
        "render_report",
        "write_report",
    ],
    "ragas.py": ["SummarizationScore", "SummaryMetricResult", "SummaryScore"],
    "deepeval/__init__.py": ["SummarizationMetric", "SummarizationTemplate"],
    "mastra.py": [
        "MastraResult",
        "MastraScorerResult",
        "MastraSummarizationScorer",
        "SummarizationMetric",
        "create_summarization_scorer",
    ],
    "mlflow/__init__.py": ["Summarization"],
    "inspect.py": ["summarization"],
    "opik.py": ["Summarization"],
    "langsmith.py": ["Summarization"],
    "promptfoo.py": ["extension_hook", "get_assert", "score_output"],
    "braintrust.py": ["Summarization"],
    "phoenix.py": ["SummarizationEvaluator"],
    "trulens.py": ["Summarization"],
    "ray/__init__.py": ["RESULT_COLUMNS", "score_dataset"],
    "serve/__init__.py": ["ServeConfig", "create_app"],
    "cli/__init__.py": ["main"],
}

# What users import, and the faces: nothing else sits at the top level (packages count once).
# The faces are as many as the frameworks; what users import beyond them stays a short list.
FACES = {
    "ragas.py",
    "deepeval",
    "mastra.py",
    "mlflow",
    "inspect.py",
    "opik.py",
    "langsmith.py",
    "promptfoo.py",
    "braintrust.py",
    "phoenix.py",
    "trulens.py",
    "ray",
}
TOP_LEVEL_FILES = {
    "__init__.py",
    "__main__.py",
    "_version.py",
    "py.typed",
    "scorer.py",
    "results",
    "errors.py",
    "formulas.py",
    "cases.py",
} | FACES
# The layers' packages (see the README, "Development", and pyproject's import-linter contracts).
LAYER_PACKAGES = {
    "adapters",
    "calls",
    "cli",
    "comparison",
    "files",
    "judges",
    "masking",
    "presets",
    "prompts",
    "report",
    "serve",
}
MAX_LINES = 400


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _declared_all(path: Path) -> list[str] | None:
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return list(ast.literal_eval(node.value))
    return None


@pytest.mark.parametrize("module", sorted(PUBLIC_API))
def test_each_public_module_exports_what_users_import(module: str) -> None:
    assert _declared_all(PACKAGE / module) == PUBLIC_API[module]


def test_the_public_names_import_without_a_framework() -> None:
    """The core's public modules import, and what their __all__ names exists."""
    code = (
        "import importlib, sys\n"
        "for name in ['summscore', 'summscore.scorer', 'summscore.results', 'summscore.errors',"
        " 'summscore.formulas', 'summscore.cases', 'summscore.judges', 'summscore.masking',"
        " 'summscore.report', 'summscore.comparison', 'summscore.ray', 'summscore.cli']:\n"
        "    module = importlib.import_module(name)\n"
        "    lazy = getattr(module, '_LAZY', {})  # judges whose SDK is an extra load on use\n"
        "    missing = [n for n in module.__all__ if n not in lazy and not hasattr(module, n)]\n"
        "    assert not missing, (name, missing)\n"
        "frameworks = ('ragas', 'deepeval', 'langchain_core', 'mlflow', 'inspect_ai', 'opik', 'ray',"
        " 'langsmith', 'autoevals', 'braintrust', 'phoenix', 'trulens')\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in frameworks)\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_top_level_holds_only_the_public_modules_the_faces_and_the_layers() -> None:
    entries = {p.name for p in PACKAGE.iterdir() if p.name != "__pycache__"}
    assert entries - LAYER_PACKAGES == TOP_LEVEL_FILES
    assert entries >= LAYER_PACKAGES
    assert len(TOP_LEVEL_FILES - FACES - {"py.typed"}) <= 8


def test_every_package_says_what_it_is_and_what_it_may_import() -> None:
    for package in sorted(PACKAGE.rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(package.read_text()))
        assert doc, f"{package.relative_to(PACKAGE)} has no docstring"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_each_module_opens_with_what_it_is_and_fits_in_a_reader_s_head(path: Path) -> None:
    text = path.read_text()
    assert text.count("\n") <= MAX_LINES, f"{len(text.splitlines())} lines"
    if path.name == "_version.py":
        return
    assert text.startswith('"""'), "the first line is the module's docstring"


def test_no_import_cycles_between_modules() -> None:
    """Every import in the package, lazy ones included, as import-linter's graph sees it."""
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("summscore", cache_dir=None)
    modules = sorted(graph.modules)
    # Tarjan's strongly connected components over direct imports.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for module in modules:
        if module not in index:
            visit(module)
    assert cycles == []
