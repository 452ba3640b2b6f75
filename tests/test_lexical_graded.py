"""The offline judge's graded support: how much of each claim the source carries."""

from __future__ import annotations

import html

import pytest
from compat.corpus import case

from summscore import SummarizationScorer
from summscore.judges import JudgeReply, JudgeRequest, LexicalJudge
from summscore.judges.lexical._graded import UNCONFIRMED, claim_support, source_grams
from summscore.prompts.replies import VerdictsReply
from summscore.report import ReportCase, render_report

from .lexical_cases import QUADS

SOURCE = (
    "The city council approved a new budget on Monday. The mayor said the plan would fund two "
    "schools and a library. Critics argued that taxes would rise."
)


def _support(claim: str, source: str = SOURCE) -> float:
    return claim_support(claim, source_grams(source))


def test_a_claim_copied_from_the_source_has_full_support() -> None:
    assert _support("The city council approved a new budget on Monday.") == 1.0


def test_right_words_in_a_new_relation_lose_support() -> None:
    copied = _support("The mayor said the plan would fund two schools.")
    recombined = _support("The schools said the mayor would fund two plans.")
    assert copied == 1.0 and 0.0 < recombined < copied


def test_words_the_source_never_uses_have_little_support() -> None:
    assert _support("Astronomers photographed a distant comet over Chile.") < 0.3


def test_tokenised_research_text_compares_as_written() -> None:
    tokenised = "the firm hired 3 , 800 workers in the u.s . -lrb- mostly in ohio -rrb- ."
    assert _support("The firm hired 3,800 workers in the U.S. (mostly in Ohio).", tokenised) == 1.0


def test_japanese_and_chinese_claims_are_graded_by_characters() -> None:
    for quad in QUADS:
        if quad.id not in ("ja-company", "zh-grain"):
            continue
        grams = source_grams(quad.source)
        exact = claim_support(quad.source.split("。")[0], grams)
        other = claim_support("東京で新しい橋が開通した。", grams)
        assert exact == 1.0 and other < 0.5, quad.id


def test_each_verdict_carries_its_support_and_a_contradiction_has_none() -> None:
    verdicts = LexicalJudge().run(
        "verdicts",
        {
            "claims": [
                "The city council approved a new budget on Monday.",
                "The city council rejected a new budget on Monday.",
                "The council hired a new police chief.",
            ],
            "evidence": SOURCE,
            "vocabulary": ("yes", "no", "borderline"),
        },
    )["verdicts"]
    assert [v["verdict"] for v in verdicts] == ["yes", "no", "borderline"]
    assert verdicts[0]["support"] == 1.0 and verdicts[1]["support"] == 0.0
    assert 0.0 < verdicts[2]["support"] <= UNCONFIRMED


def test_deepeval_alignment_under_the_offline_judge_is_the_mean_support() -> None:
    result = SummarizationScorer(llm=LexicalJudge(), preset="deepeval").score(
        SOURCE, "The city council approved a new budget on Monday. The council hired a chef."
    )
    supports = [c.support for c in result.claims]
    assert len(supports) == 2 and all(s is not None for s in supports)
    assert result.alignment_score == pytest.approx(sum(s or 0.0 for s in supports) / 2)
    assert result.to_dict()["claims"][0]["support"] == supports[0]


def test_graded_alignment_ranks_a_partly_copied_summary_between_copy_and_invention() -> None:
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="deepeval")
    copy = scorer.score(SOURCE, "The mayor said the plan would fund two schools and a library.")
    loose = scorer.score(SOURCE, "The mayor's plan pays for two schools plus a library.")
    invented = scorer.score(SOURCE, "Astronomers photographed a distant comet over Chile.")
    assert copy.alignment_score is not None and loose.alignment_score is not None
    assert invented.alignment_score is not None
    assert copy.alignment_score > loose.alignment_score > invented.alignment_score


def test_strict_mode_zeroes_a_graded_alignment_below_one() -> None:
    result = SummarizationScorer(llm=LexicalJudge(), preset="deepeval", strict_mode=True).score(
        SOURCE, "The mayor's plan pays for two schools plus a library."
    )
    assert result.alignment_score == 0


def test_the_llm_reply_schema_does_not_ask_for_support() -> None:
    schema = VerdictsReply.model_json_schema()
    assert "support" not in str(schema)


def test_a_placeholder_for_an_unknown_word_is_no_name_to_contradict() -> None:
    verdicts = LexicalJudge().run(
        "verdicts",
        {
            "claims": ["Robert Hardy is selling his collection of <unk> antiques."],
            "evidence": "Actor Robert Hardy is selling off his collection of antiques, "
            "including a diorama of the Battle of Agincourt.",
            "vocabulary": ("yes", "no", "borderline"),
        },
    )["verdicts"]
    assert verdicts[0]["verdict"] != "no", verdicts[0]


def test_the_ragas_rule_is_untouched_by_support() -> None:
    c = case("vaccine-faithful")
    result = SummarizationScorer(llm=LexicalJudge(), preset="ragas").score(c.source, c.summary)
    assert result.claims == [] and result.ok


def _verdict(claim: str, evidence: str) -> dict[str, object]:
    verdicts = LexicalJudge().run(
        "verdicts",
        {"claims": [claim], "evidence": evidence, "vocabulary": ("yes", "no", "borderline")},
    )["verdicts"]
    return dict(verdicts[0])


def test_a_negation_that_governs_another_word_is_no_opposite() -> None:
    evidence = (
        "We could cut the cost by not using the voice recognition feature. The solar cell, the "
        "voice recognition feature and the special materials make the product too expensive."
    )
    claim = "The solar cell, voice recognition feature and special materials made it expensive."
    assert _verdict(claim, evidence)["verdict"] != "no"


def test_a_negation_of_the_same_word_is_still_the_opposite() -> None:
    evidence = "The planning board did not approve the request for a new stadium on Monday."
    found = _verdict("The planning board approved the request for a new stadium.", evidence)
    assert found["verdict"] == "no" and "opposite" in str(found["reason"])


def test_the_report_shows_each_claims_support_and_why_a_claim_is_not_supported() -> None:
    summary = "The city council approved a new budget on Monday. The council rejected the budget."
    result = SummarizationScorer(llm=LexicalJudge(), preset="deepeval").score(SOURCE, summary)
    page = render_report([ReportCase(id="c1", result=result, source=SOURCE, summary=summary)])
    assert "Claim support" in page and "1.00 — The city council approved" in page
    (bad,) = result.unsupported_claims
    assert bad.support == 0.0 and html.escape(bad.reason or "?") in page


class _SupportSendingJudge:
    """An LLM-like judge that sends a ``support`` nobody asked for: it must not count."""

    name = "llm-like"
    reads_prompts = False

    def __init__(self) -> None:
        self.inner = LexicalJudge()

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        return await self.inner.complete(request)


def test_support_counts_only_from_a_judge_that_grades_claims() -> None:
    summary = "The mayor's plan pays for two schools plus a library."
    graded = SummarizationScorer(llm=LexicalJudge(), preset="deepeval").score(SOURCE, summary)
    plain = SummarizationScorer(llm=_SupportSendingJudge(), preset="deepeval").score(
        SOURCE, summary
    )
    assert [c.verdict for c in plain.claims] == [c.verdict for c in graded.claims]
    share = sum(c.supported for c in plain.claims) / len(plain.claims)
    assert plain.alignment_score == share and all(c.support is None for c in plain.claims)
    assert graded.alignment_score != share


def test_a_malformed_support_in_a_reply_is_no_support_and_no_error() -> None:
    reply = VerdictsReply.model_validate(
        {"verdicts": [{"verdict": "yes", "support": 7}, {"verdict": "no", "support": "high"}]}
    )
    assert [v.support for v in reply.verdicts] == [None, None]


@pytest.mark.parametrize("scale", [1, 10])
def test_mastra_alignment_under_the_offline_judge_is_the_mean_support_in_hundredths_scaled(
    scale: int,
) -> None:
    result = SummarizationScorer(llm=LexicalJudge(), preset="mastra", scale=scale).score(
        SOURCE, "The city council approved a new budget on Monday. The council hired a chef."
    )
    supports = [c.support for c in result.claims]
    assert len(supports) == 2 and all(s is not None for s in supports)
    mean = sum(s or 0.0 for s in supports) / 2
    assert result.alignment_score == pytest.approx(round(round(mean, 2) * scale, 2))
    assert result.score == min(result.alignment_score, result.coverage_score or 0.0)


def test_mastra_support_counts_only_from_a_judge_that_grades_claims() -> None:
    summary = "The mayor's plan pays for two schools plus a library."
    graded = SummarizationScorer(llm=LexicalJudge(), preset="mastra").score(SOURCE, summary)
    plain = SummarizationScorer(llm=_SupportSendingJudge(), preset="mastra").score(SOURCE, summary)
    assert [c.verdict for c in plain.claims] == [c.verdict for c in graded.claims]
    share = round(sum(c.supported for c in plain.claims) / len(plain.claims), 2)
    assert plain.alignment_score == share and all(c.support is None for c in plain.claims)
    assert graded.alignment_score != share
