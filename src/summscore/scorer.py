"""SummarizationScorer: the one entry point every adapter and the CLI go through."""

from __future__ import annotations

import asyncio
import math
import os
import sys
import threading
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

from ._cache import SourceCache
from ._calls import CallLog, CallPolicy, JudgeCaller
from ._inputs import (
    DEFAULT_FIELDS,
    FieldNames,
    as_case,
    check_questions,
    check_source,
    check_summary,
)
from ._limiter import RequestLimiter
from ._pricing import check_judge_fits
from ._redact import redact
from ._replycache import ReplyCache, default_cache_dir
from ._runner import run_sync
from .judges import Judge, resolve_judge
from .presets import Context, Preset, SourceWork, make_preset
from .prompts import check_prompt_choice, check_prompt_set, load_prompt_set
from .result import SummaryResult, Usage
from .results import SummaryResults

__all__ = ["SummarizationScorer"]

_COMMON = {
    "max_concurrency": None,
    "max_retries": 4,
    "backoff": 1.0,
    "max_backoff": 30.0,
    "timeout": 120.0,
    "repair_retries": 1,
    "prompts": "auto",
    "source_cache_size": 512,
    "reply_cache": None,
}
# Without a max_concurrency the request limit adapts to the server, from here up to the ceiling.
_ADAPTIVE_START = 8
_ADAPTIVE_CEILING = 64
# Cases in flight per allowed request: cases wait on shared sources and on their own earlier
# calls, so more cases than request slots keep every slot busy.
_CASES_PER_REQUEST = 4
_JUDGE_OPTIONS = (
    "temperature",
    "max_tokens",
    "response_format",
    "cost_per_input_token",
    "cost_per_output_token",
)


class SummarizationScorer:
    """Score summaries against their sources with one judge under one preset.

    Args:
        llm: the judge. An ``openai.OpenAI``/``AsyncOpenAI`` client (with ``model=``), a LangChain
            chat model, a ragas LLM, a deepeval model or model name, an async callable
            ``(prompt, schema) -> BaseModel``, or any :class:`summscore.judges.Judge` such as the
            offline ``LexicalJudge()``.
        model: the model name, for an OpenAI-compatible client only.
        preset: "ragas", "deepeval" or "mastra": whose scoring rule to apply.
        **options: the preset's options (ragas: ``coeff``, ``length_penalty``; deepeval:
            ``threshold``, ``strict_mode``, ``truths_extraction_limit``, ``include_reason``, ``n``;
            mastra: ``scale``, ``n``, ``include_reason``) and common ones:
            ``max_concurrency`` (judge requests in flight at once, shared by every call and face
            that uses this scorer, never exceeded; halved when the server answers 429 and grown
            back; default: adaptive from 8 up to 64),
            ``max_retries`` (transient failures, default 4), ``backoff`` / ``max_backoff`` (seconds,
            exponential with jitter; a Retry-After header wins), ``timeout`` (seconds per judge
            call, default 120), ``repair_retries`` (re-asks for unusable replies, default 1),
            ``prompts`` ("auto", "upstream", "own", or a prompt-set object for the preset), ``source_cache_size`` (default 512),
            ``reply_cache`` (a directory, or True for ``~/.cache/summscore``: judge replies are
            kept on disk and a re-run asks the judge nothing it asked before), and for
            an OpenAI client ``temperature``, ``max_tokens``, ``response_format``,
            ``cost_per_input_token``, ``cost_per_output_token``.
        judge: "llm" (the default: ``llm`` judges everything) or "cascade": the offline
            ``LexicalJudge`` answers each judging request (a summary's claim verdicts, a text's
            question answers) first, and ``llm`` (with ``model=`` for an OpenAI client) is asked
            only where the offline judge is less than ``cascade_threshold`` sure of an item
            (0 to 1, default 0.8; 0 answers every judging request offline, above 1 asks the LLM
            everything); extraction and reasons always come from ``llm``. Not the default: it
            changes the numbers relative to upstream's LLM-only metrics. Verdicts given offline
            say so in their reason ("offline judge: ..."), and ``scorer.judge`` (a
            :class:`summscore.judges.CascadeJudge`) counts and records which judge answered what.
    """

    def __init__(
        self, llm: Any, model: str | None = None, preset: str = "ragas", **options: Any
    ) -> None:
        judge_choice = _JudgeChoice.pop_from(options)
        common = {k: options.pop(k, v) for k, v in _COMMON.items()}
        judge_options = {k: options.pop(k) for k in _JUDGE_OPTIONS if k in options}
        self._preset: Preset = make_preset(preset, options)
        max_concurrency = common["max_concurrency"]
        if max_concurrency is None:
            limiter = RequestLimiter(_ADAPTIVE_START, adaptive=True, ceiling=_ADAPTIVE_CEILING)
        else:
            _check_limit(max_concurrency)
            limiter = RequestLimiter(max_concurrency, adaptive=True, ceiling=max_concurrency)
        # The most judge requests in flight at once (the ceiling when adaptive).
        self.max_concurrency: int = limiter.ceiling
        self._policy = CallPolicy(
            max_retries=common["max_retries"],
            backoff=common["backoff"],
            max_backoff=common["max_backoff"],
            timeout=common["timeout"],
            repair_retries=common["repair_retries"],
        )
        prompts = common["prompts"]
        # A prompt-set object (a face's custom prompts, a user's deepeval template) is used as is.
        custom_prompts = None if isinstance(prompts, str) else check_prompt_set(preset, prompts)
        if custom_prompts is None:
            check_prompt_choice(preset, prompts)
        self._prompt_choice: str = "custom" if custom_prompts is not None else prompts
        if judge_options and not _is_openai_client(llm):
            raise TypeError(
                f"{', '.join(judge_options)}: only used with an OpenAI client; "
                "configure other judges directly"
            )
        if judge_options or _is_openai_client(llm):
            judge_options.setdefault("timeout", self._policy.timeout)
        self.llm = llm
        self.judge: Judge = judge_choice.wrap(resolve_judge(llm, model, **judge_options))
        self._caller = JudgeCaller(
            self.judge, self._policy, cache=_reply_cache(common["reply_cache"]), limiter=limiter
        )
        self._cache: SourceCache[SourceWork] = SourceCache(common["source_cache_size"])
        self._prompts: Any = custom_prompts
        self._prompts_lock = threading.Lock()

    # ------------------------------------------------------------------ description

    @property
    def preset(self) -> str:
        """The preset name: "ragas", "deepeval" or "mastra"."""
        return self._preset.name

    @property
    def options(self) -> dict[str, Any]:
        """The preset's options as given (with defaults filled in)."""
        return self._preset.options.as_dict()

    @property
    def threshold(self) -> float | None:
        return self._preset.threshold

    @property
    def prompt_set(self) -> str:
        """Name of the prompt set in use ("ragas-0.4.3", "deepeval-4.3.1", "summscore-v1", "none")."""
        if not self.judge.reads_prompts:
            return "none"
        return str(self._prompt_set().name)

    @property
    def usage(self) -> Usage:
        """Everything this scorer has spent so far, across all calls."""
        return self._caller.total.model_copy()

    def clear_cache(self) -> None:
        """Forget cached source-side work."""
        self._cache.clear()

    def __repr__(self) -> str:
        return f"SummarizationScorer(judge={self.judge.name!r}, preset={self.preset!r}, options={self.options!r})"

    def _prompt_set(self) -> Any:
        if self._prompts is None:
            with self._prompts_lock:
                if self._prompts is None:
                    # A judge that reads no prompts (LexicalJudge) gets the own set: rendering
                    # it is cheap and needs no framework import.
                    choice = self._prompt_choice if self.judge.reads_prompts else "own"
                    self._prompts = load_prompt_set(self.preset, choice)
        return self._prompts

    # ------------------------------------------------------------------ scoring

    async def ascore(
        self,
        source: str | Sequence[str],
        summary: str,
        assessment_questions: Sequence[str] | None = None,
    ) -> SummaryResult:
        """Score ``summary`` against ``source`` (a string, or contexts joined with "\\n").

        Raises ValueError/TypeError on bad input and :class:`summscore.JudgeError` when the judge
        fails after retries. Judge output that leaves the score undefined (no questions, no
        answers) gives a result with NaN ``score`` and ``error`` saying why.
        """
        return await self._ascore(source, summary, assessment_questions, DEFAULT_FIELDS)

    async def _ascore(
        self,
        source: Any,
        summary: Any,
        assessment_questions: Any,
        fields: FieldNames,
    ) -> SummaryResult:
        text = check_source(source, fields)
        # A source longer than the judge model's context window is this row's clear error, before
        # any call, instead of an opaque API error (models of unknown window are not checked).
        check_judge_fits(self.judge, text, field=fields.source)
        checked_summary = check_summary(summary, fields)
        questions = check_questions(assessment_questions, fields)
        prompts = self._prompt_set()
        log = CallLog()

        async def prepare() -> SourceWork:
            source_log = CallLog()
            work = await self._preset.prepare_source(
                Context(self._caller, source_log, prompts), text, questions
            )
            work.calls = source_log.usage.judge_calls
            work.warnings = list(source_log.warnings)
            log.usage.add(source_log.usage)
            return work

        key = (text, self._preset.source_key(questions))
        ctx = Context(self._caller, log, prompts)
        early = None
        if isinstance(self._preset, _SummaryFirst):
            # Summary-side calls that need nothing from the source go out alongside it.
            early = asyncio.ensure_future(self._preset.prepare_summary(ctx, checked_summary))
        try:
            work, reused = await self._cache.get_or_compute(key, prepare)
            if reused:
                log.usage.reused_calls += work.calls
                self._caller.count_reused(work.calls)
            for warning in work.warnings:
                log.warn(warning)
            if early is not None and isinstance(self._preset, _SummaryFirst):
                fields_out = await self._preset.judge_prepared(
                    ctx, work, await early, text, checked_summary
                )
            else:
                fields_out = await self._preset.judge_summary(ctx, work, text, checked_summary)
        finally:
            if early is not None:  # cancelled if still running; its error read, never left
                if not early.done():
                    early.cancel()
                await asyncio.gather(early, return_exceptions=True)
        if fields_out.get("error"):
            fields_out["error"] = redact(fields_out["error"])
        return SummaryResult(
            preset=self.preset,
            prompt_set=self.prompt_set,
            judge=self.judge.name,
            threshold=self.threshold,
            warnings=log.warnings,
            usage=log.usage,
            **fields_out,
        )

    def score(
        self,
        source: str | Sequence[str],
        summary: str,
        assessment_questions: Sequence[str] | None = None,
    ) -> SummaryResult:
        """Synchronous :meth:`ascore`; works inside a running event loop (notebooks, async tests)."""
        return run_sync(self.ascore(source, summary, assessment_questions))

    async def ascore_many(
        self,
        cases: Iterable[Any],
        *,
        max_concurrency: int | None = None,
        progress: bool | None = None,
    ) -> SummaryResults:
        """Score many cases concurrently; results come back in input order.

        ``cases`` holds :class:`Case` objects, ``(source, summary)`` tuples or mappings with
        source/summary keys (``source``/``contexts``/``reference_contexts``/``input`` and
        ``summary``/``response``/``actual_output``). A case that fails (bad input, judge error) is
        returned as a result with NaN ``score`` and ``error`` set; it never aborts the batch.
        Each result carries its case's ``id`` (``Case.id``, a mapping's "id", else its position).
        The :class:`~summscore.SummaryResults` list also has ``summary()``, ``to_pandas()`` and a
        notebook table. ``progress`` shows a bar with ETA (default: in a terminal or a notebook).
        """
        items = list(cases)
        results: list[SummaryResult | None] = [None] * len(items)
        bar = _progress_bar(len(items), progress)
        try:
            async for index, result in self.ascore_stream(items, max_concurrency=max_concurrency):
                if result.id is None:
                    result.id = _case_id(items[index], index)
                results[index] = result
                if bar is not None:
                    bar.update(1)
        finally:
            if bar is not None:
                bar.close()
        return SummaryResults(r for r in results if r is not None)

    async def ascore_stream(
        self, cases: Iterable[Any], *, max_concurrency: int | None = None
    ) -> AsyncIterator[tuple[int, SummaryResult]]:
        """Yield ``(index, result)`` for each case as soon as it is scored (completion order).

        ``cases`` is consumed lazily, so a generator over a large file is never held in memory
        at once. Judge requests in flight stay within the scorer's ``max_concurrency`` and, when
        given, this call's ``max_concurrency``; a few cases per request slot are in flight, so
        that cases waiting on a shared source or on their own earlier calls leave no slot idle.
        Failures are results, as in :meth:`ascore_many`. Closing the iterator early cancels the
        work still in flight.
        """
        call_limit = None
        if max_concurrency is not None:
            _check_limit(max_concurrency)
            call_limit = RequestLimiter(max_concurrency)
        limit = (max_concurrency or self.max_concurrency) * _CASES_PER_REQUEST
        source = enumerate(cases)
        # Bounded: workers wait while the consumer is behind, so the input is read no faster
        # than results are taken.
        done: asyncio.Queue[tuple[int, SummaryResult] | None] = asyncio.Queue(
            maxsize=max_concurrency or self.max_concurrency
        )
        failures: list[BaseException] = []

        async def worker() -> None:
            if call_limit is not None:  # each worker is a task of its own: this stays in it
                self._caller.use_call_limit(call_limit)
            finished = False
            try:
                while not failures:
                    try:  # one shared iterator: each item is taken once
                        index, item = next(source)
                    except StopIteration:
                        break
                    except Exception as exc:  # the input itself failed: stop, and say so
                        failures.append(exc)
                        break
                    try:
                        case = as_case(item, index)
                        result = await self.ascore(
                            case.source, case.summary, case.assessment_questions
                        )
                    except Exception as exc:
                        result = self.failed_result(exc)
                    await done.put((index, result))
                finished = True
            except Exception as exc:  # a bug, not a case: report it rather than hang
                failures.append(exc)
                finished = True
            finally:
                if finished:  # not when cancelled: nobody is reading any more
                    await done.put(None)

        workers = [asyncio.create_task(worker()) for _ in range(limit)]
        running = len(workers)
        try:
            while running:
                item = await done.get()
                if item is None:
                    running -= 1
                    continue
                yield item
        finally:
            for task in workers:
                task.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
        if failures:
            raise failures[0]

    def score_many(
        self,
        cases: Iterable[Any],
        *,
        max_concurrency: int | None = None,
        progress: bool | None = None,
    ) -> SummaryResults:
        """Synchronous :meth:`ascore_many`."""
        return run_sync(self.ascore_many(cases, max_concurrency=max_concurrency, progress=progress))

    def failed_result(self, exc: BaseException) -> SummaryResult:
        """The result recorded for a case that raised ``exc``: NaN score, the error named."""
        message = str(exc) or type(exc).__name__
        return SummaryResult(
            score=math.nan,
            preset=self.preset,
            prompt_set=self.prompt_set,
            judge=self.judge.name,
            threshold=self.threshold,
            error=redact(f"{type(exc).__name__}: {message}"),
        )


@runtime_checkable
class _SummaryFirst(Protocol):
    """A preset with summary-side work that does not depend on the source (deepeval's claims)."""

    async def prepare_summary(self, ctx: Context, summary: str) -> Any: ...

    async def judge_prepared(
        self, ctx: Context, work: Any, early: Any, text: str, summary: str
    ) -> dict[str, Any]: ...


class _JudgeChoice:
    """The ``judge=`` and ``cascade_threshold=`` options: which judge answers what."""

    CHOICES = ("llm", "cascade")
    DEFAULT_THRESHOLD = 0.8

    def __init__(self, choice: Any, threshold: Any) -> None:
        if choice not in self.CHOICES:
            raise ValueError(f"judge: expected one of {', '.join(self.CHOICES)}, got {choice!r}")
        if threshold is not None and choice != "cascade":
            raise TypeError("cascade_threshold: only used with judge='cascade'")
        if threshold is None:
            threshold = self.DEFAULT_THRESHOLD
        if (
            isinstance(threshold, bool)
            or not isinstance(threshold, (int, float))
            or not threshold >= 0
        ):
            raise ValueError(f"cascade_threshold: expected a number from 0 up, got {threshold!r}")
        self.choice = choice
        self.threshold = float(threshold)

    @classmethod
    def pop_from(cls, options: dict[str, Any]) -> _JudgeChoice:
        return cls(options.pop("judge", "llm"), options.pop("cascade_threshold", None))

    def wrap(self, judge: Judge) -> Judge:
        if self.choice == "llm":
            return judge
        from .judges import CascadeJudge, LexicalJudge

        if isinstance(judge, (CascadeJudge, LexicalJudge)):
            raise TypeError(
                f"judge='cascade' puts an LLM judge behind the offline judge; llm is already "
                f"{type(judge).__name__}, pass an LLM (an OpenAI client with model=, ...)"
            )
        return CascadeJudge(judge, threshold=self.threshold)


def _check_limit(value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"max_concurrency must be a positive integer, got {value!r}")


def _reply_cache(option: Any) -> ReplyCache | None:
    """``reply_cache``: None/False (off), True (the default directory), or a directory."""
    if option is None or option is False:
        return None
    if option is True:
        return ReplyCache(default_cache_dir())
    if isinstance(option, (str, os.PathLike)):
        return ReplyCache(option)
    raise TypeError(
        f"reply_cache must be True, False, None or a directory, got {type(option).__name__}"
    )


def _is_openai_client(llm: Any) -> bool:
    if "openai" not in sys.modules:
        return False
    import openai

    return isinstance(llm, (openai.OpenAI, openai.AsyncOpenAI))


def _case_id(item: Any, index: int) -> Any:
    """The id a result reports: the case's own, else its position in the batch."""
    try:
        case_id = as_case(item, index).id
    except Exception:  # the case was unreadable; its result says why
        return index
    return index if case_id is None else case_id


def _in_notebook() -> bool:
    """True inside a Jupyter kernel (JupyterLab, Notebook, VS Code, Colab), where stderr is no tty."""
    ipython = sys.modules.get("IPython")
    get_ipython = getattr(ipython, "get_ipython", None)
    shell = get_ipython() if callable(get_ipython) else None
    return any(cls.__name__ == "ZMQInteractiveShell" for cls in type(shell).__mro__)


def _progress_bar(total: int, progress: bool | None) -> Any:
    if progress is None:
        progress = _in_notebook() or sys.stderr.isatty()
    if not progress or total == 0:
        return None
    from tqdm.auto import tqdm  # a widget in a notebook with ipywidgets, else text on stderr

    return tqdm(total=total, desc="summscore", unit="case", file=sys.stderr, dynamic_ncols=True)
