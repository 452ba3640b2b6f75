"""The data of ``factual_consistency.py``: the human-labelled pairs, the development sets they
come from, and a loader for each set's repository layout (and for the committed samples)."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
# The committed samples (attributed in data/ATTRIBUTION.md): SummEdits' two synthetic domains and
# a few FRANK documents with every annotated summary of each.
SAMPLES = (DATA / "factual_consistency_sample.jsonl", DATA / "frank_sample.jsonl")
SCORES = ("alignment", "ragas", "deepeval", "unigram", "bigram")
SUMMEDITS_DOMAINS = (
    "billsum",
    "ectsum",
    "news",
    "podcast",
    "qmsumm",
    "sales_call",
    "sales_email",
    "samsum",
    "scitldr",
    "shakespeare",
)
DEVELOPMENT_SETS = (
    *(f"summedits-{d}" for d in SUMMEDITS_DOMAINS),
    "frank-cnndm",
    "frank-xsum",
    "cliff-cnndm",
    "cliff-xsum",
    "goyal21-cnndm",
    "goyal21-xsum",
)
BASELINES = ("unigram", "bigram")
# The acceptance rule of issue #36: on each development set the judge is not behind the better
# baseline beyond the 95% paired bootstrap interval, and its mean margin over the better baseline
# on the validation cuts does not fall below what it was when the rule was set.
VALIDATION_FLOOR = 0.071


@dataclass(frozen=True)
class Pair:
    dataset: str
    id: str
    source: str
    summary: str
    label: int  # 1: consistent with the source, 0: not
    graded: float | None = None  # a graded human label where the set has one
    cut: str = "test"  # "val" (thresholds are tuned there) or "test"
    # Scores other systems gave this very pair, as their authors published them (FRANK only).
    published: tuple[tuple[str, float], ...] = ()


# ------------------------------------------------------------------------------------ loaders


def load_summedits(root: Path) -> Iterator[Pair]:
    for path in sorted((root / "factualNLG" / "data" / "summedits").glob("summedits_*.json")):
        domain = path.stem.removeprefix("summedits_")
        for row in json.loads(path.read_text(encoding="utf-8")):
            if str(row["label"]) not in ("0", "1"):
                continue
            yield Pair(
                f"summedits-{domain}",
                str(row["id"]),
                row["doc"],
                row["summary"],
                int(row["label"]),
                cut="val" if row.get("split") == "evaluation" else "test",
            )


FRANK_DATASETS = {"cnndm": "cnndm", "bbc": "xsum", "xsum": "xsum"}  # "bbc" is FRANK's XSum


def _frank_texts(folder: Path) -> dict[tuple[str, str], tuple[str, str]] | None:
    """(hash, model_name) -> (document, summary), from whichever form of FRANK's texts is there."""
    texts = folder / "benchmark_data.json"
    if texts.exists():
        return {
            (row["hash"], row["model_name"]): (row["article"], row["summary"])
            for row in json.loads(texts.read_text(encoding="utf-8"))
        }
    per_article = folder / "articles-wmetrics-reference-json"
    if not per_article.is_dir():
        return None
    found: dict[tuple[str, str], tuple[str, str]] = {}
    for path in sorted(per_article.glob("*.json")):
        row = json.loads(path.read_text(encoding="utf-8"))
        # Each system's summary sits under the system's name, its sentences under "<name>_lines".
        for lines in row.get("model_names") or ():
            model = str(lines).removesuffix("_lines")
            if isinstance(row.get(model), str):
                found[(str(row["hash"]), model)] = (row["article"], row[model])
    return found


# FRANK's own outputs of the metrics its paper compares (data/baseline_factuality_metrics_outputs.json)
FRANK_PUBLISHED = {
    "QAGS": "pub:QAGS",
    "FEQA": "pub:FEQA",
    "FactCC": "pub:FactCC",
    "Dep Entail": "pub:DAE",
    "BertScore P Art": "pub:BERTSc",
}


def _frank_published(folder: Path) -> dict[tuple[str, str], tuple[tuple[str, float], ...]]:
    path = folder / "baseline_factuality_metrics_outputs.json"
    if not path.exists():
        return {}
    out: dict[tuple[str, str], tuple[tuple[str, float], ...]] = {}
    for row in json.loads(path.read_text(encoding="utf-8")):
        values = []
        for field, name in FRANK_PUBLISHED.items():
            try:
                values.append((name, float(row[field])))
            except (KeyError, TypeError, ValueError):
                continue
        out[(row["hash"], row["model_name"])] = tuple(values)
    return out


def load_frank(root: Path) -> Iterator[Pair]:
    folder = root / "frank" / "data"
    labels = folder / "human_annotations.json"
    by_key = _frank_texts(folder) if labels.exists() else None
    if by_key is None:
        return
    published = _frank_published(folder)
    for row in json.loads(labels.read_text(encoding="utf-8")):
        text = by_key.get((row["hash"], row["model_name"]))
        if text is None:
            continue
        factuality = float(row["Factuality"])
        yield Pair(
            f"frank-{FRANK_DATASETS.get(row['dataset'], row['dataset'])}",
            f"{row['hash']}:{row['model_name']}",
            text[0],
            text[1],
            int(factuality == 1.0),
            graded=factuality,
            cut="val" if row.get("split") == "valid" else "test",
            published=published.get((row["hash"], row["model_name"]), ()),
        )


def load_aggrefact(root: Path) -> Iterator[Pair]:
    folder = root / "AggreFact" / "data" / "error_type_mapping"
    for name, path in (("cliff", "CLIFF_error_types.csv"), ("goyal21", "Goyal21_error_types.csv")):
        if not (folder / path).exists():
            continue
        with open(folder / path, newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                error = (row.get("error_type") or "").strip()
                yield Pair(
                    f"{name}-{row['origin']}",
                    str(row["id"]),
                    row["doc"],
                    row["summ"],
                    int(error in ("", "correct")),
                    cut="val" if row.get("cut") == "val" else "test",
                )


def load_sample(path: Path) -> Iterator[Pair]:
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            yield Pair(
                row["dataset"],
                row["id"],
                row["source"],
                row["summary"],
                int(row["label"]),
                row.get("graded"),
                row.get("cut", "test"),
            )


LOADERS: dict[str, Callable[[Path], Iterable[Pair]]] = {
    "summedits": load_summedits,
    "frank": load_frank,
    "aggrefact": load_aggrefact,
}
