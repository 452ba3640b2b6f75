"""The scoring-rule and judge options shared by ``score`` and ``serve``: declared on a parser
(``add_scorer_options``), turned into a judge and a scorer (``make_scorer``)."""

from __future__ import annotations

import argparse
import functools
import os
from typing import Any

from ..errors import MissingExtraError
from ..scorer import SummarizationScorer
from .usage import UsageError
from .workers import (
    WorkersChoice,
    available_cpus,
    choose_workers,
    idle_cpus,
    input_bytes,
    worker_bytes,
)

__all__ = ["add_scorer_options", "make_judge", "make_scorer", "make_shards", "release_judge"]


_WORKERS_HELP = {
    "score": "processes for the offline lexical judge (default: chosen from the input's size and "
    "the CPUs, never slower than one: see the docs); the numbers are the same with any N, "
    "e.g. --workers 2",
    "serve": "processes for the offline lexical judge's small requests (default 1, apart from "
    "the server; large requests have lanes of their own: see --large-workers); the numbers are "
    "the same with any N, e.g. --workers 2",
}


def add_scorer_options(parser: argparse.ArgumentParser, command: str = "score") -> None:
    """The scoring-rule and judge options, shared by ``score`` and ``serve`` (see make_scorer);
    ``command`` is the one they are for (``--workers`` means a little more to ``serve``)."""
    rule = parser.add_argument_group("scoring rule")
    rule.add_argument(
        "--preset",
        choices=("ragas", "deepeval", "mastra"),
        # The rule whose score agrees best with people under the offline judge, and the only one
        # that fails a summary for a claim its source does not support (docs/presets.md).
        default="deepeval",
        help="whose rule decides the score (default: deepeval), e.g. --preset ragas",
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
        help=_WORKERS_HELP[command],
    )
    judge.add_argument(
        "--timeout", type=float, help="seconds per judge call (default 120), e.g. --timeout 60"
    )
    judge.add_argument(
        "--max-retries",
        type=int,
        help="retries on rate limits, timeouts and 5xx (default 4), e.g. --max-retries 8",
    )


def make_judge(
    args: argparse.Namespace, env: dict[str, str] | os._Environ[str] = os.environ
) -> Any:
    if args.judge == "lexical":
        if args.model or args.base_url:
            raise UsageError("--model and --base-url need --judge openai or --judge deepeval")
        from ..judges import LexicalJudge

        return LexicalJudge()
    if args.judge == "cascade":
        from ..judges import CascadeJudge, resolve_judge

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


def make_scorer(args: argparse.Namespace, *, pool: bool = False) -> SummarizationScorer:
    """The scorer the options describe. The offline judge runs in a process pool of ``--workers``
    processes for ``serve`` (always: a process apart) and where ``pool`` asks for it with more
    than one worker (a Ray actor with several CPUs); ``score --workers N`` shards whole rows
    instead (make_shards)."""
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
    source_cache_mb = getattr(args, "source_cache_mb", None)  # serve's memory budget
    if source_cache_mb is not None:
        options["source_cache_bytes"] = int(source_cache_mb * 2**20)
    model = args.model if args.judge == "openai" else None
    llm, max_concurrency = make_judge(args), args.max_concurrency
    workers = _workers(args)
    serving = getattr(args, "command", None) == "serve"
    # score --workers N: whole rows go to N processes (make_shards); the scorer stays in this one.
    if args.judge == "lexical" and (serving or (pool and workers > 1)):
        from ..calls.pool import ProcessPoolJudge
        from ..judges import LexicalJudge

        if serving:  # lanes by size and a memory bound per worker (serve.lanes)
            from ..serve.command import offline_judge

            try:
                llm = offline_judge(args, workers)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
        else:
            llm = ProcessPoolJudge(LexicalJudge, workers)
        # Enough cases in flight that no worker waits for its next text (each text has one worker).
        max_concurrency = max(max_concurrency or 1, 4 * workers)
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


def make_shards(args: argparse.Namespace, scorer: SummarizationScorer) -> Any:
    """``score --workers N`` (N > 1) with the offline judge: a ShardedScorer whose N processes
    each build this command's scorer; None for one worker or another judge. Without
    ``--workers``, N is chosen from the input's size and the CPUs (see cli/workers.py)."""
    workers = _workers(args) if args.workers is not None else auto_workers(args).workers
    if args.judge != "lexical" or workers < 2:
        return None
    from ..files.shards import ShardedScorer

    one = argparse.Namespace(**{**vars(args), "workers": 1, "argv": None})
    return ShardedScorer(functools.partial(make_scorer, one), workers, scorer.failed_result)


def release_judge(scorer: SummarizationScorer, interrupted: bool = False) -> None:
    """Stop the offline judge's worker processes, if the run has any: waited for after a
    complete run, killed after Ctrl-C (a long text would hold the exit). Never left to the
    interpreter's exit, whose hook could meet a worker's pipe half torn down."""
    from ..calls.pool import ProcessPoolJudge

    judge = scorer.llm
    if isinstance(judge, ProcessPoolJudge):
        judge.terminate() if interrupted else judge.close()


def auto_workers(args: argparse.Namespace) -> WorkersChoice:
    """``score`` without ``--workers``: the choice from a probe of the input and the CPUs."""
    size = input_bytes(args.input, args.limit) if args.judge == "lexical" else None
    preset = getattr(args, "preset", None) or "deepeval"
    cpus = available_cpus()
    if size is not None and size >= 2 * worker_bytes(preset) and cpus > 1:
        cpus = idle_cpus(cpus)  # (the probe: only where two workers could pay)
    return choose_workers(args.judge, size, cpus, preset)


def _workers(args: argparse.Namespace) -> int:
    workers = getattr(args, "workers", None)
    if workers is None:
        return 1
    if workers < 1:
        raise UsageError(f"--workers must be a positive integer, got {workers}")
    return int(workers)


def _cli_names(message: str) -> str:
    """Speak of options the way the command line spells them."""
    for name in ("length_penalty", "max_retries", "max_concurrency", "coeff", "threshold", "scale"):
        message = message.replace(name, "--" + name.replace("_", "-"))
    return message
