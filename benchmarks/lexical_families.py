"""The rule families of the offline judge, each as the patches that switch it off (for
``lexical_ablation.py``).

A family is a rule the judge applies on top of its core (content words, numbers and names found
or not, the best matching passage, rival anchors in it, graded support). Switching one off
replaces the functions or tables it consists of with what the judge would do without it (a check
that never fires, a rewrite that leaves the text as it is), in every module of
``summscore.judges.lexical`` that holds them, and empties the package's memos. A patch whose
target no longer exists is an error: a family deleted from the judge is deleted here too.
"""

from __future__ import annotations

import sys

from lexical_patches import (
    _NEVER,
    PACKAGE,
    Family,
    Patch,
    _anchors_anywhere,
    _as_laid_out,
    _clear_memos,
    _empty,
    _every_unit,
    _false,
    _family,
    _fold_quotes_and_widths_only,
    _function_opposites_off,
    _listed_opposites,
    _negation_at_without_denying_verbs,
    _none,
    _same,
    _set,
    _split_numbers_units,
    _split_of_off,
    _target,
    _whole_window,
)

__all__ = ["FAMILIES", "Family", "switch_off"]

FAMILIES: tuple[Family, ...] = (
    # -------------------------------------------------------------------------------- names
    _family(
        "acronyms",
        'an acronym is its spelled-out name ("FDA": "Food and Drug Administration")',
        Patch("_match", "spelled_out", _false),
        Patch("_match", "abbreviated", _false),
    ),
    _family(
        "honorifics",
        '"Mr Balls" is "Ed Balls" (a leading honorific dropped)',
        Patch("_names", "_bare", _same),
    ),
    _family(
        "countries",
        'a country is its adjective and short names ("Japanese" ~ "Japan", "US" ~ "America")',
        Patch("_names", "_place", _same),
    ),
    _family(
        "plural-acronyms",
        '"CNNs", "MPs" name "CNN", "MP"',
        Patch("_anchors", "_plural_acronym", _false),
    ),
    _family(
        "name-adjectives",
        '"AI-powered", "London-based" name "AI", "London"',
        Patch("_anchors", "_NAME_ADJECTIVE", ()),
    ),
    _family(
        "split-of",
        '"Edmund Hillary of New Zealand" is two names',
        Patch("_anchors", "_split_of", _split_of_off),
    ),
    _family(
        "lone-openers",
        '"Users", "Members" opening a sentence are no name',
        Patch("_anchors", "LONE_OPENERS", frozenset()),
    ),
    _family(
        "written-out-periods",
        '"Q3" is "the third quarter", "YoY" "year-over-year"',
        Patch("_match", "_WRITTEN_OUT", {}),
    ),
    _family(
        "surnames",
        'a surname that opens every sentence it is in ("Rowling faced ...") gives the full name',
        Patch("_match", "_surname_in", _false),
    ),
    _family(
        "initial-and-number",
        '"F1" is "Formula 1" and "Formula One", "C4" "Channel 4"',
        Patch("_initials", "initial_and_number", _false),
    ),
    # ------------------------------------------------------------------------------ numbers
    _family(
        "numbers-in-words",
        '"twenty-five" is 25, "two hundred and fifty" 250',
        Patch("_anchors", "_NUMBER_WORDS", frozenset()),
    ),
    _family(
        "units",
        '"450 children" is no rival of "450 metres" (the counted noun of an amount)',
        Patch("_anchors", "_unit_after", lambda *_: ""),
    ),
    # ---------------------------------------------------------------------- dates and time
    _family(
        "moved-dates",
        "a weekday, month or quarter the matching passage gives as another",
        Patch("_moved", "_DATES", ()),
        Patch("_moved", "periods", lambda *_: set()),
    ),
    _family(
        "time-spans",
        '"30 years" where the matching passage says "30 days"',
        Patch("_moved", "_other_span", _none),
    ),
    # ----------------------------------------------------------------------------- negation
    _family(
        "negation-flip",
        "a flipped negation in the matching piece of the passage",
        Patch("_conflicts", "_negation_shared", _false),
    ),
    _family(
        "negation-scope",
        "what a negation denies, said with the other polarity in one piece of the passage",
        Patch("_conflicts", "_flipped_scope", _none),
    ),
    _family(
        "negated-changes",
        '"will not raise fares" denies "fares will rise" (change verbs in a negation\'s scope)',
        Patch("_conflicts", "_SAME_CHANGE", {}),
    ),
    _family(
        "denial-unbacked",
        'a claim with "not" where the passage says it without',
        Patch("_support", "_denial_unbacked", _false),
    ),
    _family(
        "denying-verbs",
        '"failed to", "refused to", "declined to comment" deny as "not" does',
        Patch("_negation", "_DENIES", _NEVER),
        Patch("_negation", "_NEGATION_AT", _negation_at_without_denying_verbs()),
    ),
    _family(
        "set-phrases",
        '"no doubt", "not only", "no more than" deny nothing',
        Patch("_negation", "_NOT_DENIALS", _NEVER),
    ),
    # ---------------------------------------------------------------------------- opposites
    _family(
        "opposites",
        "an opposite word in the matching piece (every kind below)",
        Patch("_conflicts", "turned_word", _none),
    ),
    _family(
        "prefix-opposites",
        '"limited" / "unlimited", "direct" / "indirect"',
        Patch("_opposites", "opposites", _listed_opposites),
    ),
    _family(
        "function-word-opposites",
        "more / less, before / after, compared as written",
        Patch("_opposites", "_FUNCTION_OPPOSITES", _function_opposites_off()),
    ),
    _family(
        "compared-other-way",
        '"women earn less than men" is "men earn more than women"',
        Patch("_opposites", "compared_the_other_way", _false),
    ),
    # ---------------------------------------------------------------------------- direction
    _family(
        "direction",
        'an amount moving the other way ("down 17%" where the source says "up 17%")',
        Patch("_conflicts", "turned_change", _none),
    ),
    # ---------------------------------------------------------------- structure (doubts)
    _family(
        "reversed-roles",
        "two anchors in reversed roles around the same relation word (a doubt)",
        Patch("_conflicts", "_reversed_roles", _none),
    ),
    _family(
        "misattribution",
        "a name the source connects with other content (a doubt)",
        Patch("_conflicts", "_misattributed", _none),
    ),
    # ------------------------------------------------------------------ contradiction core
    _family(
        "rival-numbers",
        "another number of the same kind and unit in the matching passage",
        Patch("_conflicts", "_rival_numbers", _empty, everywhere=False),
    ),
    _family(
        "rival-names",
        "another name of the same kind in the matching passage",
        Patch("_conflicts", "_rival_names", _empty, everywhere=False),
    ),
    _family(
        "fragments",
        "a claim is also checked fragment by fragment",
        Patch("_conflicts", "fragments", _empty, everywhere=False),
    ),
    _family(
        "slots",
        "for questions, a rival counts only in the missing anchor's slot",
        Patch("_conflicts", "_slotted", lambda statement, window, missing, rivals: rivals),
        questions_only=True,
    ),
    # ---------------------------------------------------------------------- support
    _family(
        "verbatim",
        "a claim copied word for word is supported",
        Patch("_support", "_verbatim", _false),
    ),
    _family(
        "absent-weight",
        "a claim naming what the source never gives keeps half its support (else 0.8)",
        Patch("_tasks", "ABSENT", 0.8, everywhere=False),
    ),
    _family(
        "graded-support",
        "alignment is the mean graded support (else the share of yes)",
        Patch("", "LexicalJudge.grades_claims", False, everywhere=False),
    ),
    _family(
        "function-word-grams",
        'a claim with no content word the source uses has no support (not "on the" alone)',
        Patch("_graded", "_informative", _every_unit),
    ),
    _family(
        "whole-numbers",
        'a number is one unit of graded support ("1.3" is not "1" and "3")',
        Patch("_graded", "_UNIT", _split_numbers_units()[0]),
        Patch("_graded", "_ASCII_UNIT", _split_numbers_units()[1]),
    ),
    _family(
        "unicode-fold",
        "NFC, Unicode spaces, curly double quotes, line endings and drawn forms folded",
        Patch("_words", "fold", _fold_quotes_and_widths_only),
    ),
    _family(
        "layout",
        "runs of spaces, a line break inside a paragraph and blank lines read as one separator",
        Patch("_unicode", "layout", _as_laid_out),
    ),
    _family(
        "other-function-words",
        "function words of Spanish, Portuguese, French, Italian, German and CJK are no content",
        Patch("_lexicon", "OTHER_FUNCTION_WORDS", frozenset()),
        Patch("_lexicon", "FUNCTION_CHARACTERS", frozenset()),
    ),
    _family(
        "local-anchors",
        "a question's number or name counts only in a sentence about what the question asks",
        Patch("_match", "anchors_near", _anchors_anywhere),
        questions_only=True,
    ),
    _family(
        "sharing-part",
        "a rival in the sentence of a two-sentence window that shares no word is no rival",
        Patch("_conflicts", "_sharing", _whole_window),
    ),
    _family(
        "synonyms",
        'light synonym folding ("firm" ~ "company")',
        Patch("_words", "_SYNONYM_HEADS", {}, everywhere=False),
    ),
    _family(
        "placeholders",
        'a summariser\'s "UNK" names nothing, and leaves its claim unknown',
        Patch("_tasks", "without_placeholders", _same),
    ),
    # ------------------------------------------------------------------- corpus text
    _family(
        "glued-sentences",
        '"debt.But" is two sentences',
        Patch("_repair", "unglued", _same),
    ),
    _family(
        "detokenise",
        'Penn-Treebank tokens read as written ("3 , 800", "-lrb-")',
        Patch("_words", "_detokenize", _same),
    ),
    _family(
        "spaced-thousands",
        '"£50, 000" is 50,000',
        Patch("_words", "_SPACED_THOUSANDS_HINT", _NEVER),
    ),
)

BY_NAME = {family.name: family for family in FAMILIES}


def switch_off(names: list[str]) -> None:
    """Apply the patches of the families ``names``, then empty every memo of the package."""
    for name in names:
        for patch in BY_NAME[name].patches:
            old = _set(_target(patch.module), patch.attribute, patch.value)
            if not patch.everywhere:
                continue
            for module_name, module in list(sys.modules.items()):
                if (
                    module_name.startswith(PACKAGE)
                    and getattr(module, patch.attribute, None) is old
                ):
                    setattr(module, patch.attribute, patch.value)
    _clear_memos()
