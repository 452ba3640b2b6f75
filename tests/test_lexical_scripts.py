"""The offline judge reads every alphabetic script, not only Latin and CJK.

Before, a Russian, Greek, Arabic, Hebrew or Hindi text was nothing but its digits to the judge: a
summary with a wrong name or a claim the source never makes got "yes" and support 1.
"""

from __future__ import annotations

import pytest

from summscore import SummarizationScorer
from summscore.judges import LexicalJudge
from summscore.judges.lexical._anchors import names
from summscore.judges.lexical._graded import claim_support, source_grams
from summscore.judges.lexical._text import split_sentences
from summscore.judges.lexical._words import content_tokens

RUSSIAN = (
    "Компания «Северный ветер» открыла новый завод в Казани в марте 2024 года. Директор Иван "
    "Петров сказал, что на заводе будут работать 1200 человек. Завод будет выпускать автобусы."
)
GREEK = (
    "Η εταιρεία Ολυμπιακές Μεταφορές άνοιξε νέο εργοστάσιο στη Θεσσαλονίκη τον Μάρτιο του 2024. "
    "Ο διευθυντής Γιώργος Παπαδόπουλος είπε ότι στο εργοστάσιο θα εργάζονται 1200 άνθρωποι."
)
ARABIC = (
    "افتتحت الشركة مصنعا جديدا في القاهرة في مارس 2024. وقال المدير أحمد حسن إن المصنع سيوظف "
    "1200 عامل."
)
HEBREW = "הממשלה אישרה את התקציב החדש ביום שני. התקציב כולל 5 מיליארד שקלים לחינוך."
HINDI = "सरकार ने सोमवार को नया बजट मंजूर किया। बजट में शिक्षा के लिए 5 अरब रुपये हैं।"
KOREAN = (
    "삼성전자는 2024년 3월 평택에 새 반도체 공장을 열었다. 이재용 회장은 공장에서 1200명이 일할 "
    "것이라고 말했다."
)

# (source, faithful claim, the same claim with a wrong number, a claim the source never makes)
CASES = {
    "russian": (
        RUSSIAN,
        "Компания «Северный ветер» открыла завод в Казани в марте 2024 года.",
        "Директор Иван Петров сказал, что на заводе будут работать 1500 человек.",
        "Завод будет выпускать самолёты и поезда для армии.",
    ),
    "greek": (
        GREEK,
        "Η εταιρεία Ολυμπιακές Μεταφορές άνοιξε νέο εργοστάσιο στη Θεσσαλονίκη.",
        "Ο διευθυντής Γιώργος Παπαδόπουλος είπε ότι στο εργοστάσιο θα εργάζονται 1500 άνθρωποι.",
        "Η κυβέρνηση αγόρασε στρατιωτικά αεροπλάνα από τη Γαλλία.",
    ),
    "arabic": (
        ARABIC,
        "افتتحت الشركة مصنعا جديدا في القاهرة.",
        "وقال المدير أحمد حسن إن المصنع سيوظف 1500 عامل.",
        "اشترت الحكومة طائرات عسكرية من فرنسا.",
    ),
    "hebrew": (
        HEBREW,
        "הממשלה אישרה את התקציב החדש.",
        "התקציב כולל 7 מיליארד שקלים לחינוך.",
        "הצבא קנה מטוסים חדשים מצרפת.",
    ),
    "hindi": (
        HINDI,
        "सरकार ने नया बजट मंजूर किया।",
        "बजट में शिक्षा के लिए 7 अरब रुपये हैं।",
        "सेना ने फ्रांस से नए विमान खरीदे।",
    ),
    "korean": (
        KOREAN,
        "삼성전자는 평택에 새 반도체 공장을 열었다.",
        "이재용 회장은 공장에서 1500명이 일할 것이라고 말했다.",
        "정부는 프랑스에서 군용 항공기를 구입했다.",
    ),
}


def _verdicts(source: str, claims: list[str]) -> list[dict[str, object]]:
    return list(
        LexicalJudge().run(
            "verdicts",
            {"claims": claims, "evidence": source, "vocabulary": ("yes", "no", "unknown")},
        )["verdicts"]
    )


@pytest.mark.parametrize("language", sorted(CASES))
def test_a_faithful_claim_is_supported_and_a_wrong_number_contradicted(language: str) -> None:
    source, faithful, wrong_number, invented = CASES[language]
    right, wrong, new = _verdicts(source, [faithful, wrong_number, invented])
    assert right["verdict"] == "yes" and float(right["support"]) >= 0.85, right
    assert wrong["verdict"] == "no" and "the source gives" in str(wrong["reason"]), wrong
    assert wrong["support"] == 0.0
    assert new["verdict"] != "yes" and float(new["support"]) < 0.5, new


@pytest.mark.parametrize("language", sorted(CASES))
def test_the_summary_scores_follow_the_claims(language: str) -> None:
    source, faithful, wrong_number, invented = CASES[language]
    scorer = SummarizationScorer(llm=LexicalJudge(), preset="deepeval")
    good = scorer.score(source, faithful).alignment_score
    bad = scorer.score(source, wrong_number).alignment_score
    made_up = scorer.score(source, invented).alignment_score
    assert good is not None and bad is not None and made_up is not None
    assert good > made_up > bad or good > bad >= made_up


@pytest.mark.parametrize(
    ("source", "claim", "rival"),
    [
        (
            RUSSIAN,
            "Директор Сергей Смирнов сказал, что на заводе будут работать 1200 человек.",
            "сергей смирнов",
        ),
        (
            GREEK,
            "Ο διευθυντής Νίκος Αντωνίου είπε ότι στο εργοστάσιο θα εργάζονται 1200 άνθρωποι.",
            "νίκος αντωνίου",
        ),
        (
            "По словам директора, новый завод в Казани откроется в марте.",
            "Новый завод в Самаре откроется в марте.",
            "самаре",
        ),
    ],
)
def test_a_wrong_name_in_a_capitalised_script_is_a_contradiction(
    source: str, claim: str, rival: str
) -> None:
    (got,) = _verdicts(source, [claim])
    assert got["verdict"] == "no" and rival in str(got["reason"]), got


def test_names_in_greek_and_cyrillic_are_capitalised_runs() -> None:
    assert "директор иван петров" in {a.key for a in names(RUSSIAN)}
    claim = "Иван Петров сказал, что на заводе будут работать 1200 человек."
    assert _verdicts(RUSSIAN, [claim])[0]["verdict"] == "yes"
    assert {"γιώργος παπαδόπουλος", "θεσσαλονίκη"} <= {a.key for a in names(GREEK)}


def test_a_capitalised_article_or_preposition_opening_a_sentence_is_no_name() -> None:
    """English knows its openers ("The", "In"); Greek and Cyrillic have no such list here, so a
    lone capitalised word opening a sentence is not taken for a name in those scripts."""
    assert not {"ο", "η", "по", "в"} & {
        a.key for a in names("Ο διευθυντής είπε. По словам. В марте.")
    }
    source = "Σύμφωνα με τον διευθυντή, το νέο εργοστάσιο στη Θεσσαλονίκη θα ανοίξει τον Μάρτιο."
    claim = "Ο διευθυντής είπε ότι το νέο εργοστάσιο στη Θεσσαλονίκη θα ανοίξει τον Μάρτιο."
    assert _verdicts(source, [claim])[0]["verdict"] == "yes"
    # Nor does a longer opener ("Επίσης", "also") become a rival name of another ("Μετά", "after").
    source = (
        "Ο δήμαρχος είπε ότι το νέο σχολείο θα ανοίξει τον Σεπτέμβριο. Επίσης, η πόλη θα "
        "αποκτήσει νέο πάρκο."
    )
    (got,) = _verdicts(source, ["Μετά το σχολείο, η πόλη θα αποκτήσει νέο πάρκο."])
    assert got["verdict"] != "no", got


def test_words_of_every_alphabetic_script_are_tokens() -> None:
    assert content_tokens("Завод в Казани") == ["завод", "казани"]  # (one letter: no word)
    assert content_tokens("εργοστάσιο στη Θεσσαλονίκη") == ["εργοστάσιο", "στη", "θεσσαλονίκη"]
    assert content_tokens("المصنع سيوظف 1200 عامل") == ["المصنع", "سيوظف", "1200", "عامل"]
    # Devanagari vowel signs stay inside their word; the danda ends a sentence, not a word.
    assert content_tokens("शिक्षा के लिए।") == ["शिक्षा", "के", "लिए"]
    # Mixed scripts: each word by its own script, CJK still by characters.
    assert content_tokens("Apple открыла магазин в Токио 東京") == [
        "appl",
        "открыла",
        "магазин",
        "токио",
        "東京",
    ]


def test_korean_is_read_by_syllable_pairs_inside_its_spaced_words() -> None:
    """Korean writes spaces between words but glues particles to them (공장을, 공장에서 "the
    factory" as object and as place): pairs of syllables inside each spaced word let the two
    meet on 공장, where whole spaced words would not."""
    assert "공장" in content_tokens("공장을") and "공장" in content_tokens("공장에서")
    assert content_tokens("새 공장") == ["새", "공장"]  # no pair across a space
    (got,) = _verdicts(
        "이재용 회장은 평택에 있는 공장에서 1200명이 일할 것이라고 말했다.", ["평택 공장을 짓는다."]
    )
    assert got["verdict"] != "no"


def test_graded_support_reads_other_scripts() -> None:
    grams = source_grams(RUSSIAN)
    assert claim_support("Директор Иван Петров сказал, что на заводе будут работать", grams) == 1.0
    assert claim_support("Правительство купило военные самолёты во Франции.", grams) < 0.3


def test_mixed_script_text_checks_each_script() -> None:
    source = (
        "Apple открыла магазин в Москве в 2019 году, сказал Тим Кук. The store employs 300 people."
    )
    good, year, rival, english = _verdicts(
        source,
        [
            "Apple открыла магазин в Москве в 2019 году.",
            "Apple открыла магазин в Москве в 2021 году.",
            "Samsung открыла магазин в Москве.",
            "The store employs 300 people, said Тим Кук.",
        ],
    )
    assert good["verdict"] == "yes" and english["verdict"] == "yes"
    assert year["verdict"] == "no" and "2021" in str(year["reason"])
    assert rival["verdict"] == "no" and "samsung" in str(rival["reason"])


@pytest.mark.parametrize(
    ("text", "count"),
    [
        (HINDI, 2),  # the danda
        ("पहला श्लोक॥ दूसरा श्लोक॥", 2),  # the double danda
        ("هل افتتح المصنع؟ نعم افتتح.", 2),  # the Arabic question mark
        ("کمپنی نے کارخانہ کھولا۔ ڈائریکٹر نے بات کی۔", 2),  # the Urdu full stop
        ("Ընկերությունը բացեց գործարան։ Տնօրենը խոսեց։", 2),  # the Armenian full stop
    ],
)
def test_each_script_s_full_stop_ends_a_sentence(text: str, count: int) -> None:
    assert len(split_sentences(text)) == count


def test_a_wrong_number_in_hindi_quotes_only_its_own_sentence() -> None:
    # Before, a Hindi text was one sentence, so the "no" quoted the whole source.
    wrong = _verdicts(HINDI, ["बजट में शिक्षा के लिए 7 अरब रुपये हैं।"])[0]
    assert wrong["verdict"] == "no"
    assert "सोमवार" not in str(wrong["reason"]) and "5 अरब" in str(wrong["reason"])
