"""SummarizationScorer: the one entry point every adapter and the CLI go through."""

from __future__ import annotations

import asyncio
import copy
import math
import threading
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import aclosing
from typing import Any

from .calls.affinity import case_affinity
from .calls.caller import CallLog, JudgeCaller
from .calls.many import case_id, progress_bar, stream_cases
from .calls.setup import SHARED_OPTIONS, build_parts, check_limit
from .calls.source_cache import SourceCache
from .calls.sync import run_sync
from .cases import DEFAULT_FIELDS, Case, FieldNames, check_questions, check_source, check_summary
from .judges import Judge
from .judges.pricing import check_judge_fits
from .masking.replies import case_error, case_keys, redact_result, shared_work
from .masking.secrets import redact
from .presets import Context, Preset, SourceWork, make_preset
from .presets.base import summary_first
from .prompts import check_prompt_choice, load_prompt_set
from .results import SummaryResult, SummaryResults, Usage

__all__ = ["SummarizationScorer"]


class SummarizationScorer:
    """Score summaries against their sources with one judge under one preset.

    Args:
        llm: the judge. An ``openai.OpenAI``/``AsyncOpenAI`` client (with ``model=``), a LangChain
            chat model, a ragas LLM, a deepeval model or model name, an async callable
            ``(prompt, schema) -> BaseModel``, or any ``summscore.judges.Judge`` such as the
            offline ``LexicalJudge()``.
        model: the model name, for an OpenAI-compatible client only.
        preset: "ragas", "deepeval" (the default) or "mastra": whose scoring rule to apply.
        **options: the preset's options and the common ones, by name:

            - the preset's: ragas ``coeff``, ``length_penalty``; deepeval ``threshold``,
              ``strict_mode``, ``truths_extraction_limit``, ``include_reason``, ``n``; mastra
              ``scale``, ``n``, ``include_reason``;
            - ``max_concurrency``: judge requests in flight at once, shared by every call and
              face that uses this scorer, never exceeded; halved when the server answers 429 and
              grown back (default: adaptive from 8 up to 64);
            - ``max_retries`` (transient failures, default 4), ``backoff`` / ``max_backoff``
              (seconds, exponential with jitter; a Retry-After header wins), ``timeout`` (seconds
              per judge call, default 120), ``repair_retries`` (re-asks for unusable replies,
              default 1);
            - ``prompts``: "auto", "upstream", "own", or a prompt-set object for the preset;
            - ``source_cache_size`` (default 512); ``source_cache_bytes`` (the source cache's
              memory bound, default 256 MiB; None: none); ``reply_cache``: a directory, or True for
              ``~/.cache/summscore``: judge replies are kept on disk and a re-run asks the judge
              nothing it asked before;
            - for an OpenAI client: ``temperature``, ``max_tokens``, ``response_format``,
              ``cost_per_input_token``, ``cost_per_output_token``;
            - ``judge``: "llm" (the default: ``llm`` judges everything) or "cascade": the offline
              ``LexicalJudge`` answers each judging request (a summary's claim verdicts, a text's
              question answers) first, and ``llm`` (with ``model=`` for an OpenAI client) is
              asked only where the offline judge is less than ``cascade_threshold`` sure of an
              item (0 to 1, default 0.8; 0 answers every judging request offline, above 1 asks
              the LLM everything); extraction and reasons always come from ``llm``. Not the
              default: it changes the numbers relative to upstream's LLM-only metrics. Verdicts
              given offline say so in their reason ("offline judge: ..."), and ``scorer.judge``
              (a [`CascadeJudge`][summscore.judges.CascadeJudge]) counts and records which judge
              answered what.
    """

    def __init__(
        self, llm: Any, model: str | None = None, preset: str = "deepeval", **options: Any
    ) -> None:
        parts = build_parts(llm, model, preset, options, make_preset)
        self.llm = llm
        self.judge: Judge = parts.judge
        self._preset: Preset = parts.preset
        self._policy = parts.policy
        # The most judge requests in flight at once (the ceiling when adaptive).
        self.max_concurrency: int = parts.limiter.ceiling
        self._caller = JudgeCaller(
            self.judge, self._policy, cache=parts.reply_cache, limiter=parts.limiter
        )
        self._cache: SourceCache[SourceWork] = SourceCache(
            parts.source_cache_size, parts.source_cache_bytes
        )
        self._prompt_choice: str = parts.prompt_choice
        self._prompts: Any = parts.custom_prompts
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
        """The pass mark of the preset's rule (deepeval's ``threshold``, 0.5 by default); None
        for the rules that have none (ragas, mastra)."""
        return self._preset.threshold

    @property
    def prompt_set(self) -> str:
        """Name of the prompt set in use ("ragas-0.4.3", "deepeval-4.3.1", "summscore-v1", "none")."""
        if not self.judge.reads_prompts:
            return "none"
        return str(self._prompt_set().name)

    @property
    def prompts(self) -> Any:
        """The prompt-set object in use: the one given as ``prompts=``, or the one the choice
        ("auto", "upstream", "own") loads (summscore's own for a judge that reads no prompts)."""
        return self._prompt_set()

    @property
    def timeout(self) -> float | None:
        """Seconds per judge call attempt (None: no limit), as given by ``timeout=``."""
        return self._policy.timeout

    @property
    def usage(self) -> Usage:
        """Everything this scorer has spent so far, across all calls."""
        return self._caller.total.model_copy()

    def clear_cache(self) -> None:
        """Forget cached source-side work."""
        self._cache.clear()

    def with_preset(self, preset: str | None = None, **options: Any) -> SummarizationScorer:
        """A scorer applying another rule with this scorer's judge, request limit, caches and
        spend: ``preset`` (default: this one) with ``options``.

        Options not given keep this scorer's values when the preset is the same, and the
        preset's defaults for another preset. This scorer is left as it was; the two share
        ``max_concurrency`` (requests of both count against it), the reply and source caches
        (keys include the preset and its options, so rules never mix) and ``usage``. Call
        settings (``max_concurrency``, ``timeout``, ``prompts``, ...) are part of what is shared:
        build another ``SummarizationScorer`` to change them.
        """
        shared = sorted(set(options) & SHARED_OPTIONS)
        if shared:
            raise TypeError(
                f"{', '.join(shared)}: shared with the scorer this comes from; "
                "build another SummarizationScorer to change it"
            )
        name = self.preset if preset is None else preset
        if name == self.preset:
            options = {**self.options, **options}
        rule = make_preset(name, options)
        if name != self.preset:
            if self._prompt_choice == "custom":
                raise TypeError(
                    f"prompts: the scorer's prompt set is for the {self.preset} preset; build "
                    f"another SummarizationScorer with prompts for the {name} preset"
                )
            check_prompt_choice(name, self._prompt_choice)
        variant = copy.copy(self)
        variant._preset = rule
        if name != self.preset:
            variant._prompts = None
            variant._prompts_lock = threading.Lock()
        return variant

    def with_options(self, **options: Any) -> SummarizationScorer:
        """This scorer's rule with other preset options (``threshold``, ``length_penalty``, ...),
        sharing its judge, request limit, caches and spend: ``with_preset`` for this preset."""
        return self.with_preset(None, **options)

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

        Raises ValueError/TypeError on bad input and ``summscore.JudgeError`` when the judge
        fails after retries. Judge output that leaves the score undefined (no questions, no
        answers) gives a result with NaN ``score`` and ``error`` saying why.
        """
        return await self._ascore(source, summary, assessment_questions, DEFAULT_FIELDS)

    async def ascore_named(
        self,
        source: str | Sequence[str] | None,
        summary: str | None,
        assessment_questions: Sequence[str] | None = None,
        *,
        source_name: str = "source",
        summary_name: str = "summary",
        questions_name: str = "assessment_questions",
    ) -> SummaryResult:
        """``ascore``, with bad input reported under the names the caller's framework gives
        the fields (what the ragas, deepeval and mastra faces call): with
        ``source_name="reference_contexts"``, an empty source raises "reference_contexts cannot
        be empty ..." where ``ascore`` says "source ...". A missing (None) source or summary
        is such an error too, as frameworks' optional fields may hold it. The result is
        ``ascore``'s."""
        names = FieldNames(source_name, summary_name, questions_name)
        return await self._ascore(source, summary, assessment_questions, names)

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
        check_judge_fits(self.judge, checked_summary, field=fields.summary)
        questions = check_questions(assessment_questions, fields)
        # One source's requests may be kept together (see calls.affinity); a key any text of the case
        # holds is masked in every reply about the summary and in what the case puts out (its
        # result, its error), never in the source-side work other cases share (see
        # masking.replies): a score depends on its own case only.
        failure: BaseException | None = None
        with case_affinity(text), case_keys(text, checked_summary, *(questions or ())):
            try:
                return redact_result(await self._ascore_checked(text, checked_summary, questions))
            except Exception as exc:
                failure = case_error(exc)
                if failure is exc:
                    raise
        raise failure  # outside the handler: the unmasked error is not chained to it

    async def _ascore_checked(
        self, text: str, checked_summary: str, questions: tuple[str, ...] | None
    ) -> SummaryResult:
        prompts = self._prompt_set()
        log = CallLog()

        async def prepare() -> SourceWork:
            source_log = CallLog()
            # Shared by every case of this source: masked with the source's keys only.
            with shared_work(text, *(questions or ())):
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
        first = summary_first(self._preset)
        if first is not None:
            # Summary-side calls that need nothing from the source go out alongside it.
            early = asyncio.ensure_future(first.prepare_summary(ctx, checked_summary))
        try:
            work, reused = await self._cache.get_or_compute(key, prepare)
            if reused:
                log.usage.reused_calls += work.calls
                self._caller.count_reused(work.calls)
            for warning in work.warnings:
                log.warn(warning)
            if early is not None and first is not None:
                fields_out = await first.judge_prepared(
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
        """Synchronous ``ascore``; works inside a running event loop (notebooks, async tests)."""
        return run_sync(self.ascore(source, summary, assessment_questions))

    async def ascore_many(
        self,
        cases: Iterable[Any],
        *,
        max_concurrency: int | None = None,
        progress: bool | None = None,
    ) -> SummaryResults:
        """Score many cases concurrently; results come back in input order.

        ``cases`` holds ``Case`` objects, ``(source, summary)`` tuples or mappings with
        source/summary keys (``source``/``contexts``/``reference_contexts``/``input`` and
        ``summary``/``response``/``actual_output``). A case that fails (bad input, judge error) is
        returned as a result with NaN ``score`` and ``error`` set; it never aborts the batch.
        Each result carries its case's ``id`` (``Case.id``, a mapping's "id", else its position).
        The ``SummaryResults`` list also has ``summary()``, ``to_pandas()`` and a
        notebook table. ``progress`` shows a bar with ETA (default: in a terminal or a notebook).
        """
        items = list(cases)
        results: list[SummaryResult | None] = [None] * len(items)
        bar = progress_bar(len(items), progress)
        try:
            async for index, result in self.ascore_stream(items, max_concurrency=max_concurrency):
                if result.id is None:
                    result.id = case_id(items[index], index)
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
        Failures are results, as in ``ascore_many``. Closing the iterator early cancels the
        work still in flight.
        """
        if max_concurrency is not None:
            check_limit(max_concurrency)
        stream = stream_cases(
            cases,
            score=self._score_case,
            failed=self.failed_result,
            caller=self._caller,
            max_concurrency=max_concurrency or self.max_concurrency,
            call_limit=max_concurrency,
        )
        async with aclosing(stream):
            async for item in stream:
                yield item

    async def _score_case(self, case: Case) -> SummaryResult:
        return await self.ascore(case.source, case.summary, case.assessment_questions)

    def score_many(
        self,
        cases: Iterable[Any],
        *,
        max_concurrency: int | None = None,
        progress: bool | None = None,
    ) -> SummaryResults:
        """Synchronous ``ascore_many``."""
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
