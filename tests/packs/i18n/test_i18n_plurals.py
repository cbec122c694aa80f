"""CLDR plural categories through the renderer, checked against CLDR's own samples (plurals.xml,
ordinals.xml: the `@integer` and `@decimal` example lists) for en, ru, ar, pl, ja and cy.

Decimals are passed as strings so their visible fraction digits count, as CLDR defines them.
"""

from __future__ import annotations

import pytest

from parlance_i18n.locales import parse_locale
from parlance_i18n.icu.messageformat import compile_message
from parlance_i18n.icu.plurals import plural_rules

CARDINAL = "{n, plural, zero {zero} one {one} two {two} few {few} many {many} other {other}}"
ORDINAL = "{n, selectordinal, zero {zero} one {one} two {two} few {few} many {many} other {other}}"

CLDR_CARDINAL_SAMPLES = {
    "en": {
        "one": [1],
        "other": [0, 2, 3, 16, 100, 1000, 10000, 100000, "0.0", "1.0", "1.5", "10.0", "100.0"],
    },
    "ru": {
        "one": [1, 21, 31, 41, 51, 61, 71, 81, 101, 1001],
        "few": [2, 3, 4, 22, 23, 24, 32, 33, 34, 42, 52, 62, 102, 1002],
        "many": [0, 5, 6, 19, 20, 25, 100, 1000, 10000, 100000, 1000000],
        "other": ["0.0", "1.5", "10.0", "100.0", "1000.0"],
    },
    "ar": {
        "zero": [0],
        "one": [1],
        "two": [2],
        "few": [3, 10, 103, 110, 1003],
        "many": [11, 26, 111, 1011],
        "other": [100, 101, 102, 200, 202, 300, 1000, 10000, 100000, "0.1", "0.9", "1.1", "1.7", "10.1"],
    },
    "pl": {
        "one": [1],
        "few": [2, 3, 4, 22, 23, 24, 32, 33, 34, 42, 52, 62, 102, 1002],
        "many": [0, 5, 6, 19, 100, 1000, 10000, 100000, 1000000],
        "other": ["0.0", "1.5", "10.0", "100.0", "1000.0"],
    },
    "ja": {
        "other": [0, 1, 2, 15, 100, 1000, 10000, 100000, 1000000, "0.0", "1.5", "10.0"],
    },
    "cy": {
        "zero": [0],
        "one": [1],
        "two": [2],
        "few": [3],
        "many": [6],
        "other": [4, 5, 7, 8, 20, 100, 1000, 10000, 100000, "0.1", "0.9", "1.1", "1.9", "10.0"],
    },
}

CLDR_ORDINAL_SAMPLES = {
    "en": {"one": [1, 21, 31, 41, 101, 1001], "two": [2, 22, 32, 102, 1002], "few": [3, 23, 33, 103, 1003],
           "other": [0, 4, 11, 12, 13, 18, 100, 111, 1000]},
    "ru": {"other": [0, 1, 2, 5, 21, 100]},
    "ar": {"other": [0, 1, 2, 3, 11, 100]},
    "pl": {"other": [0, 1, 2, 5, 22, 100]},
    "ja": {"other": [0, 1, 2, 3, 100]},
    "cy": {"zero": [0, 7, 8, 9], "one": [1], "two": [2], "few": [3, 4], "many": [5, 6],
           "other": [10, 11, 20, 25, 100, 1000]},
}


def _cases(samples: dict[str, dict[str, list[object]]]) -> list[tuple[str, str, object]]:
    return [(locale, category, n) for locale, table in samples.items() for category, ns in table.items() for n in ns]


@pytest.mark.parametrize(("locale", "category", "n"), _cases(CLDR_CARDINAL_SAMPLES))
def test_cardinal_categories_match_cldr_samples(locale: str, category: str, n: object) -> None:
    message = compile_message(CARDINAL, plural_rules(parse_locale(locale)))
    assert message.render({"n": n}, 100) == category


@pytest.mark.parametrize(("locale", "category", "n"), _cases(CLDR_ORDINAL_SAMPLES))
def test_ordinal_categories_match_cldr_samples(locale: str, category: str, n: object) -> None:
    message = compile_message(ORDINAL, plural_rules(parse_locale(locale)))
    assert message.render({"n": n}, 100) == category


@pytest.mark.parametrize(
    ("locale", "categories"),
    [("en", {"one", "other"}), ("ru", {"one", "few", "many", "other"}),
     ("ar", {"zero", "one", "two", "few", "many", "other"}), ("pl", {"one", "few", "many", "other"}),
     ("ja", {"other"}), ("cy", {"zero", "one", "two", "few", "many", "other"})],
)
def test_each_locale_needs_exactly_its_cldr_categories(locale: str, categories: set[str]) -> None:
    assert plural_rules(parse_locale(locale)).cardinal_categories == categories


def test_regional_rules_differ_where_cldr_says_so() -> None:
    # Portuguese (Brazil) puts 0 in `one`; European Portuguese does not.
    assert plural_rules(parse_locale("pt")).cardinal(0) == "one"
    assert plural_rules(parse_locale("pt-PT")).cardinal(0) == "other"


def test_unknown_languages_have_only_other() -> None:
    rules = plural_rules(parse_locale("xx"))
    assert rules.cardinal(1) == "other" and rules.cardinal_categories == {"other"}
