"""Published figures of reference systems on the development sets, as their papers (or their
authors' repositories) report them, for the tables ``factual_consistency.py --figures`` writes
next to this project's own measurements. Only figures reported on the same sets, each table in
its paper's metric: the metrics are not interchangeable.

* SummEdits, balanced accuracy (%) per domain: the benchmark table of Laban et al., "SummEdits:
  Measuring LLM Ability at Factual Reasoning Through The Lens of Summarization", EMNLP 2023
  (arXiv:2305.14540), in the authors' updated version in the README of salesforce/factualNLG
  (commit 0da1dfa).
* CLIFF and Goyal'21 (AggreFact), balanced accuracy on the test cut with the threshold tuned on
  the validation cut: Tang et al., "Understanding Factual Errors in Summarization: Errors,
  Summarizers, Datasets, Error Detectors", ACL 2023 (arXiv:2205.12854), Table 8, as the authors'
  notebook ``final_result.ipynb`` in Liyan06/AggreFact (commit f0654b2) prints it. Their labels
  come from AggreFact's deduplicated, partly corrected release, this project's from the
  ``error_type_mapping`` files, so a pair may be labelled differently.
* FRANK needs no table here: its authors published every system's score for every summary
  (``baseline_factuality_metrics_outputs.json``), which the benchmark measures itself.
"""

from __future__ import annotations

__all__ = ["AGGREFACT_BACC", "AGGREFACT_SYSTEMS", "SUMMEDITS_BACC", "SUMMEDITS_SYSTEMS"]

SUMMEDITS_SYSTEMS = ("DAE", "SummaC-Conv", "QAFactEval", "GPT-4", "people")
SUMMEDITS_BACC: dict[str, tuple[float, ...]] = {
    "news": (60.9, 61.9, 74.4, 83.3, 90.0),
    "podcast": (54.4, 58.1, 63.7, 82.7, 90.8),
    "samsum": (58.7, 53.1, 66.2, 83.1, 89.4),
    "sales_call": (50.4, 59.0, 68.4, 87.9, 91.8),
    "sales_email": (53.6, 53.7, 63.6, 79.5, 87.4),
    "scitldr": (54.7, 59.7, 67.5, 82.4, 89.3),
    "qmsumm": (52.0, 53.5, 62.4, 79.6, 90.7),
    "ectsum": (58.3, 57.9, 72.6, 87.0, 95.4),
    "billsum": (55.1, 55.2, 54.2, 71.1, 87.5),
    "shakespeare": (53.6, 59.3, 61.6, 84.0, 96.9),
}

AGGREFACT_SYSTEMS = ("DAE", "QuestEval", "SummaC-ZS", "SummaC-Conv", "QAFactEval")
AGGREFACT_BACC: dict[str, tuple[float, ...]] = {
    "cliff-cnndm": (0.730, 0.740, 0.646, 0.649, 0.716),
    "cliff-xsum": (0.754, 0.619, 0.596, 0.666, 0.626),
    "goyal21-cnndm": (0.188, 0.146, 0.375, 0.354, 0.271),
    "goyal21-xsum": (0.644, 0.814, 0.466, 0.552, 0.754),
}
