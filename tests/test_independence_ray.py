"""A row scores the same alone and in any Ray dataset: ``summscore.ray.score_dataset`` spreads
rows over actors (each with its own scorer and caches, or grouped by source), in blocks and
batches of any size, and each row's result columns are those the row gets scored alone (issue
#44, "Independence"). Run by the ray step (.ci/steps/ray.sh): Ray is not in the main install.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("ray.data")
import ray

from summscore import SummarizationScorer
from summscore.files.writer import output_row
from summscore.judges import LexicalJudge
from summscore.ray import RESULT_COLUMNS, score_dataset
from tests.independence_rows import (
    ISSUE_SIBLING,
    ISSUE_SOURCE,
    ISSUE_SUMMARY,
    Row,
    batches,
    differences,
    evidence,
)

PRESETS = ("ragas", "deepeval", "mastra")
SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]


def ragas_scorer() -> SummarizationScorer:
    return SummarizationScorer(LexicalJudge(), preset="ragas")


def deepeval_scorer() -> SummarizationScorer:
    return SummarizationScorer(LexicalJudge(), preset="deepeval")


def mastra_scorer() -> SummarizationScorer:
    return SummarizationScorer(LexicalJudge(), preset="mastra")


FACTORIES = {"ragas": ragas_scorer, "deepeval": deepeval_scorer, "mastra": mastra_scorer}
_alone: dict[tuple[str, Row], str] = {}


def alone(preset: str, row: Row) -> str:
    """The result columns of the row scored by a scorer of its own."""
    key = (preset, row)
    if key not in _alone:
        result = FACTORIES[preset]().score(row.source, row.summary, row.questions)
        _alone[key] = _columns(output_row(None, result))
    return _alone[key]


def _columns(row: dict[str, Any]) -> str:
    """The result columns of an output row, without the ones that say what a row cost or how it
    was asked (the first row of a source pays for the source's calls; ``model``: none here)."""
    return evidence({k: row.get(k) for k in RESULT_COLUMNS if k != "model"})


def _score(preset: str, rows: list[Row], **options: Any) -> list[str]:
    items = [row.as_case(id=f"r{i}", every_field=True) for i, row in enumerate(rows)]
    dataset = ray.data.from_items(items, override_num_blocks=options.pop("blocks", 1))
    out = score_dataset(dataset, FACTORIES[preset], num_cpus=0.5, **options).take_all()
    by_id = {row["id"]: _columns(row) for row in out}
    assert sorted(by_id) == sorted(item["id"] for item in items)  # every row once
    return [by_id[item["id"]] for item in items]


def test_a_sibling_quoting_the_sources_code_as_a_key_changes_nothing_on_ray(
    local_ray: None,
) -> None:
    """Before: the sibling's key blanked the code in the source-side work the actor kept (deepeval
    0.500 alone, 0.438 after it)."""
    others = [ISSUE_SUMMARY, "The code opened the billing system of Omnimart for 36 hours."]
    rows = [Row(ISSUE_SOURCE, ISSUE_SIBLING), *[Row(ISSUE_SOURCE, s) for s in others]]
    got = _score("deepeval", rows, concurrency=1, batch_size=8)
    assert not differences([alone("deepeval", r) for r in rows], got)


@settings(max_examples=3, deadline=None, suppress_health_check=SLOW)
@given(
    preset=st.sampled_from(PRESETS),
    batch=batches(min_size=3, max_size=10),
    blocks=st.integers(1, 3),
    batch_size=st.sampled_from([1, 2, 4, 16]),
    concurrency=st.sampled_from([1, 2]),
    group=st.booleans(),
)
def test_each_row_of_a_ray_dataset_scores_as_alone(
    local_ray: None,
    preset: str,
    batch: list[Row],
    blocks: int,
    batch_size: int,
    concurrency: int,
    group: bool,
) -> None:
    got = _score(
        preset,
        batch,
        blocks=blocks,
        batch_size=batch_size,
        concurrency=concurrency,
        group_by_source=group,
    )
    assert not differences([alone(preset, r) for r in batch], got)
