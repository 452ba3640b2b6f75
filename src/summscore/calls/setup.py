"""What a ``SummarizationScorer`` is built from: its keyword options checked and
sorted (preset, call policy, request limit, prompts, reply cache) and its judge resolved."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..judges import Judge, resolve_judge
from ..prompts import check_prompt_choice, check_prompt_set
from .caller import CallPolicy
from .limiter import RequestLimiter
from .reply_cache import ReplyCache, default_cache_dir

__all__ = ["COMMON_OPTIONS", "SHARED_OPTIONS", "ScorerParts", "build_parts", "check_limit"]

COMMON_OPTIONS = {
    "max_concurrency": None,
    "max_retries": 4,
    "backoff": 1.0,
    "max_backoff": 30.0,
    "timeout": 120.0,
    "repair_retries": 1,
    "prompts": "auto",
    "source_cache_size": 512,
    "source_cache_bytes": 256 * 1024 * 1024,
    "reply_cache": None,
}
# Without a max_concurrency the request limit adapts to the server, from here up to the ceiling.
_ADAPTIVE_START = 8
_ADAPTIVE_CEILING = 64
_JUDGE_OPTIONS = (
    "temperature",
    "max_tokens",
    "response_format",
    "cost_per_input_token",
    "cost_per_output_token",
)

# What a scorer's variants (``with_preset``) share with it rather than set anew.
SHARED_OPTIONS = frozenset({*COMMON_OPTIONS, *_JUDGE_OPTIONS, "judge", "cascade_threshold"})


RuleT = TypeVar("RuleT")


@dataclass(frozen=True)
class ScorerParts(Generic[RuleT]):
    """A scorer's parts, checked; ``custom_prompts`` is a prompt-set object given as is."""

    preset: RuleT
    policy: CallPolicy
    limiter: RequestLimiter
    prompt_choice: str
    custom_prompts: Any
    judge: Judge
    reply_cache: ReplyCache | None
    source_cache_size: int
    source_cache_bytes: int | None = None


def build_parts(
    llm: Any,
    model: str | None,
    preset: str,
    options: dict[str, Any],
    make_rule: Callable[[str, dict[str, Any]], RuleT],
) -> ScorerParts[RuleT]:
    """Check and sort the scorer's arguments; any bad one raises, naming it.

    ``make_rule`` builds the preset from its name and the options left once the call options are
    taken out (the scorer passes ``summscore.presets.make_preset``: presets sit above this
    layer).
    """
    options = dict(options)
    judge_choice = _JudgeChoice.pop_from(options)
    common = {k: options.pop(k, v) for k, v in COMMON_OPTIONS.items()}
    judge_options = {k: options.pop(k) for k in _JUDGE_OPTIONS if k in options}
    checked_preset = make_rule(preset, options)
    max_concurrency = common["max_concurrency"]
    if max_concurrency is None:
        limiter = RequestLimiter(_ADAPTIVE_START, adaptive=True, ceiling=_ADAPTIVE_CEILING)
    else:
        check_limit(max_concurrency)
        limiter = RequestLimiter(max_concurrency, adaptive=True, ceiling=max_concurrency)
    policy = CallPolicy(
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
    if judge_options and not _is_openai_client(llm):
        raise TypeError(
            f"{', '.join(judge_options)}: only used with an OpenAI client; "
            "configure other judges directly"
        )
    if judge_options or _is_openai_client(llm):
        judge_options.setdefault("timeout", policy.timeout)
    judge = judge_choice.wrap(resolve_judge(llm, model, **judge_options))
    if max_concurrency is None and getattr(judge, "in_process", False) is True:
        # A judge that answers in the loop's thread gains nothing from requests in flight
        # together; one at a time keeps each case's texts in its memos (LexicalJudge).
        limiter = RequestLimiter(1)
    return ScorerParts(
        preset=checked_preset,
        policy=policy,
        limiter=limiter,
        prompt_choice="custom" if custom_prompts is not None else prompts,
        custom_prompts=custom_prompts,
        judge=judge,
        reply_cache=_reply_cache(common["reply_cache"]),
        source_cache_size=common["source_cache_size"],
        source_cache_bytes=common["source_cache_bytes"],
    )


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
        from ..judges import CascadeJudge, LexicalJudge

        if isinstance(judge, (CascadeJudge, LexicalJudge)):
            raise TypeError(
                f"judge='cascade' puts an LLM judge behind the offline judge; llm is already "
                f"{type(judge).__name__}, pass an LLM (an OpenAI client with model=, ...)"
            )
        return CascadeJudge(judge, threshold=self.threshold)


def check_limit(value: Any) -> None:
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
