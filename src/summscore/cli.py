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
from typing import Any

from . import __version__
from ._records import FORMATS, count_records
from ._scorefile import ResumeState, RunSink, print_summary, score_rows
from .datasets import (
    SOURCE_COLUMNS,
    SUMMARY_COLUMNS,
    Columns,
    ResultWriter,
    Row,
    is_results_file,
    open_rows,
)
from .errors import MissingExtraError
from .report import write_report
from .scorer import SummarizationScorer

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

  # a ragas or deepeval export, gzipped, results as JSONL on stdout
  summscore score ragas_export.jsonl.gz --out - > scores.jsonl

  # after Ctrl-C (or a judge outage): score only the rows the results file lacks
  summscore score big.jsonl --out big.results.jsonl --resume

exit status: 0 every row scored, 1 some rows failed (see their "error"), 2 bad usage or input,
130 interrupted (the rows finished so far are written, and the --report for them).
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
        "--mastra-version",
        choices=("1.x", "0.x"),
        help="mastra: whose rule, Mastra 1.x's scorer (default) or 0.x's legacy metric, "
        "e.g. --mastra-version 0.x",
    )
    rule.add_argument(
        "--n",
        type=int,
        help="deepeval: assessment questions to generate (default 5); mastra: the most "
        "questions asked of the source (default 10, 5 for --mastra-version 0.x), e.g. --n 8",
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
        help="judge requests in flight at once, shared by all rows (default 8), "
        "e.g. --max-concurrency 32",
    )
    judge.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="processes for the offline lexical judge (default: the machine's cores); the "
        "numbers are the same with any N, e.g. --workers 1",
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
        help="score a JSONL, JSON, CSV, TSV or Parquet file of (source, summary) rows",
        description=(
            "Score every (source, summary) row of INPUT and write one result row per input row."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_EXAMPLES,
    )
    score.add_argument(
        "input",
        metavar="INPUT",
        help="a .jsonl, .json (a list of objects), .csv, .tsv or .parquet file, optionally "
        "gzipped (.jsonl.gz); Parquet needs pyarrow, e.g. examples/news.jsonl",
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
        "--force",
        action="store_true",
        help="replace an --out or --report file that summscore did not write, e.g. --force",
    )
    io.add_argument(
        "--encoding",
        default="utf-8",
        help="text encoding of INPUT (default utf-8; a UTF-16 or UTF-8 byte-order mark wins); "
        "undecodable rows fail with their line named, e.g. --encoding cp1252",
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
    from .serve.command import add_serve_parser

    add_serve_parser(commands, add_scorer_options)
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
    if args.preset == "mastra" and "n" in options:  # Mastra calls it maxQuestions
        options["max_questions"] = options.pop("n")
    if getattr(args, "mastra_version", None):
        options["version"] = args.mastra_version
    if args.cache:
        options["reply_cache"] = args.cache
    model = args.model if args.judge == "openai" else None
    llm, max_concurrency = make_judge(args), args.max_concurrency
    workers = _workers(args)
    if args.judge == "lexical" and workers > 1:
        from ._pool import ProcessPoolJudge
        from .judges import LexicalJudge

        llm = ProcessPoolJudge(LexicalJudge, workers)
        max_concurrency = max(max_concurrency or 1, 2 * workers)  # keep every worker busy
    try:
        return SummarizationScorer(
            llm=llm,
            model=model,
            preset=args.preset,
            prompts=args.prompts,
            max_concurrency=max_concurrency,
            **options,
        )
    except MissingExtraError as exc:
        raise UsageError(str(exc)) from None
    except (TypeError, ValueError) as exc:
        raise UsageError(_cli_names(str(exc))) from None


def _workers(args: argparse.Namespace) -> int:
    workers = getattr(args, "workers", None)
    if workers is None:
        # score: every core by default. serve keeps one process (its requests are concurrent
        # already, and a pool would outlive a stopped server's event loop).
        return 1 if getattr(args, "command", None) == "serve" else os.cpu_count() or 1
    if workers < 1:
        raise UsageError(f"--workers must be a positive integer, got {workers}")
    return int(workers)


def _cli_names(message: str) -> str:
    """Speak of options the way the command line spells them."""
    for name in ("length_penalty", "max_retries", "max_concurrency", "coeff", "threshold", "scale"):
        message = message.replace(name, "--" + name.replace("_", "-"))
    return message


# ------------------------------------------------------------------------------- the run


def _default_out(path: Path) -> Path:
    name = path.name
    for suffix in (".gz", *FORMATS):
        name = name.removesuffix(suffix) if name.lower().endswith(suffix) else name
    return Path("summscore-out") / f"{name}.results.jsonl"


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def _check_out(args: argparse.Namespace, path: Path, out: Path | None) -> None:
    """Nothing the user has is overwritten: not the input, not a file summscore did not write."""
    if out is None:
        if args.resume:
            raise UsageError("--resume needs a results file, not --out -")
        return
    if _same_file(out, path):
        raise UsageError(f"--out {out} is the input file; name another results file")
    if out.is_dir():
        raise UsageError(f"--out {out} is a directory; name a file, e.g. {out / 'results.jsonl'}")
    if args.resume and out.exists() and not is_results_file(out):
        raise UsageError(f"--resume: {out} is not a summscore results file")
    if out.exists() and not args.force and not is_results_file(out):
        raise UsageError(
            f"--out {out} exists and is not a summscore results file; "
            "pass --force to replace it, or name another file"
        )
    if args.report:
        report = Path(args.report)
        if _same_file(report, path) or _same_file(report, out):
            raise UsageError(f"--report {report} is the input or the results file")
        if report.exists() and not args.force and not _is_report(report):
            raise UsageError(
                f"--report {report} exists and is not a summscore report; "
                "pass --force to replace it"
            )


def _is_report(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return not head.strip() or b"summscore" in head


def _tmp_path(out: Path) -> Path:
    return out.with_name(f".{out.name}.resume-partial{out.suffix}")


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
    to_stdout = args.out == "-"
    out = None if to_stdout else Path(args.out) if args.out else _default_out(path)
    if args.report and Path(args.report).suffix.lower() not in (".html", ".htm"):
        raise UsageError(f"--report {args.report}: the report is an .html file")
    try:
        reader = open_rows(path, columns, encoding=args.encoding)
    except (OSError, ValueError, MissingExtraError) as exc:
        raise UsageError(str(exc)) from None
    _check_out(args, path, out)
    rows = iter(reader)
    first = next(rows, None)
    if first is None:
        raise UsageError(f"{path}: the file has no rows")
    used = reader.columns
    print(
        f"summscore: {path.name}: source column {used.source!r}, summary column "
        f"{used.summary!r}, id {repr(used.id) if used.id else 'the row number'}",
        file=sys.stderr,
    )
    scorer = make_scorer(args)
    resume = None
    if args.resume and out is not None and out.exists() and out.stat().st_size:
        try:
            resume = ResumeState.load(out)
        except (OSError, ValueError, MissingExtraError) as exc:
            raise UsageError(f"--resume: cannot read {out} ({exc})") from None
    target = _tmp_path(out) if resume is not None and out is not None else out
    try:
        writer = ResultWriter("-" if target is None else target)
    except (OSError, ValueError, MissingExtraError) as exc:
        raise UsageError(f"--out: {exc}") from None
    top = float(args.scale) if args.preset == "mastra" and args.scale else 1.0
    sink = RunSink(
        writer,
        model=args.model,
        top=top,
        keep_for_report=bool(args.report),
        resume=resume,
    )
    total = None
    if not args.no_progress:
        total = count_records(path, args.encoding)
        total = min(total, args.limit) if total is not None and args.limit is not None else total
    interrupted = _run(args, scorer, _limited(_chain(first, rows), args.limit), sink, total)
    if target != out and target is not None and out is not None:
        os.replace(target, out)
    where = "stdout" if out is None else str(out)
    if interrupted:
        print(f"summscore: interrupted; the rows finished so far are in {where}", file=sys.stderr)
    else:
        print_summary(sink, scorer, sys.stderr)
        print(f"results: {where}", file=sys.stderr)
    if sink.report_cases is not None:
        meta = {"input": str(path), "rows": sink.written}
        if interrupted:
            meta["interrupted"] = "yes: the rows finished so far"
        report = write_report(
            args.report,
            sink.report_cases,
            title=f"summscore report: {path.name}",
            meta=meta,
            top=top,
        )
        print(f"report:  {report}", file=sys.stderr)
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_FAILED_ROWS if sink.stats.failed else EXIT_OK


def _run(
    args: argparse.Namespace,
    scorer: SummarizationScorer,
    rows: Iterator[Row],
    sink: RunSink,
    total: int | None,
) -> bool:
    """Score every row into ``sink``; True when the user interrupted the run (Ctrl-C)."""
    from tqdm.auto import tqdm

    bar = tqdm(
        total=total,
        desc="scoring",
        unit="row",
        file=sys.stderr,
        disable=args.no_progress,
        dynamic_ncols=True,
    )
    interrupted = False
    try:
        asyncio.run(score_rows(scorer, rows, sink, bar))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
        sink.finish(interrupted)
        sink.writer.close()
    return interrupted


def _chain(first: Row, rest: Iterator[Row]) -> Iterator[Row]:
    yield first
    yield from rest


def _limited(rows: Iterator[Row], limit: int | None) -> Iterator[Row]:
    if limit is None:
        yield from rows
        return
    for count, row in enumerate(rows):
        if count >= limit:
            return
        yield row


def run_score_on_ray(args: argparse.Namespace) -> int:
    """``score --engine ray``: the rows are scored by actors; see summscore.ray."""
    from .ray import run_score_file

    try:
        return run_score_file(args, make_scorer)
    except (OSError, ValueError, MissingExtraError) as exc:
        raise UsageError(str(exc)) from None


def run_serve(args: argparse.Namespace) -> int:
    """``summscore serve``: the options are parsed here, the service lives in summscore.serve."""
    from .serve.command import run_serve as serve

    try:
        return serve(args, make_scorer)
    except (ValueError, MissingExtraError) as exc:
        raise UsageError(str(exc)) from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        if args.command == "serve":
            return run_serve(args)
        if args.engine == "ray":
            return run_score_on_ray(args)
        return run_score(args)
    except UsageError as exc:
        message = textwrap.shorten(str(exc), width=600, placeholder=" ...")
        print(f"summscore: error: {message}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
