"""The ``summscore`` argument parser: the commands, their options, the examples in ``--help``."""

from __future__ import annotations

import argparse

from .. import __version__
from ..files.datasets import SOURCE_COLUMNS, SUMMARY_COLUMNS
from .compare import add_compare_parser
from .gates import add_run_gates, add_worse_gate
from .scorer_options import add_scorer_options
from .usage import CommandParser

__all__ = ["build_parser", "subcommand"]

_EXAMPLES = """\
examples:
  # offline, no API key: the lexical judge under the deepeval rule (the default)
  summscore score examples/news.jsonl --report summscore-out/news.html

  # the ragas rule with GPT-4o-mini, results as CSV
  summscore score data.csv --preset ragas --judge openai --model gpt-4o-mini --out scores.csv

  # a local OpenAI-compatible server (Ollama, vLLM, llama.cpp): no key needed
  summscore score data.jsonl --judge openai --model llama3.1 --base-url http://localhost:11434/v1

  # Mastra's rule on a 0-10 scale, custom column names
  summscore score runs.parquet --preset mastra --scale 10 --source-column article --summary-column tldr

  # one sheet of an Excel workbook of human-rated summaries
  summscore score ratings.xlsx --sheet "Round 2" --source-column article

  # a ragas or deepeval export, gzipped, results as JSONL on stdout
  summscore score ragas_export.jsonl.gz --out - > scores.jsonl

  # a CSV from a European Excel (';' separators, a BOM, CRLF) is read as it is; or force it
  summscore score export.csv --delimiter ';'

  # after Ctrl-C (or a judge outage): score only the rows the results file lacks
  summscore score big.jsonl --out big.results.jsonl --resume

  # A/B: two summary columns against the same sources, compared beside the results
  summscore score data.jsonl --summary-column summary_a,summary_b --out ab.results.jsonl

  # in CI: fail when the mean score is under 0.7 or under 90% of rows pass
  summscore score data.jsonl --fail-under 0.7 --min-pass-rate 0.9

exit status: 0 every row scored (and no gate failed), 1 a gate failed (--fail-under,
--min-pass-rate, --fail-if-worse), 2 bad usage or input, or an output that cannot be written
there, 3 some rows failed (see their "error"; also when a gate failed), 4 the results, report
or a comparison not written (disk full, file-size limit: the rows finished are kept for
--resume), 5 internal error (a bug: the traceback is printed; please report it), 130
interrupted by Ctrl-C or SIGTERM (the rows finished so far are written, and the --report for
them).
When several apply, the first of 130, 2, 4, 3, 1.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="summscore",
        description="One summarization metric, the same number in every evaluation framework: "
        "Ragas, DeepEval, Mastra, MLflow, Inspect AI, Opik, LangSmith, promptfoo, Braintrust, "
        "Phoenix and TruLens.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run 'summscore score --help' for the scoring options and examples, "
        "'summscore compare --help' for comparing two runs.",
    )
    parser.add_argument("--version", action="version", version=f"summscore {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    score = commands.add_parser(
        "score",
        help="score a JSONL, JSON, CSV, TSV, Parquet or Excel file of (source, summary) rows",
        description=(
            "Score every (source, summary) row of INPUT and write one result row per input row."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_EXAMPLES,
    )
    score.add_argument(
        "input",
        metavar="INPUT",
        help="a .jsonl, .json (a list of objects), .csv or .tsv file, optionally gzipped "
        "(.jsonl.gz), a .parquet file (needs pyarrow) or an Excel .xlsx / .xlsm workbook "
        "(needs openpyxl), e.g. examples/news.jsonl",
    )
    add_scorer_options(score)
    io = score.add_argument_group("input and output")
    io.add_argument(
        "--source-column",
        metavar="NAME",
        help=f"column with the source text or a list of contexts (default: the first of "
        f"{', '.join(SOURCE_COLUMNS)}), e.g. --source-column article",
    )
    io.add_argument(
        "--summary-column",
        metavar="NAME",
        action="append",
        help=f"column with the summary (default: the first of {', '.join(SUMMARY_COLUMNS)}); "
        "two or more (a,b or repeated) score each against the same source in one run and "
        "write their comparison beside the results (an A/B run), e.g. --summary-column tldr",
    )
    io.add_argument(
        "--id-column",
        metavar="NAME",
        help="column with the row id (default: id, else the row number), e.g. --id-column doc_id",
    )
    io.add_argument(
        "--questions-column",
        metavar="NAME",
        help="column with assessment questions (default: assessment_questions), "
        "e.g. --questions-column checks",
    )
    io.add_argument(
        "--out",
        metavar="PATH",
        help="results file, .jsonl, .csv, .tsv or .parquet, or - for JSONL on stdout; one row "
        "per input row: id, score, components, reason, error, provenance (default: "
        "summscore-out/<INPUT name>.results.jsonl); never the input, and a file summscore did "
        "not write only with --force, e.g. --out scores.csv",
    )
    io.add_argument(
        "--resume",
        action="store_true",
        help="keep the rows --out already holds (scored without error) and score only the "
        "others; the file ends complete, in input order, e.g. after Ctrl-C: --resume",
    )
    io.add_argument(
        "--raw-csv",
        action="store_true",
        help="write CSV and TSV text cells as they are: by default a cell that a spreadsheet "
        "would run as a formula (it begins with = + - @, a tab or a CR) gets a leading ' and "
        "every text cell is quoted; for tools that read the file, not spreadsheets, e.g. "
        "--raw-csv",
    )
    io.add_argument(
        "--force",
        action="store_true",
        help="replace an --out or --report file that summscore did not write, e.g. --force",
    )
    io.add_argument(
        "--encoding",
        default="utf-8",
        help="text encoding of INPUT (default utf-8; a UTF-8, UTF-16 or UTF-32 byte-order mark "
        "wins); undecodable rows fail with their line named, e.g. --encoding cp1252",
    )
    io.add_argument(
        "--delimiter",
        metavar="CHAR",
        help="the separator of a CSV INPUT: one character or comma, semicolon, tab, pipe "
        "(default: detected from the header and first rows; tab for .tsv), e.g. --delimiter ';'",
    )
    io.add_argument(
        "--sheet",
        metavar="NAME",
        help="the worksheet of an Excel INPUT to read (needed when several sheets hold data), "
        "e.g. --sheet 'Round 2'",
    )
    io.add_argument(
        "--report",
        metavar="PATH",
        help="also write a self-contained HTML report, e.g. --report summscore-out/report.html",
    )
    io.add_argument(
        "--limit", type=int, metavar="N", help="score only the first N rows, e.g. --limit 20"
    )
    io.add_argument(
        "--cache",
        metavar="DIR",
        help="keep judge replies in DIR: a re-run asks the judge nothing it asked before "
        "(for deterministic judges), e.g. --cache ~/.cache/summscore",
    )
    io.add_argument(
        "--no-progress", action="store_true", help="no progress bar on stderr, e.g. in CI logs"
    )
    gates = score.add_argument_group("gates (exit status 1 when one fails)")
    add_run_gates(gates)
    add_worse_gate(gates)
    engine = score.add_argument_group("engine")
    engine.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="local: this process (default); ray: actors on a Ray cluster (summscore[ray]), "
        "--max-concurrency split across them, e.g. --engine ray",
    )
    engine.add_argument(
        "--address",
        help="the Ray cluster to join (default: start a local one), e.g. --address auto",
    )
    from ..serve.command import add_serve_parser

    add_serve_parser(commands, add_scorer_options)
    add_compare_parser(commands)
    return parser


def subcommand(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    """The parser of command ``name`` (``serve``) in ``parser``'s subcommands."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[name]
            return found
    raise KeyError(name)
