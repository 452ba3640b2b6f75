"""promptfoo's assertion protocol, shared by the Python assertion (``summscore.promptfoo``) and
the service's webhook route (``summscore.serve.promptfoo``).

promptfoo hands an assertion the provider's ``output`` (the summary) and a ``context`` whose
``vars`` are the test's variables (the source is one of them, ``source`` by default) and whose
``config`` is the assertion's ``config:`` block. It expects a grading result back: ``pass``,
``score`` and ``reason``. A case summscore could not score is a failed assertion whose reason
says why (promptfoo has no third state for an assertion). Both forms read a case with
``case_texts`` and answer with ``grading_result``, so that their answers (reasons and
metadata included) are the same for the same case.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ..cases import FieldNames, check_source, check_summary
from ..results import SummaryResult
from ..scorer import SummarizationScorer
from .platforms import SOURCE_KEYS, SUMMARY_KEYS, pick_text, result_metadata

__all__ = [
    "JUDGE_SETTINGS",
    "case_fields",
    "case_texts",
    "grading_result",
    "scorer_from_settings",
    "source_var",
]

# The settings that choose the judge; every other key of ``config:`` is a scorer option.
JUDGE_SETTINGS = ("preset", "judge", "model", "base_url", "api_key_env", "source_var")


def source_var(context: Any, name: str) -> Any:
    """The value of test variable ``name`` (the source); ValueError naming it when absent."""
    variables = context.get("vars") if isinstance(context, Mapping) else None
    if not isinstance(variables, Mapping) or variables.get(name) is None:
        given = ", ".join(map(str, variables)) if isinstance(variables, Mapping) else "none"
        raise ValueError(
            f"vars.{name}: the test has no variable {name!r} holding the source "
            f"(its vars: {given}); name it with source_var"
        )
    return variables[name]


def case_fields(var: str) -> FieldNames:
    """The names errors give the source and the summary of a promptfoo case."""
    return FieldNames(source=f"vars.{var}", summary="output")


def case_texts(context: Any, output: Any, var: str) -> tuple[str | list[str], str]:
    """The source (test variable ``var``: a text or a list of passages) and the summary (the
    provider's ``output``) of one case, checked as the scorer checks them. Raises ValueError or
    TypeError naming ``vars.<var>`` or ``output``, with the same text in both forms."""
    fields = case_fields(var)
    source = pick_text(source_var(context, var), SOURCE_KEYS, fields.source)
    summary = pick_text(output, SUMMARY_KEYS, fields.summary)
    if not isinstance(summary, str):
        summary = "\n".join(summary)
    check_source(source, fields)
    check_summary(summary, fields)
    return source, summary


def grading_result(result: SummaryResult, threshold: float | None = None) -> dict[str, Any]:
    """promptfoo's GradingResult for ``result``.

    ``pass``: the score reaches ``threshold`` when one is given, else the preset's own pass mark
    (deepeval's ``threshold``), else any score above 0 (promptfoo's rule for a bare number).
    """
    if not result.ok:
        return {
            "pass": False,
            "score": 0,
            "reason": f"summscore could not score this output: {result.error or 'no score'}",
            "metadata": result_metadata(result),
        }
    if threshold is not None:
        passed = result.score >= threshold
    elif result.success is not None:
        passed = result.success
    else:
        passed = result.score > 0
    return {
        "pass": passed,
        "score": result.score,
        "reason": result.reason or f"summarization score {result.score:.3f}",
        "metadata": result_metadata(result),
    }


def scorer_from_settings(
    settings: Mapping[str, Any], env: Mapping[str, str] = os.environ
) -> SummarizationScorer:
    """The scorer an assertion's ``config:`` describes, in ``summscore score``'s terms.

    ``preset`` (default deepeval); ``judge``: ``lexical`` (offline, the default) or ``openai``
    (an OpenAI-compatible server: ``model`` required, ``base_url`` else ``OPENAI_BASE_URL``, the
    key from the variable ``api_key_env`` names, default ``OPENAI_API_KEY``). Other keys are the
    scorer's options (``threshold``, ``coeff``, ``n``, ``scale``, ``reply_cache`` ...).
    """
    options = {k: v for k, v in settings.items() if k not in JUDGE_SETTINGS}
    judge = settings.get("judge") or ("openai" if settings.get("model") else "lexical")
    preset = settings.get("preset", "deepeval")
    if judge == "lexical":
        if settings.get("model") or settings.get("base_url"):
            raise ValueError("config.model and config.base_url need config.judge: openai")
        from ..judges import LexicalJudge

        return SummarizationScorer(llm=LexicalJudge(), preset=preset, **options)
    if judge != "openai":
        raise ValueError(f"config.judge: 'lexical' or 'openai', got {judge!r}")
    model = settings.get("model")
    if not model:
        raise ValueError("config.judge openai needs config.model, e.g. model: gpt-4o-mini")
    import openai

    key_var = settings.get("api_key_env", "OPENAI_API_KEY")
    base_url = settings.get("base_url") or env.get("OPENAI_BASE_URL")
    key = env.get(key_var)
    if not key:
        if not base_url:
            raise ValueError(
                f"config.judge openai needs an API key in the environment variable {key_var} "
                "(or config.base_url for a local server that needs none)"
            )
        key = "not-needed"  # local servers ignore it; the client insists on one
    client = openai.AsyncOpenAI(api_key=key, base_url=base_url)
    return SummarizationScorer(llm=client, model=model, preset=preset, **options)


# promptfoo's getEnvBool: the values it reads as on (any letter case).
_PROMPTFOO_TRUE = ("1", "true", "yes", "yup", "yeppers")


def expanded_sources(suite: Mapping[str, Any], env: Mapping[str, str] = os.environ) -> list[str]:
    """The tests of a promptfoo suite (as its ``beforeAll`` extension hook sees it) whose source
    promptfoo would split: a variable holding a list of strings becomes one test per element
    unless the test (or ``defaultTest``) sets ``options.disableVarExpansion`` or the environment
    ``PROMPTFOO_DISABLE_VAR_EXPANSION`` (read as promptfoo reads it). Each problem names the test,
    the variable and the fix. The switch set in the config's ``env:`` block is not seen: promptfoo
    hands it to no hook, and the problem says so.

    The source variables are ``source`` and every ``source_var`` the suite's assertions name
    (in ``config:``, or in a ``/v1/promptfoo`` URL)."""
    if str(env.get("PROMPTFOO_DISABLE_VAR_EXPANSION", "")).lower() in _PROMPTFOO_TRUE:
        return []
    default = _mapping(suite.get("defaultTest"))
    tests = _run_tests(suite, default)
    names = {"source"}
    for _, test in tests:
        for assertion in test.get("assert") or []:
            names.update(_source_vars_of(assertion))
    problems = []
    for label, test in tests:
        if _mapping(test.get("options")).get("disableVarExpansion"):
            continue
        variables = _mapping(test.get("vars"))
        for name in sorted(names & set(variables)):
            value = variables[name]
            if isinstance(value, list) and len(value) > 1 and isinstance(value[0], str):
                problems.append(
                    f"{label}: vars.{name} is a list of {len(value)} passages, which promptfoo "
                    f"runs as {len(value)} tests of one passage each; to score the whole source, "
                    "add `options: {disableVarExpansion: true}` to the test (or to defaultTest); "
                    "PROMPTFOO_DISABLE_VAR_EXPANSION in the config's env: block is not seen "
                    "here: set it in the environment instead"
                )
    return problems


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _run_tests(
    suite: Mapping[str, Any], default: Mapping[str, Any]
) -> list[tuple[str, Mapping[str, Any]]]:
    """(label, test) for each test promptfoo runs before expanding its vars: ``tests`` and each
    ``scenarios`` config entry crossed with its scenario's tests, merged with ``defaultTest`` as
    promptfoo merges them (vars, options; the assertions of all three)."""

    def merged(label: str, description: Any, *parts: Mapping[str, Any]) -> tuple[str, Any]:
        test: dict[str, Any] = {
            key: {k: v for part in (default, *parts) for k, v in _mapping(part.get(key)).items()}
            for key in ("vars", "options")
        }
        test["assert"] = [a for part in (default, *parts) for a in part.get("assert") or []]
        return label + (f" ({description!r})" if description else ""), test

    found = [
        merged(f"tests[{index}]", test.get("description"), test)
        for index, test in enumerate(suite.get("tests") or [])
        if isinstance(test, Mapping)
    ]
    for s, scenario in enumerate(suite.get("scenarios") or []):
        scenario = _mapping(scenario)
        for c, data in enumerate(scenario.get("config") or []):
            for index, test in enumerate(scenario.get("tests") or [{}]):
                description = _mapping(test).get("description") or scenario.get("description")
                where = f"scenarios[{s}].config[{c}] with tests[{index}]"
                found.append(merged(where, description, _mapping(data), _mapping(test)))
    return found


def _source_vars_of(assertion: Any) -> set[str]:
    """The source variables a summscore assertion names (any ``source_var`` it carries)."""
    if not isinstance(assertion, Mapping):
        return set()
    found = set()
    config = assertion.get("config")
    if isinstance(config, Mapping) and isinstance(config.get("source_var"), str):
        found.add(config["source_var"])
    value = assertion.get("value")
    if isinstance(value, str) and "/v1/promptfoo" in value:
        from urllib.parse import parse_qs, urlsplit

        found.update(parse_qs(urlsplit(value).query).get("source_var", []))
    return found
