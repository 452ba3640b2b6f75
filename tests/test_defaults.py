"""One default rule: every entry point that is not the ragas, deepeval or Mastra face scores with
the preset docs/presets.md recommends (deepeval); those three faces keep their framework's rule.
Each default is read from the code itself (the faces' sources are parsed, so that this runs
without their frameworks), and docs/snippets/defaults.md, the table on the presets page, must say
the same."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from summscore import SummarizationScorer
from summscore.adapters.promptfoo import scorer_from_settings
from summscore.cli.parser import build_parser
from summscore.judges import LexicalJudge

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "summscore"
TABLE = ROOT / "docs" / "snippets" / "defaults.md"
RECOMMENDED = "deepeval"  # docs/presets.md, "Which preset"

# Each face's public callable: (module file, the function or class whose `preset=` is the default).
FACES = {
    "summscore.mlflow.Summarization": ("mlflow/face.py", "SummarizationFace"),
    "summscore.inspect.summarization": ("inspect.py", "summarization"),
    "summscore.opik.Summarization": ("opik.py", "Summarization"),
    "summscore.langsmith.Summarization": ("langsmith.py", "Summarization"),
    "summscore.braintrust.Summarization": ("braintrust.py", "Summarization"),
    "summscore.phoenix.SummarizationEvaluator": ("phoenix.py", "SummarizationEvaluator"),
    "summscore.trulens.Summarization": ("trulens.py", "Summarization"),
}


def _preset_default(module: str, name: str) -> str:
    """The default of ``preset=`` of function ``name``, or of class ``name``'s ``__init__``."""
    tree = ast.parse((PACKAGE / module).read_text())
    [found] = [n for n in tree.body if getattr(n, "name", None) == name]
    if isinstance(found, ast.ClassDef):
        [found] = [n for n in found.body if getattr(n, "name", None) == "__init__"]
    assert isinstance(found, ast.FunctionDef)
    arguments = found.args
    named = [*arguments.posonlyargs, *arguments.args]
    pairs = list(zip(named[len(named) - len(arguments.defaults) :], arguments.defaults))
    pairs += [(a, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults) if d]
    [default] = [d for a, d in pairs if a.arg == "preset"]
    assert isinstance(default, ast.Constant)
    return str(default.value)


def _typescript_default(source: str) -> str:
    [default] = set(
        re.findall(r"preset \?\? '(\w+)'", (ROOT / "js" / "mastra" / "src" / source).read_text())
    )
    return default


def _code_defaults() -> dict[str, str]:
    """Each entry point's default preset, as the code has it."""
    cli = build_parser()
    found = {
        "summscore.SummarizationScorer": SummarizationScorer(LexicalJudge()).preset,
        "summscore score": cli.parse_args(["score", "cases.jsonl"]).preset,
        "summscore score --engine ray": cli.parse_args(
            ["score", "cases.jsonl", "--engine", "ray"]
        ).preset,
        "summscore serve (and the container)": cli.parse_args(["serve"]).preset,
        "promptfoo, summscore.promptfoo.get_assert": scorer_from_settings({}).preset,
        "summscore.ragas.SummaryScore": "ragas",
        "summscore.ragas.SummarizationScore": "ragas",
        "summscore.deepeval.SummarizationMetric": "deepeval",
        "summscore.mastra.create_summarization_scorer": "mastra",
        "summscore.mastra.SummarizationMetric": "mastra",
        "@summscore/mastra (TypeScript)": _typescript_default("index.ts"),
    }
    assert _typescript_default("legacy.ts") == found["@summscore/mastra (TypeScript)"]
    found.update({entry: _preset_default(*where) for entry, where in FACES.items()})
    return found


def _table() -> dict[str, list[str]]:
    """docs/snippets/defaults.md: entry point (backticks dropped) -> its other cells."""
    rows = {}
    for line in TABLE.read_text().splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows[cells[0].replace("`", "")] = cells[1:]
    return rows


def test_everything_but_the_ragas_deepeval_and_mastra_faces_defaults_to_the_recommended_rule() -> (
    None
):
    defaults = _code_defaults()
    own_rule = {
        "summscore.ragas.SummaryScore": "ragas",
        "summscore.ragas.SummarizationScore": "ragas",
        "summscore.deepeval.SummarizationMetric": "deepeval",
        "summscore.mastra.create_summarization_scorer": "mastra",
        "summscore.mastra.SummarizationMetric": "mastra",
        "@summscore/mastra (TypeScript)": "mastra",
    }
    for entry, preset in defaults.items():
        assert preset == own_rule.get(entry, RECOMMENDED), entry


def test_the_rule_faces_keep_their_frameworks_rule_when_built() -> None:
    ragas = pytest.importorskip("summscore.ragas")
    deepeval = pytest.importorskip("summscore.deepeval")
    from summscore import mastra

    judge = LexicalJudge()
    assert ragas.SummaryScore(llm=judge).scorer.preset == "ragas"
    assert ragas.SummarizationScore(llm=judge)._active_scorer().preset == "ragas"
    assert deepeval.SummarizationMetric(model=judge).scorer.preset == "deepeval"
    assert mastra.SummarizationMetric(judge).scorer.preset == "mastra"
    assert mastra.create_summarization_scorer(judge).scorer.preset == "mastra"


def test_the_recommended_rule_is_the_one_the_presets_page_recommends() -> None:
    page = (ROOT / "docs" / "presets.md").read_text()
    assert f"**Pick** the {RECOMMENDED} rule" in page
    assert '--8<-- "docs/snippets/defaults.md"' in page


def test_the_table_lists_every_entry_points_default_preset_judge_and_pass_mark() -> None:
    table, defaults = _table(), _code_defaults()
    listed = set(table) - {"summscore.ray.score_dataset", "promptfoo through summscore serve"}
    assert listed == set(defaults)
    for entry, preset in defaults.items():
        shown, judge, pass_mark = table[entry]
        assert shown.startswith(f"`{preset}`"), entry
        assert judge and pass_mark, entry
        if preset == "deepeval":
            assert "0.5" in pass_mark, entry


def test_the_default_judges_and_pass_marks_the_table_gives() -> None:
    """The judge and pass mark of the entry points whose defaults need no framework."""
    table = _table()
    cli = build_parser()
    for entry, argv in (
        ("summscore score", ["score", "cases.jsonl"]),
        ("summscore serve (and the container)", ["serve"]),
    ):
        args = cli.parse_args(argv)
        assert args.judge == "lexical" and table[entry][1].startswith("`lexical`"), entry
    assert SummarizationScorer(LexicalJudge()).threshold == 0.5
    promptfoo = scorer_from_settings({})
    assert promptfoo.judge.name == "lexical" and promptfoo.threshold == 0.5
    assert table["promptfoo, summscore.promptfoo.get_assert"][1].startswith("`lexical`")
