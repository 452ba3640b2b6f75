"""The oracle reads the Python lists deepeval's prompts print without ``ast``, whose state is not
thread-safe in CPython 3.11 (the judge server answers from many threads)."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compat.oracle import python_list, recognise

# Every code point, lone surrogates included (repr escapes them; a summary may carry one).
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=30)
TRICKY = [
    "it's",
    'say "x"',
    "both ' and \"",
    "back\\slash \\n not a newline",
    "line\nbreak\ttab\r",
    "\ud800 lone surrogate",
    "é 中 😀 \u2028",
    "\\中",
    "\x00\x7f",
]


@given(st.lists(st.one_of(st.none(), ANY_TEXT), max_size=6))
def test_any_list_of_texts_reads_back_as_literal_eval_reads_it(items: list[str | None]) -> None:
    printed = repr(items)
    assert python_list(printed) == items == ast.literal_eval(printed)


def test_the_layouts_a_template_may_give_read_back() -> None:
    assert python_list("[]") == [] and python_list("  [ ]\n") == []
    assert python_list(repr(TRICKY).replace(", ", ",\n    ")) == TRICKY
    assert python_list("['a', None,]") == ["a", None]


@pytest.mark.parametrize("text", ["", "x", "['a'", "[1, 2]", "['a' 'b']", "['a'; 'b']"])
def test_anything_but_a_list_of_texts_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        python_list(text)


def test_deepeval_prompts_are_read_without_ast(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("deepeval")
    from summscore.prompts.deepeval_upstream import UpstreamDeepEvalPrompts

    def no_ast(*args: object, **kwargs: object) -> None:
        raise AssertionError("the oracle used ast")

    monkeypatch.setattr(ast, "literal_eval", no_ast)
    monkeypatch.setattr(ast, "parse", no_ast)
    prompts = UpstreamDeepEvalPrompts()
    text = "The bridge opened in 1901 and carries 400 cars a day."

    answers = recognise(prompts.answers(text, TRICKY).text)
    assert answers is not None and answers.task == "answers"
    assert answers.inputs["questions"] == TRICKY

    verdicts = recognise(prompts.verdicts(TRICKY, [text]).text)
    assert verdicts is not None and verdicts.task == "verdicts"
    assert verdicts.inputs["claims"] == TRICKY

    reason = recognise(prompts.reason(0.5, TRICKY[:3], [None, "extra"], TRICKY[3:]).text)
    assert reason is not None and reason.task == "reason"
    assert reason.inputs["contradictions"] == TRICKY[:3]
    assert reason.inputs["redundancies"] == [None, "extra"]
    assert reason.inputs["questions"] == TRICKY[3:]
