"""Metamorphic properties of the offline judge under padding and changed numbers, over the
development sets' summaries and the three presets (tests/test_lexical_properties.py has the
rest; docs/offline-judge.md states them):

* A sentence added to a summary that shares no word, number or name with the source (in English
  or another language) never raises the alignment or the score, and leaves every other claim's
  verdict and every answer as it was.
* A number of the source said in such a sentence ("Maria Jensen bought 3 lemons") answers no
  question.
* A number of the summary that the source has, changed to one it lacks, never raises the score,
  the alignment or any claim's support: a wrong number never helps.
"""

from __future__ import annotations

import re
from functools import cache

from hypothesis import assume, given
from hypothesis import strategies as st

from summscore.judges.lexical._graded import _informative, _units
from summscore.judges.lexical._words import content_tokens, normalize
from tests.lexical_properties_shared import (
    PRESETS,
    SEEDS,
    SETTINGS,
    _answers,
    _claims,
    _score,
    _seeds,
    _terminated,
)

# ------------------------------------------------------------------------------------- padding

FILLERS = (
    "A grey cat slept on the windowsill.",
    "Penguins waddled across the icy beach.",
    "Kettles whistle when the water boils.",
    "The violinist tuned her cello twice.",
    "Ripe mangoes smell sweet in July.",
    "小猫在窗台上睡觉。",
)


def _unrelated(filler: str, source: str) -> bool:
    """The filler shares no content word, number or name with the source (as the judge reads
    both: its tokens, and the units of graded support that are not function words)."""
    if not set(content_tokens(normalize(filler))).isdisjoint(content_tokens(normalize(source))):
        return False
    units = _units(filler)
    content = {u for u, c in zip(units, _informative(units), strict=True) if c}
    return content.isdisjoint(_units(source))


@SETTINGS
@given(seed=SEEDS, filler=st.sampled_from(FILLERS), preset=st.sampled_from(PRESETS))
def test_an_unrelated_sentence_never_raises_a_score(seed: int, filler: str, preset: str) -> None:
    source, summary = _seeds()[seed]
    assume(_unrelated(filler, source))
    summary = _terminated(summary)
    before, after = _score(preset, source, summary), _score(preset, source, f"{summary} {filler}")
    assert after.score <= before.score
    assert _answers(after) == _answers(before)
    if preset != "ragas":
        assert after.alignment_score <= before.alignment_score  # type: ignore[operator]
        # The summary's own claims keep their verdicts; the added sentence has no support.
        assert _claims(after)[: len(before.claims)] == _claims(before)
        assert all(c.support == 0.0 for c in after.claims[len(before.claims) :])


# Sources and summaries in other languages, and fillers in those languages with their content
# words named here (not read by the judge's own lists, which the property checks).
OTHER_LANGUAGES = (
    (
        "El ayuntamiento de Porto aprobó 16 nuevos proyectos el Friday. El plan cuesta 700 "
        "millones de euros y se terminará en 2027.",
        "Porto aprobó 16 proyectos.",
    ),
    (
        "Der Stadtrat von Leeds hat am Montag eine neue Brücke genehmigt. Die Brücke kostet "
        "14 Millionen Pfund und wird im Jahr 2027 eröffnet.",
        "Leeds baut eine neue Brücke.",
    ),
    (
        "Le conseil municipal de Lyon a approuvé mardi la construction de trois écoles. Le "
        "projet coûte 40 millions d'euros et sera terminé en 2026.",
        "Lyon construit trois écoles.",
    ),
    (
        "大阪市議会は火曜日に新しい図書館を5件承認した。計画の費用は700億円である。",
        "大阪市は図書館を7件承認した。",
    ),
    (
        "上海市政府周二批准了五个新的公园项目。这个计划的费用是三亿元，将在明年完成。",
        "上海批准了公园项目。",
    ),
)
OTHER_FILLERS = {
    "Mi gato duerme en el sofá.": ("gato", "duerme", "sofá"),
    "Der Hund schläft auf dem Sofa im Wohnzimmer.": ("hund", "schläft", "sofa", "wohnzimmer"),
    "Le chat dort sur le canapé de la cuisine.": ("chat", "dort", "canapé", "cuisine"),
    "猫が窓辺で寝ていた。": tuple("猫窓辺寝"),
    "小猫在窗台上睡觉了。": tuple("小猫窗台睡觉"),
}


@SETTINGS
@given(
    pair=st.sampled_from(OTHER_LANGUAGES),
    filler=st.sampled_from(sorted(OTHER_FILLERS)),
    preset=st.sampled_from(PRESETS),
)
def test_an_unrelated_sentence_in_another_language_never_raises_a_score(
    pair: tuple[str, str], filler: str, preset: str
) -> None:
    source, summary = pair
    assume(not any(word in source.lower() for word in OTHER_FILLERS[filler]))
    summary = _terminated(summary)
    before, after = _score(preset, source, summary), _score(preset, source, f"{summary} {filler}")
    assert after.score <= before.score
    if preset != "ragas":
        assert after.alignment_score <= before.alignment_score  # type: ignore[operator]
        assert _claims(after)[: len(before.claims)] == _claims(before)
        assert all(c.support == 0.0 for c in after.claims[len(before.claims) :])


@SETTINGS
@given(seed=SEEDS, pick=st.integers(min_value=0, max_value=1000), preset=st.sampled_from(PRESETS))
def test_a_number_of_the_source_in_an_unrelated_sentence_answers_no_question(
    seed: int, pick: int, preset: str
) -> None:
    source, summary = _seeds()[seed]
    numbers = sorted(set(re.findall(r"(?<![\d.,])\d{1,4}(?![\d.,]\d)", source)))
    assume(numbers)
    number = numbers[pick % len(numbers)]
    filler = f"Maria Jensen bought {number} lemons at the market."
    assume(_unrelated("Maria Jensen bought lemons at the market.", source))
    summary = _terminated(summary)
    before, after = _score(preset, source, summary), _score(preset, source, f"{summary} {filler}")
    assert _answers(after) == _answers(before)
    assert after.score <= before.score


# A number as a summary writes it, and whether the source has that same number.
_NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)?(?!\w)")


def _in(number: str, text: str) -> bool:
    return re.search(rf"(?<![\d.,]){re.escape(number)}(?![\d]|[.,]\d)", text) is not None


@cache
def _numbered() -> tuple[tuple[int, int, int], ...]:
    """(seed, start, end) of every number of a development summary that its source has too."""
    return tuple(
        (seed, m.start(), m.end())
        for seed, (source, summary) in enumerate(_seeds())
        for m in _NUMBER.finditer(summary)
        if _in(m.group(), source)
    )


@SETTINGS
@given(
    place=st.integers(min_value=0, max_value=len(_numbered()) - 1),
    digit=st.integers(min_value=1, max_value=9),
    preset=st.sampled_from(PRESETS),
)
def test_a_wrong_number_never_helps(place: int, digit: int, preset: str) -> None:
    """A number of the summary that the source has, changed to one the source lacks (its last
    digit changed: the same length, so the ragas rule's conciseness stays), never raises the
    score, the alignment, or the support of any claim."""
    seed, start, end = _numbered()[place]
    source, summary = _seeds()[seed]
    right = summary[start:end]
    wrong = right[:-1] + str((int(right[-1]) + digit) % 10)
    assume(not _in(wrong, source))
    changed = summary[:start] + wrong + summary[end:]
    before, after = _score(preset, source, summary), _score(preset, source, changed)
    assert after.score <= before.score
    if preset != "ragas":
        assert after.alignment_score <= before.alignment_score  # type: ignore[operator]
        assert len(after.claims) == len(before.claims)
        for was, now in zip(before.claims, after.claims, strict=True):
            assert (now.support or 0.0) <= (was.support or 0.0), (was.claim, now.claim)
