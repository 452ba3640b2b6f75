"""The ``summscore`` command: score a file of summaries, write results and an HTML report.

    summscore score examples/news.jsonl --report summscore-out/news.html

Rows are read lazily and written in input order as soon as they are scored, so an interrupted
run keeps what it finished. A row that fails (unreadable, bad input, judge error) is written with
its error and the exit code is 1; no row is dropped.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import textwrap
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from . import __version__
from ._inputs import Case
from .datasets import (
    SOURCE_COLUMNS,
    SUMMARY_COLUMNS,
    Columns,
    ResultWriter,
    Row,
    output_row,
    read_rows,
)
from .errors import MissingExtraError
from .report import ReportCase, write_report
from .result import SummaryResult
from .scorer import SummarizationScorer
from .stats import describe

__all__ = ["main"]

EXIT_OK, EXIT_FAILED_ROWS, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

_EXAMPLES = """\
examples:
  # offline, no API key: the lexical judge under the ragas rule
  summscore score examples/news.jsonl --report summscore-out/news.html

  # deepeval's rule with GPT-4o-mini, results as CSV
  summscore score data.csv --preset deepeval --judge openai --model gpt-4o-mini --out scores.csv

  # a local OpenAI-compatible server (Ollama, vLLM, llama.cpp): no key needed
  summscore score data.jsonl --judge openai --model llama3.1 --base-url http://localhost:11434/v1

  # Mastra's rule on a 0-10 scale, custom column names
  summscore score runs.parquet --preset mastra --scale 10 --source-column article --summary-column tldr

exit status: 0 every row scored, 1 some rows failed (see their "error"), 2 bad usage or input,
130 interrupted (the rows finished so far are written).
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def add_scorer_options(parser: argparse.ArgumentParser) -> None:
    """The scoring-rule and judge options, shared by ``score`` and ``serve`` (see make_scorer)."""
    rule = parser.add_argument_group("scoring rule")
    rule.add_argument(
        "--preset",
        choices=("ragas", "deepeval", "mastra"),
        default="ragas",
        help="whose rule decides the score (default: ragas), e.g. --preset deepeval",
    )
    rule.add_argument(
        "--coeff",
        type=float,
        help="ragas: weight of conciseness, 0..1 (default 0.5), e.g. --coeff 0.3",
    )
    rule.add_argument(
        "--length-penalty",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="ragas: blend in conciseness (default: on), e.g. --no-length-penalty",
    )
    rule.add_argument(
        "--threshold",
        type=float,
        help="deepeval: pass mark for the 'success' column (default 0.5), e.g. --threshold 0.7",
    )
    rule.add_argument(
        "--scale",
        type=float,
        help="mastra: maximum score (default 1), e.g. --scale 10",
    )
    rule.add_argument(
        "--n",
        type=int,
        help="deepeval / mastra: assessment questions to generate (default 5), e.g. --n 8",
    )
    rule.add_argument(
        "--prompts",
        choices=("auto", "upstream", "own"),
        default="auto",
        help="prompt set: upstream's where its package is installed (auto), or summscore's own, "
        "e.g. --prompts own",
    )
    judge = parser.add_argument_group("judge")
    judge.add_argument(
        "--judge",
        choices=("lexical", "openai", "deepeval", "cascade"),
        default="lexical",
        help="lexical: offline, no key (default); openai: any OpenAI-compatible server; "
        "deepeval: a model name resolved by deepeval; cascade: the offline judge first, the "
        "OpenAI-compatible one where it is unsure (changes numbers vs upstream), "
        "e.g. --judge openai",
    )
    judge.add_argument(
        "--cascade-threshold",
        type=float,
        default=0.8,
        metavar="CONFIDENCE",
        help="--judge cascade: the offline judge's answers stand where it is at least this "
        "confident (0 to 1, default 0.8), e.g. --cascade-threshold 0.9",
    )
    judge.add_argument(
        "--model", help="model name for --judge openai/deepeval, e.g. --model gpt-4o-mini"
    )
    judge.add_argument(
        "--base-url",
        help="OpenAI-compatible endpoint, e.g. --base-url http://localhost:8000/v1 (vLLM)",
    )
    judge.add_argument(
        "--api-key-env",
        default="OPENAI_API_KEY",
        metavar="VAR",
        help="name of the environment variable holding the API key (default OPENAI_API_KEY); "
        "the key itself never goes on the command line, e.g. --api-key-env GROQ_API_KEY",
    )
    judge.add_argument(
        "--max-concurrency",
        type=int,
        default=8,
        help="rows judged at once (default 8), e.g. --max-concurrency 32",
    )
    judge.add_argument(
        "--timeout", type=float, help="seconds per judge call (default 120), e.g. --timeout 60"
    )
    judge.add_argument(
        "--max-retries",
        type=int,
        help="retries on rate limits, timeouts and 5xx (default 4), e.g. --max-retries 8",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="summscore",
        description="One summarization metric, the same number in Ragas, DeepEval and Mastra.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run 'summscore score --help' for the scoring options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"summscore {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    score = commands.add_parser(
        "score",
        help="score a JSONL, CSV or Parquet file of (source, summary) rows",
        description=(
            "Score every (source, summary) row of INPUT and write one result row per input row."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_EXAMPLES,
    )
    score.add_argument(
        "input",
        metavar="INPUT",
        help="a .jsonl, .csv or .parquet file (Parquet needs pyarrow), e.g. examples/news.jsonl",
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
        help=f"column with the summary (default: the first of {', '.join(SUMMARY_COLUMNS)}), "
        "e.g. --summary-column tldr",
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
        help="results file, .jsonl or .csv, one row per input row: id, score, components, reason, "
        "error (default: summscore-out/<INPUT name>.results.jsonl), e.g. --out scores.csv",
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
    return parser


# ------------------------------------------------------------------------------- the judge


class UsageError(Exception):
    """A problem with the command line or the environment; exit status 2."""


def make_judge(
    args: argparse.Namespace, env: dict[str, str] | os._Environ[str] = os.environ
) -> Any:
    if args.judge == "lexical":
        if args.model or args.base_url:
            raise UsageError("--model and --base-url need --judge openai or --judge deepeval")
        from .judges import LexicalJudge

        return LexicalJudge()
    if args.judge == "cascade":
        from .judges import CascadeJudge, resolve_judge

        llm = make_judge(argparse.Namespace(**{**vars(args), "judge": "openai"}), env)
        return CascadeJudge(resolve_judge(llm, args.model), threshold=args.cascade_threshold)
    if not args.model:
        raise UsageError(f"--judge {args.judge} needs --model, e.g. --model gpt-4o-mini")
    if args.judge == "deepeval":
        if args.base_url:
            raise UsageError("--base-url needs --judge openai (deepeval reads its own settings)")
        return args.model
    import openai

    key = env.get(args.api_key_env)
    if not key:
        if not args.base_url:
            raise UsageError(
                f"--judge openai needs an API key in the environment variable {args.api_key_env} "
                "(or --base-url for a local server that needs none)"
            )
        key = "not-needed"  # local servers ignore it; the client insists on one
    client = openai.AsyncOpenAI(api_key=key, base_url=args.base_url)
    return client


def make_scorer(args: argparse.Namespace) -> SummarizationScorer:
    options: dict[str, Any] = {}
    for name in ("coeff", "length_penalty", "threshold", "scale", "n", "timeout", "max_retries"):
        value = getattr(args, name)
        if value is not None:
            options[name] = value
    if args.cache:
        options["reply_cache"] = args.cache
    model = args.model if args.judge == "openai" else None
    try:
        return SummarizationScorer(
            llm=make_judge(args),
            model=model,
            preset=args.preset,
            prompts=args.prompts,
            max_concurrency=args.max_concurrency,
            **options,
        )
    except MissingExtraError as exc:
        raise UsageError(str(exc)) from None
    except (TypeError, ValueError) as exc:
        raise UsageError(_cli_names(str(exc))) from None


def _cli_names(message: str) -> str:
    """Speak of options the way the command line spells them."""
    for name in ("length_penalty", "max_retries", "max_concurrency", "coeff", "threshold", "scale"):
        message = message.replace(name, "--" + name.replace("_", "-"))
    return message


# ------------------------------------------------------------------------------- the run


def _count_rows(path: Path, columns: Columns, limit: int | None) -> int | None:
    """Rows in the file, for the progress bar's ETA (None when counting is not cheap)."""
    try:
        if path.suffix.lower() == ".parquet":
            import pyarrow.parquet as pq

            total = pq.ParquetFile(path).metadata.num_rows
        else:
            total = sum(1 for _ in read_rows(path, columns))
    except Exception:
        return None
    return min(total, limit) if limit is not None else total


async def _score_file(
    args: argparse.Namespace,
    scorer: SummarizationScorer,
    rows: Iterator[Row],
    writer: ResultWriter,
    keep: list[ReportCase] | None,
    total: int | None,
) -> list[SummaryResult]:
    """Score ``rows`` and write each result in input order; returns the results in input order."""
    from tqdm.auto import tqdm

    row_of_case: list[int] = []  # scorer's case index -> row index
    meta: list[Row] = []
    ready: dict[int, SummaryResult] = {}
    results: list[SummaryResult] = []

    def cases() -> Iterator[Case]:
        for row in rows:
            index = len(meta)
            meta.append(row)
            if row.error is not None:
                ready[index] = scorer.failed_result(ValueError(row.error))
                continue
            row_of_case.append(index)
            yield Case(row.source, row.summary, row.assessment_questions, id=row.id)  # type: ignore[arg-type]

    def flush() -> None:
        while len(results) in ready:
            index = len(results)
            result = ready.pop(index)
            row = meta[index]
            writer.write(output_row(row.id, result))
            results.append(result)
            if keep is not None:
                keep.append(
                    ReportCase(row.id, _source_text(row.source), _text(row.summary), result)
                )
            bar.update(1)

    bar = tqdm(
        total=total,
        desc="scoring",
        unit="row",
        file=sys.stderr,
        disable=args.no_progress,
        dynamic_ncols=True,
    )
    try:
        async for case_index, result in scorer.ascore_stream(cases()):
            ready[row_of_case[case_index]] = result
            flush()
        flush()
    finally:
        bar.close()
    return results


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _source_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    return None


def _limited(rows: Iterator[Row], limit: int | None) -> Iterator[Row]:
    for count, row in enumerate(rows):
        if limit is not None and count >= limit:
            return
        yield row


def _print_summary(
    results: Sequence[SummaryResult], scorer: SummarizationScorer, stream: TextIO
) -> None:
    table = describe([r.score for r in results]).rows()
    components: dict[str, list[float]] = {}
    for r in results:
        for name, value in r.components().items():
            components.setdefault(name, []).append(value)
    for name, values in components.items():
        table.append((f"mean {name.removesuffix('_score')}", f"{sum(values) / len(values):.3f}"))
    width = max(len(label) for label, _ in table)
    lines = [f"  {label:<{width}}  {value}" for label, value in table]
    usage = scorer.usage
    spend = f"{usage.judge_calls} judge calls"
    if usage.reused_calls:
        spend += f" ({usage.reused_calls} saved by the source cache)"
    if usage.cached_calls:
        spend += f", {usage.cached_calls} replies from the reply cache"
    if usage.input_tokens is not None:
        spend += f", {usage.input_tokens} input / {usage.output_tokens} output tokens"
    if usage.cost is not None:
        spend += f", cost {usage.cost:.4f}"
    print(f"summscore: {scorer.preset} preset, judge {scorer.judge.name}", file=stream)
    print("\n".join(lines), file=stream)
    print(f"  {spend}", file=stream)
    failures = [r for r in results if not r.ok]
    for r in failures[:5]:
        print(f"  failed: {r.error}", file=stream)
    if len(failures) > 5:
        print(f"  ... and {len(failures) - 5} more failures (see the 'error' column)", file=stream)


def run_score(args: argparse.Namespace) -> int:
    path = Path(args.input)
    if args.limit is not None and args.limit < 0:
        raise UsageError("--limit must be 0 or more")
    columns = Columns(
        source=args.source_column,
        summary=args.summary_column,
        id=args.id_column,
        questions=args.questions_column,
    )
    out = Path(args.out) if args.out else Path("summscore-out") / f"{path.stem}.results.jsonl"
    if args.report and Path(args.report).suffix.lower() not in (".html", ".htm"):
        raise UsageError(f"--report {args.report}: the report is an .html file")
    try:
        rows = read_rows(path, columns)
        first = next(rows, None)
    except (OSError, ValueError, MissingExtraError) as exc:
        raise UsageError(str(exc)) from None
    if first is None:
        raise UsageError(f"{path}: the file has no rows")
    scorer = make_scorer(args)
    total = None if args.no_progress else _count_rows(path, columns, args.limit)

    def all_rows() -> Iterator[Row]:
        yield first
        yield from rows

    keep: list[ReportCase] | None = [] if args.report else None
    try:
        writer = ResultWriter(out)
    except (OSError, ValueError) as exc:
        raise UsageError(f"--out: {exc}") from None
    interrupted = False
    results: list[SummaryResult] = []
    with writer:
        try:
            results = asyncio.run(
                _score_file(args, scorer, _limited(all_rows(), args.limit), writer, keep, total)
            )
        except KeyboardInterrupt:
            interrupted = True
    if interrupted:
        print(f"summscore: interrupted; the rows finished so far are in {out}", file=sys.stderr)
        return EXIT_INTERRUPTED
    _print_summary(results, scorer, sys.stderr)
    print(f"results: {out}", file=sys.stderr)
    if keep is not None:
        meta = {"input": str(path), "rows": len(results)}
        top = float(args.scale) if args.preset == "mastra" and args.scale else 1.0
        report = write_report(
            args.report, keep, title=f"summscore report: {path.name}", meta=meta, top=top
        )
        print(f"report:  {report}", file=sys.stderr)
    return EXIT_FAILED_ROWS if any(not r.ok for r in results) else EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return run_score(args)
    except UsageError as exc:
        message = textwrap.shorten(str(exc), width=600, placeholder=" ...")
        print(f"summscore: error: {message}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
