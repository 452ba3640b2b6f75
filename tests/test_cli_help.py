"""What ``--help`` says is what the command does: an example whose comment names a rule runs that
rule (its --preset, or the default when it gives none), each command's --workers text describes
that command, and the description names every framework the package has a face for."""

from __future__ import annotations

import itertools
import re

import pytest

from summscore.cli.parser import build_parser, subcommand

_RULE = re.compile(r"\b(ragas|deepeval|mastra)(?:'s)? rule\b", re.I)


def _examples(parser_help: str) -> list[tuple[str, str]]:
    """(comment, command) pairs of a help text's examples."""
    lines = parser_help.splitlines()
    pairs = []
    for comment, command in itertools.pairwise(lines):
        if comment.strip().startswith("#") and command.strip().startswith("summscore score"):
            pairs.append((comment.strip(), command.strip()))
    return pairs


def test_an_example_that_names_a_rule_runs_that_rule() -> None:
    parser = build_parser()
    score = subcommand(parser, "score")
    default = score.get_default("preset")
    pairs = _examples(score.format_help())
    assert pairs, "the examples of score --help"
    named = 0
    for comment, command in pairs:
        match = _RULE.search(comment)
        if match is None:
            continue
        named += 1
        given = re.search(r"--preset (\w+)", command)
        runs = given.group(1) if given else default
        assert runs == match.group(1).lower(), f"{comment!r} above {command!r} runs {runs}"
    assert named >= 2


@pytest.mark.parametrize(("command", "other"), [("score", "serve"), ("serve", "score")])
def test_the_workers_option_describes_its_own_command(command: str, other: str) -> None:
    parser = subcommand(build_parser(), command)
    (workers,) = [a for a in parser._actions if "--workers" in a.option_strings]
    assert workers.help is not None
    assert f"{other}:" not in workers.help
    if command == "score":
        assert "--large-workers" not in workers.help


def test_the_description_names_every_framework_with_a_face() -> None:
    text = build_parser().format_help()
    for name in ("Ragas", "DeepEval", "Mastra", "MLflow", "Inspect", "Opik", "LangSmith",
                 "promptfoo", "Braintrust", "Phoenix", "TruLens"):  # fmt: skip
        assert name in text, name
